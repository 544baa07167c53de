import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_ARGS } from './chromium-args';
import { browsersPerUserProblem, DEFAULT_UI_BROWSERS, defaultBrowsersPerUser } from './limits';

/*
 * The browsers of UI runs (docs/design.md §9 "UI tests"): browsers are heavy, so at most `maxBrowsers`
 * runs hold one at once and the others wait, told their place as it changes. One user's runs hold at
 * most `maxPerUser` of them, so one user cannot hold every browser: a run of a user at that cap waits
 * while the runs of other users take free browsers ahead of it. Each run gets its own Chromium, launched
 * when its turn comes and always closed when it gives it back — or killed, with every process it started,
 * when it does not close in time or its page stops answering (docs/adr/0011-playwright-runs-selenium-ui-tests.md).
 */

export const DEFAULT_BROWSER_PATH = '/usr/bin/chromium';
export const DEFAULT_STEP_TIMEOUT_MS = 30_000;

/** How long Chromium may take to start. */
const LAUNCH_TIMEOUT_MS = 30_000;
/** How long a browser may take to close before it is killed. */
const CLOSE_WITHIN_MS = 3_000;
/** How long a killed browser's connection may take to drop. */
const GONE_WITHIN_MS = 3_000;

export interface UiBrowserPoolOptions {
  /** Chromium's executable. */
  executablePath: string;
  /** How many UI runs may hold a browser at once. */
  maxBrowsers: number;
  /** How long one navigation or action of a step may take. */
  stepTimeoutMs: number;
  /** How many browsers one user's runs may hold at once; default defaultBrowsersPerUser(maxBrowsers). */
  maxPerUser?: number;
}

/** What a run asks the pool for. */
export interface BrowserRequest {
  /** Whose run it is (the user's id); a run without an owner counts against no one's share. */
  owner?: string;
  /** Told the run's place in the queue (1 = next) as it changes, and null once it has a browser. */
  onQueued?: (position: number | null) => void;
  /** Aborted: the run leaves the queue. */
  signal?: AbortSignal;
  /**
   * The proxy (http://host:port) every connection of the browser goes through, loopback included — the
   * run's guard proxy (docs/adr/0015-target-guard.md "UI runs").
   */
  proxy?: string;
}

/** A run's turn: its own browser, given back (and closed) by release(). */
export interface BrowserLease {
  browser: Browser;
  /**
   * Ends the browser at once: SIGKILL to its process group and to every process it reports (renderers
   * included), then waits for its connection to drop. For a browser that no longer answers in time.
   */
  kill: () => Promise<void>;
  /** Closes the browser (killing it when it does not close in time) and gives the turn back. */
  release: () => Promise<void>;
}

interface Waiter {
  owner: string | symbol;
  grant: () => void;
  refuse: (error: Error) => void;
  onQueued: ((position: number | null) => void) | undefined;
  /** The place last told, so a waiter hears only changes. */
  told: number | null;
}

/** Raised to a waiting run when the pool closes. */
export class PoolClosedError extends Error {
  constructor() {
    super('The UI browser pool is closed');
    this.name = 'PoolClosedError';
  }
}

export class UiBrowserPool {
  readonly executablePath: string;
  readonly maxBrowsers: number;
  readonly stepTimeoutMs: number;
  readonly maxPerUser: number;
  private inUse = 0;
  /** Browsers held, by owner. */
  private readonly held = new Map<string | symbol, number>();
  /** The waiting runs in order of arrival. */
  private queue: Waiter[] = [];
  private readonly leases = new Set<BrowserLease>();
  private closed = false;

  constructor(options: UiBrowserPoolOptions) {
    if (!Number.isInteger(options.maxBrowsers) || options.maxBrowsers < 1) {
      throw new Error(`maxBrowsers must be a whole number of at least 1, not ${options.maxBrowsers}`);
    }
    if (!Number.isFinite(options.stepTimeoutMs) || options.stepTimeoutMs <= 0) {
      throw new Error(`stepTimeoutMs must be a positive number of ms, not ${options.stepTimeoutMs}`);
    }
    const perUser = options.maxPerUser ?? defaultBrowsersPerUser(options.maxBrowsers);
    const problem =
      options.maxPerUser === undefined ? null : browsersPerUserProblem(options.maxBrowsers, perUser);
    if (problem !== null) throw new Error(`maxPerUser ${problem}`);
    this.executablePath = options.executablePath;
    this.maxBrowsers = options.maxBrowsers;
    this.stepTimeoutMs = options.stepTimeoutMs;
    this.maxPerUser = perUser;
  }

