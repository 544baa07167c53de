import { contract } from '@aqa/contract';
import { QueryClient, type Query } from '@tanstack/react-query';
import { getToken, subscribeSession } from '@/lib/session';
import { currentWorkspaceId, subscribeWorkspace } from '@/lib/workspace-store';

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

/** The user's list of workspaces is theirs in every workspace: the switcher keeps it across a switch. */
function ofAWorkspace(query: Query): boolean {
  return query.queryKey[0] !== contract.workspaces.list.url;
}

/**
 * Forgets the cached answers of a workspace when the current one changes (docs/adr/0035-workspaces-and-roles.md):
 * answers of the other workspace are dropped, not shown while the new ones load, and what a screen shows
 * now is asked for again (in the new workspace, whose header the calls carry from now on). Returns the
 * unsubscribe.
 */
export function forgetOnWorkspaceChange(client: QueryClient): () => void {
  let workspace = currentWorkspaceId();
  return subscribeWorkspace(() => {
    const next = currentWorkspaceId();
    if (next === workspace) return;
    workspace = next;
    client.getMutationCache().clear();
    client.removeQueries({ type: 'inactive', predicate: ofAWorkspace });
    // Resetting cancels a fetch still on its way (with the old header) and refetches the shown ones.
    void client.resetQueries({ predicate: ofAWorkspace });
    // The list stays on screen but is asked again: it may have failed with the workspace just left.
    void client.invalidateQueries({ predicate: (query) => !ofAWorkspace(query) });
  });
}
