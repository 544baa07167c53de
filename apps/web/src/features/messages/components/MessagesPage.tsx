import type { Message, MessageKind, MessageList } from '@aqa/plan';
import { CheckCheck, Inbox } from 'lucide-react';
import { contract } from '@aqa/contract';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { useNotice } from '@/components/notices';
import { PageHeader } from '@/components/page-header';
import { EmptyBlock, ErrorBlock, LoadingBlock } from '@/components/state-blocks';
import { Badge, type BadgeProps } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { useI18n, type Translate } from '@/i18n';
import { errorDetailMessage } from '@/i18n/error-messages';
import { bodyIn } from '@/i18n/phrases';
import { routeKey, useRouteLoader, viewOf } from '@/lib/queries';
import { cn } from '@/lib/utils';
import { reportUnread, useUnreadCount } from '../model/unread-count';
import { fetchMessages, markMessagesRead } from '../queries/messages-api';

const KIND_VARIANT: Record<MessageKind, NonNullable<BadgeProps['variant']>> = {
  completed: 'success',
  failed: 'destructive',
  stopped: 'secondary',
  interrupted: 'warning',
  threshold_failed: 'destructive',
};

/** The message's heading in the user's language; the body's figures are the server's, as stored. */
export function messageHeading(message: Message, t: Translate): string {
  const test = t(`messages.test.${message.test_type}`);
  return t(`messages.heading.${message.kind}`, { name: message.name, test });
}

/** The list, whose unread count the sidebar's badge takes at once. */
async function loadMessages(client: QueryClient, signal: AbortSignal): Promise<MessageList> {
  const list = await fetchMessages(signal);
  reportUnread(client, list.unread);
  return list;
}

function MessageItem({
  message,
  onOpen,
  onMarkRead,
}: {
  message: Message;
  onOpen: (message: Message) => void;
  onMarkRead: (message: Message) => void;
}) {
  const { t, locale, language } = useI18n();
  const unread = message.read_at === null;
  const at = new Date(message.created_at);
  return (
    <li
      className={cn('flex gap-3 px-4 py-3.5 sm:px-5', unread && 'bg-accent/40')}
      data-testid="message-item"
      data-unread={unread ? 'true' : 'false'}
    >
      <span
        aria-hidden
        className={cn('mt-2 size-2 shrink-0 rounded-full', unread ? 'bg-primary' : 'bg-transparent')}
      />
      <div className="min-w-0 flex-1 space-y-1">
        <div className="flex flex-wrap items-center gap-2">
          <Badge variant={KIND_VARIANT[message.kind]} data-testid="message-kind">
            {t(`messages.kind.${message.kind}`)}
          </Badge>
          {unread && <span className="sr-only">{t('messages.unread')}</span>}
          <time dateTime={message.created_at} className="text-xs text-muted-foreground">
            {new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(at)}
          </time>
        </div>
        <p className={cn('text-sm', unread ? 'font-semibold' : 'font-medium')}>
          <Link
            to={message.link}
            onClick={() => onOpen(message)}
            className="hover:underline focus-visible:underline focus-visible:outline-none"
            data-testid="message-link"
          >
            {messageHeading(message, t)}
          </Link>
        </p>
        <p className="break-words text-[13px] text-muted-foreground" data-testid="message-body">
          {bodyIn(language, message.body, message.body_phrases)}
        </p>
      </div>
      <div className="flex shrink-0 flex-col items-end gap-1.5 sm:flex-row sm:items-start">
        {unread && (
          <Button
            variant="ghost"
            size="sm"
            onClick={() => onMarkRead(message)}
            data-testid="message-mark-read"
          >
            {t('messages.markRead')}
          </Button>
        )}
        <Button asChild variant="outline" size="sm">
          <Link to={message.link} onClick={() => onOpen(message)}>
            {t('messages.viewResult')}
          </Link>
        </Button>
      </div>
    </li>
  );
}

