import type { FunctionalPlan } from '@aqa/plan';
import type { MessageKey } from '@/i18n/en';
import { isScreenAvailable, screenPath, type ScreenId } from '@/lib/screens';

/** docs/reference/02-running.md §2: the plans list names the test type and the source. */
export function testTypeLabel(type: FunctionalPlan['test_type'] | undefined): MessageKey {
  if (type === 'api') return 'functional.board.typeApi';
  if (type === 'ui') return 'functional.board.typeUi';
  return 'functional.board.typeFunctional';
}

export function sourceLabel(source: FunctionalPlan['source'] | undefined): MessageKey {
  if (source === 'script_input') return 'functional.board.sourceScript';
  if (source === 'ui_url_input') return 'functional.board.sourceUi';
  return 'functional.board.sourceUrl';
}

/** The screen a functional plan is edited on: the one its source names. */
export function planEditorScreen(source: FunctionalPlan['source'] | undefined): ScreenId {
  if (source === 'script_input') return 'functionalScript';
  if (source === 'ui_url_input') return 'functionalUi';
  return 'functionalUrl';
}

/** Edit Plan: the plan's screen with ?planId=, or null while that screen is not built. */
export function editFunctionalPlanPath(plan: {
  id: string;
  source?: FunctionalPlan['source'];
}): string | null {
  const screen = planEditorScreen(plan.source);
  if (!isScreenAvailable(screen)) return null;
  return `${screenPath(screen)}?planId=${encodeURIComponent(plan.id)}`;
}
