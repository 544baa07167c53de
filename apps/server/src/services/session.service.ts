import { randomUUID } from 'node:crypto';
import type { ApiTokenScope } from '@aqa/plan';
import type { Clock } from '../clock';
import { isoAt } from '../clock';
import { UnauthorizedError } from '../errors';
import { bearerToken, hashToken, newSessionToken } from '../auth/tokens';
import type { SessionRepository } from '../repositories/session.repository';
import type { UserRepository } from '../repositories/user.repository';
import { type AccountUser, toAccountUser } from './account-user';

/** A request made with a sign-in session's token. */
export interface SessionAuth {
  via: 'session';
  user: AccountUser;
  sessionId: string;
}

/** A request made with an API token for CI (docs/adr/0012-api-tokens-and-sessions.md). */
export interface ApiTokenAuth {
  via: 'api_token';
  user: AccountUser;
  tokenId: string;
  /** What the token may do (docs/adr/0023-agents-over-http.md). */
  scope: ApiTokenScope;
}

/** Who made the request, and with which kind of token, as resolved from its bearer token. */
export type AuthContext = SessionAuth | ApiTokenAuth;

export interface IssuedSession {
  /** The bearer token; shown to the client once and stored only as its hash. */
  token: string;
  expiresAt: string;
}

export const AUTH_ERRORS = {
  notSignedIn: 'Not signed in',
  expired: 'Your session has expired. Please sign in again.',
  revoked: 'Your session has ended. Please sign in again.',
} as const;

/** last_used_at is refreshed at most this often, so reads do not each cost a write. */
const TOUCH_INTERVAL_MS = 60_000;
/** Ended sessions are deleted after this long; until then their token gets a precise 401. */
const ENDED_SESSION_RETENTION_MS = 30 * 24 * 3600_000;

export class SessionService {
  constructor(
    private readonly sessions: SessionRepository,
    private readonly users: UserRepository,
    private readonly ttlMs: number,
    private readonly now: Clock,
  ) {}

  async issue(userId: string): Promise<IssuedSession> {
    const token = newSessionToken();
    const now = this.now();
    const expiresAt = isoAt(now + this.ttlMs);
    await this.sessions.insert({
      id: randomUUID(),
      user_id: userId,
      token_hash: hashToken(token),
      created_at: isoAt(now),
      expires_at: expiresAt,
      revoked_at: null,
      last_used_at: isoAt(now),
    });
    return { token, expiresAt };
  }

  /** Resolves an Authorization header to a live session, or throws UnauthorizedError saying why not. */
  async authenticate(authorization: string | undefined): Promise<SessionAuth> {
    const token = bearerToken(authorization);
    if (token === undefined) throw new UnauthorizedError('NOT_SIGNED_IN', AUTH_ERRORS.notSignedIn);
    const session = await this.sessions.findByTokenHash(hashToken(token));
    if (session === undefined) throw new UnauthorizedError('NOT_SIGNED_IN', AUTH_ERRORS.notSignedIn);
    if (session.revoked_at !== null) throw new UnauthorizedError('SESSION_REVOKED', AUTH_ERRORS.revoked);
    const now = this.now();
    if (Date.parse(session.expires_at) <= now)
      throw new UnauthorizedError('SESSION_EXPIRED', AUTH_ERRORS.expired);
    const user = await this.users.findById(session.user_id);
    if (user === undefined) throw new UnauthorizedError('NOT_SIGNED_IN', AUTH_ERRORS.notSignedIn);
    if (now - Date.parse(session.last_used_at) >= TOUCH_INTERVAL_MS)
      await this.sessions.touch(session.id, isoAt(now));
    return { via: 'session', user: toAccountUser(user), sessionId: session.id };
  }

  async revoke(sessionId: string): Promise<void> {
    await this.sessions.revoke(sessionId, isoAt(this.now()));
  }

  /** Housekeeping at start-up: forget sessions that ended long ago. */
  pruneEnded(): Promise<number> {
    return this.sessions.deleteEndedBefore(isoAt(this.now() - ENDED_SESSION_RETENTION_MS));
  }
}
