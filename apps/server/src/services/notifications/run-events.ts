import type { NotificationEvent } from '@aqa/contract';

/*
 * Which events an ended run gives (docs/adr/0032-notifications-out.md §2). Pure, so each case is tested
 * without a run.
 */

/** An ended run as the events read it: its kind, status, stored summary and the kind of its message. */
export interface JudgedRun {
  /** load | api | script | ui */
  kind: string;
  status: string;
  /** JSON of the stored summary, or null. */
  summary: string | null;
  /** Its message's kind: completed | failed | stopped | interrupted | threshold_failed (null: none stored). */
  messageKind: string | null;
}

interface FunctionalCounts {
  failed: number;
  validationFailures: number;
}

function functionalCounts(run: JudgedRun): FunctionalCounts {
  if (run.kind === 'load' || run.summary === null) return { failed: 0, validationFailures: 0 };
  try {
    const summary = JSON.parse(run.summary) as { failed_requests?: unknown; validation_failures?: unknown };
    return {
      failed: typeof summary.failed_requests === 'number' ? summary.failed_requests : 0,
      validationFailures: typeof summary.validation_failures === 'number' ? summary.validation_failures : 0,
    };
  } catch {
    return { failed: 0, validationFailures: 0 };
  }
}

/** A load run's threshold broke, or a functional run's validation failed. */
function thresholdFailed(run: JudgedRun): boolean {
  return run.messageKind === 'threshold_failed' || functionalCounts(run).validationFailures > 0;
}

/** The run failed: it ended failed or interrupted, or (API, script, UI) a call or step of it failed. */
function runFailed(run: JudgedRun): boolean {
  if (run.status === 'failed' || run.status === 'interrupted') return true;
  const counts = functionalCounts(run);
  return counts.failed > 0 || counts.validationFailures > 0;
}

/** It completed, held its thresholds and (API, script, UI) every call passed. A stopped run neither passed nor failed. */
export function passed(run: JudgedRun): boolean {
  return run.status === 'completed' && !thresholdFailed(run) && !runFailed(run);
}

/**
 * The events of `run`, in a fixed order; `earlier` is the plan's run before it (stopped runs skipped),
 * asked for only when the run passed: the run recovered when that one did not pass.
 */
export async function eventsOf(
  run: JudgedRun,
  earlier: () => Promise<JudgedRun | undefined>,
): Promise<NotificationEvent[]> {
  const events: NotificationEvent[] = [];
  if (runFailed(run)) events.push('run_failed');
  if (thresholdFailed(run)) events.push('threshold_failed');
  if (passed(run)) {
    const before = await earlier();
    if (before !== undefined && !passed(before)) events.push('recovered');
  }
  return events;
}
