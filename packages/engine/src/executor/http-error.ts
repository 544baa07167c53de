import { STATUS_CODES } from 'node:http';
import { ERROR_BODY_SNIPPET_CHARS } from '@aqa/plan';
import type { ErrorKind } from '../metrics/types';
import { ERROR_KINDS } from '../metrics/types';
import type { TokenProblem } from '../call/oauth2-tokens';

export const KIND = Object.fromEntries(ERROR_KINDS.map((k, i) => [k, i])) as Record<ErrorKind, number>;

const CONNECT_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'ENETDOWN',
  'EPIPE',
  'EADDRNOTAVAIL',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  // The target guard refused the connection (docs/adr/0015-target-guard.md).
  'AQA_TARGET_REFUSED',
]);
const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME', 'EAI_NODATA']);
const TIMEOUT_CODES = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ETIMEDOUT',
]);
/** Node's and OpenSSL's TLS and certificate error codes; the functional runner words them too. */
export const TLS_CODE_RE =
  /^(ERR_TLS_|ERR_SSL_|CERT_|DEPTH_ZERO_SELF_SIGNED_CERT$|SELF_SIGNED_CERT_IN_CHAIN$|UNABLE_TO_)/;

/** Maps a network-level failure to an error kind (index into ERROR_KINDS). */
export function classifyError(err: unknown): number {
  let e: unknown = err;
  // undici wraps some failures (e.g. connect errors) in a cause chain; the innermost code decides.
  for (let depth = 0; depth < 4 && e && typeof e === 'object'; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') {
      if (DNS_CODES.has(code)) return KIND.dns;
      if (TIMEOUT_CODES.has(code)) return KIND.timeout;
      if (TLS_CODE_RE.test(code)) return KIND.tls;
      if (CONNECT_CODES.has(code)) return KIND.connect;
    }
    e = (e as { cause?: unknown }).cause;
  }
  const msg = err instanceof Error ? err.message : String(err);
  if (/certificate|ssl|tls/i.test(msg)) return KIND.tls;
  return KIND.other;
}

export function errorMessage(err: unknown): string {
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code;
    // The guard's refusal is a whole sentence: it names the host and the setting.
    if (code === 'AQA_TARGET_REFUSED') return err.message.slice(0, 300);
    const cause = err.cause instanceof Error ? `: ${err.cause.message}` : '';
    return `${typeof code === 'string' ? `${code} ` : ''}${err.message}${cause}`.slice(0, 300);
  }
  return String(err).slice(0, 300);
}

export { ERROR_BODY_SNIPPET_CHARS };

/** The start of an error answer's body as a sample shows it: white space collapsed, cut with "…". */
export function bodySnippet(body: string): string {
  const flat = body.replace(/\s+/g, ' ').trim();
  return flat.length > ERROR_BODY_SNIPPET_CHARS ? `${flat.slice(0, ERROR_BODY_SNIPPET_CHARS)}…` : flat;
}

/**
 * The sample of an answer with status ≥ 400, in the same words whichever engine or tool ran the request:
 * "HTTP 500 Internal Server Error from GET http://…/orders: db timeout". The reason is the answer's own,
 * else the standard one for the status; `where` (method and URL) when the reader knows it.
 */
export function httpErrorSample(
  status: number,
  reason: string | undefined,
  body: string | undefined,
  where?: string,
): string {
  const phrase = (reason ?? '').trim() || STATUS_CODES[status] || '';
  const snippet = bodySnippet(body ?? '');
  return `HTTP ${status}${phrase ? ` ${phrase}` : ''}${where ? ` from ${where}` : ''}${snippet ? `: ${snippet}` : ''}`;
}

/** Why a step got no OAuth2 token (call/oauth2-tokens.ts), as a load run's error sample says it. */
export function tokenFailure(tokenUrl: string, problem: TokenProblem): string {
  const why = ((): string => {
    switch (problem.kind) {
      case 'not-a-url':
        return 'the token URL is not a URL';
      case 'not-http':
        return 'the token URL is not an http:// or https:// URL';
      case 'no-answer':
        return problem.error;
      case 'status':
        return `token endpoint answered ${problem.status}: ${problem.body}`;
      case 'not-json':
        return 'token response is not JSON';
      case 'no-token':
        return 'token response has no access_token';
    }
  })();
  return `OAuth2 token request to ${tokenUrl} failed: ${why}`;
}
