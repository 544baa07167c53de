import { createHmac, randomBytes } from 'node:crypto';
import type { Clock } from '../clock';
import { type LimitDecision, SlidingWindowLimiter } from './rate-limiter';

export interface SignInLockoutOptions {
  /** Failed sign-ins allowed per account from one address within `windowMs`. */
  failuresPerAddress: number;
  windowMs: number;
  now: Clock;
}

/** Failures from addresses the account never signed in from share this many times the per-address budget. */
export const UNKNOWN_ADDRESS_BUDGET_FACTOR = 4;
/** Addresses remembered per account; the least recently used is forgotten beyond it. */
const KNOWN_ADDRESSES_PER_ACCOUNT = 10;
/** Accounts with remembered addresses (memory bound); the least recently used is forgotten beyond it. */
const MAX_ACCOUNTS = 100_000;

/**
 * The sign-in lock-out of docs/adr/0018-safe-defaults-and-lockout.md: failures are counted per account
 * and client address, so failures from one place lock only that place out. An address the account
 * signed in from before is *known*; failures from unknown addresses also share one per-account budget
 * (UNKNOWN_ADDRESS_BUDGET_FACTOR times larger) that, once spent, refuses every unknown address but no
 * known one — an attacker cannot lock the owner out from their usual address.
 *
 * Addresses are kept only as an HMAC of account and address under a key made at start, so the memory
 * holds no list of where people sign in from. Per process, like SlidingWindowLimiter: a restart
 * forgets the failures and the known addresses alike.
 */
export class SignInLockout {
  private readonly perAddress: SlidingWindowLimiter;
  private readonly unknownPerAccount: SlidingWindowLimiter;
  /** Account → hashes of its known addresses, least recently used first; accounts in the same order. */
  private readonly known = new Map<string, string[]>();
  private readonly key = randomBytes(32);

  constructor(options: SignInLockoutOptions) {
    this.perAddress = new SlidingWindowLimiter({
      limit: options.failuresPerAddress,
      windowMs: options.windowMs,
      now: options.now,
    });
    this.unknownPerAccount = new SlidingWindowLimiter({
      limit: options.failuresPerAddress * UNKNOWN_ADDRESS_BUDGET_FACTOR,
      windowMs: options.windowMs,
      now: options.now,
    });
  }

  /** Whether a sign-in to `account` from `address` may be tried now, without counting it. */
  check(account: string, address: string): LimitDecision {
    const place = this.addressKey(account, address);
    const own = this.perAddress.check(place);
    if (!own.allowed || this.isKnown(account, place)) return own;
    return this.unknownPerAccount.check(account);
  }

  /** A wrong password (or an unknown account) from `address`. */
  recordFailure(account: string, address: string): void {
    const place = this.addressKey(account, address);
    this.perAddress.record(place);
    if (!this.isKnown(account, place)) this.unknownPerAccount.record(account);
  }

  /** A good sign-in: the address's failures are forgotten and the address is known from now on. */
  recordSuccess(account: string, address: string): void {
    const place = this.addressKey(account, address);
    this.perAddress.reset(place);
    const places = (this.known.get(account) ?? []).filter((p) => p !== place);
    places.push(place);
    if (places.length > KNOWN_ADDRESSES_PER_ACCOUNT) places.shift();
    this.known.delete(account);
    if (this.known.size >= MAX_ACCOUNTS) {
      const oldest = this.known.keys().next();
      if (oldest.done !== true) this.known.delete(oldest.value);
    }
    this.known.set(account, places);
  }

  private isKnown(account: string, place: string): boolean {
    return this.known.get(account)?.includes(place) ?? false;
  }

  private addressKey(account: string, address: string): string {
    return createHmac('sha256', this.key).update(`${account}\n${address}`).digest('base64url');
  }
}
