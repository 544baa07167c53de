import { contract, type CallAnswer } from '@aqa/contract';
import type { PerfPlan, RunStarted, ScriptRequest } from '@aqa/plan';
import { call } from '@/lib/api';
import { routeKey, type RouteKey } from '@/lib/queries';
import { runTest, type RunTestBody } from '@/lib/run-test';
import { sessionUserEmail } from '@/lib/session';
import type { PlanBody } from '../model/form-to-plan';

/**
 * The plan calls of docs/reference/01-authoring.md §7, through the contract's typed call (docs/contract.md),
 * always for the signed-in user (user_email).
 */

/** A saved plan as the server answers it. */
export type SavedPlan = CallAnswer<typeof contract.plans.get>;
export type SavePlanAnswer = CallAnswer<typeof contract.plans.save>;
export type UpdatePlanAnswer = CallAnswer<typeof contract.plans.update>;
export type ScriptAnswer = CallAnswer<typeof contract.plans.generateScript>;

/** The id of a save answer (id; the spec's server also writes it as _id and plan_id). */
export function savedIdOf(answer: SavePlanAnswer | UpdatePlanAnswer | undefined): string | undefined {
  return answer?.id || answer?.plan.id || undefined;
}

export function createPlan(plan: PlanBody): Promise<SavePlanAnswer> {
  return call(contract.plans.save, { body: { ...plan, user_email: sessionUserEmail() } });
}

/**
 * PUT /update-test-plan/{id} with the version the plan was loaded or last saved at: a plan that changed
 * since is refused with 409 PLAN_CHANGED (docs/reference/01-authoring.md §7 "Plan versions").
 */
export function updatePlan(id: string, plan: PlanBody, version?: number): Promise<UpdatePlanAnswer> {
  return call(contract.plans.update, {
    params: { id },
    body: { ...plan, ...(version === undefined ? {} : { version }), user_email: sessionUserEmail() },
  });
}

const planInput = (id: string) => ({ params: { id }, query: { user_email: sessionUserEmail() } });

/** The cache key of a saved plan, as fetchPlan asks it. */
export const planKey = (id: string): RouteKey => routeKey(contract.plans.get, planInput(id));

export function fetchPlan(id: string, signal?: AbortSignal): Promise<SavedPlan> {
  return call(contract.plans.get, planInput(id), { signal });
}

export function generateScriptOnServer(request: ScriptRequest): Promise<ScriptAnswer> {
  return call(contract.plans.generateScript, { body: { ...request, user_email: sessionUserEmail() } });
}

/** Validate (docs/reference/01-authoring.md §7): the URL screen sends one user for one minute, in validation mode. */
export function validatePlan(
  request: Pick<ScriptRequest, 'urls' | 'tool' | 'name'>,
): Promise<CallAnswer<typeof contract.plans.validateScript>> {
  return call(contract.plans.validateScript, {
    body: {
      urls: request.urls,
      tool: request.tool,
      ...(request.name ? { name: request.name } : {}),
      concurrent_users: 1,
      duration: 1,
      validation_mode: true,
      user_email: sessionUserEmail(),
    },
  });
}

/** The run-test request of docs/reference/01-authoring.md §3, as the contract types it. */
export type RunTestRequest = RunTestBody;

export function runTestRequest(plan: PerfPlan, planId: string, agents = 0): RunTestRequest {
  return {
    ...(agents > 0 ? { agents } : {}),
    plan_id: planId,
    user_email: sessionUserEmail(),
    tool: plan.tool,
    concurrent_users: plan.concurrent_users,
    duration: Math.max(1, Math.round(plan.duration)),
    urls: plan.urls,
    planName: plan.name,
  };
}

/** The one run-test call (src/lib/run-test.ts), shared with the result screen. */
export { runTest };

export function testIdOf(answer: RunStarted | undefined): string | undefined {
  return answer?.test_id || undefined;
}
