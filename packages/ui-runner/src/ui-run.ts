import { performance } from 'node:perf_hooks';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { SeleniumScriptError, TaurusScriptError } from '@aqa/converters';
import type { FunctionalRunEnd, FunctionalRunHandle, FunctionalRunOutcome } from '@aqa/engine';
import {
  FUNCTIONAL_PLAN_ERRORS,
  sequenceValue,
  templateSequences,
  type CallResult,
  type FunctionalPlan,
} from '@aqa/plan';
import { PoolClosedError, type BrowserLease, type UiBrowserPool } from './browser-pool';
import type { StartUiRun, UiRunOptions } from './contract';
import { TargetGuard } from '@aqa/engine';
import { startGuardProxy, type GuardProxy } from './guard-proxy';
import { installGuardRoute } from './guard-route';
import { seconds } from './actions';
import { abandonedStep, newStepRecord, runStep, type StepRecord } from './page-step';
import { PageWatch } from './page-watch';
import { ScreenshotKeeper } from './screenshots';
import { readUiPlan, uiIterations, type UiPage, type UiScript } from './ui-pages';
import { RunWatchdog, type WatchdogReason } from './run-watchdog';
import { UiTally } from './ui-outcome';
import { VITALS_INIT_SCRIPT } from './vitals';

/*
 * A UI run (docs/design.md §9 "UI tests"): waits for a browser from the pool, opens one fresh,
 * isolated context (no cookies or storage of anyone's), and runs the plan's pages in order for its
 * iterations (1–10) within its duration, telling the caller each step as it ends. The browser is closed
 * at the end, on an error and on stop; it is killed when its page stops answering for the step time-out
 * or the run outlasts its duration (docs/adr/0011-playwright-runs-selenium-ui-tests.md "Hard bounds").
 */

/** stop() settles the result by then, whatever the browser does. */
const STOP_WITHIN_MS = 1_500;
const VIEWPORT = { width: 1280, height: 800 };

/** The UI runner over a pool: the same handle the API runner gives. */
export function createUiRunner(pool: UiBrowserPool): StartUiRun {
  return (plan, options) => startUiRun(pool, plan, options);
}

/** Where a run is: the step under way, so a run whose browser is killed can report it. */
interface RunProgress {
  /** Steps ended, and in all. */
  done: number;
  total: number;
  current: { index: number; iteration: number; step: UiPage; at: number; record: StepRecord } | null;
  watch: PageWatch | null;
  page: Page | null;
  /** The browser is being killed: the run reports nothing more of what it answers. */
  halted: boolean;
  /** The step under way when it was, as it stood then. */
  abandoned: { index: number; at: number; call: CallResult } | null;
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
    // The guard's proxy is the browser's for every connection, so it is there before the browser starts.
    const guard = options.guard === undefined ? undefined : TargetGuard.fromSettings(options.guard);
    const proxy = guard === undefined ? undefined : await startGuardProxy(guard);
    try {
      await runWithProxy(script, guard, proxy);
    } finally {
      await proxy?.close();
    }
  };

  const runWithProxy = async (
    script: UiScript,
    guard: TargetGuard | undefined,
    proxy: GuardProxy | undefined,
  ): Promise<void> => {
    try {
      lease = await pool.acquire({
        ...(options.owner === undefined ? {} : { owner: options.owner }),
        ...(options.onQueued === undefined ? {} : { onQueued: options.onQueued }),
        ...(proxy === undefined ? {} : { proxy: proxy.server }),
        signal: abort.signal,
      });
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
    const progress: RunProgress = {
      done: 0,
      total: uiIterations(plan) * script.pages.length,
      current: null,
      watch: null,
      page: null,
      halted: false,
      abandoned: null,
    };
    startedAt = new Date();
    const held = lease;
    const watchdog = new RunWatchdog(pool.stepTimeoutMs, plan.test_duration * 60_000, (reason) => {
      // What the run did is kept as it stands now: the calls that wait on the dying browser fail next,
      // and are not reported.
      progress.halted = true;
      progress.abandoned = abandonCurrent(reason, plan, progress);
      return held.kill();
    });
    let end: { status: FunctionalRunEnd; error: string | null };
    try {
      const pages = runPages(lease.browser, guard, proxy, plan, script, tally, options, pool.stepTimeoutMs, {
        signal: abort.signal,
        progress,
        watchdog,
      });
      // The calls that wait on a killed browser fail once it is gone; the run does not wait for them.
      const ended = await Promise.race([pages, watchdog.fired.then(() => null)]);
      if (abort.signal.aborted) end = { status: 'stopped', error: null };
      else if (progress.halted) {
        void pages.catch(() => undefined);
        end = { status: 'failed', error: haltedRun(await watchdog.fired, plan, progress, tally, options) };
      } else {
        const passed = ended === null && tally.steps > 0 && tally.allPassed;
        end = { status: passed ? 'completed' : 'failed', error: ended };
      }
    } catch (error) {
      end = abort.signal.aborted
        ? { status: 'stopped', error: null }
        : { status: 'failed', error: `The UI runner failed: ${firstLine(error)}` };
    } finally {
      watchdog.dispose();
    }
    // The browser is gone before the run ends, so its turn is free for the next run by then.
    await lease.release();
    settle(end.status, end.error);
  };
  void run().catch((error: unknown) => settle('failed', `The UI runner failed: ${firstLine(error)}`));

  return {
    result,
    async stop(): Promise<void> {
      if (!settled && !abort.signal.aborted) {
        abort.abort(new Error('stopped'));
        // Closing the browser ends whatever the step was waiting for; the run then settles as stopped.
        await Promise.race([lease?.release(), delay(STOP_WITHIN_MS)]);
        settle('stopped', null);
      }
      await result;
    },
  };
}

