import { Users } from 'lucide-react';
import { Link } from 'react-router';
import { buttonVariants } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { workspaceName } from '@/features/workspaces';
import { useT } from '@/i18n';
import { screenPath } from '@/lib/screens';
import { cn } from '@/lib/utils';
import { useWorkspace } from '@/lib/workspace';

/** Settings → Workspace: where the user works now and as what, and the way to its members (docs/adr/0035-workspaces-and-roles.md). */
export function WorkspaceCard() {
  const t = useT();
  const workspace = useWorkspace();
  const name = workspace.summary
    ? workspaceName(workspace.summary, t)
    : workspace.personal
      ? t('workspace.personal')
      : '…';
  return (
    <Card data-testid="settings-workspace">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Users aria-hidden className="size-4" />
          {t('settings.workspaceTitle')}
        </CardTitle>
        <CardDescription>
          {t('settings.workspaceText', {
            name,
            role: workspace.role ? t(`workspace.role.${workspace.role}`) : '…',
          })}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Link
          to={screenPath('workspace')}
          className={cn(buttonVariants({ variant: 'outline' }))}
          data-testid="settings-workspace-open"
        >
          {t('settings.workspaceOpen')}
        </Link>
      </CardContent>
    </Card>
  );
}
