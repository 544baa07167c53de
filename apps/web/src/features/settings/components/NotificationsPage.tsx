import {
  contract,
  NOTIFICATION_CHANNEL_TYPES,
  NOTIFICATION_EVENTS,
  NOTIFICATION_MESSAGES,
  NotificationChannelCreateSchema,
  type DeliveryStatus,
  type NotificationChannel,
  type NotificationChannelType,
  type NotificationEvent,
} from '@aqa/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Bell, Send, Trash2 } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useConfirm } from '@/components/confirm-dialog';
import { FormField } from '@/components/form-field';
import { useNotice } from '@/components/notices';
import { PageHeader } from '@/components/page-header';
import { ViewerNotice } from '@/components/viewer-notice';
import { useWorkspace } from '@/lib/workspace';
import { EmptyBlock, ErrorBlock, LoadingBlock } from '@/components/state-blocks';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { Spinner } from '@/components/ui/spinner';
import { formatDateTime } from '@/features/history';
import { useI18n, type Translate } from '@/i18n';
import type { MessageKey } from '@/i18n/en';
import { errorDetailMessage } from '@/i18n/error-messages';
import { ApiError } from '@/lib/api';
import { invalidateRoutes, useRouteQuery, viewOf } from '@/lib/queries';
import { createChannel, deleteChannel, testChannel } from '../queries/notifications-api';
import { PlanChannelsCard } from './PlanChannelsCard';

type Field = 'url' | 'secret' | 'events';
type FieldErrors = Partial<Record<Field, string>>;

/** The contract's messages (the server's too), by their key here: shown in the user's language. */
const MESSAGE_KEYS: Record<string, MessageKey> = {
  [NOTIFICATION_MESSAGES.urlRequired]: 'notifications.error.urlRequired',
  [NOTIFICATION_MESSAGES.urlHttp]: 'notifications.error.urlHttp',
  [NOTIFICATION_MESSAGES.urlEmail]: 'notifications.error.urlEmail',
  [NOTIFICATION_MESSAGES.secretLength]: 'notifications.error.secretLength',
  [NOTIFICATION_MESSAGES.events]: 'notifications.error.events',
  'type: e-mail channels need SMTP_URL set on the server': 'notifications.error.smtp',
};

function translated(message: string, t: Translate): string {
  const key = MESSAGE_KEYS[message];
  return key === undefined ? message : t(key);
}

const STATUS_VARIANT: Record<DeliveryStatus, 'success' | 'warning' | 'destructive' | 'info'> = {
  sent: 'success',
  retrying: 'warning',
  pending: 'info',
  failed: 'destructive',
};

function StatusBadge({ status, testId }: { status: DeliveryStatus; testId?: string }) {
  const { t } = useI18n();
  return (
    <Badge variant={STATUS_VARIANT[status]} data-testid={testId}>
      {t(`notifications.status.${status}`)}
    </Badge>
  );
}

/** A channel's delivery log: each delivery with its attempts and what the receiver answered. */
function DeliveryLog({ channel }: { channel: NotificationChannel }) {
  const { t, locale } = useI18n();
  const query = useRouteQuery(
    contract.notifications.deliveries,
    { params: { id: channel.id } },
    {
      // While a delivery is still being tried, its next attempts are read as they come.
      refetchInterval: (current) =>
        current.state.data?.deliveries.some((d) => d.status === 'pending' || d.status === 'retrying')
          ? 2000
          : false,
    },
  );
  const log = viewOf(query);
  if (log.status === 'loading' || log.status === 'idle')
    return <LoadingBlock text={t('notifications.logLoading')} className="py-4" />;
  if (log.status === 'error')
    return (
      <ErrorBlock
        title={t('notifications.loadFailed')}
        detail={errorDetailMessage(log.error, t)}
        onRetry={() => void query.refetch()}
      />
    );
  if (log.data.deliveries.length === 0)
    return <p className="text-[13px] text-muted-foreground">{t('notifications.logEmpty')}</p>;
  return (
    <ol className="space-y-3" data-testid="delivery-log">
      {log.data.deliveries.map((delivery) => (
        <li key={delivery.id} className="rounded-md border border-border p-3" data-testid="delivery-row">
          <p className="flex flex-wrap items-center gap-2 text-sm">
            <StatusBadge status={delivery.status} testId="delivery-status" />
            <span className="font-medium">{t(`notifications.event.${delivery.event}`)}</span>
            {delivery.run_id !== null && (
              <span className="text-muted-foreground">{t('notifications.run', { id: delivery.run_id })}</span>
            )}
            <span className="text-muted-foreground">{formatDateTime(delivery.created_at, locale)}</span>
          </p>
          <ul className="mt-2 space-y-1 text-[13px]">
            {delivery.attempts.map((attempt) => (
              <li key={attempt.attempt} data-testid="delivery-attempt" className="break-words">
                <span className="font-medium">
                  {t('notifications.attempt', { attempt: attempt.attempt })}
                </span>
                {' · '}
                {attempt.http_status === null ? t('notifications.noAnswer') : `HTTP ${attempt.http_status}`}
                {' · '}
                <span className="font-mono text-muted-foreground">{attempt.answer}</span>
              </li>
            ))}
          </ul>
        </li>
      ))}
    </ol>
  );
}

