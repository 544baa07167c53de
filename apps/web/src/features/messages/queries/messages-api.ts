import { contract } from '@aqa/contract';
import type { MarkMessagesRead, MessageList, UnreadCount } from '@aqa/plan';
import { call } from '@/lib/api';

/** GET /api/messages: the newest `limit` messages (0: the unread count alone) and the unread count. */
export function fetchMessages(signal?: AbortSignal, limit?: number): Promise<MessageList> {
  return call(contract.messages.list, { query: { limit } }, signal === undefined ? undefined : { signal });
}

/** POST /api/messages/read: marks the messages named, or all of them; answers the unread count. */
export function markMessagesRead(ids?: string[]): Promise<UnreadCount> {
  const body: MarkMessagesRead = ids === undefined ? {} : { ids };
  return call(contract.messages.markRead, { body });
}
