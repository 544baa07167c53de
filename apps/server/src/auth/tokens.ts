import { createHash, randomBytes } from 'node:crypto';

/** 32 random bytes (256 bits), base64url: the bearer token handed to the client once. */
export function newSessionToken(): string {
  return randomBytes(32).toString('base64url');
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
