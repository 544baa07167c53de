import type {
  CallResult,
  FunctionalApiResult,
  FunctionalPlan,
  FunctionalResult,
  FunctionalSummary,
  Phrase,
  Said,
} from '@aqa/plan';
import type { TargetGuardSettings } from '../guard';

/*
 * The functional runner's contract (docs/design.md §9): what the server, the `aqa test` command and the
 * tests hand it and get back. The runner runs a plan's APIs in order for its iterations, by its users,
 * off the caller's event loop, and judges every call.
 */

export interface FunctionalRunOptions {
  /** The target guard every call asks first (docs/adr/0015-target-guard.md); none in the CLI. */
  guard?: TargetGuardSettings;
  /** Accept any TLS certificate (the CLI's --insecure). */
  insecureTls?: boolean;
  /**
   * The most memory the run's worker thread may use for its objects (its V8 old generation), in MB; a
   * run that needs more ends failed, saying so (docs/adr/0024-memory-bounds.md). Default
   * DEFAULT_FUNCTIONAL_RUN_MEMORY_MB.
   */
  maxMemoryMb?: number;
  /**
   * Called on the caller's thread with each call as soon as it is judged, in the order judged, with
   * where the run's tally counts it — what the server checkpoints so that a run its process dies
   * during is rebuilt by the same tally (docs/adr/0016-crash-recovery.md).
   */
  onCall?: (call: CallResult, place: CallPlace) => void;
  /** Overrides the plan's test duration (whose least is a minute), in ms. */
  durationMs?: number;
  /**
   * The worker-thread entry (a bundle: worker threads cannot load TypeScript). Default: the engine's
   * dist/functional-worker.mjs, built on demand from source, or functional-worker.mjs beside the bundle
   * that holds this module (apps/server/build.mjs bundles one into the server's dist).
   */
  workerEntry?: string | URL;
}

/** Where a judged call belongs in its run's tally (FunctionalTally, or the UI runner's UiTally). */
export interface CallPlace {
  /** The index of its API in plan.apis (of its page, for a UI step). */
  index: number;
  /** Ms since the run started: when an API call was judged, when a UI step began. */
  atMs: number;
}

/** Why a run ended early: in words, or as a phrase with its words (docs/adr/0025-phrases.md). */
export type RunEndReason = string | Said | null;

/** `error` and `error_phrase` of a reason. */
export function reasonColumns(reason: RunEndReason): { error: string | null; error_phrase: Phrase | null } {
  if (reason === null || typeof reason === 'string') return { error: reason, error_phrase: null };
  return { error: reason.text, error_phrase: reason.phrase };
}

/** How a run ended: completed when every call passed, failed when one did not or the run could not run. */
export type FunctionalRunEnd = 'completed' | 'failed' | 'stopped';

/** The run's result, in the wire model's words (packages/plan/src/functional/functional-result.ts). */
export interface FunctionalRunOutcome {
  status: FunctionalRunEnd;
  start_time: string;
  end_time: string;
  /** Why the run could not run or ended early, in words; null when it ran to its end. */
  error: string | null;
  /** `error` as a phrase (docs/adr/0025-phrases.md); null when it has none. */
  error_phrase: Phrase | null;
  summary: FunctionalSummary;
  /** The first calls (at most 5,000); the rest are counted in summary and in calls_omitted. */
  validation_results: CallResult[];
  calls_omitted: number;
  api_results: FunctionalApiResult[];
  timeline_data: FunctionalResult['timeline_data'];
}

export interface FunctionalRunHandle {
  /** Settles when the run ends; rejects only when the runner itself breaks (a failed call is data). */
  result: Promise<FunctionalRunOutcome>;
  /** Ends the run within a second and keeps what was measured; `result` then settles as stopped. */
  stop(): Promise<void>;
}

/** Starts a run of a plan already read by FunctionalPlanSchema. */
export type StartFunctionalRun = (
  plan: FunctionalPlan,
  options?: FunctionalRunOptions,
) => FunctionalRunHandle;
