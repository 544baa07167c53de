/**
 * Worker-thread entry of a functional run: runs the plan's users and posts each judged call.
 * Bundled to dist/functional-worker.mjs (build.mjs); never imported by the caller's thread.
 */
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import { TargetGuard } from '../guard';
import type { FromFunctionalWorker, FunctionalWorkerInit, ToFunctionalWorker } from './protocol';
import { patternProblemLines } from '@aqa/plan';
import { functionalRunProblems } from './plan-checks';
import { FunctionalRunner, type JudgedCall } from './runner';

if (!parentPort) throw new Error('the functional worker must run in a worker thread');
const port = parentPort;
const post = (m: FromFunctionalWorker): void => port.postMessage(m);

/** Judged calls wait at most this long, or until this many are waiting, before they are posted. */
const FLUSH_MS = 50;
const FLUSH_CALLS = 100;
/** How often the worker says its event loop is free (functional-run.ts ends a worker that stops). */
export const ALIVE_EVERY_MS = 250;

let pending: JudgedCall[] = [];
let flushTimer: NodeJS.Timeout | undefined;
let lastFlushMs = -Infinity;
const flush = (): void => {
  clearTimeout(flushTimer);
  flushTimer = undefined;
  if (pending.length === 0) return;
  post({ type: 'calls', calls: pending });
  pending = [];
  lastFlushMs = performance.now();
};

const init = workerData as FunctionalWorkerInit;
// A pattern that cannot run ends the run before a call, in words (docs/adr/0022-linear-time-patterns.md).
const problems = functionalRunProblems(init.plan);
if (problems.length > 0) {
  post({ type: 'started', epochMs: Date.now() });
  post({ type: 'done', end: { error: `The plan cannot run: ${patternProblemLines(problems).join('; ')}` } });
  port.close();
} else {
  run();
}

function run(): void {
  try {
    const runner = new FunctionalRunner(init.plan, {
      insecureTls: init.insecureTls,
      ...(init.durationMs === undefined ? {} : { durationMs: init.durationMs }),
      ...(init.guard === undefined ? {} : { guard: TargetGuard.fromSettings(init.guard) }),
      onCall: (judged) => {
        pending.push(judged);
        // The first call after a quiet spell goes at once, so a check that then holds the worker until it
        // is terminated (functional-run.ts) cannot take the calls before it along.
        const quiet = flushTimer === undefined && performance.now() - lastFlushMs >= FLUSH_MS;
        if (pending.length >= FLUSH_CALLS || quiet) flush();
        else flushTimer ??= setTimeout(flush, FLUSH_MS);
      },
    });
    port.on('message', (m: ToFunctionalWorker) => {
      if (m.type === 'stop') runner.stop();
    });
    post({ type: 'started', epochMs: Date.now() });
    setInterval(() => post({ type: 'alive' }), ALIVE_EVERY_MS).unref();
    runner.run().then(
      (end) => {
        flush();
        post({ type: 'done', end });
        port.close();
      },
      (e: unknown) => {
        flush();
        post({ type: 'fatal', message: e instanceof Error ? e.message : String(e) });
        port.close();
      },
    );
  } catch (e) {
    post({ type: 'fatal', message: e instanceof Error ? e.message : String(e) });
    port.close();
  }
}
