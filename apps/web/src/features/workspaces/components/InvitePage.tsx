import { contract } from '@aqa/contract';
import { useQueryClient } from '@tanstack/react-query';
import { UserPlus } from 'lucide-react';
import { useState } from 'react';
import { useParams } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { ErrorBlock, LoadingBlock } from '@/components/state-blocks';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { useI18n } from '@/i18n';
import { errorDetailMessage } from '@/i18n/error-messages';
import { invalidateRoutes, useRouteQuery } from '@/lib/queries';
import { useSwitchWorkspace } from '../hooks/useSwitchWorkspace';
import { acceptInvite } from '../queries/workspaces-api';

/**
 * `/invite/:token`: an invite link (docs/adr/0035-workspaces-and-roles.md). Signed in (a visitor signs in
 * or registers first and comes back here), the person sees which workspace and role the link offers and
 * joins with one button, which opens the workspace. A link used, withdrawn or expired says so in words.
 */
export default function InvitePage() {
  const { t, language } = useI18n();
  const { token = '' } = useParams();
  const preview = useRouteQuery(contract.workspaces.previewInvite, { params: { token } });
  const switchTo = useSwitchWorkspace();
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const dateFormat = new Intl.DateTimeFormat(language === 'ko' ? 'ko-KR' : 'en-US', {
    dateStyle: 'medium',
    timeStyle: 'short',
  });

  async function join() {
    setBusy(true);
    setFailure(null);
    try {
      const joined = await acceptInvite(token);
      // The switcher's list must hold the workspace before it is chosen, or it falls back to personal.
      await invalidateRoutes(client, contract.workspaces.list);
      switchTo(joined.id, joined.name);
    } catch (error) {
      setFailure(errorDetailMessage(error, t));
      setBusy(false);
    }
  }

  return (
    <div className="space-y-6" data-testid="invite-page">
      <PageHeader title={t('workspace.invite.pageTitle')} description={t('workspace.invite.pageText')} />
      {preview.isPending && <LoadingBlock text={t('workspace.invite.loading')} />}
      {preview.isError && (
        <ErrorBlock
          title={t('workspace.invite.unusable')}
          detail={errorDetailMessage(preview.error, t)}
          data-testid="invite-error"
        />
      )}
      {preview.data && (
        <Card className="max-w-xl">
          <CardHeader>
            <CardTitle data-testid="invite-workspace">{preview.data.workspace_name}</CardTitle>
            <CardDescription>
              {t('workspace.invite.offer', {
                role: t(`workspace.role.${preview.data.role}`),
                date: dateFormat.format(new Date(preview.data.expires_at)),
              })}
            </CardDescription>
          </CardHeader>
          <CardContent className="space-y-3">
            <p className="text-sm text-muted-foreground">{t(`workspace.roleHelp.${preview.data.role}`)}</p>
            <Button type="button" disabled={busy} onClick={() => void join()} data-testid="invite-join">
              {busy ? <Spinner /> : <UserPlus />}
              {t('workspace.invite.join')}
            </Button>
            {failure && (
              <Alert variant="destructive" data-testid="invite-join-error">
                {failure}
              </Alert>
            )}
          </CardContent>
        </Card>
      )}
    </div>
  );
}
