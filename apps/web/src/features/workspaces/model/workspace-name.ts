import type { WorkspaceSummary } from '@aqa/plan';
import type { Translate } from '@/i18n';

/** The name shown for a workspace: the personal one is "Personal" in the user's language. */
export function workspaceName(workspace: Pick<WorkspaceSummary, 'name' | 'personal'>, t: Translate): string {
  return workspace.personal ? t('workspace.personal') : workspace.name;
}
