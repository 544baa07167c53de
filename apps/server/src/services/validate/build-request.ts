import {
  BODY_METHODS,
  effectiveAuthorization,
  inferContentType,
  type EffectiveAuthorization,
  type UrlEntry,
} from '@aqa/plan';
import type { OutgoingRequest } from './http-exchange';
import { renderForValidation, type Variables } from './template';

export type OAuth2Client = Extract<EffectiveAuthorization, { type: 'oauth2' }>;

export type BuiltRequest =
  | {
      ok: true;
      request: OutgoingRequest;
      /** Set when the entry uses OAuth2: its token must be fetched and sent as a bearer token first. */
      oauth2: OAuth2Client | undefined;
    }
  | { ok: false; error: string; url: string };

const USER_AGENT = 'AnybodyQA-Validate';

/**
 * The request a URL entry makes (docs/design.md §4), with this pass's variables: method, URL with the
 * non-blank parameters added to its query, the non-blank headers, the authorization (bearer, basic,
 * API key in a header or the query; OAuth2 is left to the caller, which fetches the token), and the
 * payload for POST, PUT and PATCH with a Content-Type inferred when the headers name none.
 */
export function buildRequest(entry: UrlEntry, variables: Readonly<Variables>): BuiltRequest {
  const render = (text: string) => renderForValidation(text, variables);
  const written = render(entry.url);
  let url: URL;
  try {
    url = new URL(written);
  } catch {
    return { ok: false, error: `Invalid URL: ${written}`, url: written };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, error: `Only http:// and https:// URLs can be called: ${written}`, url: written };
  }
  // docs/reference/01-authoring.md §5: a pair with a blank key or value is not sent.
  for (const { key, value } of entry.parameters) {
    if (key.trim() !== '' && value.trim() !== '') url.searchParams.append(key, render(value));
  }

  const headers = new HeaderList();
  for (const { name, value } of entry.headers) {
    if (name !== '' && value.trim() !== '') headers.add(name, render(value));
  }

  const auth = effectiveAuthorization(entry.authorization);
  switch (auth?.type) {
    case 'bearer':
      headers.set('Authorization', `Bearer ${render(auth.token)}`);
      break;
    case 'basic': {
      const credentials = `${render(auth.username)}:${render(auth.password)}`;
      headers.set('Authorization', `Basic ${Buffer.from(credentials, 'utf8').toString('base64')}`);
      break;
    }
    case 'api_key':
      if (auth.in === 'query') url.searchParams.set(auth.keyName, render(auth.keyValue));
      else headers.set(auth.keyName, render(auth.keyValue));
      break;
    case 'oauth2':
    case undefined:
      break;
  }

  let body: string | undefined;
  if (BODY_METHODS.includes(entry.method) && entry.payload !== '') {
    body = render(entry.payload);
    const contentType = inferContentType(body);
    if (contentType !== undefined && !headers.has('content-type')) headers.set('Content-Type', contentType);
  }
  if (!headers.has('user-agent')) headers.set('User-Agent', USER_AGENT);

  return {
    ok: true,
    request: { method: entry.method, url, headers: headers.toObject(), body },
    oauth2: auth?.type === 'oauth2' ? auth : undefined,
  };
}

/** The request with `Authorization: value`, replacing a header of that name written in any case. */
export function withAuthorization(request: OutgoingRequest, value: string): OutgoingRequest {
  const headers = Object.fromEntries(
    Object.entries(request.headers).filter(([name]) => name.toLowerCase() !== 'authorization'),
  );
  return { ...request, headers: { ...headers, Authorization: value } };
}

/** Request headers by case-insensitive name, keeping the name as the plan writes it. */
export class HeaderList {
  private readonly entries = new Map<string, { name: string; value: string }>();

  /** A header written twice is sent once, its values joined with ", " (RFC 9110 §5.3). */
  add(name: string, value: string): void {
    const existing = this.entries.get(name.toLowerCase());
    if (existing) existing.value = `${existing.value}, ${value}`;
    else this.entries.set(name.toLowerCase(), { name, value });
  }

  /** Replaces any header of that name: the Authorization field wins over a typed Authorization header. */
  set(name: string, value: string): void {
    this.entries.set(name.toLowerCase(), { name, value });
  }

  has(name: string): boolean {
    return this.entries.has(name.toLowerCase());
  }

  toObject(): Record<string, string> {
    return Object.fromEntries([...this.entries.values()].map(({ name, value }) => [name, value]));
  }
}
