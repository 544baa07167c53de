import type { WorkspaceSummary } from '@aqa/plan';
import { Check, ChevronsUpDown, Plus, Settings2, Users } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { useNotice } from '@/components/notices';
import { useT } from '@/i18n';
import { errorDetailMessage } from '@/i18n/error-messages';
import { screenPath } from '@/lib/screens';
import { cn } from '@/lib/utils';
import { findWorkspace, useWorkspaces } from '@/lib/workspace';
import { setCurrentWorkspace, useCurrentWorkspaceId } from '@/lib/workspace-store';
import { useSwitchWorkspace } from '../hooks/useSwitchWorkspace';
import { workspaceName } from '../model/workspace-name';

const rowClass =
  'flex w-full items-center gap-2 rounded-md px-2 py-1.5 text-left text-sm transition-colors hover:bg-muted focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring';

/**
 * The sidebar's workspace switcher (docs/adr/0035-workspaces-and-roles.md): the current workspace's name
 * and the user's role in it; opened, the user's workspaces with their roles, "New workspace…" and "Manage
 * workspace". A disclosure rather than a menu: the sidebar is a list of links already, and this keeps
 * it one more list, reachable in the same tab order.
 */
export function WorkspaceSwitcher({ onNavigate }: { onNavigate?: () => void }) {
  const t = useT();
  const navigate = useNavigate();
  const notice = useNotice();
  const switchTo = useSwitchWorkspace();
  const currentId = useCurrentWorkspaceId();
  const list = useWorkspaces();
  const [open, setOpen] = useState(false);
  const listId = useId();
  const workspaces = list.data?.workspaces ?? [];
  const current = findWorkspace(workspaces, currentId);

  // A workspace the list no longer has (deleted, or the user was removed): back to the personal one.
  const lost = list.isSuccess && currentId !== null && current === null;
  useEffect(() => {
    if (!lost) return;
    setCurrentWorkspace(null);
    notice.error(t('workspace.fellBack'));
  }, [lost, notice, t]);

  const name = current ? workspaceName(current, t) : currentId === null ? t('workspace.personal') : '…';
  const go = (path: string) => {
    setOpen(false);
    onNavigate?.();
    void navigate(path);
  };
  const choose = (workspace: WorkspaceSummary) => {
    setOpen(false);
    onNavigate?.();
    if (workspace === current) return;
    switchTo(workspace.personal ? null : workspace.id, workspaceName(workspace, t));
  };

  return (
    <div className="border-b border-border px-3 py-2" data-testid="workspace-switcher">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={listId}
        aria-label={t('workspace.switcher', { name })}
        onClick={() => setOpen(!open)}
        className={cn(rowClass, 'h-10 px-2.5')}
        data-testid="workspace-switcher-toggle"
      >
        <Users aria-hidden className="size-4 shrink-0 opacity-80" />
        <span className="min-w-0 flex-1">
          <span className="block truncate font-medium" data-testid="workspace-current-name">
            {name}
          </span>
          {current && (
            <span
              className="block truncate text-xs text-muted-foreground"
              data-testid="workspace-current-role"
            >
              {t(`workspace.role.${current.role}`)}
            </span>
          )}
        </span>
        <ChevronsUpDown aria-hidden className="size-4 shrink-0 opacity-60" />
      </button>
      {open && (
        <div id={listId} className="mt-1 space-y-1">
          <p className="px-2 pt-1 text-xs font-medium text-muted-foreground">
            {t('workspace.switcherTitle')}
          </p>
          {list.isError && (
            <p role="alert" className="px-2 text-xs text-destructive-text" data-testid="workspace-list-error">
              {t('workspace.listFailed', { message: errorDetailMessage(list.error, t) })}
            </p>
          )}
          <ul className="space-y-0.5">
            {workspaces.map((workspace) => {
              const selected = workspace === current;
              return (
                <li key={workspace.id}>
                  <button
                    type="button"
                    aria-current={selected ? 'true' : undefined}
                    onClick={() => choose(workspace)}
                    className={cn(rowClass, selected && 'bg-accent text-accent-foreground')}
                    data-testid="workspace-option"
                    data-workspace-id={workspace.id}
                  >
                    <Check aria-hidden className={cn('size-4 shrink-0', !selected && 'invisible')} />
                    <span className="min-w-0 flex-1 truncate">{workspaceName(workspace, t)}</span>
                    <span className="shrink-0 text-xs text-muted-foreground">
                      {t(`workspace.role.${workspace.role}`)}
                    </span>
                  </button>
                </li>
              );
            })}
          </ul>
          <div className="h-px bg-border" role="presentation" />
          <button
            type="button"
            onClick={() => go(`${screenPath('workspace')}?new=1`)}
            className={cn(rowClass, 'text-muted-foreground')}
            data-testid="workspace-new"
          >
            <Plus aria-hidden className="size-4 shrink-0" />
            {t('workspace.new')}
          </button>
          <button
            type="button"
            onClick={() => go(screenPath('workspace'))}
            className={cn(rowClass, 'text-muted-foreground')}
            data-testid="workspace-manage"
          >
            <Settings2 aria-hidden className="size-4 shrink-0" />
            {t('workspace.manage')}
          </button>
        </div>
      )}
    </div>
  );
}
