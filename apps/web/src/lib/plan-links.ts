import { isScreenAvailable, screenPath, type ScreenId } from '@/lib/screens';

/** The screen a plan was written on (docs/reference/01-authoring.md source_page): its own authoring screen edits it. */
export function planEditorScreen(sourcePage: string | null | undefined): ScreenId {
  return sourcePage === 'script-input' ? 'createTestScript' : 'createTestUrl';
}

/** Edit Plan: the plan's authoring screen with ?planId=, or null while that screen is not built. */
export function editPlanPath(plan: { id: string; source_page?: string | null }): string | null {
  const screen = planEditorScreen(plan.source_page);
  if (!isScreenAvailable(screen)) return null;
  return `${screenPath(screen)}?planId=${encodeURIComponent(plan.id)}`;
}
