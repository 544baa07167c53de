import { type FunctionalPlan, type KindMarks, kindOf, TEST_KINDS, type TestKind } from '@aqa/plan';
import type { MessageKey } from '@/i18n/en';
import { isScreenAvailable, SCREENS, screenPath, type ScreenId } from '@/lib/screens';

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

const SCREEN_IDS = Object.keys(SCREENS) as ScreenId[];

/** The screen that edits plans of this kind: the one at its editor path (docs/test-kinds.md). */
export function kindEditorScreen(kind: TestKind): ScreenId {
  const path = TEST_KINDS[kind].editorPath;
  const screen = SCREEN_IDS.find((id) => SCREENS[id].path === path);
  if (screen === undefined) throw new Error(`No screen edits ${kind} tests at ${path}`);
  return screen;
}

/** Edit Plan: the screen of the plan's kind with ?planId=, or null while that screen is not built. */
export function editFunctionalPlanPath(plan: KindMarks & { id: string }): string | null {
  const screen = kindEditorScreen(kindOf(plan));
  if (!isScreenAvailable(screen)) return null;
  return `${screenPath(screen)}?planId=${encodeURIComponent(plan.id)}`;
}