/**
 * Messages (docs/reference/02-running.md §2 "Messages"): the user's notifications about their ended runs,
 * newest first, unread ones marked. Opening one (its title or "View result") marks it read and goes to the
 * result; "Mark all read" clears the sidebar's count.
 */
export default function MessagesPage() {
  const { t } = useI18n();
  const notice = useNotice();
  const queryClient = useQueryClient();
  const query = useRouteLoader('messages', routeKey(contract.messages.list), (signal) =>
    loadMessages(queryClient, signal),
  );
  const state = viewOf(query);
  /** Read marks set here since the list was loaded, by id. */
  const [readHere, setReadHere] = useState<Record<string, string>>({});

  const list = state.status === 'success' ? state.data : null;
  const messages = (list?.messages ?? []).map((m) =>
    m.read_at === null && readHere[m.id] !== undefined ? { ...m, read_at: readHere[m.id]! } : m,
  );
  const unreadShown = messages.filter((m) => m.read_at === null).length;
  // What the server's count should be now: as loaded, less the messages marked read here since.
  const markedHere = (list?.messages ?? []).filter((m) => m.read_at === null && readHere[m.id] !== undefined);
  const expectedUnread = list === null ? null : list.unread - markedHere.length;
  const polledUnread = useUnreadCount();

  // A run that ended while the screen is open: the sidebar's poll counts its message, and the list
  // follows, once per count.
  const behind = polledUnread !== null && expectedUnread !== null && polledUnread > expectedUnread;
  const { refetch } = query;
  useEffect(() => {
    if (behind) void refetch();
  }, [behind, polledUnread, refetch]);

  async function markRead(ids?: string[]): Promise<void> {
    const at = new Date().toISOString();
    const marked = ids ?? messages.filter((m) => m.read_at === null).map((m) => m.id);
    setReadHere((current) => ({ ...current, ...Object.fromEntries(marked.map((id) => [id, at])) }));
    try {
      const { unread } = await markMessagesRead(ids);
      reportUnread(queryClient, unread);
      if (ids === undefined) notice.success(t('messages.allRead'));
    } catch (error) {
      setReadHere((current) =>
        Object.fromEntries(Object.entries(current).filter(([id]) => !marked.includes(id))),
      );
      notice.error(t('messages.markFailed', { message: errorDetailMessage(error, t) }));
    }
  }

  const open = (message: Message) => {
    if (message.read_at === null) void markRead([message.id]);
  };

  return (
    <div className="max-w-4xl space-y-6" data-testid="messages-page">
      <PageHeader
        title={t('messages.title')}
        description={t('messages.description')}
        actions={
          list !== null &&
          messages.length > 0 && (
            <Button
              variant="outline"
              onClick={() => void markRead()}
              disabled={unreadShown === 0}
              data-testid="messages-mark-all-read"
            >
              <CheckCheck aria-hidden className="size-4" />
              {t('messages.markAllRead')}
            </Button>
          )
        }
      />
      {state.status === 'loading' || state.status === 'idle' ? (
        <LoadingBlock text={t('messages.loading')} />
      ) : state.status === 'error' ? (
        <ErrorBlock
          title={t('messages.loadFailed')}
          detail={errorDetailMessage(state.error, t)}
          onRetry={() => void refetch()}
        />
      ) : messages.length === 0 ? (
        <Card>
          <EmptyBlock
            icon={Inbox}
            title={t('messages.emptyTitle')}
            text={t('messages.emptyText')}
            data-testid="messages-empty"
          />
        </Card>
      ) : (
        <Card className="overflow-hidden p-0">
          {unreadShown > 0 && (
            <p className="border-b border-border px-5 py-2 text-xs font-medium text-muted-foreground">
              {t('messages.unreadCount', { count: unreadShown })}
            </p>
          )}
          <ul className="divide-y divide-border" data-testid="messages-list">
            {messages.map((message) => (
              <MessageItem
                key={message.id}
                message={message}
                onOpen={open}
                onMarkRead={(m) => void markRead([m.id])}
              />
            ))}
          </ul>
        </Card>
      )}
    </div>
  );
}
