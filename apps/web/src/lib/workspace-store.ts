import { WORKSPACE_HEADER, WORKSPACE_QUERY } from '@aqa/plan';
import { useSyncExternalStore } from 'react';
import { sessionUserId, subscribeSession } from './session';
import { storage } from './storage';

/*
 * The workspace the web's calls act in (docs/adr/0035-workspaces-and-roles.md): `null` is the signed-in
 * user's personal workspace, which the server takes when a call names none, so it needs no header. The
 * choice is kept per user in localStorage (it survives a reload; another account signing in on this
 * browser starts in its own personal workspace) and held in memory per tab: another tab switching does
 * not change the workspace under this tab's screens half-way.
 */

const KEY_PREFIX = 'aqa.workspace.';

let current: { user: string | null; id: string | null } | null = null;
const listeners = new Set<() => void>();
let watchingSession = false;

function storageKey(user: string): string {
  return `${KEY_PREFIX}${user}`;
}

/** The current workspace's id, or null for the personal one. */
export function currentWorkspaceId(): string | null {
  if (!watchingSession) {
    // A sign-in or sign-out (here or in another tab) reads the stored choice again.
    watchingSession = true;
    subscribeSession(() => {
      current = null;
    });
  }
  const user = sessionUserId();
  if (current?.user !== user) {
    current = { user, id: user ? storage.get(storageKey(user)) || null : null };
  }
  return current.id;
}

/** Makes `id` (null: the personal workspace) the one every later call acts in, and tells subscribers. */
export function setCurrentWorkspace(id: string | null): void {
  const user = sessionUserId();
  if (!user) return;
  if (currentWorkspaceId() === id) return;
  if (id) storage.set(storageKey(user), id);
  else storage.remove(storageKey(user));
  current = { user, id };
  for (const listener of listeners) listener();
}

/** Called when the current workspace changes, in this tab, or with the signed-in user. */
export function subscribeWorkspace(listener: () => void): () => void {
  listeners.add(listener);
  const unsubscribeSession = subscribeSession(listener);
  return () => {
    listeners.delete(listener);
    unsubscribeSession();
  };
}

export function useCurrentWorkspaceId(): string | null {
  return useSyncExternalStore(subscribeWorkspace, currentWorkspaceId, () => null);
}

/** The header a fetch sends to act in the current workspace; none for the personal one. */
export function workspaceHeaders(): Record<string, string> {
  const id = currentWorkspaceId();
  return id ? { [WORKSPACE_HEADER]: id } : {};
}

/**
 * A URL of this origin that the browser opens itself (an <img src>, a link, a download), which cannot
 * carry a header: the current workspace goes in its `workspace_id` query parameter.
 */
export function withWorkspaceQuery(url: string): string {
  const id = currentWorkspaceId();
  if (!id) return url;
  const [path = '', hash] = url.split('#', 2);
  const joined = `${path}${path.includes('?') ? '&' : '?'}${WORKSPACE_QUERY}=${encodeURIComponent(id)}`;
  return hash === undefined ? joined : `${joined}#${hash}`;
}
