import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';

/*
 * The browsers of UI runs (docs/design.md §9 "UI tests"): browsers are heavy, so at most `maxBrowsers`
 * runs hold one at once and the others wait in first-come order, told their place as it changes. Each
 * run gets its own Chromium, launched when its turn comes and always closed when it gives it back.
 */

export const DEFAULT_BROWSER_PATH = '/usr/bin/chromium';
export const DEFAULT_UI_BROWSERS = 2;
export const DEFAULT_STEP_TIMEOUT_MS = 30_000;

/** The flags the project's own browser tests launch Chromium with (playwright.config.ts). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** How long Chromium may take to start. */
const LAUNCH_TIMEOUT_MS = 30_000;

export interface UiBrowserPoolOptions {
  /** Chromium's executable. */
  executablePath: string;
  /** How many UI runs may hold a browser at once. */
  maxBrowsers: number;
  /** How long one navigation or action of a step may take. */
  stepTimeoutMs: number;
}

/** A run's turn: its own browser, given back (and closed) by release(). */
export interface BrowserLease {
  browser: Browser;
  release(): Promise<void>;
}

interface Waiter {
  grant: () => void;
  refuse: (error: Error) => void;
  onQueued: ((position: number | null) => void) | undefined;
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
  private held = 0;
  private readonly queue: Waiter[] = [];
  private readonly browsers = new Set<Browser>();
  private closed = false;

  constructor(options: UiBrowserPoolOptions) {
    if (!Number.isInteger(options.maxBrowsers) || options.maxBrowsers < 1) {
      throw new Error(`maxBrowsers must be a whole number of at least 1, not ${options.maxBrowsers}`);
    }
    if (!Number.isFinite(options.stepTimeoutMs) || options.stepTimeoutMs <= 0) {
      throw new Error(`stepTimeoutMs must be a positive number of ms, not ${options.stepTimeoutMs}`);
    }
    this.executablePath = options.executablePath;
    this.maxBrowsers = options.maxBrowsers;
    this.stepTimeoutMs = options.stepTimeoutMs;
  }

  /**
   * The pool as the environment sets it: AQA_BROWSER_PATH (else /usr/bin/chromium, else `chromium` on
   * PATH), AQA_UI_BROWSERS (2) and AQA_UI_STEP_TIMEOUT_MS (30000). Throws for a value that is not a number.
   */
  static fromEnv(env: Readonly<Record<string, string | undefined>>): UiBrowserPool {
    return new UiBrowserPool({
      executablePath: browserPathFromEnv(env),
      maxBrowsers: wholeFromEnv(env, 'AQA_UI_BROWSERS', DEFAULT_UI_BROWSERS),
      stepTimeoutMs: wholeFromEnv(env, 'AQA_UI_STEP_TIMEOUT_MS', DEFAULT_STEP_TIMEOUT_MS),
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
  async acquire(onQueued?: (position: number | null) => void, signal?: AbortSignal): Promise<BrowserLease> {
    if (this.closed) throw new PoolClosedError();
    signal?.throwIfAborted();
    if (this.held < this.maxBrowsers && this.queue.length === 0) {
      this.held++;
    } else {
      await this.wait(onQueued, signal);
    }
    let browser: Browser;
    try {
      browser = await chromium.launch({
        executablePath: this.executablePath,
        args: CHROMIUM_ARGS,
        timeout: LAUNCH_TIMEOUT_MS,
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
      });
    } catch (error) {
      this.giveBack();
      throw error;
    }
    this.browsers.add(browser);
    let closing: Promise<void> | undefined;
    const close = async (): Promise<void> => {
      try {
        await browser.close();
      } catch {
        // Already gone (it crashed, or the pool closed it).
      } finally {
        this.browsers.delete(browser);
        this.giveBack();
      }
    };
    // Every call answers the one closing, so a stop can wait for the browser to be gone.
    return { browser, release: () => (closing ??= close()) };
  }

  /** Closes every browser and refuses the runs still waiting. */
  async close(): Promise<void> {
    this.closed = true;
    for (const waiter of this.queue.splice(0)) waiter.refuse(new PoolClosedError());
    await Promise.all([...this.browsers].map((b) => b.close().catch(() => undefined)));
    this.browsers.clear();
  }

  private wait(onQueued: Waiter['onQueued'], signal: AbortSignal | undefined): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        const at = this.queue.indexOf(waiter);
        if (at !== -1) {
          this.queue.splice(at, 1);
          this.tellPlaces(at);
        }
        reject(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
      };
      const waiter: Waiter = {
        grant: () => {
          signal?.removeEventListener('abort', onAbort);
          tell(onQueued, null);
          resolve();
        },
        refuse: (error) => {
          signal?.removeEventListener('abort', onAbort);
          reject(error);
        },
        onQueued,
      };
      this.queue.push(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
      tell(onQueued, this.queue.length);
    });
  }

  /** A turn ends: the first waiter takes it, and those behind it move up. */
  private giveBack(): void {
    const next = this.queue.shift();
    if (next === undefined) {
      this.held = Math.max(0, this.held - 1);
      return;
    }
    next.grant();
    this.tellPlaces(0);
  }

  /** Tells the waiters from index `from` on their new place. */
  private tellPlaces(from: number): void {
    for (let i = from; i < this.queue.length; i++) tell(this.queue[i]!.onQueued, i + 1);
  }
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
