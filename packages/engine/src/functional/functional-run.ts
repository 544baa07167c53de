import { Worker } from 'node:worker_threads';
import { FUNCTIONAL_PLAN_ERRORS, type FunctionalPlan } from '@aqa/plan';
import { resolveWorkerFile } from '../worker-file';
import { FunctionalTally } from './outcome';
import type { FromFunctionalWorker, FunctionalWorkerInit, ToFunctionalWorker } from './protocol';
import { durationText } from './runner';
import type {
  FunctionalRunEnd,
  FunctionalRunHandle,
  FunctionalRunOptions,
  FunctionalRunOutcome,
  RunEndReason,
} from './run-types';

/*
 * Starts a functional run (docs/design.md §9) in its own worker thread, so the calls, their judging
 * and the schema checks never hold up the caller's event loop; the caller only tallies the judged
 * calls the worker posts.
 */

const WORKER_FILE = 'functional-worker.mjs';
/** stop() settles by then even when the worker does not answer. */
const STOP_WITHIN_MS = 900;
/** A run that outlives its duration and its slowest call's timeout by this much has a broken worker. */
const WATCHDOG_SLACK_MS = 2_000;
/**
 * Past the test duration (plus this), a worker that has not said it is alive (worker-entry.ts, every
 * 250 ms) for HELD_MS is held by user work that does not yield, not waiting for a slow answer: it is
 * terminated, so the duration is a hard bound (docs/adr/0022-linear-time-patterns.md).
 */
const END_GRACE_MS = 1_000;
const HELD_MS = 1_000;
/** How long a worker may take to load before the watchdog counts the run from its creation. */
const START_WITHIN_MS = 30_000;
/**
 * The worker's heap limit unless the caller sets one (FUNCTIONAL_RUN_MEMORY_MB on the server): with no
 * limit V8 lets a worker that reads megabyte answers grow to gigabytes of garbage before it collects
 * (docs/adr/0024-memory-bounds.md).
 */
export const DEFAULT_FUNCTIONAL_RUN_MEMORY_MB = 256;

/** Starts a run of a plan already read by FunctionalPlanSchema (the contract of run-types.ts). */
export function startFunctionalRun(
  plan: FunctionalPlan,
  options: FunctionalRunOptions = {},
): FunctionalRunHandle {
  const tally = new FunctionalTally(plan);
  let startedAt = new Date();
  let worker: Worker | undefined;
  let stopRequested = false;
  let settled = false;
  let lastAliveMs = Date.now();
  const timers: NodeJS.Timeout[] = [];
  let resolveResult!: (outcome: FunctionalRunOutcome) => void;
  const result = new Promise<FunctionalRunOutcome>((resolve) => (resolveResult = resolve));

  const settle = (status: FunctionalRunEnd, error: RunEndReason): void => {
    if (settled) return;
    settled = true;
    timers.forEach(clearTimeout);
    resolveResult(tally.outcome(status, startedAt, new Date(), error));
    void worker?.terminate().catch(() => undefined);
  };
  const post = (message: ToFunctionalWorker): void => {
    try {
      worker?.postMessage(message);
    } catch {
      // the worker has already exited
    }
  };
  const durationMs = options.durationMs ?? plan.test_duration * 60_000;
  let watchdog: NodeJS.Timeout | undefined;
  const armWatchdog = (ms: number): void => {
    clearTimeout(watchdog);
    watchdog = setTimeout(
      () => settle('failed', 'The functional runner did not end after the test duration'),
      ms,
    );
    timers.push(watchdog);
  };
  /**
   * The hard bound, from the worker's start: calls in flight at the end of the duration may take their
   * time-out, a worker held by user work past the end (no "alive" for HELD_MS) is terminated.
   */
  const armBounds = (): void => {
    const slowestMs = Math.max(...plan.apis.map((api) => api.timeout * 1000));
    armWatchdog(durationMs + slowestMs + WATCHDOG_SLACK_MS);
    const endAt = startedAt.getTime() + durationMs + END_GRACE_MS;
    timers.push(
      setInterval(() => {
        const now = Date.now();
        if (now < endAt || now - lastAliveMs < HELD_MS) return;
        const lateS = Math.round((now - startedAt.getTime() - durationMs) / 100) / 10;
        settle(
          'failed',
          `The functional runner was still busy ${lateS} s after the test duration of ${durationText(durationMs)} (a check that does not finish: an XPath or JSONPath too costly for the answer) and was stopped; the calls judged until then are kept`,
        );
      }, HELD_MS / 4),
    );
  };
  const onMessage = (m: FromFunctionalWorker): void => {
    if (settled) return;
    switch (m.type) {
      case 'started':
        startedAt = new Date(m.epochMs);
        lastAliveMs = Date.now();
        armBounds();
        break;
      case 'alive':
        lastAliveMs = Date.now();
        break;
      case 'calls':
        for (const judged of m.calls) {
          tally.add(judged);
          try {
            options.onCall?.(judged.call, { index: judged.apiIndex, atMs: judged.atMs });
          } catch {
            // A listener's mistake must not end the run.
          }
        }
        break;
      case 'done':
        if (stopRequested) settle('stopped', null);
        else
          settle(
            m.end.error === null && tally.calls > 0 && tally.allPassed ? 'completed' : 'failed',
            m.end.error,
          );
        break;
      case 'fatal':
        settle(stopRequested ? 'stopped' : 'failed', `The functional runner failed: ${m.message}`);
        break;
    }
  };

  const start = async (): Promise<void> => {
    if (plan.apis.length === 0) return settle('failed', FUNCTIONAL_PLAN_ERRORS.apisRequired);
    let entry: URL;
    try {
      entry = await resolveWorkerFile(WORKER_FILE, options.workerEntry);
    } catch (e) {
      return settle('failed', `The functional runner could not start: ${(e as Error).message}`);
    }
    if (stopRequested) return settle('stopped', null);
    const init: FunctionalWorkerInit = {
      plan,
      insecureTls: options.insecureTls ?? false,
      ...(options.durationMs === undefined ? {} : { durationMs: options.durationMs }),
      ...(options.guard === undefined ? {} : { guard: options.guard }),
    };
    startedAt = new Date();
    const memoryMb = options.maxMemoryMb ?? DEFAULT_FUNCTIONAL_RUN_MEMORY_MB;
    worker = new Worker(entry, { workerData: init, resourceLimits: { maxOldGenerationSizeMb: memoryMb } });
    worker.on('message', onMessage);
    worker.on('error', (e: Error & { code?: string }) =>
      settle(
        'failed',
        e.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? `The run needed more than ${memoryMb} MB of memory, the most a functional run may use on this server, and was stopped; fewer concurrent users, or APIs whose rules read smaller bodies, need less`
          : `The functional runner failed: ${e.message}`,
      ),
    );
    worker.on('exit', (code) =>
      settle(
        stopRequested ? 'stopped' : 'failed',
        `The functional runner ended unexpectedly (exit code ${code})`,
      ),
    );
    const slowestMs = Math.max(...plan.apis.map((api) => api.timeout * 1000));
    // A worker that never starts is ended too, however slow the machine is to load it.
    armWatchdog(durationMs + slowestMs + WATCHDOG_SLACK_MS + START_WITHIN_MS);
  };
  void start();

  return {
    result,
    async stop(): Promise<void> {
      if (!settled && !stopRequested) {
        stopRequested = true;
        post({ type: 'stop' });
        timers.push(setTimeout(() => settle('stopped', null), STOP_WITHIN_MS));
      }
      await result;
    },
  };
}
