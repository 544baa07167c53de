import { request, type Dispatcher } from 'undici';
import { clientCredentialsForm, type OAuth2Spec } from '../call/request-parts';

interface Entry {
  token: string | undefined;
  /** performance.now() after which the token must be refreshed. */
  refreshAt: number;
  /** In-flight fetch, shared by every user waiting for it. */
  pending: Promise<void> | null;
  /** Last failure, kept until `retryAt` so users do not hammer the token endpoint. */
  error: string | null;
  retryAt: number;
}

const RETRY_MS = 1000;

/**
 * OAuth2 client-credentials tokens of one shard: fetched once, shared by all its users, refreshed
 * shortly before `expires_in` runs out (or after a 401). The request is the one every generator
 * sends (clientCredentialsForm).
 */
export class TokenCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly dispatcher: Dispatcher,
    private readonly now: () => number,
  ) {}

  /** A valid token, or undefined when the caller must `wait` first. */
  current(spec: OAuth2Spec): string | undefined {
    const e = this.entries.get(spec.key);
    if (!e || e.token === undefined || this.now() >= e.refreshAt) return undefined;
    return e.token;
  }

  /** The last fetch error, while the cache is holding off before retrying. */
  failure(spec: OAuth2Spec): string | null {
    const e = this.entries.get(spec.key);
    return e && e.error && this.now() < e.retryAt ? e.error : null;
  }

  /** Ms until a failed fetch may be retried. */
  retryInMs(spec: OAuth2Spec): number {
    const e = this.entries.get(spec.key);
    return e ? Math.max(0, e.retryAt - this.now()) : 0;
  }

  invalidate(spec: OAuth2Spec): void {
    const e = this.entries.get(spec.key);
    if (e) e.refreshAt = 0;
  }

  /** Resolves when a fetch has finished (successfully or not); never rejects. */
  wait(spec: OAuth2Spec): Promise<void> {
    let e = this.entries.get(spec.key);
    if (!e) {
      e = { token: undefined, refreshAt: 0, pending: null, error: null, retryAt: 0 };
      this.entries.set(spec.key, e);
    }
    if (e.pending) return e.pending;
    const entry = e;
    const pending = this.fetch(spec, entry).finally(() => {
      entry.pending = null;
    });
    entry.pending = pending;
    return pending;
  }

  private async fetch(spec: OAuth2Spec, e: Entry): Promise<void> {
    const started = this.now();
    try {
      const res = await request(spec.tokenUrl, {
        method: 'POST',
        dispatcher: this.dispatcher,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: clientCredentialsForm(spec),
        headersTimeout: 30_000,
        bodyTimeout: 30_000,
      });
      const text = await res.body.text();
      if (res.statusCode >= 400)
        throw new Error(`token endpoint answered ${res.statusCode}: ${text.slice(0, 200)}`);
      const json = JSON.parse(text) as { access_token?: unknown; expires_in?: unknown };
      if (typeof json.access_token !== 'string' || json.access_token === '')
        throw new Error('token response has no access_token');
      const expiresInS = Number(json.expires_in);
      const lifetimeMs = Number.isFinite(expiresInS) && expiresInS > 0 ? expiresInS * 1000 : Infinity;
      e.token = json.access_token;
      // Refresh a little early so that no request goes out with a token about to expire.
      e.refreshAt = started + lifetimeMs - Math.min(30_000, lifetimeMs * 0.1);
      e.error = null;
    } catch (err) {
      e.token = undefined;
      e.error = `OAuth2 token request to ${spec.tokenUrl} failed: ${(err as Error).message}`;
      e.retryAt = this.now() + RETRY_MS;
    }
  }
}
