import type { FunctionalPlan, PerfPlan } from '@aqa/plan';
import { api } from '@/lib/api';
import type { PlanKind } from '../model/commands';

/** A saved plan the commands can name: its id, its name, and whether `aqa run` or `aqa test` starts it. */
export interface PlanChoice {
  id: string;
  name: string;
  kind: PlanKind;
}

type SavedPerfPlan = Pick<PerfPlan, 'name'> & { id: string };
type SavedFunctionalPlan = Pick<FunctionalPlan, 'test_name'> & { id: string };

/**
 * The user's saved plans, performance then functional, newest first in each (GET /api/get-test-plans and
 * GET /api/functional/get-test-configs, docs/reference/02-running.md §7).
 */
export async function fetchPlanChoices(signal: AbortSignal): Promise<PlanChoice[]> {
  const [performance, functional] = await Promise.all([
    api.get<SavedPerfPlan[]>('/get-test-plans', { signal }),
    api.get<SavedFunctionalPlan[]>('/functional/get-test-configs', { signal }),
  ]);
  return [
    ...performance.map((plan) => ({ id: plan.id, name: plan.name, kind: 'performance' as const })),
    ...functional.map((plan) => ({ id: plan.id, name: plan.test_name, kind: 'functional' as const })),
  ];
}
