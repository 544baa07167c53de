import { contract } from '@aqa/contract';
import type { WorkspaceSummary } from '@aqa/plan';
import { useQueryClient } from '@tanstack/react-query';
import { LogOut, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useConfirm } from '@/components/confirm-dialog';
import { useNotice } from '@/components/notices';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { useT } from '@/i18n';
import { errorDetailMessage } from '@/i18n/error-messages';
import { invalidateRoutes } from '@/lib/queries';
import { screenPath } from '@/lib/screens';
import { setCurrentWorkspace } from '@/lib/workspace-store';
import { deleteWorkspace, removeMember } from '../queries/workspaces-api';

/**
 * Leaving a team workspace (any member: removing themself) and deleting it (owners), each after a
 * question (a member leaves by removing their own user id). Either way the user is back in their personal workspace, on the dashboard.
 */
export function LeaveDeleteCard({
  workspace,
  isOwner,
  myUserId,
}: {
  workspace: WorkspaceSummary;
  isOwner: boolean;
  /** The user's id on the server: their personal workspace's id (docs/adr/0035-workspaces-and-roles.md). */
  myUserId: string;
}) {
  const t = useT();
  const notice = useNotice();
  const confirm = useConfirm();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [busy, setBusy] = useState<'leave' | 'delete' | null>(null);

  async function run(kind: 'leave' | 'delete', work: () => Promise<unknown>, done: string) {
    setBusy(kind);
    try {
      await work();
      setCurrentWorkspace(null);
      void invalidateRoutes(client, contract.workspaces.list);
      notice.success(done);
      void navigate(screenPath('dashboard'));
    } catch (error) {
      notice.error(t('workspace.actionFailed', { message: errorDetailMessage(error, t) }));
      setBusy(null);
    }
  }

  async function leave() {
    const confirmed = await confirm({
      message: t('workspace.confirmLeave', { name: workspace.name }),
      confirmLabel: t('workspace.leave'),
      destructive: true,
    });
    if (!confirmed) return;
    await run(
      'leave',
      () => removeMember(workspace.id, myUserId),
      t('workspace.left', { name: workspace.name }),
    );
  }

  async function remove() {
    const confirmed = await confirm({
      message: t('workspace.confirmDelete', { name: workspace.name }),
      confirmLabel: t('workspace.delete'),
      destructive: true,
    });
    if (!confirmed) return;
    await run(
      'delete',
      () => deleteWorkspace(workspace.id),
      t('workspace.deleted', { name: workspace.name }),
    );
  }

  return (
    <Card data-testid="workspace-leave-delete">
      <CardHeader>
        <CardTitle>{t('workspace.leaveTitle')}</CardTitle>
      </CardHeader>
      <CardContent className="space-y-4">
        <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
          <p className="text-sm text-muted-foreground">{t('workspace.leaveText')}</p>
          <Button
            variant="outline"
            disabled={busy !== null}
            onClick={() => void leave()}
            data-testid="workspace-leave"
          >
            {busy === 'leave' ? <Spinner /> : <LogOut />}
            {t('workspace.leave')}
          </Button>
        </div>
        {isOwner && (
          <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
            <p className="text-sm text-muted-foreground">{t('workspace.deleteText')}</p>
            <Button
              variant="destructive"
              disabled={busy !== null}
              onClick={() => void remove()}
              data-testid="workspace-delete"
            >
              {busy === 'delete' ? <Spinner /> : <Trash2 />}
              {t('workspace.delete')}
            </Button>
          </div>
        )}
      </CardContent>
    </Card>
  );
}
