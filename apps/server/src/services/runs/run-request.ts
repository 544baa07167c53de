import { normalizePlan, PerfPlanSchema, type PerfPlan, profileLengthMs, withProfileTotals } from '@aqa/plan';
import { type FieldError, ValidationError } from '../../errors';
import { demoRunProblems, demoRunRefusal } from '../demo-account-limits';

/** The run calls' sentences live with the run-test schema that says some of them (@aqa/contract). */
export { RUN_MESSAGES } from '@aqa/contract';

/** POST /api/run-test (docs/reference/01-authoring.md §3 "Run-test request"), after the route's schema. */
export interface RunTestRequest {
  plan_id: string;
  tool?: string | undefined;
  /** Checked by the plan's rule: a whole number, or plain decimal digits (docs/design.md §11). */
  concurrent_users?: number | string | null | undefined;
  /** Minutes; the same rule. */
  duration?: number | string | null | undefined;
  /** Overrides the minutes: for short runs and tests. */
  duration_seconds?: number | undefined;
  urls?: unknown[] | undefined;
  planName?: string | undefined;
  /** 'builtin': run in the built-in engine whatever the plan's tool (docs/reference/02-running.md §1). */
  engine?: 'builtin' | undefined;
  /** Run on this many of the user's load agents instead of this server (docs/adr/0021-load-agents.md). */
  agents?: number | undefined;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isBlank = (value: unknown): boolean =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/**
 * The client's URL entries as the spec's run payload carries them (docs/reference/01-authoring.md §5; docs/reference/02-running.md §5): pairs with a
 * blank key or value dropped, and a transactionRate that holds the user's email (a known slip of
 * the original client) blanked.
 */
function cleanUrls(urls: unknown[], userEmail: string): unknown[] {
  const normalized = normalizePlan({ urls }) as { urls: unknown[] };
  const email = userEmail.trim().toLowerCase();
  return normalized.urls.map((entry) => {
    if (!isObject(entry)) return entry;
    const out: Json = { ...entry };
    if (typeof out.transactionRate === 'string' && out.transactionRate.trim().toLowerCase() === email) {
      out.transactionRate = '';
    }
    if (Array.isArray(out.parameters)) {
      out.parameters = out.parameters.filter(
        (p) => !isObject(p) || (!isBlank(p.key ?? p.name) && !isBlank(p.value)),
      );
    }
    if (Array.isArray(out.headers)) {
      out.headers = out.headers.filter(
        (h) => !isObject(h) || (!isBlank(h.name ?? h.key) && !isBlank(h.value)),
      );
    }
    return out;
  });
}

/**
 * The plan to run: the saved plan, with every field the request carries taking its place for this
 * run only (the saved plan is not changed). Every problem of the result is reported at once, each
 * with its field. Users and minutes are checked as strictly as a saved plan's (docs/design.md §11):
 * 0, negatives, fractions, text, null, "1e3" and "0x10" are refused, not read as 1 or 60,000.
 */
export function planForRun(saved: PerfPlan, request: RunTestRequest, userEmail: string): PerfPlan {
  const input: Json = { ...saved, script: undefined };
  if (request.tool !== undefined) input.tool = request.tool;
  if (request.concurrent_users !== undefined) input.concurrent_users = request.concurrent_users;
  if (request.duration !== undefined) input.duration = request.duration;
  if (request.planName !== undefined && request.planName.trim() !== '') input.name = request.planName;
  if (request.urls !== undefined) input.urls = cleanUrls(request.urls, userEmail);
  const parsed = PerfPlanSchema.safeParse(input);
  if (!parsed.success) {
    // Dotted paths ("urls.0.url"), as the plan calls name fields; the run's name is sent as planName.
    const errors = parsed.error.issues.map((issue) => {
      const field = issue.path.map(String).join('.') || 'plan';
      return {
        field: field === 'name' && input.name !== saved.name ? 'planName' : field,
        message: issue.message,
      };
    });
    throw new ValidationError(errors, { namesFields: true });
  }
  const profileProblems = profileOverrides(parsed.data, request);
  if (profileProblems.length > 0) throw new ValidationError(profileProblems, { code: 'PROFILE_SETS_LOAD' });
  const plan = withProfileTotals(parsed.data);
  const demoProblems = demoRunProblems(userEmail, plan, request.duration_seconds);
  if (demoProblems.length > 0) {
    throw demoRunRefusal(demoProblems);
  }
  return plan;
}

/**
 * A plan with a load profile runs its stages (docs/adr/0027-load-profiles.md): a request that asks for
 * other users, minutes or seconds is refused in words rather than one of the two silently ignored.
 * Users and minutes equal to the profile's (what a form showing the saved plan sends back) pass.
 */
function profileOverrides(plan: PerfPlan, request: RunTestRequest): FieldError[] {
  const profile = plan.load_profile;
  if (profile === undefined) return [];
  const totals = withProfileTotals(plan);
  const problems: FieldError[] = [];
  if (request.duration_seconds !== undefined)
    problems.push({
      field: 'duration_seconds',
      message: `This plan has a load profile: the run lasts its stages (${profileLengthMs(profile) / 1000} s); leave duration_seconds out`,
    });
  if (request.concurrent_users !== undefined && plan.concurrent_users !== totals.concurrent_users)
    problems.push({
      field: 'concurrent_users',
      message: `This plan has a load profile: its users are ${totals.concurrent_users} (the profile's ${profile.model === 'users' ? 'peak' : 'pool'}); change the profile's stages instead of concurrent_users`,
    });
  if (request.duration !== undefined && plan.duration !== totals.duration)
    problems.push({
      field: 'duration',
      message: `This plan has a load profile: it lasts ${totals.duration} minute(s) by its stages; change the stages instead of duration`,
    });
  return problems;
}

/** How long a run of the plan lasts in seconds: its profile's stages, the request's seconds, or its minutes. */
export function runSeconds(plan: PerfPlan, request: RunTestRequest): number {
  if (plan.load_profile !== undefined) return profileLengthMs(plan.load_profile) / 1000;
  return request.duration_seconds ?? plan.duration * 60;
}
