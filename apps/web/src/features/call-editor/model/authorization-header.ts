/**
 * An `Authorization` header typed on the Headers tab. The call editor keeps authorization in its own
 * field (docs/reference/01-authoring.md §5), so such a row is moved there when its scheme is one the field
 * holds: `Bearer <token>` becomes a bearer token, `Basic <base64 of user:password>` becomes Basic auth. Any
 * other scheme (Digest, AWS4-HMAC-SHA256, a bare API key…) stays a header and is sent as written.
 */

export type MovedAuthorization =
  { type: 'bearer'; token: string } | { type: 'basic'; username: string; password: string };

/*
 * The row and authorization are taken by the fields read here, not as plan-form's types, so this module
 * imports nothing from plan-form (which imports it): no import cycle, not even a type-only one.
 */
interface HeaderRow {
  name: string;
  value: string;
}
interface AuthorizationChoice {
  type: string;
}

export function isAuthorizationHeader(name: string): boolean {
  return name.trim().toLowerCase() === 'authorization';
}

/** "Basic dXNlcjpwYXNz" credentials → user and password; null when not base64 of UTF-8 "user:password". */
export function decodeBasicCredentials(encoded: string): { username: string; password: string } | null {
  let binary: string;
  try {
    binary = atob(encoded.trim());
  } catch {
    return null;
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
  } catch {
    return null;
  }
  const colon = text.indexOf(':');
  if (colon < 0) return null;
  return { username: text.slice(0, colon), password: text.slice(colon + 1) };
}

/** The authorization a header value stands for, when it is Bearer or decodable Basic; else null. */
export function authorizationFromHeaderValue(value: string): MovedAuthorization | null {
  const match = /^(\S+)\s+(\S.*)$/.exec(value.trim());
  if (!match?.[1] || !match[2]) return null;
  const scheme = match[1].toLowerCase();
  const credentials = match[2].trim();
  if (scheme === 'bearer') return { type: 'bearer', token: credentials };
  if (scheme === 'basic') {
    const decoded = decodeBasicCredentials(credentials);
    return decoded ? { type: 'basic', ...decoded } : null;
  }
  return null;
}

/**
 * What moving `row` into the entry's authorization does, or null when it stays a header: the row must be
 * named Authorization, hold a Bearer or Basic value, and the Authorization tab must still be empty (a type
 * chosen there is the user's own choice and wins; the row is then marked as not sent).
 */
export function authorizationMove(
  row: HeaderRow,
  current: AuthorizationChoice,
): { patch: MovedAuthorization; moved: MovedAuthorization } | null {
  if (!isAuthorizationHeader(row.name) || current.type !== 'none') return null;
  const moved = authorizationFromHeaderValue(row.value);
  return moved ? { patch: { ...moved }, moved } : null;
}

/**
 * Whether an Authorization row is left out when the plan is sent: only when the Authorization tab sets
 * authorization itself, which then replaces the header. With the tab empty the row is sent as written, so a
 * scheme the tab cannot hold still reaches the API.
 */
export function isReplacedAuthorizationHeader(
  row: Pick<HeaderRow, 'name'>,
  auth: AuthorizationChoice,
): boolean {
  return isAuthorizationHeader(row.name) && auth.type !== 'none';
}
