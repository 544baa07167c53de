import { createHash, randomBytes } from 'node:crypto';
import { API_TOKEN_PREFIX } from '@aqa/plan';

/**
 * 32 random bytes (256 bits), base64url: the bearer token handed to the client once. Never one that
 * starts like an API token (a chance of one in 16 million draws), so the prefix alone says which kind
 * a presented token is.
 */
export function newSessionToken(): string {
  for (;;) {
    const token = randomBytes(32).toString('base64url');
    if (!token.startsWith(API_TOKEN_PREFIX)) return token;
  }
}

/** An API token for CI (docs/adr/0012-api-tokens-and-sessions.md): "aqa_" and 32 random bytes in base64url. */
export function newApiToken(): string {
  return `${API_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/** What the database stores instead of the token: a leaked table cannot be replayed as sessions. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** The token of an `Authorization: Bearer <token>` header, or undefined when there is none. */
export function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const match = /^Bearer[ \t]+([A-Za-z0-9._~+/-]+=*)[ \t]*$/i.exec(header);
  return match?.[1];
}
