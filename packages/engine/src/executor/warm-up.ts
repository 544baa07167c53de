import { createServer, type Server, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { PerfPlanSchema } from '@aqa/plan';
import { compilePlan } from './compile';
import type { ShardProfileOptions } from './load-follower';
import { ShardPlan } from './load-follower';
import { IterationCounter, WHOLE_RUN } from './sequence';
import { Shard } from './shard';

/*
 * The open model's warm-up (docs/adr/0027-load-profiles.md, "The warm-up"): before a worker says it is
 * ready, a throw-away shard runs an open-model schedule against a server inside the worker's own
 * thread on 127.0.0.1 — nothing reaches the run's target, and nothing of it is counted — so that V8
 * has compiled the hot path (the schedule, the user's state machine, undici's HTTP/1.1 client, the
 * histograms) before the common start. Without it a rate held from 0 s runs its first thousands of
 * iterations on unoptimised code, the worker falls behind, takes a fresh user (and connection) for
 * each late iteration, and drops some: measured at 5,000 it/s on one pinned worker, 1,300–1,500 of
 * 100,000 iterations dropped, all in the first second; with the warm-up 0–370 (docs/performance.md,
 * "The open model's first second").
 */

/** A shard whose share of the peak rate is below this keeps up from cold: no warm-up. */
export const WARM_UP_FROM_RATE = 1000;
/** The warm-up's length and its highest rate: about 5,000 iterations, enough for V8's optimising tier. */
const WARM_UP_MS = 1000;
const WARM_UP_MAX_RATE = 5000;
const WARM_UP_POOL = 64;

const ANSWER = Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Type: text/plain\r\n\r\nok');

/**
 * The rate (iterations per second) this shard warms up at: its share of the profile's peak rate, at
 * most WARM_UP_MAX_RATE; 0 (no warm-up) for the closed model and for shares below WARM_UP_FROM_RATE.
 */
export function warmUpRate(profile: ShardProfileOptions | undefined): number {
  if (profile === undefined) return 0;
  const plan = new ShardPlan(profile);
  if (!plan.open) return 0;
  const peakShare = Math.max(...plan.points.map((p) => p.target)) / profile.shards;
  return peakShare < WARM_UP_FROM_RATE ? 0 : Math.min(WARM_UP_MAX_RATE, Math.round(peakShare));
}

/** Answers every request head it reads (the warm-up sends GETs without a body) with ANSWER. */
function answerHeads(socket: Socket): void {
  let tail = '';
  socket.on('data', (chunk: Buffer) => {
    const text = tail + chunk.toString('latin1');
    let at = 0;
    for (let end = text.indexOf('\r\n\r\n'); end >= 0; end = text.indexOf('\r\n\r\n', at)) {
      socket.write(ANSWER);
      at = end + 4;
    }
    tail = text.slice(at);
  });
  socket.on('error', () => socket.destroy());
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (typeof address === 'object' && address !== null) resolve(address.port);
      else reject(new Error('the warm-up server has no port'));
    });
  });
}

/** Runs the warm-up at `rate` iterations per second to its end. Never throws: a warm-up that cannot run only leaves the start colder. */
export async function warmUp(rate: number): Promise<void> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    answerHeads(socket);
  });
  try {
    const port = await listen(server);
    const plan = PerfPlanSchema.parse({
      name: 'warm-up',
      tool: 'k6',
      concurrent_users: WARM_UP_POOL,
      duration: 1,
      urls: [{ method: 'GET', url: `http://127.0.0.1:${port}/warm-up`, thinkTime: '0s' }],
    });
    const shard = new Shard(
      compilePlan(plan),
      {
        shard: 0,
        users: WARM_UP_POOL,
        firstUser: 0,
        insecureTls: false,
        sequenceBuffer: IterationCounter.allocate(),
        sequenceSplit: WHOLE_RUN,
        endGraceMs: 100,
        profile: {
          profile: {
            model: 'arrival_rate',
            start: rate,
            stages: [{ duration: `${WARM_UP_MS}ms`, target: rate }],
            graceful_stop: '100ms',
            max_users: WARM_UP_POOL,
          },
          shards: 1,
          index: 0,
        },
      },
      () => undefined,
    );
    shard.start(performance.now(), 0);
    await shard.done;
  } catch {
    // No loopback port or the like: the run starts without it.
  } finally {
    for (const s of sockets) s.destroy();
    await new Promise<void>((r) => server.close(() => r()));
  }
}
