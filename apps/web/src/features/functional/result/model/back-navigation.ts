import { type FunctionalResult, kindOf, TEST_KINDS } from '@aqa/plan';
import { LOAD_SAVED_PLAN_ID_KEY } from '@/features/call-editor';
import { isScreenAvailable, screenPath, type ScreenId } from '@/lib/screens';
import { storage } from '@/lib/storage';
import { kindEditorScreen } from '../../board/model/plan-labels';

/**
 * Back from a functional result (docs/reference/02-running.md §4 "Back navigation"): to the plan's own
 * screen when its kind goes back to its editor (docs/test-kinds.md) — an API run to the url-input
 * screen, a script run to the script-input screen, each with `?planId=` — otherwise to the functional
 * dashboard, which selects the plan: the plan id is kept in storage as the saved plan id
 * (`loadSavedPlanId`), which the dashboard reads once and removes.
 */
type BackSource = Pick<FunctionalResult, 'source' | 'test_type' | 'plan_id'>;

/** The editor Back opens, or null: a run that names no source names no editor. */
function editorScreen(result: BackSource | null): ScreenId | null {
  if (result?.source === undefined) return null;
  const kind = kindOf(result);
  return TEST_KINDS[kind].backFromResult === 'editor' ? kindEditorScreen(kind) : null;
}

/** Where Back goes for this run and plan (an editor not built yet sends to the dashboard). */
export function backPath(result: BackSource | null, planId: string | undefined): string {
  const plan = result?.plan_id ?? planId;
  const screen = editorScreen(result);
  if (plan && screen && isScreenAvailable(screen)) {
    return `${screenPath(screen)}?planId=${encodeURIComponent(plan)}`;
  }
  return screenPath('functionalDashboard');
}

/** Keeps the plan id for the screen Back opens (docs/reference/02-running.md §4). */
export function keepSavedPlanId(planId: string | null | undefined): void {
  if (planId) storage.set(LOAD_SAVED_PLAN_ID_KEY, planId);
}

/** The saved plan id Back left for the dashboard, read once. */
export function takeSavedPlanId(): string | null {
  const id = storage.get(LOAD_SAVED_PLAN_ID_KEY);
  if (id !== null) storage.remove(LOAD_SAVED_PLAN_ID_KEY);
  return id;
}
