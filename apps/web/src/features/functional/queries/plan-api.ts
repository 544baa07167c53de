import type {
  FunctionalPlan,
  FunctionalPlanInput,
  FunctionalRunStarted,
  FunctionalSaveResponse,
} from '@aqa/plan';
import { api } from '@/lib/api';
import { functionalPath as path, userEmail, userQuery } from './functional-call';

/**
 * The functional plan calls of docs/reference/02-running.md §7 under /api/functional, always for the
 * signed-in user (user_email), as the performance plan calls do (features/plans/queries/plans-api.ts).
 */

/** A saved functional plan as the server answers it: the model's plan with the id the server gave it. */
export type SavedFunctionalPlan = FunctionalPlan & { id: string };

/** GET /api/functional/get-test-configs: the user's functional plans. */
export function fetchFunctionalPlans(signal?: AbortSignal): Promise<SavedFunctionalPlan[]> {
  return api.get<SavedFunctionalPlan[]>(`${path('get-test-configs')}${userQuery()}`, { signal });
}

/** GET /api/functional/get-test-config/{id}: one plan; another user's id is a 404. */
export function fetchFunctionalPlan(id: string, signal?: AbortSignal): Promise<SavedFunctionalPlan> {
  return api.get<SavedFunctionalPlan>(`${path('get-test-config', id)}${userQuery()}`, { signal });
}

/** POST /api/functional/save-config: answers the new plan's id (also as test_id). */
export function saveFunctionalPlan(plan: FunctionalPlanInput): Promise<FunctionalSaveResponse> {
  return api.post<FunctionalSaveResponse>(path('save-config'), { ...plan, user_email: userEmail() });
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
  return api.put<FunctionalSaveResponse>(path('update-config', id), {
    ...plan,
    ...(version === undefined ? {} : { version }),
    user_email: userEmail(),
  });
}

/** DELETE /api/functional/delete-config/{id}. */
export function deleteFunctionalPlan(id: string): Promise<unknown> {
  return api.delete<unknown>(`${path('delete-config', id)}${userQuery()}`);
}

/**
 * POST /api/functional/run-test: the plan with test_type, source, test_framework and plan_id
 * (docs/reference/02-running.md §7); answers the run's test_id (prefix fc_).
 */
export function runFunctionalTest(
  plan: FunctionalPlanInput & { plan_id: string },
): Promise<FunctionalRunStarted> {
  return api.post<FunctionalRunStarted>(path('run-test'), { ...plan, user_email: userEmail() });
}