function ChannelRow({
  channel,
  onTest,
  onDelete,
  busy,
}: {
  channel: NotificationChannel;
  onTest: () => void;
  onDelete: () => void;
  busy: boolean;
}) {
  const { t, locale } = useI18n();
  const [showLog, setShowLog] = useState(false);
  const { readOnly } = useWorkspace();
  const last = channel.last_delivery;
  return (
    <li className="space-y-3 px-4 py-3" data-testid="channel-row">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <div className="min-w-0 flex-1 space-y-1">
          <p className="flex flex-wrap items-center gap-2 text-sm font-medium">
            <span className="truncate" data-testid="channel-name">
              {channel.name}
            </span>
            <Badge variant="outline" data-testid="channel-type">
              {t(`notifications.type.${channel.type}`)}
            </Badge>
            {channel.events.map((event) => (
              <Badge key={event} variant="secondary" data-testid="channel-event">
                {t(`notifications.event.${event}`)}
              </Badge>
            ))}
          </p>
          <p className="truncate font-mono text-[13px] text-muted-foreground">
            {channel.url}
            {channel.secret_hint !== null &&
              ` · ${t('notifications.secretShown', { hint: channel.secret_hint.replace('…', '') })}`}
          </p>
          <p className="flex flex-wrap items-center gap-2 text-[13px]" data-testid="channel-last">
            <span className="text-muted-foreground">{t('notifications.last')}:</span>
            {last === null ? (
              <span className="text-muted-foreground">{t('notifications.never')}</span>
            ) : (
              <>
                <StatusBadge status={last.status} testId="channel-last-status" />
                <span className="text-muted-foreground">
                  {formatDateTime(last.at, locale)}
                  {last.http_status !== null && ` · HTTP ${last.http_status}`}
                </span>
              </>
            )}
          </p>
        </div>
        <div className="flex gap-2">
          {!readOnly && (
            <Button variant="outline" size="sm" onClick={onTest} disabled={busy} data-testid="channel-test">
              <Send aria-hidden />
              {t('notifications.test')}
            </Button>
          )}
          <Button
            variant="outline"
            size="sm"
            onClick={() => setShowLog((v) => !v)}
            aria-expanded={showLog}
            data-testid="channel-log-toggle"
          >
            {showLog ? t('notifications.hideLog') : t('notifications.showLog')}
          </Button>
          {!readOnly && (
            <Button
              variant="outline"
              size="sm"
              onClick={onDelete}
              disabled={busy}
              data-testid="channel-delete"
            >
              <Trash2 aria-hidden />
              {t('notifications.delete')}
            </Button>
          )}
        </div>
      </div>
      {showLog && <DeliveryLog channel={channel} />}
    </li>
  );
}

/**
 * Settings → Notifications (docs/adr/0032-notifications-out.md): add a webhook, Slack, Teams or e-mail
 * channel for the events chosen, list the channels with their last delivery, send a test, read each
 * channel's delivery log, delete one. The rules are the contract's (NotificationChannelCreateSchema),
 * checked here before the server checks them again.
 */
