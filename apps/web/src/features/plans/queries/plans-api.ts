import type { ScriptWarning } from '@aqa/converters';
import type {
  EngineInfo,
  PerfPlan,
  RunStarted,
  ScriptRequest,
  Tool,
  UrlEntry,
  ValidationResponse,
} from '@aqa/plan';
import { api } from '@/lib/api';
import { sessionUserId } from '@/lib/session';
import type { PlanBody } from '../model/form-to-plan';

/** The plan calls of docs/reference/01-authoring.md §7, under /api, always for the signed-in user (user_email). */

/** A saved plan as the server answers it. */
export type SavedPlan = PerfPlan & {
  id: string;
  _id?: string;
  script: string;
  script_edited?: boolean;
  user_email?: string;
  created_at?: string;
  updated_at?: string;
};

export interface SavePlanAnswer {
  id?: string;
  _id?: string;
  plan_id?: string;
  message?: string;
  plan?: SavedPlan;
}

export interface UpdatePlanAnswer {
  id?: string;
  message?: string;
  plan?: SavedPlan;
}

export interface ScriptAnswer {
  script: string;
  filename: string;
  warnings: ScriptWarning[];
  tool?: Tool;
}

function userEmail(): string | undefined {
  return sessionUserId() ?? undefined;
}

function userQuery(): string {
  const email = userEmail();
  return email ? `?user_email=${encodeURIComponent(email)}` : '';
}

/** The id of a save answer, which the spec's server writes as id, _id or plan_id. */
export function savedIdOf(answer: SavePlanAnswer | UpdatePlanAnswer | undefined): string | undefined {
  if (!answer) return undefined;
  const record = answer as Record<string, unknown>;
  for (const key of ['id', '_id', 'plan_id']) {
    const value = record[key];
    if (typeof value === 'string' && value) return value;
  }
  return answer.plan?.id;
}

export function createPlan(plan: PlanBody): Promise<SavePlanAnswer> {
  return api.post<SavePlanAnswer>('/save-test-plan', { ...plan, user_email: userEmail() });
}

/**
 * PUT /update-test-plan/{id} with the version the plan was loaded or last saved at: a plan that changed
 * since is refused with 409 PLAN_CHANGED (docs/reference/01-authoring.md §7 "Plan versions").
 */
export function updatePlan(id: string, plan: PlanBody, version?: number): Promise<UpdatePlanAnswer> {
  return api.put<UpdatePlanAnswer>(`/update-test-plan/${encodeURIComponent(id)}`, {
    ...plan,
    ...(version === undefined ? {} : { version }),
    user_email: userEmail(),
  });
}

export function fetchPlan(id: string, signal?: AbortSignal): Promise<SavedPlan> {
  return api.get<SavedPlan>(`/get-test-plan/${encodeURIComponent(id)}${userQuery()}`, { signal });
}

/** The tools this server has, with their installed versions (GET /api/engines). */
export function fetchEngines(signal?: AbortSignal): Promise<EngineInfo[]> {
  return api.get<EngineInfo[]>('/engines', { signal });
}

export function generateScriptOnServer(request: ScriptRequest): Promise<ScriptAnswer> {
  return api.post<ScriptAnswer>('/generate-script', { ...request, user_email: userEmail() });
}

/** Validate (docs/reference/01-authoring.md §7): the URL screen sends one user for one minute, in validation mode. */
export function validatePlan(
  request: Pick<ScriptRequest, 'urls' | 'tool' | 'name'>,
): Promise<ValidationResponse> {
  return api.post<ValidationResponse>('/validate-script', {
    urls: request.urls,
    tool: request.tool,
    ...(request.name ? { name: request.name } : {}),
    concurrent_users: 1,
    duration: 1,
    validation_mode: true,
    user_email: userEmail(),
  });
}

/** The run-test request of docs/reference/01-authoring.md §3; its call arrives with the run manager (docs/reference/02-running.md). */
export interface RunTestRequest {
  plan_id: string;
  user_email: string | undefined;
  tool: Tool;
  concurrent_users: number;
  duration: number;
  urls: UrlEntry[];
  planName: string;
  /** Split the run over this many of the user's load agents (docs/scale-out.md); absent: this server. */
  agents?: number;
  /** 'builtin': this run in the built-in engine whatever the tool (docs/reference/01-authoring.md §3 "Run-test request"). */
  engine?: 'builtin';
}

export function runTestRequest(plan: PerfPlan, planId: string, agents = 0): RunTestRequest {
  return {
    ...(agents > 0 ? { agents } : {}),
    plan_id: planId,
    user_email: userEmail(),
    tool: plan.tool,
    concurrent_users: plan.concurrent_users,
    duration: Math.max(1, Math.round(plan.duration)),
    urls: plan.urls,
    planName: plan.name,
  };
}

export function runTest(request: RunTestRequest): Promise<RunStarted> {
  return api.post<RunStarted>('/run-test', request);
}

export function testIdOf(answer: RunStarted | undefined): string | undefined {
  return answer?.test_id || undefined;
}
