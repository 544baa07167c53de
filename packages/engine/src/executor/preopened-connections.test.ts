import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Client, type Dispatcher } from 'undici';
import { LoadProfileSchema, PerfPlanSchema } from '@aqa/plan';
import { compilePlan } from './compile';
import { IterationCounter, WHOLE_RUN } from './sequence';
import { Shard } from './shard';
import type { ShardIntervalWire } from '../metrics/types';
import { TestTarget } from '../testing/target';
import { PreopenedConnections } from './preopened-connections';

// Connections opened before an open-model run's start (docs/adr/0027-load-profiles.md "Connections opened before the start"):
// opened with the run's connector, handed to their user's Client once, replaced when the target has
// closed them, and closed when no user took them.
const target = new TestTarget();
const connect = { rejectUnauthorized: true, timeout: 2000 };
const waitFor = async (done: () => boolean): Promise<void> => {
  for (let i = 0; i < 100 && !done(); i++) await new Promise((r) => setTimeout(r, 10));
};
async function get(client: Client): Promise<number> {
  const res: Dispatcher.ResponseData = await client.request({ path: '/p', method: 'GET' });
  await res.body.text();
  return res.statusCode;
}

beforeAll(async () => {
  await target.start();
});
afterAll(async () => {
  await target.close();
});
beforeEach(() => {
  target.dropConnections();
  target.reset();
});

describe('PreopenedConnections', () => {
  it('opens one connection per user and sends nothing on it', async () => {
    const pre = new PreopenedConnections(connect);
    await pre.open([0, 1, 2], [target.origin], 2000);
    await waitFor(() => target.connections === 3);
    expect(pre.size).toBe(3);
    expect(target.connections).toBe(3);
    expect(target.count).toBe(0);
    pre.closeAll();
  });

  it("gives a user's Client its opened connection: its request opens none", async () => {
    const pre = new PreopenedConnections(connect);
    await pre.open([7], [target.origin], 2000);
    await waitFor(() => target.connections === 1);
    const client = new Client(target.origin, { connect: pre.connectFor(7, target.origin) });
    expect(await get(client)).toBe(200);
    expect(await get(client)).toBe(200);
    expect(target.connections).toBe(1);
    expect(target.count).toBe(2);
    expect(pre.size).toBe(0);
    await client.close();
  });

  it('connects as usual for a user without one, and for one the target has closed', async () => {
    const pre = new PreopenedConnections(connect);
    await pre.open([1], [target.origin], 2000);
    await waitFor(() => target.connections === 1);
    // No connection was opened for user 2: the run's own connect options.
    expect(pre.connectFor(2, target.origin)).toBe(connect);
    target.dropConnections();
    await waitFor(() => target.openConnections === 0);
    const client = new Client(target.origin, { connect: pre.connectFor(1, target.origin) });
    expect(await get(client)).toBe(200);
    expect(target.connections).toBe(2);
    await client.close();
  });

  it('closes what no user took', async () => {
    const pre = new PreopenedConnections(connect);
    await pre.open([0, 1], [target.origin], 2000);
    await waitFor(() => target.openConnections === 2);
    pre.closeAll();
    await waitFor(() => target.openConnections === 0);
    expect(target.openConnections).toBe(0);
    expect(pre.size).toBe(0);
  });

  it('stores nothing for a target that refuses the connection', async () => {
    const pre = new PreopenedConnections(connect);
    // A port nothing listens on (the target's own, once closed, is not reused this quickly).
    const closed = new TestTarget();
    await closed.start();
    const origin = closed.origin;
    await closed.close();
    await pre.open([0, 1], [origin], 2000);
    expect(pre.size).toBe(0);
  });
});

describe('a target that does not answer connection attempts', () => {
  it('holds the start back no longer than the wait, and a connection made after the end is closed', async () => {
    let late: ((error: null, socket: Socket) => void) | undefined;
    // A connector whose attempt gets no answer until the test gives one, as a dropped SYN.
    const pre = new PreopenedConnections((_target, callback) => {
      late = callback;
    });
    const started = performance.now();
    await pre.open([0], ['http://127.0.0.1:9'], 100);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(pre.size).toBe(0);
    pre.closeAll();
    const socket = new Socket();
    late!(null, socket);
    expect(socket.destroyed).toBe(true);
    expect(pre.size).toBe(0);
  });
});

describe('Shard.preconnect', () => {
  const reports: ShardIntervalWire[] = [];
  const shardAt = (start: number, stages: { duration: string; target: number }[], pool: number) =>
    new Shard(
      compilePlan(
        PerfPlanSchema.parse({
          name: 'preconnect',
          tool: 'k6',
          concurrent_users: pool,
          duration: 1,
          urls: [{ method: 'GET', url: `${target.origin}/p`, thinkTime: '0s' }],
        }),
      ),
      {
        shard: 0,
        users: pool,
        firstUser: 0,
        insecureTls: false,
        sequenceBuffer: IterationCounter.allocate(),
        sequenceSplit: WHOLE_RUN,
        endGraceMs: 100,
        profile: {
          profile: LoadProfileSchema.parse({ model: 'arrival_rate', start, stages, max_users: pool }),
          shards: 2,
          index: 0,
        },
      },
      (wire) => reports.push(wire),
    );

  it("opens 25 ms of the first second's rate for its share, before the start; the run's requests follow, and its end closes them", async () => {
    // 4,000 it/s from 0 s over 2 shards: 2,000 each, 25 ms of which is 50 users.
    const shard = shardAt(4000, [{ duration: '300ms', target: 4000 }], 200);
    await shard.preconnect();
    await waitFor(() => target.connections === 50);
    expect(target.connections).toBe(50);
    expect(target.count).toBe(0);
    shard.start(performance.now(), 0);
    await shard.done;
    // This shard's stride of 4,000 it/s for 0.3 s is 600 iterations, each started one the target's
    // (a loaded machine may drop some: counted, not lost); the connections it opened, closed at its end.
    const started = reports.reduce((n, r) => n + (r.iterations ?? 0), 0);
    expect(started + reports.reduce((n, r) => n + (r.dropped ?? 0), 0)).toBe(600);
    expect(target.count).toBe(started);
    await waitFor(() => target.openConnections === 0);
    expect(target.openConnections).toBe(0);
  });

  it('opens as many as the rate the first second reaches when the profile starts at 0, never more than the pool', async () => {
    const ramp = shardAt(0, [{ duration: '1s', target: 2000 }], 200);
    await ramp.preconnect();
    // 2,000 it/s reached at 1 s: 1,000 for this shard, 25 of them.
    await waitFor(() => target.connections === 25);
    expect(target.connections).toBe(25);
    ramp.stop(0);
    await ramp.done;
    target.dropConnections();
    target.reset();
    const small = shardAt(40_000, [{ duration: '1s', target: 40_000 }], 30);
    await small.preconnect();
    await waitFor(() => target.connections === 30);
    expect(target.connections).toBe(30);
    small.stop(0);
    await small.done;
  });
});
