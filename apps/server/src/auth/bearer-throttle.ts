import { createHmac } from 'node:crypto';
import type { Clock } from '../clock';
import { RateLimitedError } from '../errors';
import { type AttemptWindow, type LimitStore, memoryLimitStore } from './rate-limiter';

export interface BearerThrottleOptions {
  /** Failed bearer authentications allowed per client address within a minute. */
  failuresPerMinute: number;
  now: Clock;
  /** Where the counts live; this process's memory when left out (docs/adr/0020-server-replicas.md). */
  store?: LimitStore;
}

export const BEARER_THROTTLE_MESSAGE = (seconds: number) =>
  `Too many requests with a token that is not valid came from this address. Try again in ${seconds} seconds.`;

/** Tokens remembered per client address as having worked there; the least recently used is forgotten beyond it. */
const KNOWN_TOKENS_PER_ADDRESS = 100;
/** A token that worked is written to the store again at most this often per address (a write per request otherwise). */
const REMEMBER_AGAIN_MS = 10 * 60_000;
/** Pairs of address and token remembered as recently written, in this process. */
const RECENT_MAX = 10_000;
const MINUTE_MS = 60_000;

/**
 * Bearer-token guessing is throttled per client address (docs/adr/0012-api-tokens-and-sessions.md):
 * a token that is unknown, revoked or expired is a failure of its address; past `failuresPerMinute`
 * failures in a minute, the address gets 429 with Retry-After for every token it has not used before,
 * and the token is not even looked up — so a guess over the limit learns nothing, valid or not. Tokens
 * that worked from that address before (and sessions signed in from it) keep working, so an attacker
 * behind the same NAT as real users does not lock them out. A request without a token guesses nothing
 * and is not counted.
 *
 * Counted in the store the sign-in limits use: this process, or the Redis replicas share, so a guesser
 * spreading requests over replicas meets one limit. Tokens are kept only as an HMAC under the store's
 * key, in the known-addresses list of a key no account can have (it holds a NUL, which emails refuse).
 */
export class BearerThrottle {
  private readonly failures: AttemptWindow;
  private readonly store: LimitStore;
  private readonly now: Clock;
  /** "address\n token hash" → when it was last written to the store's known list. */
  private readonly recent = new Map<string, number>();

  constructor(options: BearerThrottleOptions) {
    this.store = options.store ?? memoryLimitStore(options.now);
    this.now = options.now;
    this.failures = this.store.window('bearer-failures-ip', {
      limit: options.failuresPerMinute,
      windowMs: MINUTE_MS,
    });
  }

  /** Before the token is looked up: throws 429 when the address is over its limit and has not used this token. */
  async admit(token: string, address: string): Promise<void> {
    const gate = await this.failures.check(address);
    if (gate.allowed) return;
    if (await this.store.knownAddresses.isKnown(listOf(address), this.tokenKey(token))) return;
    throw new RateLimitedError(
      'TOO_MANY_TOKEN_FAILURES',
      BEARER_THROTTLE_MESSAGE(gate.retryAfterS),
      gate.retryAfterS,
      {
        hint: 'Check the token the client sends: it may be mistyped, revoked or expired. Create a new one in Settings.',
      },
    );
  }

  /** The token was unknown, revoked or expired. */
  recordFailure(address: string): Promise<void> {
    return this.failures.record(address);
  }

  /** The token worked from this address (or was just issued to it at sign-in): it keeps working there. */
  async remember(token: string, address: string): Promise<void> {
    const tokenKey = this.tokenKey(token);
    const pair = `${address}\n${tokenKey}`;
    const now = this.now();
    const last = this.recent.get(pair);
    if (last !== undefined && now - last < REMEMBER_AGAIN_MS) return;
    this.recent.delete(pair);
    if (this.recent.size >= RECENT_MAX) {
      const oldest = this.recent.keys().next();
      if (oldest.done !== true) this.recent.delete(oldest.value);
    }
    this.recent.set(pair, now);
    await this.store.knownAddresses.remember(listOf(address), tokenKey, KNOWN_TOKENS_PER_ADDRESS);
  }

  private tokenKey(token: string): string {
    return createHmac('sha256', this.store.addressSecret).update(`bearer\n${token}`).digest('base64url');
  }
}

/** The known list of an address's tokens: a key with a NUL, which no account (an email) can be. */
function listOf(address: string): string {
  return `\u0000bearer\u0000${address}`;
}
