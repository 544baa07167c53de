import { contract } from '@aqa/contract';
import {
  WORKSPACE_ROLES,
  type WorkspaceMember,
  type WorkspaceMembers,
  type WorkspaceRole,
  type WorkspaceSummary,
} from '@aqa/plan';
import { useQueryClient } from '@tanstack/react-query';
import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useConfirm } from '@/components/confirm-dialog';
import { useNotice } from '@/components/notices';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { NativeSelect } from '@/components/ui/native-select';
import { useI18n } from '@/i18n';
import { errorDetailMessage } from '@/i18n/error-messages';
import { invalidateRoutes, routeKey, useRouteQuery } from '@/lib/queries';
import { sessionUserEmail } from '@/lib/session';
import { AddMemberForm } from './AddMemberForm';
import { removeMember, setMemberRole } from '../queries/workspaces-api';

/**
 * The members of a team workspace (GET …/members): email, name, role and when added. Owners add members,
 * change roles and remove members; the server keeps at least one owner and says so in words.
 */
export function MembersCard({ workspace, isOwner }: { workspace: WorkspaceSummary; isOwner: boolean }) {
  const { t } = useI18n();
  const client = useQueryClient();
  const params = { params: { id: workspace.id } };
  const members = useRouteQuery(contract.workspaces.members, params);
  const show = (answer: WorkspaceMembers) => {
    client.setQueryData(routeKey(contract.workspaces.members, params), answer);
    // The switcher's member counts.
    void invalidateRoutes(client, contract.workspaces.list);
  };

  return (
    <Card data-testid="workspace-members">
      <CardHeader>
        <CardTitle>{t('workspace.membersTitle')}</CardTitle>
        {/* Who may change them is said once, on the settings card above. */}
        {isOwner && <CardDescription>{t('workspace.addText')}</CardDescription>}
      </CardHeader>
      <CardContent className="space-y-6">
        {members.isPending && (
          <p className="text-sm text-muted-foreground">{t('workspace.membersLoading')}</p>
        )}
        {members.isError && (
          <p role="alert" className="text-sm text-destructive-text" data-testid="workspace-members-error">
            {t('workspace.membersFailed', { message: errorDetailMessage(members.error, t) })}
          </p>
        )}
        {members.data && (
          <MembersTable
            workspace={workspace}
            members={members.data.members}
            isOwner={isOwner}
            onChanged={show}
          />
        )}
        {isOwner && <AddMemberForm workspaceId={workspace.id} onAdded={show} />}
      </CardContent>
    </Card>
  );
}

function MembersTable({
  workspace,
  members,
  isOwner,
  onChanged,
}: {
  workspace: WorkspaceSummary;
  members: readonly WorkspaceMember[];
  isOwner: boolean;
  onChanged: (answer: WorkspaceMembers) => void;
}) {
  const { t, locale } = useI18n();
  const notice = useNotice();
  const confirm = useConfirm();
  const me = sessionUserEmail()?.toLowerCase();
  const [busy, setBusy] = useState<string | null>(null);

  async function act(userId: string, work: () => Promise<WorkspaceMembers>, done: string) {
    setBusy(userId);
    try {
      onChanged(await work());
      notice.success(done);
    } catch (error) {
      // The server's words: the last owner cannot stop being one, say.
      notice.error(t('workspace.actionFailed', { message: errorDetailMessage(error, t) }));
    } finally {
      setBusy(null);
    }
  }

  const changeRole = (member: WorkspaceMember, role: WorkspaceRole) =>
    act(
      member.user_id,
      () => setMemberRole(workspace.id, member.user_id, role),
      t('workspace.roleChanged', { email: member.email, role: t(`workspace.role.${role}`) }),
    );

  async function remove(member: WorkspaceMember) {
    const confirmed = await confirm({
      message: t('workspace.confirmRemove', { email: member.email, name: workspace.name }),
      confirmLabel: t('workspace.remove'),
      destructive: true,
    });
    if (!confirmed) return;
    await act(
      member.user_id,
      () => removeMember(workspace.id, member.user_id),
      t('workspace.removed', { email: member.email }),
    );
  }

  const dateFormat = new Intl.DateTimeFormat(locale, { dateStyle: 'medium' });
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-sm" data-testid="workspace-members-table">
        <thead className="text-left text-[13px] text-muted-foreground">
          <tr className="border-b border-border">
            <th className="py-2 pr-4 font-medium">{t('workspace.colEmail')}</th>
            <th className="py-2 pr-4 font-medium">{t('workspace.colName')}</th>
            <th className="py-2 pr-4 font-medium">{t('workspace.colRole')}</th>
            <th className="py-2 pr-4 font-medium">{t('workspace.colAdded')}</th>
            {isOwner && <th className="py-2 font-medium" />}
          </tr>
        </thead>
        <tbody>
          {members.map((member) => {
            const self = member.email.toLowerCase() === me;
            const roleLabel = t(`workspace.role.${member.role}`);
            return (
              <tr
                key={member.user_id}
                className="border-b border-border last:border-0"
                data-testid="workspace-member-row"
              >
                <td className="py-2 pr-4 break-all">
                  {member.email}
                  {self && <span className="ml-2 text-xs text-muted-foreground">({t('workspace.you')})</span>}
                </td>
                <td className="py-2 pr-4">{member.name}</td>
                <td className="py-2 pr-4">
                  {isOwner ? (
                    <NativeSelect
                      aria-label={t('workspace.roleOf', { email: member.email })}
                      value={member.role}
                      disabled={busy !== null}
                      onChange={(e) => void changeRole(member, e.target.value as WorkspaceRole)}
                      className="w-36"
                      data-testid="workspace-member-role-select"
                    >
                      {WORKSPACE_ROLES.map((role) => (
                        <option key={role} value={role}>
                          {t(`workspace.role.${role}`)}
                        </option>
                      ))}
                    </NativeSelect>
                  ) : (
                    <span data-testid="workspace-member-role-text">{roleLabel}</span>
                  )}
                </td>
                <td className="py-2 pr-4 whitespace-nowrap tabular-nums">
                  {formatAdded(member.added_at, dateFormat)}
                </td>
                {isOwner && (
                  <td className="py-2 text-right">
                    {!self && (
                      <Button
                        variant="ghost"
                        size="sm"
                        disabled={busy !== null}
                        aria-label={t('workspace.removeLabel', { email: member.email })}
                        onClick={() => void remove(member)}
                        className="text-destructive-text"
                        data-testid="workspace-member-remove"
                      >
                        <Trash2 />
                        {t('workspace.remove')}
                      </Button>
                    )}
                  </td>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function formatAdded(iso: string, format: Intl.DateTimeFormat): string {
  const at = Date.parse(iso);
  return Number.isNaN(at) ? iso : format.format(at);
}
