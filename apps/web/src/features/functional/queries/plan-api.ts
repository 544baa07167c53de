import { contract, type CallAnswer } from '@aqa/contract';
import type { FunctionalPlanInput, FunctionalRunStarted, FunctionalSaveResponse } from '@aqa/plan';
import { call } from '@/lib/api';
import { routeKey, type RouteKey } from '@/lib/queries';
import { sessionUserEmail } from '@/lib/session';

/**
 * The functional plan calls of docs/reference/02-running.md §7 under /api/functional, always for the
 * signed-in user (user_email), as the performance plan calls do (features/plans/queries/plans-api.ts).
 */

/** A saved functional plan as the server answers it. */
export type SavedFunctionalPlan = CallAnswer<typeof contract.functional.getConfig>;

/** GET /api/functional/get-test-configs: the user's functional plans. */
export function fetchFunctionalPlans(signal?: AbortSignal): Promise<SavedFunctionalPlan[]> {
  return call(contract.functional.list, { query: { user_email: sessionUserEmail() } }, { signal });
}

/** GET /api/functional/get-test-config/{id}: one plan; another user's id is a 404. */
const planInput = (id: string) => ({ params: { id }, query: { user_email: sessionUserEmail() } });

/** The cache key of a saved functional plan, as fetchFunctionalPlan asks it. */
export const functionalPlanKey = (id: string): RouteKey =>
  routeKey(contract.functional.getConfig, planInput(id));

export function fetchFunctionalPlan(id: string, signal?: AbortSignal): Promise<SavedFunctionalPlan> {
  return call(contract.functional.getConfig, planInput(id), { signal });
}

/** POST /api/functional/save-config: answers the new plan's id (also as test_id). */
export function saveFunctionalPlan(plan: FunctionalPlanInput): Promise<FunctionalSaveResponse> {
  return call(contract.functional.save, { body: { ...plan, user_email: sessionUserEmail() } });
}

/**
 * PUT /api/functional/update-config/{id} with the version the plan was loaded or last saved at: a plan
 * that changed since is refused with 409 PLAN_CHANGED (docs/reference/01-authoring.md §7 "Plan versions").
 */
export function updateFunctionalPlan(
  id: string,
  plan: FunctionalPlanInput,
  version?: number,
): Promise<FunctionalSaveResponse> {
  return call(contract.functional.update, {
    params: { id },
    body: { ...plan, ...(version === undefined ? {} : { version }), user_email: sessionUserEmail() },
  });
}

/** DELETE /api/functional/delete-config/{id}. */
export function deleteFunctionalPlan(id: string): Promise<unknown> {
  return call(contract.functional.delete, { params: { id }, query: { user_email: sessionUserEmail() } });
}

/**
 * POST /api/functional/run-test: the plan with test_type, source, test_framework and plan_id
 * (docs/reference/02-running.md §7); answers the run's test_id (prefix fc_).
 */
export function runFunctionalTest(
  plan: FunctionalPlanInput & { plan_id: string },
): Promise<FunctionalRunStarted> {
  return call(contract.functional.runTest, { body: { ...plan, user_email: sessionUserEmail() } });
}
