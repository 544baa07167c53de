/**
 * Worker-thread entry of a functional run: runs the plan's users and posts each judged call.
 * Bundled to dist/functional-worker.mjs (build.mjs); never imported by the caller's thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { TargetGuard } from '../guard';
import type { FromFunctionalWorker, FunctionalWorkerInit, ToFunctionalWorker } from './protocol';
import { FunctionalRunner, type JudgedCall } from './runner';

const port = parentPort;
if (!port) throw new Error('the functional worker must run in a worker thread');
const post = (m: FromFunctionalWorker): void => port.postMessage(m);

/** Judged calls wait at most this long, or until this many are waiting, before they are posted. */
const FLUSH_MS = 50;
const FLUSH_CALLS = 100;

let pending: JudgedCall[] = [];
let flushTimer: NodeJS.Timeout | undefined;
const flush = (): void => {
  clearTimeout(flushTimer);
  flushTimer = undefined;
  if (pending.length === 0) return;
  post({ type: 'calls', calls: pending });
  pending = [];
};

try {
  const init = workerData as FunctionalWorkerInit;
  const runner = new FunctionalRunner(init.plan, {
    insecureTls: init.insecureTls,
    ...(init.guard === undefined ? {} : { guard: TargetGuard.fromSettings(init.guard) }),
    onCall: (judged) => {
      pending.push(judged);
      if (pending.length >= FLUSH_CALLS) flush();
      else flushTimer ??= setTimeout(flush, FLUSH_MS);
    },
  });
  port.on('message', (m: ToFunctionalWorker) => {
    if (m.type === 'stop') runner.stop();
  });
  post({ type: 'started', epochMs: Date.now() });
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
