import { QueryClient } from '@tanstack/react-query';
import { getToken, subscribeSession } from '@/lib/session';

/**
 * The web's cache of server state (docs/adr/0026-server-state-through-tanstack-query.md): one client in
 * the app shell, a fresh one for each rendered test (src/test/render.tsx). The defaults keep the calls a
 * screen made before the cache came in: a failed call is shown at once (no retries), and a screen asks
 * again when it is opened, not when the window regains focus or the network comes back.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false, refetchOnReconnect: false },
      mutations: { retry: false },
    },
  });
}

/**
 * Forgets every cached answer when the signed-in user changes (sign-out, sign-in, another tab's), so
 * nobody is shown what the cache holds of someone else. Returns the unsubscribe.
 */
export function forgetOnSessionChange(client: QueryClient): () => void {
  let token = getToken();
  return subscribeSession(() => {
    const next = getToken();
    if (next === token) return;
    token = next;
    client.clear();
  });
}
