import { contract } from '@aqa/contract';
import { MESSAGES_POLL_MS, type MessageList } from '@aqa/plan';
import type { QueryClient } from '@tanstack/react-query';
import { routeKey, useRouteQuery } from '@/lib/queries';

/*
 * The unread count of the sidebar's Messages item, kept live (docs/reference/02-running.md §2 "Messages"):
 * asked of GET /api/messages?limit=0 every MESSAGES_POLL_MS while the tab is visible, and at once when it
 * becomes visible again (docs/adr/0026-server-state-through-tanstack-query.md). A run's live stream is per
 * run and ends with it, so it cannot carry a message about another run; a 15 s poll of one count is
 * cheap. The Messages screen reports the count it reads and sets, so the badge follows it without
 * waiting for the next poll.
 */

const UNREAD_INPUT = { query: { limit: 0 } };

/** The Messages screen tells the count it has just read or set. */
export function reportUnread(client: QueryClient, unread: number): void {
  client.setQueryData<MessageList>(routeKey(contract.messages.list, UNREAD_INPUT), (list) => ({
    messages: list?.messages ?? [],
    unread,
  }));
}

/**
 * The user's unread messages, null until first known; polls while anything shows it. A failed poll
 * keeps the count as it was (a 401 ends the session on its own, and the cache with it).
 */
export function useUnreadCount(): number | null {
  const query = useRouteQuery(contract.messages.list, UNREAD_INPUT, {
    select: (list) => list.unread,
    refetchInterval: MESSAGES_POLL_MS,
    refetchIntervalInBackground: false,
    // The tab becoming visible again asks at once (the query client's focus is the tab's visibility).
    refetchOnWindowFocus: true,
  });
  return query.data ?? null;
}
