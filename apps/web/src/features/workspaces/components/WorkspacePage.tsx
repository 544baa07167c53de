import { Plus } from 'lucide-react';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { useT } from '@/i18n';
import { errorDetailMessage } from '@/i18n/error-messages';
import { screenPath } from '@/lib/screens';
import { findWorkspace, useWorkspace, useWorkspaces } from '@/lib/workspace';
import { workspaceName } from '../model/workspace-name';
import { InviteLinksCard } from './InviteLinksCard';
import { LeaveDeleteCard } from './LeaveDeleteCard';
import { MembersCard } from './MembersCard';
import { NewWorkspaceForm } from './NewWorkspaceForm';
import { WorkspaceSettingsCard } from './WorkspaceSettingsCard';

/**
 * The Workspace screen (docs/adr/0035-workspaces-and-roles.md): the current workspace's name and time
 * zone, its members and their roles, leaving and deleting it; a personal workspace is the user's alone
 * and offers a new team workspace instead. `?new=1` (the switcher's "New workspace…") opens that form.
 */
export default function WorkspacePage() {
  const t = useT();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const current = useWorkspace();
  const list = useWorkspaces();
  const personal = list.data ? findWorkspace(list.data.workspaces, null) : null;
  const workspace = current.summary;
  const [creating, setCreating] = useState(search.has('new'));
  const showCreate = creating || search.has('new') || current.personal;

  return (
    <div className="space-y-6" data-testid="workspace-page">
      <PageHeader
        title={workspace ? workspaceName(workspace, t) : t('workspace.title')}
        description={t('workspace.text')}
      />
      {list.isError && (
        <p role="alert" className="text-sm text-destructive-text" data-testid="workspace-list-error">
          {t('workspace.listFailed', { message: errorDetailMessage(list.error, t) })}
        </p>
      )}
      {current.personal && (
        <Card data-testid="workspace-personal">
          <CardHeader>
            <CardTitle>{t('workspace.personalTitle')}</CardTitle>
            <CardDescription>{t('workspace.personalText')}</CardDescription>
          </CardHeader>
        </Card>
      )}
      {workspace && !workspace.personal && (
        // Keyed by id: the forms start again from the saved values of another workspace.
        <div key={workspace.id} className="space-y-6">
          <WorkspaceSettingsCard workspace={workspace} isOwner={current.isOwner} />
          <MembersCard workspace={workspace} isOwner={current.isOwner} />
          {current.isOwner && <InviteLinksCard workspace={workspace} />}
          {personal && (
            <LeaveDeleteCard workspace={workspace} isOwner={current.isOwner} myUserId={personal.id} />
          )}
        </div>
      )}
      <Card data-testid="workspace-new-team">
        <CardHeader>
          <CardTitle>{t('workspace.newTeam')}</CardTitle>
          <CardDescription>{t('workspace.newTeamText')}</CardDescription>
        </CardHeader>
        <CardContent>
          {showCreate ? (
            <NewWorkspaceForm
              onCreated={() => {
                setCreating(false);
                void navigate(screenPath('workspace'), { replace: true });
              }}
            />
          ) : (
            <Button variant="outline" onClick={() => setCreating(true)} data-testid="workspace-new-team-open">
              <Plus />
              {t('workspace.newTeam')}
            </Button>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
