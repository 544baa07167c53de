import {
  BODY_METHODS,
  effectiveAuthorization,
  inferContentType,
  type EffectiveAuthorization,
  type HttpMethod,
  type UrlEntry,
} from '@aqa/plan';
import { BasicAuthValue, Template, type Renderable, type TemplateScope } from './template';

/*
 * The parts of a request that performance steps (compile.ts) and functional APIs
 * (call/compile-call.ts) compile alike: the query appended to the URL, the headers with what the
 * authorization adds, and the body with the Content-Type it implies. Which rows count (blank names or
 * values) is each caller's rule; what a row becomes is the same for both.
 */

/** OAuth2 client-credentials settings of a request; the token is fetched once per distinct settings. */
export interface OAuth2Spec {
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  scope: string;
  /** Cache key: requests with the same credentials share one token. */
  key: string;
}

/** An OAuth2 authorization's client settings, as the token cache (oauth2-tokens.ts) asks for them. */
export function oauth2Spec(auth: Extract<EffectiveAuthorization, { type: 'oauth2' }>): OAuth2Spec {
  return {
    tokenUrl: auth.tokenUrl.trim(),
    clientId: auth.clientId,
    clientSecret: auth.clientSecret,
    scope: auth.scope,
    key: JSON.stringify([auth.tokenUrl, auth.clientId, auth.clientSecret, auth.scope]),
  };
}

/**
 * The token request's form, as every generator sends it: grant_type, client_id, client_secret
 * (RFC 6749 §2.3.1 client_secret_post) and scope when set.
 */
export function clientCredentialsForm(spec: OAuth2Spec): string {
  const form = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: spec.clientId,
    client_secret: spec.clientSecret,
  });
  if (spec.scope.trim() !== '') form.set('scope', spec.scope.trim());
  return form.toString();
}

/**
 * How the headers a request gets from its plan are spelt: the load engine sends lower-case names,
 * the functional runner the usual capitalised ones (they show in its evidence).
 */
export interface AddedHeaderNames {
  authorization: string;
  contentType: string;
}

/** The load engine sends the headers it adds in lower case; Validate sends what a run sends. */
export const LOAD_HEADER_NAMES: AddedHeaderNames = {
  authorization: 'authorization',
  contentType: 'content-type',
};

/** A request's headers in order; a name set again (in any case) replaces the earlier value. */
export class HeaderList {
  readonly names: string[] = [];
  readonly values: Renderable[] = [];

  set(name: string, value: Renderable): void {
    const i = this.indexOf(name);
    if (i >= 0) this.values[i] = value;
    else {
      this.names.push(name);
      this.values.push(value);
    }
  }

  has(name: string): boolean {
    return this.indexOf(name) >= 0;
  }

  private indexOf(name: string): number {
    return this.names.findIndex((n) => n.toLowerCase() === name.toLowerCase());
  }
}

/**
 * Appends the query pairs, then an api_key sent in the query, to `target`, after the URL's own query
 * when `urlText` has one. Names are literal (encoded); values may hold templates.
 */
export function appendQuery(
  target: Template,
  urlText: string,
  pairs: [string, string][],
  auth: EffectiveAuthorization | null,
  scope: TemplateScope,
): void {
  const query = [...pairs];
  if (auth?.type === 'api_key' && auth.in === 'query') query.push([auth.keyName, auth.keyValue]);
  let separator = urlText.includes('?') ? '&' : '?';
  for (const [name, value] of query) {
    target.append(separator, false).append(name, true).append('=', false).appendTemplate(value, scope, true);
    separator = '&';
  }
}

/** Adds the header the authorization sends; answers the OAuth2 settings when a token must be fetched. */
export function applyAuthorization(
  auth: EffectiveAuthorization | null,
  headers: HeaderList,
  scope: TemplateScope,
  names: AddedHeaderNames,
): OAuth2Spec | null {
  switch (auth?.type) {
    case 'bearer':
      headers.set(
        names.authorization,
        new Template().append('Bearer ', false).appendTemplate(auth.token, scope, false),
      );
      return null;
    case 'basic':
      headers.set(
        names.authorization,
        new BasicAuthValue(Template.of(auth.username, scope), Template.of(auth.password, scope)),
      );
      return null;
    case 'api_key':
      if (auth.in === 'header') headers.set(auth.keyName, Template.of(auth.keyValue, scope));
      return null;
    case 'oauth2':
      return oauth2Spec(auth);
    default:
      return null;
  }
}

/**
 * The body a method with a body sends, or null; a JSON or XML body without a written Content-Type
 * gets the one it implies.
 */
export function compileBody(
  method: HttpMethod,
  payload: string,
  headers: HeaderList,
  scope: TemplateScope,
  names: AddedHeaderNames,
): Template | null {
  if (!BODY_METHODS.includes(method) || payload === '') return null;
  const body = Template.of(payload, scope);
  const type = inferContentType(payload);
  if (type !== undefined && !headers.has('content-type'))
    headers.set(names.contentType, Template.literal(type));
  return body;
}

/** What a performance plan's URL entry sends besides its method and URL (entryRequestParts). */
export interface EntryRequestParts {
  headers: HeaderList;
  body: Template | null;
  /** OAuth2 client-credentials settings when a token must be fetched first. */
  oauth2: OAuth2Spec | null;
}

/**
 * A performance plan's URL entry compiled as a load run sends it (docs/call-core.md "What a call
 * sends"), for the load executor's steps and Validate alike: the non-blank parameter pairs appended
 * to `target` (whose written text is `urlText`) with each value percent-encoded (a space is `%20`),
 * the non-blank header rows (a name written again, in any case, replaces the earlier row), the
 * authorization (replacing an Authorization row) and the body of POST, PUT and PATCH
 * (docs/reference/01-authoring.md §5).
 */
export function entryRequestParts(
  entry: UrlEntry,
  target: Template,
  urlText: string,
  scope: TemplateScope,
): EntryRequestParts {
  const auth = effectiveAuthorization(entry.authorization);
  const query: [string, string][] = [];
  for (const p of entry.parameters)
    if (p.key.trim() !== '' && p.value.trim() !== '') query.push([p.key.trim(), p.value]);
  appendQuery(target, urlText, query, auth, scope);

  const headers = new HeaderList();
  for (const h of entry.headers) {
    if (h.name.trim() === '' || h.value.trim() === '') continue;
    headers.set(h.name.trim(), Template.of(h.value, scope));
  }
  const oauth2 = applyAuthorization(auth, headers, scope, LOAD_HEADER_NAMES);
  const body = compileBody(entry.method, entry.payload, headers, scope, LOAD_HEADER_NAMES);
  return { headers, body, oauth2 };
}
