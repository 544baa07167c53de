import { randomBytes } from 'node:crypto';

export interface LimitDecision {
  allowed: boolean;
  /** Whole seconds until one more attempt would be allowed; 0 when allowed now. */
  retryAfterS: number;
}

export interface SlidingWindowOptions {
  /** Attempts allowed within any window of `windowMs`. */
  limit: number;
  windowMs: number;
  /** Epoch milliseconds; injected so tests can move time. */
  now?: () => number;
  /** Keys kept at most; beyond it the least recently created keys are forgotten (memory bound). */
  maxKeys?: number;
}

/**
 * An in-memory sliding-window log: it remembers the time of each counted attempt per key and
 * allows a new one while fewer than `limit` fall inside the last `windowMs`. Exact (no fixed-window
 * burst at the boundary) and small, since a key never holds more than `limit` timestamps.
 * Per process: several server replicas share the Redis store of cluster/redis-limits.ts instead.
 */
export class SlidingWindowLimiter {
  private readonly hits = new Map<string, number[]>();
  private readonly now: () => number;
  private readonly maxKeys: number;
  private lastSweepAt: number;

  constructor(private readonly options: SlidingWindowOptions) {
    if (!Number.isInteger(options.limit) || options.limit < 1)
      throw new RangeError('limit must be a whole number ≥ 1');
    if (!(options.windowMs > 0)) throw new RangeError('windowMs must be positive');
    this.now = options.now ?? Date.now;
    this.maxKeys = options.maxKeys ?? 100_000;
    this.lastSweepAt = this.now();
  }

  /** Whether one more attempt for `key` is allowed now, without counting it. */
  check(key: string): LimitDecision {
    const now = this.now();
    const recent = this.recent(key, now);
    if (recent.length < this.options.limit) return { allowed: true, retryAfterS: 0 };
    // The oldest attempt in the window is the first to leave it.
    const oldest = recent[recent.length - this.options.limit] ?? now;
    return {
      allowed: false,
      retryAfterS: Math.max(1, Math.ceil((oldest + this.options.windowMs - now) / 1000)),
    };
  }

  /** Counts an attempt for `key`, whatever the limit says. */
  record(key: string): void {
    const now = this.now();
    this.sweep(now);
    const recent = this.recent(key, now);
    recent.push(now);
    if (recent.length > this.options.limit) recent.splice(0, recent.length - this.options.limit);
    if (!this.hits.has(key)) {
      if (this.hits.size >= this.maxKeys) this.forgetOldestKey();
      this.hits.set(key, recent);
    }
  }

  /** Checks and, when allowed, counts the attempt: the usual "N per window" gate. */
  consume(key: string): LimitDecision {
    const decision = this.check(key);
    if (decision.allowed) this.record(key);
    return decision;
  }

  /** Forgets the attempts of `key` (e.g. the failures of an account after a good sign-in). */
  reset(key: string): void {
    this.hits.delete(key);
  }

  /** Keys currently remembered; for tests of the memory bound. */
  get size(): number {
    return this.hits.size;
  }

  private recent(key: string, now: number): number[] {
    const times = this.hits.get(key);
    if (times === undefined) return [];
    const cutoff = now - this.options.windowMs;
    let firstLive = 0;
    while (firstLive < times.length && (times[firstLive] ?? 0) <= cutoff) firstLive++;
    if (firstLive > 0) times.splice(0, firstLive);
    if (times.length === 0) this.hits.delete(key);
    return times;
  }

  /** Drops keys whose attempts have all left the window; at most once per window. */
  private sweep(now: number): void {
    if (now - this.lastSweepAt < this.options.windowMs) return;
    this.lastSweepAt = now;
    const cutoff = now - this.options.windowMs;
    for (const [key, times] of this.hits) {
      if ((times[times.length - 1] ?? 0) <= cutoff) this.hits.delete(key);
    }
  }

  private forgetOldestKey(): void {
    const oldest = this.hits.keys().next();
    if (oldest.done !== true) this.hits.delete(oldest.value);
  }
}

/**
 * A window of counted attempts per key, kept in this process (memoryWindow) or in the Redis several
 * server replicas share (cluster/redis-limits.ts), with the same semantics: a sliding window of
 * `limit` attempts per `windowMs` (docs/adr/0020-server-replicas.md).
 */
export interface AttemptWindow {
  check(key: string): Promise<LimitDecision>;
  record(key: string): Promise<void>;
  consume(key: string): Promise<LimitDecision>;
  reset(key: string): Promise<void>;
}

export interface WindowSettings {
  limit: number;
  windowMs: number;
}

/** The addresses an account signed in from before (SignInLockout), as keyed hashes; the newest `max` kept. */
export interface KnownAddresses {
  isKnown(account: string, place: string): Promise<boolean>;
  remember(account: string, place: string, max: number): Promise<void>;
}

/** Where the sign-in and sign-up limits keep their counts: this process, or the replicas' Redis. */
export interface LimitStore {
  /** A window; `name` keeps the keys of different limits apart. */
  window(name: string, settings: WindowSettings): AttemptWindow;
  knownAddresses: KnownAddresses;
  /** The key of the address hashes (SignInLockout); one for every replica that shares the store. */
  addressSecret: Buffer;
}

/** A SlidingWindowLimiter as an AttemptWindow: the store of a single server. */
export function memoryWindow(limiter: SlidingWindowLimiter): AttemptWindow {
  return {
    check: (key) => Promise.resolve(limiter.check(key)),
    record: (key) => Promise.resolve(limiter.record(key)),
    consume: (key) => Promise.resolve(limiter.consume(key)),
    reset: (key) => Promise.resolve(limiter.reset(key)),
  };
}

/** Accounts with remembered addresses in memory (bound); the least recently used is forgotten beyond it. */
const MAX_ACCOUNTS = 100_000;

/** Known addresses in memory, least recently used first per account, accounts in the same order. */
class MemoryKnownAddresses implements KnownAddresses {
  private readonly known = new Map<string, string[]>();

  isKnown(account: string, place: string): Promise<boolean> {
    return Promise.resolve(this.known.get(account)?.includes(place) ?? false);
  }

  remember(account: string, place: string, max: number): Promise<void> {
    const places = (this.known.get(account) ?? []).filter((p) => p !== place);
    places.push(place);
    if (places.length > max) places.shift();
    this.known.delete(account);
    if (this.known.size >= MAX_ACCOUNTS) {
      const oldest = this.known.keys().next();
      if (oldest.done !== true) this.known.delete(oldest.value);
    }
    this.known.set(account, places);
    return Promise.resolve();
  }
}

/**
 * The limits of one server process: forgotten at a restart, and each process counts alone, so several
 * replicas use the Redis store instead (docs/adr/0020-server-replicas.md).
 */
export function memoryLimitStore(now: () => number): LimitStore {
  return {
    window: (_name, settings) => memoryWindow(new SlidingWindowLimiter({ ...settings, now })),
    knownAddresses: new MemoryKnownAddresses(),
    addressSecret: randomBytes(32),
  };
}