  /**
   * The pool as the environment sets it: AQA_BROWSER_PATH (else /usr/bin/chromium, else `chromium` on
   * PATH), AQA_UI_BROWSERS (2), AQA_UI_BROWSERS_PER_USER (half of them, at least 1) and
   * AQA_UI_STEP_TIMEOUT_MS (30000). Throws for a value that is not a number, or a share it cannot use.
   */
  static fromEnv(env: Readonly<Record<string, string | undefined>>): UiBrowserPool {
    const maxBrowsers = wholeFromEnv(env, 'AQA_UI_BROWSERS', DEFAULT_UI_BROWSERS);
    const perUser = wholeFromEnv(env, 'AQA_UI_BROWSERS_PER_USER', 0);
    if (perUser !== 0) {
      const problem = browsersPerUserProblem(maxBrowsers, perUser);
      if (problem !== null) throw new Error(`AQA_UI_BROWSERS_PER_USER ${problem}`);
    }
    return new UiBrowserPool({
      executablePath: browserPathFromEnv(env),
      maxBrowsers,
      stepTimeoutMs: wholeFromEnv(env, 'AQA_UI_STEP_TIMEOUT_MS', DEFAULT_STEP_TIMEOUT_MS),
      ...(perUser === 0 ? {} : { maxPerUser: perUser }),
    });
  }

  /** A sentence for a person when no browser can run here, else null. */
  browserProblem(): string | null {
    if (isExecutable(this.executablePath)) return null;
    return `UI tests need Chromium, and none was found at ${this.executablePath}: install it (apt install chromium) or set AQA_BROWSER_PATH`;
  }

  /** How many runs wait for a browser now. */
  get waiting(): number {
    return this.queue.length;
  }

  /**
   * Waits for a turn (telling `onQueued` the place in the queue, then null), then launches the run's
   * browser. An aborted signal leaves the queue; a launch that fails gives the turn back.
   */
  async acquire(request: BrowserRequest = {}): Promise<BrowserLease> {
    if (this.closed) throw new PoolClosedError();
    request.signal?.throwIfAborted();
    // A run without an owner is a party of its own.
    const owner = request.owner ?? Symbol('no owner');
    await this.wait(owner, request.onQueued, request.signal);
    let browser: Browser;
    try {
      browser = await chromium.launch({
        executablePath: this.executablePath,
        args:
          request.proxy === undefined ? CHROMIUM_ARGS : [...CHROMIUM_ARGS, resolveNothingBut(request.proxy)],
        timeout: LAUNCH_TIMEOUT_MS,
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
        // Playwright adds <-loopback> to the bypass list, so loopback goes through the proxy too.
        ...(request.proxy === undefined ? {} : { proxy: { server: request.proxy } }),
      });
    } catch (error) {
      this.giveBack(owner);
      throw error;
    }
    const atLaunch = await Promise.race([processIdsOf(browser), delay(LAUNCH_TIMEOUT_MS).then(() => [])]);
    const kill = killerOf(browser, atLaunch);
    if (this.closed) {
      await browser.close().catch(() => kill());
      this.giveBack(owner);
      throw new PoolClosedError();
    }
    let closing: Promise<void> | undefined;
    const close = async (): Promise<void> => {
      try {
        const closed = await Promise.race([
          browser.close().then(
            () => true,
            () => true,
          ),
          delay(CLOSE_WITHIN_MS).then(() => false),
        ]);
        if (!closed || browser.isConnected()) await kill();
      } finally {
        this.leases.delete(lease);
        this.giveBack(owner);
      }
    };
    // Every call answers the one closing, so a stop can wait for the browser to be gone.
    const lease: BrowserLease = { browser, kill, release: () => (closing ??= close()) };
    this.leases.add(lease);
    return lease;
  }

  /** Closes every browser and refuses the runs still waiting. */
  async close(): Promise<void> {
    this.closed = true;
    for (const waiter of this.queue.splice(0)) waiter.refuse(new PoolClosedError());
    await Promise.all([...this.leases].map((lease) => lease.release()));
  }

  private under(owner: string | symbol): boolean {
    return (this.held.get(owner) ?? 0) < this.maxPerUser;
  }

  private take(owner: string | symbol): void {
    this.inUse++;
    this.held.set(owner, (this.held.get(owner) ?? 0) + 1);
  }

  private drop(owner: string | symbol): void {
    this.inUse = Math.max(0, this.inUse - 1);
    const left = (this.held.get(owner) ?? 0) - 1;
    if (left > 0) this.held.set(owner, left);
    else this.held.delete(owner);
  }

