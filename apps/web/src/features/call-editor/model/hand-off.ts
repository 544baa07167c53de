import { storage } from '@/lib/storage';

/**
 * The hand-off between screens through browser storage (docs/reference/01-authoring.md §4): another screen leaves the id of a
 * saved plan (`loadSavedPlanId`) or the plan itself (`savedPlan`) for this one, which removes each entry
 * once it has read it.
 */
export const LOAD_SAVED_PLAN_ID_KEY = 'loadSavedPlanId';
export const SAVED_PLAN_KEY = 'savedPlan';

export type PlanHandOff = { kind: 'id'; id: string } | { kind: 'plan'; plan: unknown } | { kind: 'none' };

/**
 * What was handed over, without removing it: safe to call from a render (React may call it twice). A
 * stored id wins over a stored plan; a stored plan that is not JSON counts as nothing.
 */
export function peekPlanHandOff(): PlanHandOff {
  const id = storage.get(LOAD_SAVED_PLAN_ID_KEY)?.trim();
  if (id) return { kind: 'id', id };
  const raw = storage.get(SAVED_PLAN_KEY);
  if (raw) {
    try {
      const plan: unknown = JSON.parse(raw);
      if (typeof plan === 'object' && plan !== null) return { kind: 'plan', plan };
    } catch {
      // Not a plan: ignored, and removed with the rest.
    }
  }
  return { kind: 'none' };
}

/** Removes both hand-off entries (idempotent). */
export function clearPlanHandOff(): void {
  storage.remove(LOAD_SAVED_PLAN_ID_KEY);
  storage.remove(SAVED_PLAN_KEY);
}

/** Leaves a saved plan's id for the screen that opens it next. */
export function handOffPlanId(id: string): void {
  storage.set(LOAD_SAVED_PLAN_ID_KEY, id);
}

/** Leaves a whole plan (one without an id) for the screen that opens it next. */
export function handOffPlan(plan: unknown): void {
  storage.set(SAVED_PLAN_KEY, JSON.stringify(plan));
}

/** The id of a plan object as the spec's clients write it: id, _id or plan_id. */
export function planIdOf(plan: unknown): string | undefined {
  if (typeof plan !== 'object' || plan === null) return undefined;
  const record = plan as Record<string, unknown>;
  for (const key of ['id', '_id', 'plan_id']) {
    const value = record[key];
    if (typeof value === 'string' && value.trim()) return value.trim();
    if (typeof value === 'number') return String(value);
  }
  return undefined;
}

/** The run hand-off to the result screen (docs/reference/01-authoring.md §4, docs/reference/02-running.md §3): the run on screen and its configuration. */
export const CURRENT_TEST_ID_KEY = 'currentTestId';
export const CURRENT_TEST_CONFIG_KEY = 'currentTestConfig';

export function handOffRun(testId: string, config: Record<string, unknown>): void {
  storage.set(CURRENT_TEST_ID_KEY, testId);
  storage.set(CURRENT_TEST_CONFIG_KEY, JSON.stringify({ ...config, testId }));
}
