import { said } from '@aqa/plan';
import type { RunUpdate } from '../../db/schema';
import { figureColumns } from './database-output';
import type { TallyInput } from './live-tally';
import type { RunPoint, RunPointData, RunRecord, StepPointData } from './run-model';
import { RunTally } from './run-tally';

/** The error an interrupted run carries: why it ended before its duration. */
export const INTERRUPTED_BY_RESTART_SAID = said('run.interrupted');
export const INTERRUPTED_BY_RESTART = INTERRUPTED_BY_RESTART_SAID.text;

const EMPTY_HISTOGRAM = { i: [], c: [], sum: 0, min: 0, max: 0 };

function wholeInput(d: RunPointData): TallyInput {
  return {
    requests: d.requests,
    successes: d.successes,
    bytesSent: d.bytes_sent,
    bytesReceived: d.bytes_received,
    errors: d.errors,
    histogram: d.histogram ?? EMPTY_HISTOGRAM,
  };
}

/** A step's point stores no bytes (its row in the result shows none). */
function stepInput(d: StepPointData): TallyInput {
  return {
    requests: d.requests,
    successes: d.requests - d.failures,
    bytesSent: 0,
    bytesReceived: 0,
    errors: d.errors,
    histogram: d.histogram ?? EMPTY_HISTOGRAM,
  };
}

/**
 * The ending of a run its server died during (docs/adr/0016-crash-recovery.md): its summary, per-API
 * rows and histogram merged from its stored seconds — the same tally a live run keeps, so exactly
 * what it showed live at its last stored second — and its end at that second. Seconds stored before
 * the points carried histograms count their requests but add no latency.
 */
export function interruptedEnding(record: RunRecord, points: readonly RunPoint[]): RunUpdate {
  const tally = new RunTally(record.concurrent_users, record.config.steps);
  const bySecond = [...points].sort((a, b) => a.second - b.second);
  for (const point of bySecond) {
    if (point.step_index < 0) {
      const d = point.data as RunPointData;
      tally.addWhole(wholeInput(d), d.elapsed_s);
      if (d.iterations !== undefined) tally.addIterations(d.iterations, d.dropped_iterations ?? 0);
      if (d.flows !== undefined) tally.addFlows(d.flows);
    } else {
      tally.addStep(point.step_index, stepInput(point.data));
    }
  }
  const endMs = Date.parse(record.started_at) + Math.round((tally.elapsedS ?? 0) * 1000);
  return {
    status: 'interrupted',
    ended_at: new Date(endMs).toISOString(),
    error: INTERRUPTED_BY_RESTART,
    error_phrase: JSON.stringify(INTERRUPTED_BY_RESTART_SAID.phrase),
    ...figureColumns(tally.figures()),
  };
}
