/**
 * Worker-thread entry: runs one shard of the run's users and posts its per-second intervals.
 * Bundled to dist/worker.mjs (see build.mjs); never imported by the caller's thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import { compilePlan } from '../executor/compile';
import { Shard } from '../executor/shard';
import { warmUp, warmUpRate } from '../executor/warm-up';
import { TargetGuard } from '../guard';
import type { FromWorker, ToWorker, WorkerInit } from './protocol';

const port = parentPort;
if (!port) throw new Error('the engine worker must run in a worker thread');
const post = (m: FromWorker): void => port.postMessage(m);

try {
  const init = workerData as WorkerInit;
  const plan = compilePlan(init.plan, init.durationSeconds);
  const shard = new Shard(
    plan,
    {
      shard: init.shard,
      users: init.users,
      firstUser: init.firstUser,
      insecureTls: init.insecureTls,
      sequenceBuffer: init.sequenceBuffer,
      sequenceSplit: init.sequenceSplit,
      endGraceMs: init.endGraceMs,
      ...(init.guard === undefined ? {} : { guard: TargetGuard.fromSettings(init.guard) }),
      ...(init.profile === undefined ? {} : { profile: init.profile }),
      ...(init.data === undefined ? {} : { data: init.data }),
    },
    (wire) => post({ type: 'interval', wire }),
  );
  port.on('message', (m: ToWorker) => {
    if (m.type === 'start') shard.start(m.startEpochMs - performance.timeOrigin, plan.durationMs);
    else shard.stop(m.graceMs);
  });
  let ended = false;
  void shard.done.then(() => {
    ended = true;
    post({ type: 'done' });
    port.close();
  });
  // A high open-model rate is warmed up first (executor/warm-up.ts) and its first users' connections
  // are opened (Shard.preconnect), so the common start is not a cold one; a stop during either has
  // already ended the shard.
  const rate = warmUpRate(init.profile);
  if (rate === 0) post({ type: 'ready' });
  else
    void warmUp(rate)
      .then(() => shard.preconnect())
      .then(() => {
        if (!ended) post({ type: 'ready' });
      });
} catch (e) {
  post({ type: 'fatal', message: e instanceof Error ? e.message : String(e) });
  port.close();
}
