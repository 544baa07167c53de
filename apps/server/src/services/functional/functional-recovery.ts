import { CallCount, FunctionalTally, type FunctionalRunOutcome, reasonColumns } from '@aqa/engine';
import { type FunctionalPlan, safeMigrateFunctionalPlan, said } from '@aqa/plan';
import { UiTally, uiPagesOf } from '@aqa/ui-runner';
import type { FunctionalRunRow } from '../../db/schema';
import type { StoredCall } from './functional-checkpoint';
import { type FunctionalRunEnded, functionalRunEnded } from './functional-run-store';

/*
 * The ending of an API, script or UI run its server died during (docs/adr/0016-crash-recovery.md): its
 * summary, calls, per-API (per-page) rows and timeline rebuilt from the calls it had checkpointed, by
 * the tally its runner keeps live (the engine's FunctionalTally for an API or script run, the UI
 * runner's UiTally for a UI run: its kind's adapter says which, functional-kinds.ts), so it ends with
 * exactly what it had judged; it ends at its last judged call.
 */

/** The error of a run a server died during (docs/reference/02-running.md §7). */
export const FUNCTIONAL_INTERRUPTED_SAID = said('functional.interrupted');
export const FUNCTIONAL_INTERRUPTED = FUNCTIONAL_INTERRUPTED_SAID.text;

/** What an API, script or UI run a dead server left unfinished had stored as it went. */
export interface CheckpointedRun {
  /** Its plan as stored; null when it no longer reads (stored by an older version). */
  plan: FunctionalPlan | null;
  /** Its checkpointed calls, in the order they were judged. */
  calls: readonly StoredCall[];
}

/** The tally a run's runner kept live, fed its checkpointed calls again. */
export interface RecoveryTally {
  add(stored: StoredCall): void;
  outcome(start: Date, end: Date): FunctionalRunOutcome;
}

/** A run's stored plan, or null when it no longer reads. */
export function storedPlan(config: string): FunctionalPlan | null {
  try {
    const read = safeMigrateFunctionalPlan(JSON.parse(config));
    return read.success ? read.data : null;
  } catch {
    return null;
  }
}

/** A plan that no longer reads is only counted, without per-API rows. */
function counted(): RecoveryTally {
  const count = new CallCount();
  return {
    add: (s) => count.add(s.call),
    outcome: (start, end) =>
      count.outcome('stopped', start, end, FUNCTIONAL_INTERRUPTED_SAID, {
        api_results: [],
        timeline_data: [],
      }),
  };
}

/** An API or script run's calls, by the engine's functional runner's tally. */
export function callsTally(plan: FunctionalPlan | null): RecoveryTally {
  if (plan === null) return counted();
  const api = new FunctionalTally(plan);
  return {
    add: (s) => api.add({ apiIndex: s.i, atMs: s.at, call: s.call }),
    outcome: (start, end) => api.outcome('stopped', start, end, FUNCTIONAL_INTERRUPTED_SAID),
  };
}

/** A UI run's steps, by the UI runner's tally; a script whose pages no longer read is counted. */
export function stepsTally(plan: FunctionalPlan | null): RecoveryTally {
  if (plan === null) return counted();
  let ui: UiTally;
  try {
    ui = new UiTally(uiPagesOf(plan));
  } catch {
    return counted();
  }
  return {
    add: (s) => ui.add(s.i, s.at, s.call),
    outcome: (start, end) => ui.outcome('stopped', start, end, FUNCTIONAL_INTERRUPTED_SAID),
  };
}

/** The run rebuilt from its checkpointed calls, in the order they were judged. */
export function interruptedEnding(
  startTime: string,
  stored: readonly StoredCall[],
  tally: RecoveryTally,
): { outcome: FunctionalRunOutcome; endTime: string } {
  let lastMs = 0;
  for (const call of stored) {
    tally.add(call);
    lastMs = Math.max(lastMs, call.ms);
  }
  const start = new Date(startTime);
  const end = new Date(start.getTime() + lastMs);
  // start_time plus the time of its last judged call (its start when it judged none).
  return { outcome: tally.outcome(start, end), endTime: end.toISOString() };
}

/**
 * The ending stored of a run a dead server left unfinished: `interrupted`, saying the server stopped
 * during the run, with what its tally rebuilt, and its owner's message.
 */
export function interruptedRun(
  row: FunctionalRunRow,
  { calls }: CheckpointedRun,
  tally: RecoveryTally,
): FunctionalRunEnded {
  const { outcome, endTime } = interruptedEnding(row.start_time, calls, tally);
  return functionalRunEnded(
    {
      id: row.id,
      userId: row.user_id,
      workspaceId: row.workspace_id,
      planId: row.plan_id,
      name: row.test_name,
    },
    {
      status: 'interrupted',
      ...reasonColumns(FUNCTIONAL_INTERRUPTED_SAID),
      summary: outcome.summary,
      calls: {
        validation_results: outcome.validation_results,
        calls_omitted: outcome.calls_omitted,
        api_results: outcome.api_results,
        timeline_data: outcome.timeline_data,
      },
      endTime,
    },
  );
}
