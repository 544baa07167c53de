import { contract } from '@aqa/contract';
import {
  INVITE_DAYS_DEFAULT,
  type WorkspaceInviteCreated,
  type WorkspaceRole,
  type WorkspaceSummary,
} from '@aqa/plan';
import { useQueryClient } from '@tanstack/react-query';
import { Copy, Link2, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { FormField } from '@/components/form-field';
import { useNotice } from '@/components/notices';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { Spinner } from '@/components/ui/spinner';
import { useI18n } from '@/i18n';
import { errorDetailMessage } from '@/i18n/error-messages';
import { invalidateRoutes, useRouteQuery } from '@/lib/queries';
import { createInvite, withdrawInvite } from '../queries/workspaces-api';
import { RoleSelect } from './RoleSelect';

/** How long a new link lasts: the choices offered (the server takes 1 to 30 days). */
const DAY_CHOICES = [1, INVITE_DAYS_DEFAULT, 30] as const;

/**
 * Invite links of a team workspace (owners; docs/adr/0035-workspaces-and-roles.md): for someone without
 * an account yet, or whose address the owner does not know. A link is for one role, used once, and
 * expires; it is shown once when made (only its hash is kept), and the links not yet used are listed
 * with who made them and when they expire, each withdrawable.
 */
export function InviteLinksCard({ workspace }: { workspace: WorkspaceSummary }) {
  const { t, language } = useI18n();
  const notice = useNotice();
  const client = useQueryClient();
  const params = { params: { id: workspace.id } };
  const invites = useRouteQuery(contract.workspaces.invites, params);
  const [role, setRole] = useState<WorkspaceRole>('viewer');
  const [days, setDays] = useState<number>(INVITE_DAYS_DEFAULT);
  const [made, setMade] = useState<WorkspaceInviteCreated | null>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const dateFormat = new Intl.DateTimeFormat(language === 'ko' ? 'ko-KR' : 'en-US', {
    dateStyle: 'medium',
    timeStyle: 'short',
  });

  async function make() {
    setBusy(true);
    setFailure(null);
    try {
      setMade(await createInvite(workspace.id, { role, days }));
      await invalidateRoutes(client, contract.workspaces.invites);
    } catch (error) {
      setFailure(t('workspace.actionFailed', { message: errorDetailMessage(error, t) }));
    } finally {
      setBusy(false);
    }
  }

  async function copy(url: string) {
    try {
      await navigator.clipboard.writeText(url);
      notice.success(t('workspace.invite.copied'));
    } catch {
      notice.error(t('workspace.invite.copyFailed'));
    }
  }

  async function withdraw(id: string) {
    try {
      await withdrawInvite(workspace.id, id);
      if (made?.id === id) setMade(null);
      await invalidateRoutes(client, contract.workspaces.invites);
    } catch (error) {
      setFailure(t('workspace.actionFailed', { message: errorDetailMessage(error, t) }));
    }
  }

  return (
    <Card data-testid="workspace-invites">
      <CardHeader>
        <CardTitle>{t('workspace.invite.title')}</CardTitle>
        <CardDescription>{t('workspace.invite.text')}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <div className="grid gap-3 sm:grid-cols-[12rem_12rem_auto] sm:items-start">
          <FormField id="workspace-invite-role" label={t('workspace.memberRole')}>
            {(control) => (
              <RoleSelect {...control} value={role} onRole={setRole} data-testid="workspace-invite-role" />
            )}
          </FormField>
          <FormField id="workspace-invite-days" label={t('workspace.invite.lasts')}>
            {(control) => (
              <NativeSelect
                {...control}
                value={String(days)}
                onChange={(e) => setDays(Number(e.target.value))}
                data-testid="workspace-invite-days"
              >
                {DAY_CHOICES.map((choice) => (
                  <option key={choice} value={choice}>
                    {t('workspace.invite.days', { count: choice })}
                  </option>
                ))}
              </NativeSelect>
            )}
          </FormField>
          <Button
            type="button"
            disabled={busy}
            className="sm:mt-7 sm:justify-self-start"
            onClick={() => void make()}
            data-testid="workspace-invite-make"
          >
            {busy ? <Spinner /> : <Link2 />}
            {t('workspace.invite.make')}
          </Button>
        </div>
        {made && (
          <div className="space-y-2 rounded-md border bg-muted/40 p-3" data-testid="workspace-invite-made">
            <p className="text-sm">
              {t('workspace.invite.madeText', {
                role: t(`workspace.role.${made.role}`),
                date: dateFormat.format(new Date(made.expires_at)),
              })}
            </p>
            <div className="flex gap-2">
              <Input
                readOnly
                value={made.url}
                aria-label={t('workspace.invite.link')}
                data-testid="workspace-invite-url"
              />
              <Button type="button" variant="outline" onClick={() => void copy(made.url)}>
                <Copy />
                {t('workspace.invite.copy')}
              </Button>
            </div>
          </div>
        )}
        {failure && (
          <Alert variant="destructive" data-testid="workspace-invite-error">
            {failure}
          </Alert>
        )}
        {invites.data && invites.data.invites.length > 0 && (
          <ul className="divide-y text-sm" data-testid="workspace-invite-list">
            {invites.data.invites.map((invite) => (
              <li key={invite.id} className="flex items-center justify-between gap-3 py-2">
                <span>
                  {t('workspace.invite.row', {
                    role: t(`workspace.role.${invite.role}`),
                    by: invite.created_by,
                    date: dateFormat.format(new Date(invite.expires_at)),
                  })}
                </span>
                <Button
                  type="button"
                  variant="ghost"
                  size="sm"
                  onClick={() => void withdraw(invite.id)}
                  data-testid="workspace-invite-withdraw"
                >
                  <Trash2 />
                  {t('workspace.invite.withdraw')}
                </Button>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