export default function NotificationsPage() {
  const { t } = useI18n();
  const notice = useNotice();
  const confirm = useConfirm();
  const queryClient = useQueryClient();
  const channelsQuery = useRouteQuery(contract.notifications.list, undefined, {
    // A delivery being tried: its channel's last state is read again until it settles.
    refetchInterval: (current) =>
      current.state.data?.channels.some(
        (c) => c.last_delivery?.status === 'pending' || c.last_delivery?.status === 'retrying',
      )
        ? 2000
        : false,
  });
  const channels = viewOf(channelsQuery);
  const reload = () =>
    void invalidateRoutes(queryClient, contract.notifications.list, contract.notifications.deliveries);
  const [type, setType] = useState<NotificationChannelType>('webhook');
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [secret, setSecret] = useState('');
  const [events, setEvents] = useState<NotificationEvent[]>(['run_failed']);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);

  async function handleAdd(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (adding) return;
    setFormError(null);
    const parsed = NotificationChannelCreateSchema.safeParse({
      type,
      url,
      events,
      ...(name.trim() === '' ? {} : { name }),
      ...(type === 'webhook' && secret !== '' ? { secret } : {}),
    });
    if (!parsed.success) {
      const found: FieldErrors = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0];
        if (field === 'url' || field === 'secret' || field === 'events')
          found[field] ??= translated(issue.message, t);
      }
      setErrors(found);
      return;
    }
    setErrors({});
    setAdding(true);
    try {
      await createChannel(parsed.data);
      notice.success(t('notifications.added', { name: parsed.data.name ?? parsed.data.url }));
      setName('');
      setUrl('');
      setSecret('');
      reload();
    } catch (error) {
      const message =
        error instanceof ApiError && error.kind === 'http'
          ? translated(error.detail, t)
          : errorDetailMessage(error, t);
      setFormError(t('notifications.addFailed', { message }));
    } finally {
      setAdding(false);
    }
  }

  async function handleTest(channel: NotificationChannel) {
    setBusy(channel.id);
    try {
      await testChannel(channel.id);
      notice.success(t('notifications.testQueued', { name: channel.name }));
    } catch (error) {
      notice.error(t('notifications.testFailed', { message: errorDetailMessage(error, t) }));
    } finally {
      setBusy(null);
      reload();
    }
  }

  async function handleDelete(channel: NotificationChannel) {
    const confirmed = await confirm({
      message: t('notifications.confirmDelete', { name: channel.name }),
      confirmLabel: t('notifications.delete'),
      destructive: true,
    });
    if (!confirmed) return;
    setBusy(channel.id);
    try {
      await deleteChannel(channel.id);
      notice.success(t('notifications.deleted', { name: channel.name }));
    } catch (error) {
      notice.error(t('notifications.deleteFailed', { message: errorDetailMessage(error, t) }));
    } finally {
      setBusy(null);
      reload();
    }
  }

  const toggleEvent = (value: NotificationEvent) => {
    setEvents((current) =>
      current.includes(value) ? current.filter((e) => e !== value) : [...current, value],
    );
    setErrors((current) => ({ ...current, events: undefined }));
  };

  // Viewers see the channels, not the form nor Test and Delete (docs/adr/0035-workspaces-and-roles.md).
  const { readOnly } = useWorkspace();
  return (
    <div className="max-w-3xl space-y-6" data-testid="notifications-page">
      <PageHeader title={t('notifications.title')} description={t('notifications.subtitle')} />
      <ViewerNotice />

      {!readOnly && (
        <Card>
          <CardHeader>
            <CardTitle as="h2" className="flex items-center gap-2">
              <Bell aria-hidden className="size-4 text-muted-foreground" />
              {t('notifications.addTitle')}
            </CardTitle>
            <CardDescription>{t('notifications.perPlan')}</CardDescription>
          </CardHeader>
          <CardContent>
            <form
              noValidate
              onSubmit={(e) => void handleAdd(e)}
              className="space-y-4"
              data-testid="channel-form"
            >
              <div className="grid gap-4 sm:grid-cols-[12rem_1fr]">
                <FormField id="channel-type" label={t('notifications.type')}>
                  {(control) => (
                    <NativeSelect
                      {...control}
                      value={type}
                      onChange={(e) => {
                        setType(e.target.value as NotificationChannelType);
                        setErrors({});
                      }}
                      data-testid="channel-type-select"
                    >
                      {NOTIFICATION_CHANNEL_TYPES.map((value) => (
                        <option key={value} value={value}>
                          {t(`notifications.type.${value}`)}
                        </option>
                      ))}
                    </NativeSelect>
                  )}
                </FormField>
                <FormField id="channel-name" label={t('notifications.name')}>
                  {(control) => (
                    <Input
                      {...control}
                      value={name}
                      placeholder={t('notifications.namePlaceholder')}
                      onChange={(e) => setName(e.target.value)}
                      data-testid="channel-name-input"
                    />
                  )}
                </FormField>
              </div>
              <FormField
                id="channel-url"
                label={t('notifications.url')}
                required
                error={errors.url}
                errorTestId="channel-url-error"
              >
                {(control) => (
                  <Input
                    {...control}
                    value={url}
                    placeholder={t(`notifications.urlPlaceholder.${type}`)}
                    autoComplete="off"
                    onChange={(e) => {
                      setUrl(e.target.value);
                      setErrors((current) => ({ ...current, url: undefined }));
                    }}
                    data-testid="channel-url-input"
                  />
                )}
              </FormField>
              {type === 'webhook' && (
                <FormField
                  id="channel-secret"
                  label={t('notifications.secret')}
                  error={errors.secret}
                  errorTestId="channel-secret-error"
                  hint={t('notifications.secretHint')}
                >
                  {(control) => (
                    <Input
                      {...control}
                      type="password"
                      value={secret}
                      autoComplete="new-password"
                      onChange={(e) => {
                        setSecret(e.target.value);
                        setErrors((current) => ({ ...current, secret: undefined }));
                      }}
                      data-testid="channel-secret-input"
                    />
                  )}
                </FormField>
              )}
              <fieldset className="space-y-2">
                <legend className="text-sm font-medium">{t('notifications.events')}</legend>
                <div className="flex flex-wrap gap-4">
                  {NOTIFICATION_EVENTS.map((value) => (
                    <label key={value} className="flex items-center gap-2 text-sm">
                      <input
                        type="checkbox"
                        checked={events.includes(value)}
                        onChange={() => toggleEvent(value)}
                        data-testid={`channel-event-${value}`}
                      />
                      {t(`notifications.event.${value}`)}
                    </label>
                  ))}
                </div>
                {errors.events && (
                  <p className="text-[13px] text-destructive" data-testid="channel-events-error">
                    {errors.events}
                  </p>
                )}
              </fieldset>
              {formError && (
                <Alert variant="destructive" data-testid="channel-form-error">
                  {formError}
                </Alert>
              )}
              <Button type="submit" disabled={adding} data-testid="channel-add">
                {adding ? <Spinner /> : <Bell aria-hidden />}
                {adding ? t('notifications.adding') : t('notifications.add')}
              </Button>
            </form>
          </CardContent>
        </Card>
      )}

      <section aria-labelledby="channel-list-title" className="space-y-3">
        <div className="flex items-baseline justify-between gap-2">
          <h2 id="channel-list-title" className="text-sm font-medium">
            {t('notifications.listTitle')}
          </h2>
          {channels.status === 'success' && (
            <span className="text-[13px] text-muted-foreground" data-testid="channel-count">
              {t('notifications.count', { count: channels.data.channels.length, max: channels.data.limit })}
            </span>
          )}
        </div>
        {(channels.status === 'loading' || channels.status === 'idle') && (
          <LoadingBlock text={t('notifications.loading')} className="py-6" />
        )}
        {channels.status === 'error' && (
          <ErrorBlock
            title={t('notifications.loadFailed')}
            detail={errorDetailMessage(channels.error, t)}
            onRetry={() => void channelsQuery.refetch()}
          />
        )}
        {channels.status === 'success' && channels.data.channels.length === 0 && (
          <EmptyBlock
            icon={Bell}
            title={t('notifications.empty')}
            text={t('notifications.emptyText')}
            className="py-6"
            data-testid="channel-list-empty"
          />
        )}
        {channels.status === 'success' && channels.data.channels.length > 0 && (
          <ul className="divide-y divide-border rounded-lg border border-border" data-testid="channel-list">
            {channels.data.channels.map((channel) => (
              <ChannelRow
                key={channel.id}
                channel={channel}
                busy={busy === channel.id}
                onTest={() => void handleTest(channel)}
                onDelete={() => void handleDelete(channel)}
              />
            ))}
          </ul>
        )}
      </section>

      <PlanChannelsCard channels={channels.data?.channels ?? []} />
    </div>
  );
}
