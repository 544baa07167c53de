import { performance } from 'node:perf_hooks';
import type { TargetGuard } from '../guard/guard';
import { clientCredentialsForm, type OAuth2Spec } from './request-parts';
import { httpCall, type UserAgents } from './http-call';

/*
 * OAuth2 client-credentials tokens of one functional run (docs/design.md §4: the token is fetched
 * before use, with the form every generator sends), shared by its users and kept until shortly
 * before `expires_in` runs out. A failed fetch is not kept: the next call that needs it tries again.
 */

const TOKEN_TIMEOUT_MS = 30_000;
/** Refresh this long before the token's stated expiry. */
const EARLY_MS = 5_000;

type TokenAnswer = { token: string } | { error: string };

export class OAuth2Tokens {
  private readonly tokens = new Map<string, { token: string; refreshAt: number }>();
  private readonly pending = new Map<string, Promise<TokenAnswer>>();

  constructor(
    private readonly agents: UserAgents,
    private readonly guard: TargetGuard | undefined,
    private readonly signal: AbortSignal,
  ) {}

  /** A token, or why there is none in words; fetches when none is held. */
  get(spec: OAuth2Spec): Promise<TokenAnswer> {
    const held = this.tokens.get(spec.key);
    if (held && performance.now() < held.refreshAt) return Promise.resolve({ token: held.token });
    let pending = this.pending.get(spec.key);
    if (pending === undefined) {
      pending = this.fetch(spec).finally(() => this.pending.delete(spec.key));
      this.pending.set(spec.key, pending);
    }
    return pending;
  }

  private async fetch(spec: OAuth2Spec): Promise<TokenAnswer> {
    const failed = (why: string): TokenAnswer => ({
      error: `Could not get an OAuth2 token from ${spec.tokenUrl}: ${why}`,
    });
    let url: URL;
    try {
      url = new URL(spec.tokenUrl);
    } catch {
      return failed('it is not a URL');
    }
    const outcome = await httpCall(
      {
        method: 'POST',
        url,
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
        body: clientCredentialsForm(spec),
      },
      { agents: this.agents, guard: this.guard, timeoutMs: TOKEN_TIMEOUT_MS, signal: this.signal },
    );
    if (outcome.kind === 'aborted') return failed('the run was stopped');
    if (outcome.kind === 'failed') return failed(outcome.error);
    const { status, body } = outcome.answer;
    if (status < 200 || status > 299) return failed(`it answered status ${status}`);
    let parsed: { access_token?: unknown; expires_in?: unknown };
    try {
      parsed = JSON.parse(body.toString('utf8')) as typeof parsed;
    } catch {
      return failed('its answer is not JSON');
    }
    if (typeof parsed.access_token !== 'string' || parsed.access_token === '') {
      return failed('its answer has no access_token');
    }
    const lifeS =
      typeof parsed.expires_in === 'number' ? parsed.expires_in : Number(parsed.expires_in ?? 3600);
    const lifeMs = Number.isFinite(lifeS) && lifeS > 0 ? lifeS * 1000 : 3_600_000;
    this.tokens.set(spec.key, {
      token: parsed.access_token,
      refreshAt: performance.now() + Math.max(0, lifeMs - EARLY_MS),
    });
    return { token: parsed.access_token };
  }
}
