import type { FunctionalResult } from '@aqa/plan';
import { isScreenAvailable, screenPath, type ScreenId } from '@/lib/screens';
import { storage } from '@/lib/storage';
import { LOAD_SAVED_PLAN_ID_KEY } from '@/features/call-editor';

/**
 * Back from a functional result (docs/reference/02-running.md §4 "Back navigation"): to the plan's own
 * screen — script source to the script-input screen, URL source to the url-input screen, each with
 * `?planId=` — otherwise to the functional dashboard, which selects the plan: the plan id is kept in
 * storage as the saved plan id (`loadSavedPlanId`), which the dashboard reads once and removes.
 */
type BackSource = Pick<FunctionalResult, 'source' | 'plan_id'>;

function editorScreen(source: BackSource['source']): ScreenId | null {
  if (source === 'script_input') return 'functionalScript';
  if (source === 'url_input') return 'functionalUrl';
  return null;
}

/** Where Back goes for a run of this source and plan (an editor not built yet sends to the dashboard). */
export function backPath(result: BackSource | null, planId: string | undefined): string {
  const plan = result?.plan_id ?? planId;
  const screen = editorScreen(result?.source);
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
