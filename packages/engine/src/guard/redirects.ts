import { request, type Dispatcher } from 'undici';

/*
 * Following redirects hop by hop (docs/adr/0015-target-guard.md "Redirects"), for the plan option
 * "follow redirects" when it comes: every hop is a request of its own through the caller's dispatcher,
 * whose connections are opened by guardedConnector(), so the guard decides each new host and port —
 * the Location of an allowed target cannot lead past it. The functional runner follows them hop by hop
 * too, with redirectHop() (call/session-call.ts), each hop a guarded call of its own.
 */

/** The redirect statuses; any other answer (a 304, a 3xx without Location) ends the chain. */
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** Headers not carried to another origin (as browsers and fetch drop them): credentials of the first. */
const CROSS_ORIGIN_DROPPED = ['authorization', 'cookie', 'proxy-authorization'];

/** Headers of a body that a method change to GET leaves behind. */
const BODY_HEADERS = ['content-type', 'content-length', 'content-encoding', 'transfer-encoding'];

export interface FollowRedirectsOptions {
  /** Must open its connections through guardedConnector(guard): that is what checks each hop. */
  dispatcher: Dispatcher;
  /** How many redirects are followed at most; the next one fails the request, naming the limit. */
  maxRedirects: number;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
}

export interface FollowedResponse {
  /** The last answer, which is not a redirect; its body is still to be read. */
  response: Dispatcher.ResponseData;
  /** The URL that gave it. */
  url: URL;
  /** Each redirect on the way, in order. */
  redirects: Array<{ url: URL; status: number; location: URL }>;
}

/** A redirect that is not followed: too many, or to a scheme other than http and https. */
export class RedirectNotFollowedError extends Error {
  override readonly name = 'RedirectNotFollowedError';
}

/**
 * Sends a request and follows its redirects, one guarded request per hop. 303 (and 301 or 302 after a
 * POST) continues as GET without the body, as browsers do; 307 and 308 repeat the method and body. A hop
 * to another origin drops Authorization, Cookie and Proxy-Authorization. Rejects with the connector's
 * TargetRefusedError when the guard refuses a hop (nothing is sent there), and with a
 * RedirectNotFollowedError past `maxRedirects` or for a Location that is not http(s).
 */
export async function requestFollowingRedirects(
  start: string | URL,
  options: FollowRedirectsOptions,
): Promise<FollowedResponse> {
  let url = new URL(start);
  let method = (options.method ?? 'GET').toUpperCase();
  let body = options.body;
  let headers: Record<string, string> = Object.fromEntries(
    Object.entries(options.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]),
  );
  const redirects: FollowedResponse['redirects'] = [];
  for (;;) {
    const response = await request(url, {
      dispatcher: options.dispatcher,
      method,
      headers,
      body,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    const location = response.headers.location;
    const target = typeof location === 'string' ? location : undefined;
    if (!REDIRECT_STATUSES.has(response.statusCode) || target === undefined) {
      return { response, url, redirects };
    }
    await response.body.dump();
    const next = new URL(target, url);
    if (next.protocol !== 'http:' && next.protocol !== 'https:') {
      throw new RedirectNotFollowedError(
        `${url.href} redirected to ${next.protocol} ${next.href}, which is not followed: only http and https are`,
      );
    }
    if (redirects.length >= options.maxRedirects) {
      throw new RedirectNotFollowedError(
        `More than ${options.maxRedirects} redirects from ${redirects[0]?.url.href ?? url.href}: the last pointed at ${next.href}`,
      );
    }
    redirects.push({ url, status: response.statusCode, location: next });
    ({ method, body, headers } = redirectHop(
      { method, body, headers },
      response.statusCode,
      url,
      next,
      'fetch',
    ));
    url = next;
  }
}

/**
 * How a request continues after a redirect. `fetch` (this file's own, as browsers): 303 (and 301 or 302
 * after a POST) continues as GET without the body. `newman` (postman-request, which Newman follows with):
 * 301, 302 and 303 continue as GET without the body for any method but HEAD. 307 and 308 repeat the method
 * and body either way. A hop to another origin drops Authorization, Cookie and Proxy-Authorization.
 * Header names are lowercase.
 */
export function redirectHop(
  request: { method: string; body: string | undefined; headers: Record<string, string> },
  status: number,
  from: URL,
  to: URL,
  policy: 'fetch' | 'newman',
): { method: string; body: string | undefined; headers: Record<string, string> } {
  let { method, body, headers } = request;
  const toGet =
    policy === 'newman'
      ? (status === 301 || status === 302 || status === 303) && method !== 'HEAD'
      : (status === 303 && method !== 'HEAD') || ((status === 301 || status === 302) && method === 'POST');
  if (toGet) {
    method = 'GET';
    body = undefined;
    headers = without(headers, BODY_HEADERS);
  }
  if (to.origin !== from.origin) headers = without(headers, CROSS_ORIGIN_DROPPED);
  return { method, body, headers };
}

/** Whether a status is a redirect that a Location continues. */
export function isRedirectStatus(status: number): boolean {
  return REDIRECT_STATUSES.has(status);
}

function without(headers: Record<string, string>, names: readonly string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !names.includes(name)));
}
