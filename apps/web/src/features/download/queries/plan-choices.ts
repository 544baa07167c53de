import { contract } from '@aqa/contract';
import { call } from '@/lib/api';
import { routeKey, routesKey } from '@/lib/queries';
import type { PlanKind } from '../model/commands';

/** A saved plan the commands can name: its id, its name, and whether `aqa run` or `aqa test` starts it. */
export interface PlanChoice {
  id: string;
  name: string;
  kind: PlanKind;
}

/**
 * The user's saved plans, performance then functional, newest first in each (GET /api/get-test-plans and
 * GET /api/functional/get-test-configs, docs/reference/02-running.md §7).
 */
/** The cache key of the choices: both plan lists. */
export const planChoicesKey = () =>
  routesKey(routeKey(contract.plans.list), routeKey(contract.functional.list));

export async function fetchPlanChoices(signal: AbortSignal): Promise<PlanChoice[]> {
  const [performance, functional] = await Promise.all([
    call(contract.plans.list, {}, { signal }),
    call(contract.functional.list, {}, { signal }),
  ]);
  return [
    ...performance.map((plan) => ({ id: plan.id, name: plan.name, kind: 'performance' as const })),
    ...functional.map((plan) => ({ id: plan.id, name: plan.test_name, kind: 'functional' as const })),
  ];
}
