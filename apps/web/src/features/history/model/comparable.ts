import { FINAL_STATUSES } from '@aqa/plan';
import type { PastRun } from '../queries/history-api';

type RunFigures = Pick<PastRun, 'status' | 'results_summary'>;

/** Statuses of a run that has ended; only a completed one ran its whole planned duration. */
const ENDED: readonly string[] = FINAL_STATUSES;

/**
 * Whether a run can be compared and made its plan's baseline — the server's rule, so the screens offer
 * only what it accepts: an ended run that measured requests, including one stopped, failed or interrupted part-way.
 */
export function isComparable(run: RunFigures): boolean {
  return ENDED.includes(run.status) && (run.results_summary?.total_requests ?? 0) > 0;
}

/** A comparable run that ended before its planned duration: its figures cover only the seconds it ran. */
export function isPartialRun(run: RunFigures): boolean {
  return isComparable(run) && run.status !== 'completed';
}
