import { performance } from 'node:perf_hooks';
import { clientCredentialsForm, type OAuth2Spec } from './request-parts';

/*
 * The one OAuth2 client-credentials token cache of the call core (docs/call-core.md; docs/design.md §4:
 * the token is fetched before use, with the form every generator sends). One per run or Validate pass:
 * each distinct client (token URL, id, secret, scope) is asked once, every caller waiting for the same
 * fetch, and its token kept until shortly before `expires_in` runs out (or a 401 says it is no longer
 * good: `invalidate`). How long a failure is kept is the owner's choice: a functional run asks again on
 * the next call, the load executor holds a client off for a second so that its users do not hammer the
 * token endpoint, a Validate pass never hits it twice for one client. How the token request is sent
 * (connection pool, guard, time-out) and how a problem is worded are the caller's too. The load
 * executor reads a held token synchronously on its hot path (`held`), one token shared by every user
 * of its shard.
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
  /** `body`: the start of what the endpoint answered, for a caller that shows it. */
  | { kind: 'status'; status: number; body: string }
  | { kind: 'not-json' }
  | { kind: 'no-token' };

export type TokenAnswer = { token: string } | { problem: TokenProblem };

/** Refresh a token this long before its stated expiry, at most: no request goes out with one about to expire. */
const EARLY_MS = 30_000;
/** ... and at most this share of its lifetime (a 1 s token is asked again 100 ms early). */
const EARLY_SHARE = 0.1;
/** A token whose answer states no usable lifetime is kept this long. */
const DEFAULT_LIFE_MS = 3_600_000;
/** What the token endpoint answered, as a problem keeps it. */
const BODY_CHARS = 200;

export class OAuth2Tokens {
  private readonly kept = new Map<string, { answer: TokenAnswer; until: number }>();
  private readonly pending = new Map<string, Promise<TokenAnswer>>();

  /** `keepFailuresMs`: how long a failure is answered again before the endpoint is asked anew. */
  constructor(private readonly options: { keepFailuresMs: number }) {}

  /** A token, or why there is none; fetches with `send` when none is held. `send` must not throw. */
  get(spec: OAuth2Spec, send: TokenSender): Promise<TokenAnswer> {
    const held = this.held(spec);
    if (held !== undefined) return Promise.resolve(held);
    let pending = this.pending.get(spec.key);
    if (pending === undefined) {
      pending = this.fetch(spec, send).finally(() => this.pending.delete(spec.key));
      this.pending.set(spec.key, pending);
    }
    return pending;
  }

  /** What is held for this client now, without asking: a fresh token, a failure still kept, or nothing. */
  held(spec: OAuth2Spec): TokenAnswer | undefined {
    const kept = this.kept.get(spec.key);
    return kept !== undefined && performance.now() < kept.until ? kept.answer : undefined;
  }

  /** How long until a kept failure lets the endpoint be asked again, in ms (0 when none is kept). */
  retryInMs(spec: OAuth2Spec): number {
    const kept = this.kept.get(spec.key);
    return kept === undefined || 'token' in kept.answer ? 0 : Math.max(0, kept.until - performance.now());
  }

  /** The token was refused (a 401): the next `get` asks for another. */
  invalidate(spec: OAuth2Spec): void {
    this.kept.delete(spec.key);
  }

  private async fetch(spec: OAuth2Spec, send: TokenSender): Promise<TokenAnswer> {
    const asked = performance.now();
    const answer = await fetchToken(spec, send);
    if ('token' in answer) {
      const { lifeMs } = answer;
      const token = { token: answer.token };
      this.kept.set(spec.key, {
        answer: token,
        until: asked + lifeMs - Math.min(EARLY_MS, lifeMs * EARLY_SHARE),
      });
      return token;
    }
    if (this.options.keepFailuresMs > 0)
      this.kept.set(spec.key, { answer, until: performance.now() + this.options.keepFailuresMs });
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
  if (status < 200 || status > 299)
    return problem({ kind: 'status', status, body: body.slice(0, BODY_CHARS) });
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
