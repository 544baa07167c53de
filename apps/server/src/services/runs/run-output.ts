import type { EncodedHistogram, RunSnapshot } from '@aqa/engine';
import type {
  ApiResult,
  BreakingPoint,
  ErrorsByKind,
  FinalStatus,
  Phrase,
  ResultSummary,
  RunAbort,
  RunAgent,
} from '@aqa/plan';

/** How a run ended, with its final figures (from the runner's result, or what was measured before it failed). */
export interface RunEnding {
  status: FinalStatus;
  /** When the load really started (the runner's clock), replacing the time the run was accepted. */
  started_at: string;
  ended_at: string;
  error: string | null;
  /** `error` as a phrase (docs/adr/0025-phrases.md); null when it is in a tool's or an exception's words. */
  error_phrase?: Phrase | null;
  /** The tool's own output when the run failed in a tool; else null. */
  error_details: string | null;
  summary: ResultSummary | null;
  api_results: ApiResult[];
  errors: ErrorsByKind;
  histogram: EncodedHistogram | null;
  /** A run on load agents: each agent's part as it ended (docs/adr/0021-load-agents.md); else absent. */
  agents?: RunAgent[] | undefined;
  /** An abort threshold stopped the run (docs/adr/0027-load-profiles.md, "Abort criteria"); else absent. */
  aborted?: RunAbort | undefined;
  breaking_point?: BreakingPoint | undefined;
}

/** A run's cumulative figures: final in its ending, or measured so far while it runs. */
export type RunFigures = Pick<RunEnding, 'summary' | 'api_results' | 'errors' | 'histogram'>;

/**
 * Where a run's figures go while it runs (in the manner of k6's output/types.go): the database
 * writer, the live stream. Every output sees every snapshot, in order, on the server's thread.
 */
export interface RunOutput {
  /** Names the output in logs. */
  readonly description: string;
  /** Called once a second with the merged snapshot. Must not block: queue slow work. */
  addSnapshot(snapshot: RunSnapshot): void;
  /** Called once after the last snapshot: finish queued work and record the ending. Outputs stop in order. */
  stop(ending: RunEnding): Promise<void>;
}
