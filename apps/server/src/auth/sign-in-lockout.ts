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

/** Failures from every address together get this many times the per-address budget, per account. */
export const ACCOUNT_BUDGET_FACTOR = 4;
/** Addresses remembered per account; the least recently used is forgotten beyond it. */
const KNOWN_ADDRESSES_PER_ACCOUNT = 10;

/**
 * The sign-in lock-out of docs/adr/0018-safe-defaults-and-lockout.md. Failures are counted per account
 * and client address, so failures from one place lock only that place out; and per account, from every
 * address together (ACCOUNT_BUDGET_FACTOR times larger). Once the account's budget is spent every
 * sign-in is refused — except the right password from an address the account signed in from before
 * (*known*): an attacker cannot lock the owner out from their usual address.
 *
 * Nothing here may tell an account that exists from an email that has none: the counts move alike for
 * both (a known address saves no failure from being counted), and the exception is decided only after
 * the password has been checked, which an unknown email never passes. The caller checks the password
 * (or a dummy hash) whatever the account budget says, so both take the same time.
 *
 * Addresses are kept only as an HMAC of account and address under the store's key, so neither the
 * memory nor Redis holds a list of where people sign in from. In memory (one server), a restart forgets
 * the failures and the known addresses alike; the Redis store of several replicas keeps them
 * (docs/adr/0020-server-replicas.md).
 */
export class SignInLockout {
  private readonly perAddress: AttemptWindow;
  private readonly perAccount: AttemptWindow;
  private readonly store: LimitStore;

  constructor(options: SignInLockoutOptions) {
    this.store = options.store ?? memoryLimitStore(options.now);
    this.perAddress = this.store.window('sign-in-address', {
      limit: options.failuresPerAddress,
      windowMs: options.windowMs,
    });
    this.perAccount = this.store.window('sign-in-account', {
      limit: options.failuresPerAddress * ACCOUNT_BUDGET_FACTOR,
      windowMs: options.windowMs,
    });
  }

  /** Whether this address has spent its own budget for `account`: then it is refused before anything else. */
  checkAddress(account: string, address: string): Promise<LimitDecision> {
    return this.perAddress.check(this.addressKey(account, address));
  }

  /** Whether the account's budget, shared by every address, is spent; not counting the attempt. */
  checkAccount(account: string): Promise<LimitDecision> {
    return this.perAccount.check(account);
  }

  /** Whether the account signed in from `address` before (only asked once the password was right). */
  isKnown(account: string, address: string): Promise<boolean> {
    return this.store.knownAddresses.isKnown(account, this.addressKey(account, address));
  }

  /** A wrong password (or an unknown account) from `address`: counted against both budgets. */
  async recordFailure(account: string, address: string): Promise<void> {
    await this.perAddress.record(this.addressKey(account, address));
    await this.perAccount.record(account);
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
