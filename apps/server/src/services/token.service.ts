import { randomUUID } from 'node:crypto';
import {
  API_TOKEN_MESSAGES,
  API_TOKEN_SCOPES,
  API_TOKENS_PER_USER,
  type ApiToken,
  type ApiTokenScope,
  type ApiTokenCreated,
  type ApiTokenList,
} from '@aqa/plan';
import { hashToken, newApiToken } from '../auth/tokens';
import { type Clock, isoAt } from '../clock';
import type { ApiTokenRow } from '../db/schema';
import { ConflictError, NotFoundError, UnauthorizedError } from '../errors';
import type { ApiTokenRepository } from '../repositories/token.repository';
import type { UserRepository } from '../repositories/user.repository';
import { toAccountUser } from './account-user';
import type { ApiTokenAuth } from './session.service';

/** last_used_at is refreshed at most this often, so a CI job's calls do not each cost a write. */
const TOUCH_INTERVAL_MS = 60_000;
/** Revoked tokens are deleted after this long; until then they get a precise 401 ("revoked"). */
const REVOKED_TOKEN_RETENTION_MS = 30 * 24 * 3600_000;
const DAY_MS = 24 * 3600_000;

/** What POST /api/tokens takes once the shared schema has read it. */
export interface NewApiToken {
  name: string;
  /** Whole days, 1–API_TOKEN_EXPIRY_DAYS_MAX; absent or null: never expires. */
  expires_in_days?: number | null | undefined;
  /** Absent: 'api' (docs/adr/0023-agents-over-http.md). */
  scope?: ApiTokenScope | undefined;
}

/** A stored scope as the model knows it; anything else (written by no version) counts as the narrowest. */
function scopeOf(row: ApiTokenRow): ApiTokenScope {
  return (API_TOKEN_SCOPES as readonly string[]).includes(row.scope) ? (row.scope as ApiTokenScope) : 'agent';
}

/**
 * API tokens for CI (docs/adr/0012-api-tokens-and-sessions.md): named, random, stored as their
 * sha256 like sessions (docs/adr/0002-sessions.md), revocable, optionally expiring, of a scope (api or
 * agent). What a token may not do is decided in one place, src/auth/authenticate.ts
 * (SESSION_ONLY_API_ROUTES, AGENT_API_ROUTES).
 */
export class ApiTokenService {
  constructor(
    private readonly tokens: ApiTokenRepository,
    private readonly users: UserRepository,
    private readonly now: Clock,
  ) {}

  async create(userId: string, input: NewApiToken): Promise<ApiTokenCreated> {
    const token = newApiToken();
    const now = this.now();
    const days = input.expires_in_days ?? null;
    const row: ApiTokenRow = {
      id: randomUUID(),
      user_id: userId,
      name: input.name,
      token_hash: hashToken(token),
      created_at: isoAt(now),
      expires_at: days === null ? null : isoAt(now + days * DAY_MS),
      revoked_at: null,
      last_used_at: null,
      scope: input.scope ?? 'api',
    };
    if (!(await this.tokens.insertWithinLimit(row, API_TOKENS_PER_USER))) {
      throw new ConflictError('TOO_MANY_API_TOKENS', API_TOKEN_MESSAGES.tooMany, {
        hint: 'Revoke a token in Settings → API tokens.',
      });
    }
    return { ...this.toApiToken(row, now), token };
  }

  async list(userId: string): Promise<ApiTokenList> {
    const now = this.now();
    const rows = await this.tokens.listForUser(userId);
    return { tokens: rows.map((row) => this.toApiToken(row, now)), limit: API_TOKENS_PER_USER };
  }

  /** Revokes the user's token at once; another user's token, or one already revoked, is not found. */
  async revoke(userId: string, id: string): Promise<void> {
    if (!(await this.tokens.revoke(userId, id, isoAt(this.now()))))
      throw new NotFoundError('API_TOKEN_NOT_FOUND', API_TOKEN_MESSAGES.notFound);
  }

  /** Resolves an API token ("aqa_…") to its user, or throws UnauthorizedError saying why not. */
  async authenticate(token: string): Promise<ApiTokenAuth> {
    const row = await this.tokens.findByTokenHash(hashToken(token));
    if (row === undefined) throw new UnauthorizedError('API_TOKEN_INVALID', API_TOKEN_MESSAGES.unknown);
    if (row.revoked_at !== null) throw new UnauthorizedError('API_TOKEN_REVOKED', API_TOKEN_MESSAGES.revoked);
    const now = this.now();
    if (row.expires_at !== null && Date.parse(row.expires_at) <= now)
      throw new UnauthorizedError('API_TOKEN_EXPIRED', API_TOKEN_MESSAGES.expired);
    const user = await this.users.findById(row.user_id);
    if (user === undefined) throw new UnauthorizedError('API_TOKEN_INVALID', API_TOKEN_MESSAGES.unknown);
    if (row.last_used_at === null || now - Date.parse(row.last_used_at) >= TOUCH_INTERVAL_MS)
      await this.tokens.touch(row.id, isoAt(now));
    return { via: 'api_token', user: toAccountUser(user), tokenId: row.id, scope: scopeOf(row) };
  }

  /** Housekeeping at start-up: forget tokens revoked long ago. */
  pruneRevoked(): Promise<number> {
    return this.tokens.deleteRevokedBefore(isoAt(this.now() - REVOKED_TOKEN_RETENTION_MS));
  }

  private toApiToken(row: ApiTokenRow, now: number): ApiToken {
    return {
      id: row.id,
      name: row.name,
      created_at: row.created_at,
      last_used_at: row.last_used_at,
      expires_at: row.expires_at,
      expired: row.expires_at !== null && Date.parse(row.expires_at) <= now,
      scope: scopeOf(row),
    };
  }
}
