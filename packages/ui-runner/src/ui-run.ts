import { performance } from 'node:perf_hooks';
import type { Browser, BrowserContext } from 'playwright-core';
import { SeleniumScriptError, TaurusScriptError } from '@aqa/converters';
import type { FunctionalRunEnd, FunctionalRunHandle, FunctionalRunOutcome } from '@aqa/engine';
import { FUNCTIONAL_PLAN_ERRORS, sequenceValue, templateSequences, type FunctionalPlan } from '@aqa/plan';
import { PoolClosedError, type BrowserLease, type UiBrowserPool } from './browser-pool';
import type { StartUiRun, UiRunOptions } from './contract';
import { TargetGuard } from '@aqa/engine';
import { startGuardProxy, type GuardProxy } from './guard-proxy';
import { installGuardRoute } from './guard-route';
import { runStep } from './page-step';
import { PageWatch } from './page-watch';
import { ScreenshotKeeper } from './screenshots';
import { readUiPlan, uiIterations, type UiScript } from './ui-pages';
import { UiTally } from './ui-outcome';
import { VITALS_INIT_SCRIPT } from './vitals';

/*
 * A UI run (docs/design.md §9 "UI tests"): waits for a browser from the pool, opens one fresh,
 * isolated context (no cookies or storage of anyone's), and runs the plan's pages in order for its
 * iterations (1–10) within its duration, telling the caller each step as it ends. The browser is closed
 * at the end, on an error and on stop.
 */

/** stop() settles the result by then, whatever the browser does. */
const STOP_WITHIN_MS = 1_500;
const VIEWPORT = { width: 1280, height: 800 };

/** The UI runner over a pool: the same handle the API runner gives. */
export function createUiRunner(pool: UiBrowserPool): StartUiRun {
  return (plan, options) => startUiRun(pool, plan, options);
}

function startUiRun(pool: UiBrowserPool, plan: FunctionalPlan, options: UiRunOptions): FunctionalRunHandle {
  const abort = new AbortController();
  let tally = new UiTally([]);
  let startedAt = new Date();
  let settled = false;
  let lease: BrowserLease | undefined;
  let resolveResult!: (outcome: FunctionalRunOutcome) => void;
  const result = new Promise<FunctionalRunOutcome>((resolve) => (resolveResult = resolve));

  const settle = (status: FunctionalRunEnd, error: string | null): void => {
    if (settled) return;
    settled = true;
    resolveResult(tally.outcome(status, startedAt, new Date(), error));
  };

  const run = async (): Promise<void> => {
    const problem = pool.browserProblem();
    if (problem !== null) return settle('failed', problem);
    let script: UiScript;
    try {
      script = readUiPlan(plan);
    } catch (error) {
      if (error instanceof SeleniumScriptError || error instanceof TaurusScriptError) {
        return settle('failed', error.message);
      }
      throw error;
    }
    if (script.pages.length === 0) return settle('failed', FUNCTIONAL_PLAN_ERRORS.uiTestsRequired);
    tally = new UiTally(script.pages);
    try {
      lease = await pool.acquire(options.onQueued, abort.signal);
    } catch (error) {
      if (abort.signal.aborted) return settle('stopped', null);
      if (error instanceof PoolClosedError)
        return settle('failed', 'The server closed its browsers before this run had one');
      return settle('failed', `Chromium could not start: ${firstLine(error)}`);
    }
    if (abort.signal.aborted) {
      await lease.release();
      return settle('stopped', null);
    }
    try {
      startedAt = new Date();
      const end = await runPages(
        lease.browser,
        plan,
        script,
        tally,
        options,
        pool.stepTimeoutMs,
        abort.signal,
      );
      if (abort.signal.aborted) return settle('stopped', null);
      settle(end === null && tally.steps > 0 && tally.allPassed ? 'completed' : 'failed', end);
    } catch (error) {
      settle(
        abort.signal.aborted ? 'stopped' : 'failed',
        abort.signal.aborted ? null : `The UI runner failed: ${firstLine(error)}`,
      );
    } finally {
      await lease.release();
    }
  };
  void run().catch((error: unknown) => settle('failed', `The UI runner failed: ${firstLine(error)}`));

  return {
    result,
    async stop(): Promise<void> {
      if (!settled && !abort.signal.aborted) {
        abort.abort(new Error('stopped'));
        // Closing the browser ends whatever the step was waiting for; the run then settles as stopped.
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          lease?.release(),
          new Promise<void>((resolve) => (timer = setTimeout(resolve, STOP_WITHIN_MS))),
        ]);
        clearTimeout(timer);
        settle('stopped', null);
      }
      await result;
    },
  };
}

