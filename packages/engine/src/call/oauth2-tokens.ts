import { performance } from 'node:perf_hooks';
import { clientCredentialsForm, type OAuth2Spec } from './request-parts';

/*
 * The one OAuth2 client-credentials token cache of the call core (docs/call-core.md; docs/design.md §4:
 * the token is fetched before use, with the form every generator sends). One per run or Validate pass:
 * each distinct client (token URL, id, secret, scope) is asked once, every caller waiting for the same
 * fetch, and its token kept until shortly before `expires_in` runs out. Whether a failure is kept is
 * the owner's choice: a run asks again on the next call, a Validate pass never hits the token endpoint
 * twice for one client. How the token request is sent (connection pool, guard, time-out) and how a
 * problem is worded are the caller's too.
 */

/** The token request to send: a form POST to the token URL. */
export interface TokenRequest {
  method: 'POST';
  url: URL;
  headers: Record<string, string>;
  body: string;
}

/** What came back from the token endpoint, or why nothing did, in words. */
export type TokenExchange = { status: number; body: string } | { error: string };

export type TokenSender = (request: TokenRequest) => Promise<TokenExchange>;

/** Why there is no token: the caller words it. */
export type TokenProblem =
  | { kind: 'not-a-url' }
  | { kind: 'not-http' }
  | { kind: 'no-answer'; error: string }
  | { kind: 'status'; status: number }
  | { kind: 'not-json' }
  | { kind: 'no-token' };

export type TokenAnswer = { token: string } | { problem: TokenProblem };

/** Refresh this long before the token's stated expiry. */
const EARLY_MS = 5_000;
/** A token whose answer states no usable lifetime is kept this long. */
const DEFAULT_LIFE_MS = 3_600_000;

export class OAuth2Tokens {
  private readonly held = new Map<string, { answer: TokenAnswer; refreshAt: number }>();
  private readonly pending = new Map<string, Promise<TokenAnswer>>();

  constructor(private readonly options: { keepFailures: boolean }) {}

  /** A token, or why there is none; fetches with `send` when none is held. */
  get(spec: OAuth2Spec, send: TokenSender): Promise<TokenAnswer> {
    const held = this.held.get(spec.key);
    if (held && performance.now() < held.refreshAt) return Promise.resolve(held.answer);
    let pending = this.pending.get(spec.key);
    if (pending === undefined) {
      pending = this.fetch(spec, send).finally(() => this.pending.delete(spec.key));
      this.pending.set(spec.key, pending);
    }
    return pending;
  }

  private async fetch(spec: OAuth2Spec, send: TokenSender): Promise<TokenAnswer> {
    const answer = await fetchToken(spec, send);
    if ('token' in answer) {
      this.held.set(spec.key, {
        answer,
        refreshAt: performance.now() + Math.max(0, answer.lifeMs - EARLY_MS),
      });
      return { token: answer.token };
    }
    if (this.options.keepFailures) this.held.set(spec.key, { answer, refreshAt: Infinity });
    return answer;
  }
}

async function fetchToken(
  spec: OAuth2Spec,
  send: TokenSender,
): Promise<{ token: string; lifeMs: number } | { problem: TokenProblem }> {
  const problem = (p: TokenProblem) => ({ problem: p });
  let url: URL;
  try {
    url = new URL(spec.tokenUrl);
  } catch {
    return problem({ kind: 'not-a-url' });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return problem({ kind: 'not-http' });
  const exchanged = await send({
    method: 'POST',
    url,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
    body: clientCredentialsForm(spec),
  });
  if ('error' in exchanged) return problem({ kind: 'no-answer', error: exchanged.error });
  const { status, body } = exchanged;
  if (status < 200 || status > 299) return problem({ kind: 'status', status });
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return problem({ kind: 'not-json' });
  }
  const { access_token, expires_in } =
    typeof parsed === 'object' && parsed !== null
      ? (parsed as { access_token?: unknown; expires_in?: unknown })
      : {};
  if (typeof access_token !== 'string' || access_token === '') return problem({ kind: 'no-token' });
  const lifeS = typeof expires_in === 'number' ? expires_in : Number(expires_in ?? 3600);
  const lifeMs = Number.isFinite(lifeS) && lifeS > 0 ? lifeS * 1000 : DEFAULT_LIFE_MS;
  return { token: access_token, lifeMs };
}