  private wait(
    owner: string | symbol,
    onQueued: Waiter['onQueued'],
    signal: AbortSignal | undefined,
  ): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        const at = this.queue.indexOf(waiter);
        if (at !== -1) {
          this.queue.splice(at, 1);
          this.tellPlaces();
        }
        reject(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
      };
      const waiter: Waiter = {
        owner,
        grant: () => {
          signal?.removeEventListener('abort', onAbort);
          if (waiter.told !== null) tell(onQueued, null);
          resolve();
        },
        refuse: (error) => {
          signal?.removeEventListener('abort', onAbort);
          reject(error);
        },
        onQueued,
        told: null,
      };
      this.queue.push(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.dispatch();
    });
  }

  /**
   * The order the waiting runs get browsers in, as things stand: those whose owner is under the share
   * first, in order of arrival; then those held back by their owner's share, in order of arrival (each
   * waits for one of its owner's runs to end, and then for the runs before it).
   */
  private order(): Waiter[] {
    const free = this.queue.filter((w) => this.under(w.owner));
    return [...free, ...this.queue.filter((w) => !this.under(w.owner))];
  }

  /** Grants free browsers to the first waiting runs that may take one, then tells the rest their place. */
  private dispatch(): void {
    while (this.inUse < this.maxBrowsers) {
      const next = this.queue.find((w) => this.under(w.owner));
      if (next === undefined) break;
      this.queue = this.queue.filter((w) => w !== next);
      this.take(next.owner);
      next.grant();
    }
    this.tellPlaces();
  }

  /**
   * A turn ends. It goes to the run told it was next: the first in order() as it stood before this owner
   * gave one back, so a run of the same owner does not pass the other users' runs told they were ahead.
   */
  private giveBack(owner: string | symbol): void {
    const next = this.order()[0];
    if (next !== undefined && this.under(next.owner)) {
      this.queue = this.queue.filter((w) => w !== next);
      this.drop(owner);
      this.take(next.owner);
      next.grant();
    } else {
      this.drop(owner);
    }
    this.dispatch();
  }

  /** Tells each waiting run its place in order(), when it changed. */
  private tellPlaces(): void {
    for (const [i, waiter] of this.order().entries()) {
      if (waiter.told === i + 1) continue;
      waiter.told = i + 1;
      tell(waiter.onQueued, i + 1);
    }
  }
}

/**
 * With a proxy for everything, the browser needs to resolve no name itself: each goes to the proxy, which
 * resolves it through the guard. Every name and address but the proxy's own is made unresolvable, so
 * neither a DNS prefetch nor a connection around the proxy leaves the browser.
 */
function resolveNothingBut(proxy: string): string {
  return `--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE ${new URL(proxy).hostname}`;
}

/** The ids of the browser's processes, as it reports them (the browser's own first). */
async function processIdsOf(browser: Browser): Promise<number[]> {
  try {
    const session = await browser.newBrowserCDPSession();
    try {
      const { processInfo } = (await session.send('SystemInfo.getProcessInfo')) as {
        processInfo: { type: string; id: number }[];
      };
      return [...processInfo]
        .sort((a, b) => Number(b.type === 'browser') - Number(a.type === 'browser'))
        .map((p) => p.id)
        .filter((id) => Number.isInteger(id) && id > 0);
    } finally {
      await session.detach().catch(() => undefined);
    }
  } catch {
    // A browser that does not say: closing it is all that can be done.
    return [];
  }
}

/**
 * Kills a browser and its helpers. Playwright starts Chromium as the leader of a process group of its
 * own, and every helper (zygote, renderers, GPU, network service) is started in it; the processes the
 * browser reports at launch, and again now when it still answers, are killed one by one as well, for a
 * browser behind a launcher that does not exec it.
 */
function killerOf(browser: Browser, atLaunch: readonly number[]): () => Promise<void> {
  let killing: Promise<void> | undefined;
  const kill = async (): Promise<void> => {
    const now = browser.isConnected()
      ? await Promise.race([processIdsOf(browser), delay(1_000).then(() => [])])
      : [];
    const browserPid = atLaunch[0];
    if (browserPid !== undefined) signal(-browserPid);
    for (const pid of new Set([...atLaunch, ...now])) signal(pid);
    if (browser.isConnected()) {
      await Promise.race([
        new Promise<void>((resolve) => browser.once('disconnected', () => resolve())),
        delay(GONE_WITHIN_MS),
      ]);
    }
  };
  return () => (killing ??= kill());
}

function signal(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

function tell(onQueued: ((position: number | null) => void) | undefined, position: number | null): void {
  try {
    onQueued?.(position);
  } catch {
    // A listener's mistake must not stall the queue.
  }
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function browserPathFromEnv(env: Readonly<Record<string, string | undefined>>): string {
  const set = env.AQA_BROWSER_PATH?.trim();
  if (set !== undefined && set !== '') return set;
  if (isExecutable(DEFAULT_BROWSER_PATH)) return DEFAULT_BROWSER_PATH;
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, 'chromium');
    if (isExecutable(candidate)) return candidate;
  }
  // None: browserProblem() names the default place.
  return DEFAULT_BROWSER_PATH;
}

function wholeFromEnv(
  env: Readonly<Record<string, string | undefined>>,
  name: string,
  fallback: number,
): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!/^[0-9]+$/.test(raw) || n < 1)
    throw new Error(`${name} must be a whole number of at least 1, not "${raw}"`);
  return n;
}
