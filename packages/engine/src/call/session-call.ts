import { CookieJar } from 'tough-cookie';
import { isRedirectStatus, redirectHop } from '../guard/redirects';
import { httpCall, type HttpCallOptions, type HttpOutcome, type HttpRequestSpec } from './http-call';

/*
 * One call of a functional run as Newman makes it (docs/adr/0029-postman-collections.md): with the
 * user's cookie jar when the plan keeps one (cookies the answers set are sent back where their domain,
 * path, expiry and Secure flag allow, RFC 6265 as tough-cookie reads it), and following redirects when
 * the plan says so — 301, 302 and 303 continue as GET, 307 and 308 keep the method and body, at most
 * MAX_REDIRECTS hops, each hop a call of its own through the target guard (httpCall), so a Location
 * cannot lead past it. The final answer is what is judged; its time is the whole chain's.
 */

/** Newman's (postman-request's) default limit. */
export const MAX_REDIRECTS = 10;

export interface SessionOptions {
  /** The user's cookie jar, or null when the plan keeps none. */
  jar: CookieJar | null;
  followRedirects: boolean;
}

/** A new cookie jar for one virtual user. */
export function newCookieJar(): CookieJar {
  return new CookieJar(undefined, { looseMode: true });
}

/** The Cookie header to send: the one the plan wrote, then the jar's cookies for the URL. */
function withJarCookies(
  headers: Record<string, string>,
  url: URL,
  jar: CookieJar | null,
): Record<string, string> {
  if (jar === null) return headers;
  const fromJar = jar.getCookieStringSync(url.href);
  if (fromJar === '') return headers;
  const name = Object.keys(headers).find((n) => n.toLowerCase() === 'cookie');
  if (name === undefined) return { ...headers, Cookie: fromJar };
  return { ...headers, [name]: `${headers[name]}; ${fromJar}` };
}

function keepCookies(setCookies: readonly string[], url: URL, jar: CookieJar | null): void {
  if (jar === null) return;
  // A cookie the jar refuses (a foreign domain, a malformed line) is not kept, as a browser ignores it.
  for (const line of setCookies) jar.setCookieSync(line, url.href, { ignoreError: true });
}

export async function sessionCall(
  spec: HttpRequestSpec,
  options: HttpCallOptions,
  session: SessionOptions,
): Promise<HttpOutcome> {
  let request = spec;
  let totalMs = 0;
  for (let hops = 0; ; hops++) {
    const outcome = await httpCall(
      { ...request, headers: withJarCookies(request.headers, request.url, session.jar) },
      options,
    );
    if (outcome.kind === 'aborted') return outcome;
    if (outcome.kind === 'failed') return { ...outcome, timeMs: totalMs + outcome.timeMs };
    const { answer } = outcome;
    totalMs += answer.timeMs;
    keepCookies(answer.setCookies, request.url, session.jar);
    const location = answer.headers.location;
    if (!session.followRedirects || !isRedirectStatus(answer.status) || location === undefined) {
      return { kind: 'answer', answer: { ...answer, timeMs: Math.round(totalMs * 1000) / 1000 } };
    }
    let next: URL;
    try {
      next = new URL(location, request.url);
    } catch {
      return failed(
        `${request.url.href} redirected to ${JSON.stringify(location)}, which is not a URL`,
        totalMs,
      );
    }
    if (next.protocol !== 'http:' && next.protocol !== 'https:') {
      return failed(
        `${request.url.href} redirected to ${next.href}, which is not followed: only http and https are`,
        totalMs,
      );
    }
    if (hops >= MAX_REDIRECTS) {
      return failed(
        `More than ${MAX_REDIRECTS} redirects from ${spec.url.href}: the last pointed at ${next.href}`,
        totalMs,
      );
    }
    const lower = Object.fromEntries(Object.entries(request.headers).map(([n, v]) => [n.toLowerCase(), v]));
    // The Cookie header is the jar's for each hop; one the plan wrote goes only where the first went.
    const hop = redirectHop(
      { method: request.method, body: request.body, headers: lower },
      answer.status,
      request.url,
      next,
      'newman',
    );
    request = { method: hop.method, url: next, headers: hop.headers, body: hop.body };
  }
}

function failed(error: string, timeMs: number): HttpOutcome {
  return { kind: 'failed', error, timeMs: Math.round(timeMs * 1000) / 1000 };
}
