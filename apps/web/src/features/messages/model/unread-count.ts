import { MESSAGES_POLL_MS } from '@aqa/plan';
import { useSyncExternalStore } from 'react';
import { fetchMessages } from '../queries/messages-api';

/*
 * The unread count of the sidebar's Messages item, kept live (docs/reference/02-running.md §2 "Messages"):
 * asked of GET /api/messages?limit=0 every MESSAGES_POLL_MS while the tab is visible, and at once when it
 * becomes visible again. A run's live stream is per run and ends with it, so it cannot carry a message
 * about another run; a 15 s poll of one count is cheap. The Messages screen reports the count it reads
 * and sets, so the badge follows it without waiting for the next poll.
 */

let unread: number | null = null;
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;

function set(next: number | null): void {
  if (next === unread) return;
  unread = next;
  for (const listener of listeners) listener();
}

/** The Messages screen tells the count it has just read or set. */
export function reportUnread(count: number): void {
  set(count);
}

async function poll(): Promise<void> {
  if (document.visibilityState !== 'visible') return;
  try {
    set((await fetchMessages(undefined, 0)).unread);
  } catch {
    // The count stays as it was; the next poll tries again (a 401 ends the session on its own).
  }
}

function onVisibilityChange(): void {
  void poll();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (listeners.size === 1) {
    void poll();
    timer = setInterval(() => void poll(), MESSAGES_POLL_MS);
    document.addEventListener('visibilitychange', onVisibilityChange);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size > 0) return;
    clearInterval(timer);
    document.removeEventListener('visibilitychange', onVisibilityChange);
    // Signed out (the shell is gone): the next user starts from their own count.
    unread = null;
  };
}

/** The user's unread messages, null until first known; polls while anything shows it. */
export function useUnreadCount(): number | null {
  return useSyncExternalStore(
    subscribe,
    () => unread,
    () => null,
  );
}
