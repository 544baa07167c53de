import { performance } from 'node:perf_hooks';
import type { CDPSession, Page, Request } from 'playwright-core';

/*
 * The hard bounds of a UI run (docs/adr/0011-playwright-runs-selenium-ui-tests.md "Hard bounds"). A page
 * whose script never yields holds its renderer, and every Playwright call that needs the page (an
 * evaluate, a screenshot, the next step) waits for it without end, so the runner's own time-outs cannot
 * end such a run. The watchdog asks the page a trivial question every PROBE_EVERY_MS (Runtime.evaluate
 * on a DevTools session of its own); when one goes unanswered for the step time-out, or the test duration
 * plus DURATION_GRACE_MS has passed, it trips: the caller kills the run's browser (each run has its own)
 * and the run ends with what it measured.
 *
 * While the page navigates, DevTools holds questions for the page until the new document commits: that
 * time is not silence. A navigation is under way from its document request until that request's answer
 * (or failure); a page whose new document never yields is silent from then on.
 */

/** How often the page is asked whether it answers. */
const PROBE_EVERY_MS = 500;
/** How long past its test duration a run may take to finish its last step before its browser is killed. */
export const DURATION_GRACE_MS = 5_000;

export type WatchdogReason =
  { kind: 'unresponsive'; silentMs: number } | { kind: 'duration'; durationMs: number };

export class RunWatchdog {
  /** Settles once the watchdog tripped and `trip` (the kill) has ended, with why. */
  readonly fired: Promise<WatchdogReason>;
  private fire!: (reason: WatchdogReason) => void;
  private done = false;
  private readonly deadline: NodeJS.Timeout;
  private readonly probes: NodeJS.Timeout[] = [];
  private readonly sessions: CDPSession[] = [];

  /**
   * Starts the duration's clock now. `trip` is called once, with why, and ends the browser.
   */
  constructor(
    private readonly stepTimeoutMs: number,
    durationMs: number,
    private readonly trip: (reason: WatchdogReason) => Promise<void>,
  ) {
    this.fired = new Promise((resolve) => (this.fire = resolve));
    this.deadline = setTimeout(
      () => this.tripOnce({ kind: 'duration', durationMs }),
      durationMs + DURATION_GRACE_MS,
    );
  }

  /** Starts asking the page (the run's first window, or a popup it opened) whether it answers. */
  async watch(page: Page): Promise<void> {
    const session = await page.context().newCDPSession(page);
    if (this.done) {
      await session.detach().catch(() => undefined);
      return;
    }
    this.sessions.push(session);
    const navigations = new Set<Request>();
    const isNavigation = (request: Request): boolean =>
      request.isNavigationRequest() && request.frame() === page.mainFrame();
    page.on('request', (request) => {
      if (isNavigation(request)) navigations.add(request);
    });
    page.on('response', (response) => navigations.delete(response.request()));
    page.on('requestfailed', (request) => navigations.delete(request));
    page.on('requestfinished', (request) => navigations.delete(request));
    /** When the question now waiting was asked, or the navigation before it ended; null: none waits. */
    let since: number | null = null;
    let asked = 0;
    const probe = setInterval(() => {
      // A closed popup has nothing more to answer.
      if (page.isClosed()) {
        clearInterval(probe);
        return;
      }
      if (since === null) {
        const question = ++asked;
        since = performance.now();
        // An answer or an error (the page closed, the session was dropped) both end the wait.
        const answered = (): void => {
          if (asked === question) since = null;
        };
        session.send('Runtime.evaluate', { expression: '0' }).then(answered, answered);
        return;
      }
      if (navigations.size > 0) {
        since = performance.now();
        return;
      }
      if (performance.now() - since >= this.stepTimeoutMs) {
        this.tripOnce({ kind: 'unresponsive', silentMs: this.stepTimeoutMs });
      }
    }, PROBE_EVERY_MS);
    this.probes.push(probe);
  }

  /** The run ended by itself: nothing is killed. */
  dispose(): void {
    this.done = true;
    clearTimeout(this.deadline);
    for (const probe of this.probes) clearInterval(probe);
    for (const session of this.sessions) void session.detach().catch(() => undefined);
  }

  private tripOnce(reason: WatchdogReason): void {
    if (this.done) return;
    this.dispose();
    void this.trip(reason)
      .catch(() => undefined)
      .then(() => this.fire(reason));
  }
}
