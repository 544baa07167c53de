import type { PastRun } from '../queries/history-api';

type RunRef = Pick<PastRun, 'test_id' | 'start_time'>;

/**
 * The run a candidate is compared with when none is chosen: its plan's baseline when there is one (and
 * it is not the candidate itself), else the plan's completed run just before the candidate.
 * `planRuns` are the plan's completed runs, newest first.
 */
export function defaultBaseId(candidate: RunRef, planRuns: readonly PastRun[]): string | null {
  const baseline = planRuns.find((run) => run.is_baseline && run.test_id !== candidate.test_id);
  if (baseline) return baseline.test_id;
  const index = planRuns.findIndex((run) => run.test_id === candidate.test_id);
  if (index >= 0) return planRuns[index + 1]?.test_id ?? null;
  const started = Date.parse(candidate.start_time);
  return planRuns.find((run) => Date.parse(run.start_time) < started)?.test_id ?? null;
}
