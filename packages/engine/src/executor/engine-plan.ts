import {
  DEFAULT_USERS,
  describeIssues,
  MAX_USERS,
  MIN_USERS,
  normalizePlan,
  PerfPlanSchema,
  type PerfPlan,
} from '@aqa/plan';

/**
 * The most virtual users one run of the built-in engine accepts. The plan form keeps its 1–1000
 * (docs/reference/01-authoring.md §5); the engine and `aqa run --users` are held only to what the
 * machine can hold. This bound catches a slip of the finger (10000000 for 1000000) before the run
 * allocates for it; the practical limits of a machine (open files, local ports) are checked
 * against the machine itself by capacity.ts.
 */
export const MAX_ENGINE_USERS = 1_000_000;

export const ENGINE_USERS_ERROR = `Concurrent users must be a whole number from ${MIN_USERS} to ${MAX_ENGINE_USERS.toLocaleString('en-US')} for the built-in engine (the plan form allows ${MIN_USERS} to ${MAX_USERS})`;

export interface PlanProblem {
  field: string;
  message: string;
}

export type EnginePlanParse = { success: true; data: PerfPlan } | { success: false; problems: PlanProblem[] };

/** Whether `n` is a user count the engine runs. */
export function isEngineUsers(n: unknown): n is number {
  return typeof n === 'number' && Number.isInteger(n) && n >= MIN_USERS && n <= MAX_ENGINE_USERS;
}

/**
 * Validates (and migrates) a plan for the built-in engine: every rule of the plan model holds,
 * except that concurrent_users may go past the form's 1000 up to MAX_ENGINE_USERS. The plan model
 * itself is not widened: the users are checked here and the rest of the plan by PerfPlanSchema,
 * so the form, the server and the other tools keep the form's range.
 */
export function parseEnginePlan(input: unknown): EnginePlanParse {
  const normalized = normalizePlan(input);
  if (typeof normalized !== 'object' || normalized === null || Array.isArray(normalized)) {
    const parsed = PerfPlanSchema.safeParse(normalized);
    return parsed.success
      ? { success: true, data: parsed.data }
      : { success: false, problems: describeIssues(parsed.error) };
  }
  const fields = normalized as Record<string, unknown>;
  const users = fields.concurrent_users ?? DEFAULT_USERS;
  const ok = isEngineUsers(users);
  // The users stand in as a count the form accepts while the rest of the plan is validated.
  const stand = ok ? Math.min(users, MAX_USERS) : DEFAULT_USERS;
  const parsed = PerfPlanSchema.safeParse({ ...fields, concurrent_users: stand });
  const problems = parsed.success ? [] : describeIssues(parsed.error);
  if (!ok) {
    // In the schema's field order, as describeIssues lists the others.
    const order = Object.keys(PerfPlanSchema.shape);
    const rank = (field: string): number => order.indexOf(field.split(/[.[]/)[0]!);
    const at = problems.findIndex((p) => rank(p.field) > rank('concurrent_users'));
    problems.splice(at < 0 ? problems.length : at, 0, {
      field: 'concurrent_users',
      message: ENGINE_USERS_ERROR,
    });
  }
  if (!parsed.success || !ok) return { success: false, problems };
  return { success: true, data: { ...parsed.data, concurrent_users: users } };
}
