import type { PastRun } from '../queries/history-api';

type PlanRun = Pick<PastRun, 'test_id' | 'plan_id'>;

type RunRef = Pick<PastRun, 'test_id' | 'start_time'>;

/**
 * The run a candidate is compared with when none is chosen: its plan's baseline when there is one (and
 * it is not the candidate itself), else the plan's comparable run just before the candidate.
 * `planRuns` are the plan's comparable runs (model/comparable.ts), newest first.
 */
export function defaultBaseId(candidate: RunRef, planRuns: readonly PastRun[]): string | null {
  const baseline = planRuns.find((run) => run.is_baseline && run.test_id !== candidate.test_id);
  if (baseline) return baseline.test_id;
  const index = planRuns.findIndex((run) => run.test_id === candidate.test_id);
  if (index >= 0) return planRuns[index + 1]?.test_id ?? null;
  const started = Date.parse(candidate.start_time);
  return planRuns.find((run) => Date.parse(run.start_time) < started)?.test_id ?? null;
}

/**
 * The candidate for a named base: the newest other run of the base's plan (issue #7: two runs of a plan);
 * null when the base is not among `runs` or its plan has no other run. `runs` are newest first.
 */
export function defaultCandidateId(baseId: string, runs: readonly PlanRun[]): string | null {
  const base = runs.find((run) => run.test_id === baseId);
  if (!base) return null;
  return runs.find((run) => run.test_id !== baseId && run.plan_id === base.plan_id)?.test_id ?? null;
}

/**
 * What one picker offers once the other side is chosen (issue #7): the runs of the other side's plan,
 * plus this picker's own choice even when a link named a run of another plan. Without a chosen other
 * side, or when it has no plan, every run.
 */
export function runsToOffer<T extends PlanRun>(
  runs: readonly T[],
  other: PlanRun | undefined,
  chosenId: string | null,
): T[] {
  if (!other?.plan_id) return [...runs];
  return runs.filter((run) => run.plan_id === other.plan_id || run.test_id === chosenId);
}