/** Runs the iterations; answers why the run ended early (the duration), or null. */
async function runPages(
  browser: Browser,
  plan: FunctionalPlan,
  script: UiScript,
  tally: UiTally,
  options: UiRunOptions,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<string | null> {
  const guard = options.guard === undefined ? undefined : TargetGuard.fromSettings(options.guard);
  const proxy = guard === undefined ? undefined : await startGuardProxy(guard);
  try {
    return await runInContext(browser, guard, proxy, plan, script, tally, options, timeoutMs, signal);
  } finally {
    await proxy?.close();
  }
}

async function runInContext(
  browser: Browser,
  guard: TargetGuard | undefined,
  proxy: GuardProxy | undefined,
  plan: FunctionalPlan,
  script: UiScript,
  tally: UiTally,
  options: UiRunOptions,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<string | null> {
  const context = await newIsolatedContext(browser, proxy, options.insecureTls === true);
  const route = await installGuardRoute(context, guard);
  const page = await context.newPage();
  page.setDefaultTimeout(timeoutMs);
  page.setDefaultNavigationTimeout(timeoutMs);
  const watch = new PageWatch(page, (request) => route.refusalOf(request) ?? proxy?.refusalOf(request.url()));
  const shots = new ScreenshotKeeper(options.saveScreenshot);
  const variables = { ...script.variables };
  const iterations = uiIterations(plan);
  const durationMs = plan.test_duration * 60_000;
  const started = performance.now();
  const maxes = [
    ...new Set(
      script.pages.flatMap((p) => [
        ...templateSequences(p.url ?? ''),
        ...p.actions.flatMap((a) => templateSequences(JSON.stringify(a))),
      ]),
    ),
  ];
  let done = 0;
  for (let iteration = 1; iteration <= iterations; iteration++) {
    const sequences = new Map(maxes.map((max) => [max, sequenceValue(iteration - 1, max)]));
    for (const [index, step] of script.pages.entries()) {
      if (signal.aborted) return null;
      if (performance.now() - started >= durationMs) {
        return `The test duration of ${plan.test_duration} min ended after ${done} of ${iterations * script.pages.length} steps`;
      }
      const at = performance.now() - started;
      const call = await runStep(step, iteration, {
        page,
        watch,
        route,
        shots,
        variables,
        sequences,
        timeoutMs,
        signal,
        endsAt: started + durationMs,
      });
      if (signal.aborted) return null;
      done++;
      tally.add(index, at, call);
      try {
        options.onCall?.(call, { index, atMs: at });
      } catch {
        // A listener's mistake must not end the run.
      }
      if (!browser.isConnected()) {
        return `Chromium ended unexpectedly after ${done} of ${iterations * script.pages.length} steps`;
      }
    }
  }
  return null;
}

/** A context of its own: no storage state, no service workers, no downloads; the page's own viewport. */
async function newIsolatedContext(
  browser: Browser,
  proxy: GuardProxy | undefined,
  insecureTls: boolean,
): Promise<BrowserContext> {
  const context = await browser.newContext({
    ignoreHTTPSErrors: insecureTls,
    // Playwright sends loopback through a context's proxy too (it adds <-loopback> for Chromium).
    ...(proxy === undefined ? {} : { proxy: { server: proxy.server } }),
    viewport: VIEWPORT,
    serviceWorkers: 'block',
    acceptDownloads: false,
    locale: 'en-US',
  });
  await context.addInitScript({ content: VITALS_INIT_SCRIPT });
  return context;
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0] ?? text;
}
