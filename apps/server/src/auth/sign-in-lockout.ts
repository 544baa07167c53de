import { createHmac } from 'node:crypto';
import type { Clock } from '../clock';
import { type AttemptWindow, type LimitDecision, type LimitStore, memoryLimitStore } from './rate-limiter';

export interface SignInLockoutOptions {
  /** Failed sign-ins allowed per account from one address within `windowMs`. */
  failuresPerAddress: number;
  windowMs: number;
  now: Clock;
  /** Where the counts live; this process's memory when left out (docs/adr/0020-server-replicas.md). */
  store?: LimitStore;
}

/** Failures from addresses the account never signed in from share this many times the per-address budget. */
export const UNKNOWN_ADDRESS_BUDGET_FACTOR = 4;
/** Addresses remembered per account; the least recently used is forgotten beyond it. */
const KNOWN_ADDRESSES_PER_ACCOUNT = 10;

/**
 * The sign-in lock-out of docs/adr/0018-safe-defaults-and-lockout.md: failures are counted per account
 * and client address, so failures from one place lock only that place out. An address the account
 * signed in from before is *known*; failures from unknown addresses also share one per-account budget
 * (UNKNOWN_ADDRESS_BUDGET_FACTOR times larger) that, once spent, refuses every unknown address but no
 * known one — an attacker cannot lock the owner out from their usual address.
 *
 * Addresses are kept only as an HMAC of account and address under the store's key, so neither the
 * memory nor Redis holds a list of where people sign in from. In memory (one server), a restart forgets
 * the failures and the known addresses alike; the Redis store of several replicas keeps them
 * (docs/adr/0020-server-replicas.md).
 */
export class SignInLockout {
  private readonly perAddress: AttemptWindow;
  private readonly unknownPerAccount: AttemptWindow;
  private readonly store: LimitStore;

  constructor(options: SignInLockoutOptions) {
    this.store = options.store ?? memoryLimitStore(options.now);
    this.perAddress = this.store.window('sign-in-address', {
      limit: options.failuresPerAddress,
      windowMs: options.windowMs,
    });
    this.unknownPerAccount = this.store.window('sign-in-unknown', {
      limit: options.failuresPerAddress * UNKNOWN_ADDRESS_BUDGET_FACTOR,
      windowMs: options.windowMs,
    });
  }

  /** Whether a sign-in to `account` from `address` may be tried now, without counting it. */
  async check(account: string, address: string): Promise<LimitDecision> {
    const place = this.addressKey(account, address);
    const own = await this.perAddress.check(place);
    if (!own.allowed || (await this.store.knownAddresses.isKnown(account, place))) return own;
    return this.unknownPerAccount.check(account);
  }

  /** A wrong password (or an unknown account) from `address`. */
  async recordFailure(account: string, address: string): Promise<void> {
    const place = this.addressKey(account, address);
    await this.perAddress.record(place);
    if (!(await this.store.knownAddresses.isKnown(account, place)))
      await this.unknownPerAccount.record(account);
  }

  /** A good sign-in: the address's failures are forgotten and the address is known from now on. */
  async recordSuccess(account: string, address: string): Promise<void> {
    const place = this.addressKey(account, address);
    await this.perAddress.reset(place);
    await this.store.knownAddresses.remember(account, place, KNOWN_ADDRESSES_PER_ACCOUNT);
  }

  private addressKey(account: string, address: string): string {
    return createHmac('sha256', this.store.addressSecret)
      .update(`${account}\n${address}`)
      .digest('base64url');
  }
}