/** The step under way when the watchdog tripped, failed in words, as it stood then. */
function abandonCurrent(
  reason: WatchdogReason,
  plan: FunctionalPlan,
  progress: RunProgress,
): RunProgress['abandoned'] {
  const current = progress.current;
  if (current === null || progress.watch === null || progress.page === null) return null;
  const words =
    reason.kind === 'unresponsive'
      ? `The page did not answer for ${seconds(reason.silentMs)} (its script never yielded); the browser was stopped.`
      : `The test duration of ${plan.test_duration} min ended during this step; the browser was stopped.`;
  const record: StepRecord = {
    ...current.record,
    details: [...current.record.details],
    actions: [...current.record.actions],
    shots: [...current.record.shots],
    pages: [...current.record.pages],
  };
  const env = { page: progress.page, watch: progress.watch };
  return {
    index: current.index,
    at: current.at,
    call: abandonedStep(current.step, current.iteration, env, record, words),
  };
}

/**
 * Reports the step the run's killed browser was on (the steps after it did not run) and answers the
 * run's error.
 */
function haltedRun(
  reason: WatchdogReason,
  plan: FunctionalPlan,
  progress: RunProgress,
  tally: UiTally,
  options: UiRunOptions,
): string {
  const abandoned = progress.abandoned;
  if (abandoned !== null) {
    tally.add(abandoned.index, abandoned.at, abandoned.call);
    try {
      options.onCall?.(abandoned.call, { index: abandoned.index, atMs: abandoned.at });
    } catch {
      // A listener's mistake must not change the run's end.
    }
  }
  const where =
    abandoned === null
      ? `after ${progress.done} of ${progress.total} steps`
      : `during step ${progress.done + 1} of ${progress.total} ("${abandoned.call.api_name}")`;
  const why =
    reason.kind === 'unresponsive'
      ? `its page did not answer for ${seconds(reason.silentMs)} (its script never yielded)`
      : `the test duration of ${plan.test_duration} min ended`;
  const ran = progress.done + (abandoned === null ? 0 : 1);
  return `The browser was stopped ${where}: ${why}${ran < progress.total ? '; the steps after it did not run' : ''}`;
}

interface RunControl {
  signal: AbortSignal;
  progress: RunProgress;
  watchdog: RunWatchdog;
}

/** Runs the iterations; answers why the run ended early (the duration), or null. */
async function runPages(
  browser: Browser,
  guard: TargetGuard | undefined,
  proxy: GuardProxy | undefined,
  plan: FunctionalPlan,
  script: UiScript,
  tally: UiTally,
  options: UiRunOptions,
  timeoutMs: number,
  { signal, progress, watchdog }: RunControl,
): Promise<string | null> {
  const context = await newIsolatedContext(browser, proxy, options.insecureTls === true);
  const route = await installGuardRoute(context, guard);
  // Every window of the run — the first and each popup, from when it opens — has its watch and the
  // step time-out, and is watched for a script that never yields (docs/adr/0030-recorded-ui-tests.md §5).
  const watches = new Map<Page, PageWatch>();
  const watchOf = (window: Page): PageWatch => {
    let found = watches.get(window);
    if (found === undefined) {
      found = new PageWatch(window, (request) => route.refusalOf(request) ?? proxy?.refusalOf(request.url()));
      watches.set(window, found);
      window.setDefaultTimeout(timeoutMs);
      window.setDefaultNavigationTimeout(timeoutMs);
    }
    return found;
  };
  const page = await context.newPage();
  const watch = watchOf(page);
  await watchdog.watch(page);
  // A popup opens once the first page has a document, so this sees every window after the first.
  context.on('page', (window) => {
    watchOf(window);
    void watchdog.watch(window).catch(() => undefined);
  });
  progress.page = page;
  progress.watch = watch;
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
  for (let iteration = 1; iteration <= iterations; iteration++) {
    const sequences = new Map(maxes.map((max) => [max, sequenceValue(iteration - 1, max)]));
    for (const [index, step] of script.pages.entries()) {
      if (signal.aborted || progress.halted) return null;
      if (performance.now() - started >= durationMs) {
        return `The test duration of ${plan.test_duration} min ended after ${progress.done} of ${progress.total} steps`;
      }
      const at = performance.now() - started;
      const record = newStepRecord();
      progress.current = { index, iteration, step, at, record };
      const call = await runStep(
        step,
        iteration,
        {
          page,
          watch,
          watchOf,
          watches: () => [watch, ...[...watches.values()].filter((w) => w !== watch)],
          route,
          shots,
          variables,
          sequences,
          timeoutMs,
          signal,
          endsAt: started + durationMs,
        },
        record,
      );
      if (signal.aborted || progress.halted) return null;
      progress.current = null;
      progress.done++;
      tally.add(index, at, call);
      try {
        options.onCall?.(call, { index, atMs: at });
      } catch {
        // A listener's mistake must not end the run.
      }
      if (!browser.isConnected()) {
        return `Chromium ended unexpectedly after ${progress.done} of ${progress.total} steps`;
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

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
