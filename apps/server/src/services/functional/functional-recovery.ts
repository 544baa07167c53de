import { CallCount, FunctionalTally, type FunctionalRunOutcome } from '@aqa/engine';
import {
  type CallResult,
  type FunctionalSummary,
  runsInBrowser,
  safeMigrateFunctionalPlan,
  said,
  type TestKind,
} from '@aqa/plan';
import { UiTally, uiPagesOf } from '@aqa/ui-runner';
import type { StoredCall } from './functional-checkpoint';
import type { StoredCalls } from './functional-rows';

/*
 * The ending of a functional or UI run its server died during (docs/adr/0016-crash-recovery.md): its
 * summary, calls, per-API (per-page) rows and timeline rebuilt from the calls it had checkpointed, by
 * the tally its runner keeps live (the engine's FunctionalTally, the UI runner's UiTally), so it ends
 * with exactly what it had judged; it ends at its last judged call.
 */

/** The error of a run a server died during (docs/reference/02-running.md §7). */
export const FUNCTIONAL_INTERRUPTED_SAID = said('functional.interrupted');
export const FUNCTIONAL_INTERRUPTED = FUNCTIONAL_INTERRUPTED_SAID.text;

interface Tally {
  /** A UI run's (its calls are steps). */
  ui: boolean;
  add(stored: StoredCall): void;
  outcome(start: Date, end: Date): FunctionalRunOutcome;
}

/**
 * The tally the run's runner kept: the UI runner's for a UI plan, the functional runner's otherwise;
 * a plan that no longer reads (stored by an older version) is only counted, without per-API rows.
 */
function tallyOf(run: { config: string; kind: TestKind }): Tally {
  let plan;
  try {
    const read = safeMigrateFunctionalPlan(JSON.parse(run.config));
    plan = read.success ? read.data : null;
  } catch {
    plan = null;
  }
  // The stored kind tells a UI run whose plan no longer reads; a script's framework is in its plan.
  const isUi = plan === null ? run.kind === 'ui' : runsInBrowser(plan);
  if (plan !== null && isUi) {
    try {
      const ui = new UiTally(uiPagesOf(plan));
      return {
        ui: true,
        add: (s) => ui.add(s.i, s.at, s.call),
        outcome: (start, end) => ui.outcome('stopped', start, end, FUNCTIONAL_INTERRUPTED_SAID),
      };
    } catch {
      // A script that no longer reads: counted below.
    }
  } else if (plan !== null) {
    const api = new FunctionalTally(plan);
    return {
      ui: false,
      add: (s) => api.add({ apiIndex: s.i, atMs: s.at, call: s.call }),
      outcome: (start, end) => api.outcome('stopped', start, end, FUNCTIONAL_INTERRUPTED_SAID),
    };
  }
  const count = new CallCount();
  return {
    ui: isUi,
    add: (s) => count.add(s.call),
    outcome: (start, end) =>
      count.outcome('stopped', start, end, FUNCTIONAL_INTERRUPTED_SAID, {
        api_results: [],
        timeline_data: [],
      }),
  };
}

/** The screenshot ids the calls link to (a UI step's). */
export function screenshotIdsOf(calls: readonly CallResult[]): string[] {
  return calls.flatMap((call) => call.ui?.screenshots.map((shot) => shot.id) ?? []);
}

export interface InterruptedEnding {
  /** A UI run's (its calls are steps). */
  ui: boolean;
  summary: FunctionalSummary;
  calls: StoredCalls;
  /** start_time plus the time of its last judged call (its start when it judged none). */
  endTime: string;
}

/** The run rebuilt from its checkpointed calls, in the order they were judged. */
export function interruptedEnding(
  run: { config: string; kind: TestKind; start_time: string },
  stored: readonly StoredCall[],
): InterruptedEnding {
  const tally = tallyOf(run);
  let lastMs = 0;
  for (const call of stored) {
    tally.add(call);
    lastMs = Math.max(lastMs, call.ms);
  }
  const start = new Date(run.start_time);
  const end = new Date(start.getTime() + lastMs);
  const outcome = tally.outcome(start, end);
  return {
    ui: tally.ui,
    summary: outcome.summary,
    calls: {
      validation_results: outcome.validation_results,
      calls_omitted: outcome.calls_omitted,
      api_results: outcome.api_results,
      timeline_data: outcome.timeline_data,
    },
    endTime: end.toISOString(),
  };
}
