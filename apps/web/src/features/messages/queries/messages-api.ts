import type { MarkMessagesRead, MessageList, UnreadCount } from '@aqa/plan';
import { api } from '@/lib/api';

/** GET /api/messages: the newest `limit` messages (0: the unread count alone) and the unread count. */
export function fetchMessages(signal?: AbortSignal, limit?: number): Promise<MessageList> {
  const query = limit === undefined ? '' : `?limit=${limit}`;
  return api.get<MessageList>(`/messages${query}`, signal === undefined ? undefined : { signal });
}

/** POST /api/messages/read: marks the messages named, or all of them; answers the unread count. */
export function markMessagesRead(ids?: string[]): Promise<UnreadCount> {
  const body: MarkMessagesRead = ids === undefined ? {} : { ids };
  return api.post<UnreadCount>('/messages/read', body);
}
