import { useSyncExternalStore } from 'react';
import { storage } from './storage';

/**
 * The user session of docs/reference/01-authoring.md §3: `token` and `user` (at least username and email) in localStorage, under
 * exactly those keys. The token's expiry (from the login answer) is kept beside them so that an expired
 * session sends the user to sign-in without a round trip.
 */
export const TOKEN_KEY = 'token';
export const USER_KEY = 'user';
export const EXPIRES_AT_KEY = 'token_expires_at';
/** sessionStorage flag: the last session ended because the server or the clock said it expired. */
const EXPIRED_NOTICE_KEY = 'aqa.session_expired';

export interface SessionUser {
  username: string;
  email: string;
  firstName?: string;
  lastName?: string;
  company?: string;
  role?: string;
}

export interface Session {
  token: string;
  user: SessionUser;
  /** ISO time at which the server stops accepting the token; absent when unknown. */
  expiresAt?: string;
}

const listeners = new Set<() => void>();
let cache: { raw: string; session: Session | null } | null = null;

function parseUser(raw: string | null): SessionUser | null {
  if (!raw) return null;
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value !== 'object' || value === null) return null;
    const record = value as Record<string, unknown>;
    const username = typeof record.username === 'string' ? record.username : '';
    const email = typeof record.email === 'string' ? record.email : '';
    if (!username && !email) return null;
    const text = (key: string) => (typeof record[key] === 'string' ? record[key] : undefined);
    return {
      username: username || email,
      email: email || username,
      firstName: text('firstName'),
      lastName: text('lastName'),
      company: text('company'),
      role: text('role'),
    };
  } catch {
    return null;
  }
}

export function isExpired(session: Pick<Session, 'expiresAt'>, now: number = Date.now()): boolean {
  if (!session.expiresAt) return false;
  const at = Date.parse(session.expiresAt);
  return Number.isFinite(at) && at <= now;
}

/** The stored session, or null when signed out. Returns the same object while storage is unchanged. */
export function readSession(): Session | null {
  const token = storage.get(TOKEN_KEY);
  const userRaw = storage.get(USER_KEY);
  const expiresAt = storage.get(EXPIRES_AT_KEY);
  const raw = `${token ?? ''}\u0000${userRaw ?? ''}\u0000${expiresAt ?? ''}`;
  if (cache?.raw !== raw) {
    const user = parseUser(userRaw);
    cache = {
      raw,
      session: token && user ? { token, user, ...(expiresAt ? { expiresAt } : {}) } : null,
    };
  }
  return cache.session;
}

function notify(): void {
  for (const listener of listeners) listener();
}

/**
 * Whether this tab's user signed out on purpose (Logout), rather than never having signed in or having
 * their session expire: the sign-in that follows a Logout opens the dashboard, not the page left.
 */
let signedOutOnPurpose = false;

export function signedOutByChoice(): boolean {
  return signedOutOnPurpose;
}

export function saveSession(session: Session): void {
  signedOutOnPurpose = false;
  storage.set(TOKEN_KEY, session.token);
  storage.set(USER_KEY, JSON.stringify(session.user));
  if (session.expiresAt) storage.set(EXPIRES_AT_KEY, session.expiresAt);
  else storage.remove(EXPIRES_AT_KEY);
  clearExpiredNotice();
  notify();
}

export function updateSessionUser(user: SessionUser): void {
  if (!readSession()) return;
  storage.set(USER_KEY, JSON.stringify(user));
  notify();
}

/** Signs out locally. `expired` leaves a notice for the sign-in screen. */
export function clearSession(options: { expired?: boolean } = {}): void {
  signedOutOnPurpose = options.expired !== true;
  storage.remove(TOKEN_KEY);
  storage.remove(USER_KEY);
  storage.remove(EXPIRES_AT_KEY);
  if (options.expired) {
    try {
      window.sessionStorage.setItem(EXPIRED_NOTICE_KEY, '1');
    } catch {
      // The notice is a courtesy; signing out has already happened.
    }
  }
  notify();
}

export function hasExpiredNotice(): boolean {
  try {
    return window.sessionStorage.getItem(EXPIRED_NOTICE_KEY) === '1';
  } catch {
    return false;
  }
}

export function clearExpiredNotice(): void {
  try {
    window.sessionStorage.removeItem(EXPIRED_NOTICE_KEY);
  } catch {
    // Nothing to clear.
  }
}

/** The bearer token of a live session, if any. */
export function getToken(): string | null {
  const session = readSession();
  return session && !isExpired(session) ? session.token : null;
}

/** Who the signed-in user is for plan and result calls: email, else username (docs/reference/01-authoring.md §3). */
export function sessionUserId(session: Session | null = readSession()): string | null {
  if (!session) return null;
  return session.user.email || session.user.username || null;
}

/**
 * The user_email the plan, run and functional calls send (docs/reference/02-running.md §7): the signed-in
 * user, or nothing at all when no one is (the server refuses a user_email naming anyone else).
 */
export function sessionUserEmail(): string | undefined {
  return sessionUserId() ?? undefined;
}

export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (
      event.key === null ||
      event.key === TOKEN_KEY ||
      event.key === USER_KEY ||
      event.key === EXPIRES_AT_KEY
    ) {
      listener();
    }
  };
  // Signing out in another tab signs this one out too.
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** Ends a session that has run past its expiry (called at start-up and by the expiry timer). */
export function expireSessionIfDue(now: number = Date.now()): void {
  const session = readSession();
  if (session && isExpired(session, now)) clearSession({ expired: true });
}

export function useSession(): Session | null {
  return useSyncExternalStore(subscribeSession, readSession, () => null);
}
