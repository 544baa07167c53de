import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LoadProfileSchema, profilePoints, type LoadProfileInput, type PerfPlan } from '@aqa/plan';
import { machineProfileShare, startRun, type RunOptions } from './run';
import { PlanCompileError } from './executor/compile';
import { shareOf, usersAt } from './executor/load-follower';
import { TestTarget, testPlan } from './testing/target';
import { Histogram } from './metrics/histogram';
import type { RunResult, RunSnapshot } from './types';

// The engine following a load profile (docs/adr/0027-load-profiles.md, "The schedule") against a local
// target that notes when each request arrived, so the load it received can be read per 100 ms window.
const target = new TestTarget();
/** performance.timeOrigin + now() of every request's arrival (epoch ms, as the run's start is). */
let arrivals: number[] = [];
let answerAfterMs = 0;
beforeAll(async () => {
  await target.start();
});
afterAll(async () => {
  await target.close();
});
beforeEach(() => {
  target.reset();
  arrivals = [];
  answerAfterMs = 0;
  target.route = (_req, res) => {
    arrivals.push(performance.timeOrigin + performance.now());
    const answer = (): void => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
    };
    if (answerAfterMs > 0) setTimeout(answer, answerAfterMs);
    else answer();
  };
});

async function run(
  plan: PerfPlan,
  loadProfile: LoadProfileInput,
  opts: RunOptions = {},
): Promise<{ result: RunResult; snapshots: RunSnapshot[] }> {
  const handle = startRun(plan, { workers: 1, ...opts, loadProfile });
  const snapshots: RunSnapshot[] = [];
  for await (const s of handle.snapshots) snapshots.push(s);
  return { result: await handle.result, snapshots };
}

/** Requests the target received per window of `windowMs` from the run's start. */
function perWindow(result: RunResult, windowMs: number, windows: number): number[] {
  const start = Date.parse(result.started_at);
  const counts = new Array<number>(windows).fill(0);
  for (const at of arrivals) {
    const w = Math.floor((at - start) / windowMs);
    if (w >= 0 && w < windows) counts[w]!++;
  }
  return counts;
}

const url = (path: string): string => `${target.origin}${path}`;
const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);

describe('closed model (users)', () => {
  const ramp: LoadProfileInput = {
    model: 'users',
    graceful_stop: '2s',
    stages: [
      { duration: '3s', target: 6 },
      { duration: '2s', target: 6 },
      { duration: '1s', target: 0 },
    ],
  };

  it('starts and stops users along the line, each finishing its iteration', async () => {
    answerAfterMs = 20;
    // Two steps, so that a user leaving mid-iteration shows as a missing second request.
    const plan = testPlan([{ url: url('/one') }, { url: url('/two') }], { concurrent_users: 1 });
    const { result, snapshots } = await run(plan, ramp);
    const points = profilePoints(LoadProfileSchema.parse(ramp));

    // Each second's active users against the planned line at its end, within one user.
    const planned = snapshots.filter((s) => s.second <= 6).map((s) => usersAt(points, s.second * 1000));
    const active = snapshots.filter((s) => s.second <= 6).map((s) => s.activeUsers);
    expect(planned).toEqual([2, 4, 6, 6, 6, 0]);
    active.forEach((n, i) =>
      expect(Math.abs(n - planned[i]!), `second ${i + 1}: ${n}`).toBeLessThanOrEqual(1),
    );

    // The target saw no user before the line reached 1 (0.5 s), then the load grow with the users:
    // each user makes one request per ~20 ms answer, so a second at 6 users brings about 3× one at 2.
    const windows = perWindow(result, 100, 70);
    expect(sum(windows.slice(0, 4))).toBe(0);
    expect(sum(windows.slice(6, 10))).toBeGreaterThan(0);
    const rising = sum(windows.slice(5, 15));
    const holding = sum(windows.slice(35, 45));
    expect(holding).toBeGreaterThan(2 * rising);
    // After the ramp down nothing is sent (the run ended at ~6 s).
    expect(sum(windows.slice(62, 70))).toBe(0);

    // Every iteration ran to its end: as many second requests as first ones, none cancelled.
    expect(target.byPath.get('/one')).toBe(target.byPath.get('/two'));
    expect(result.summary.total_requests).toBe(target.count);
    expect(result.summary.failed_requests).toBe(0);
    expect(result.summary.concurrent_users).toBe(6);
    expect(result.status).toBe('completed');
    expect(result.summary.test_duration).toBeLessThan(7);
    expect(result.iterations).toBeUndefined();
    expect(snapshots.every((s) => s.droppedIterations === undefined)).toBe(true);
  }, 20_000);

  it('cancels what a leaving user still awaits once the graceful stop has run out', async () => {
    answerAfterMs = 5000;
    const plan = testPlan([{ url: url('/slow'), timeout: 30 }], { concurrent_users: 1 });
    const { result, snapshots } = await run(plan, {
      model: 'users',
      start: 2,
      graceful_stop: '500ms',
      stages: [
        { duration: '1s', target: 2 },
        { duration: '0s', target: 0 },
        { duration: '2s', target: 0 },
      ],
    });
    // Both users left at 1 s with a request in flight; at 1.5 s it was cancelled and they ended.
    expect(snapshots[0]!.activeUsers).toBe(2);
    expect(snapshots[1]!.activeUsers).toBe(0);
    expect(target.count).toBe(2);
    expect(result.summary.total_requests).toBe(2);
    expect(result.errors.cancelled?.count).toBe(2);
    expect(result.summary.test_duration).toBeLessThan(3.5);
  }, 20_000);

  it('keeps a leaving user still in its iteration when the line rises again', async () => {
    answerAfterMs = 1500;
    const plan = testPlan([{ url: url('/back') }], { concurrent_users: 1 });
    const { result, snapshots } = await run(plan, {
      model: 'users',
      start: 4,
      graceful_stop: '5s',
      stages: [
        { duration: '1s', target: 4 },
        { duration: '0s', target: 2 },
        { duration: '300ms', target: 2 },
        { duration: '0s', target: 4 },
        { duration: '1200ms', target: 4 },
      ],
    });
    // At 1 s two users must leave, their first answer due at 1.5 s; at 1.3 s the line is back at 4
    // and those two stay: no new user, so no new connection, and every answer arrives.
    expect(target.connections).toBe(4);
    expect(snapshots[0]!.activeUsers).toBe(4);
    expect(snapshots[1]!.activeUsers).toBe(4);
    expect(result.summary.failed_requests).toBe(0);
    expect(result.summary.total_requests).toBe(target.count);
    expect(target.count).toBeGreaterThanOrEqual(8);
  }, 20_000);

  it('splits the line over two workers, floor + 1 for the first', async () => {
    answerAfterMs = 10;
    const plan = testPlan([{ url: url('/w') }], { concurrent_users: 1 });
    const profile: LoadProfileInput = {
      model: 'users',
      graceful_stop: '1s',
      stages: [
        { duration: '2s', target: 5 },
        { duration: '1s', target: 5 },
      ],
    };
    const handle = startRun(plan, { workers: 2, loadProfile: profile });
    expect(handle.shards).toEqual([3, 2]);
    const snapshots: RunSnapshot[] = [];
    for await (const s of handle.snapshots) snapshots.push(s);
    const result = await handle.result;
    const points = profilePoints(LoadProfileSchema.parse(profile));
    const seconds = snapshots.filter((s) => s.second <= 2);
    expect(seconds.length).toBe(2);
    for (const s of seconds) {
      const planned = usersAt(points, s.second * 1000);
      expect(Math.abs(s.activeUsers - planned), `second ${s.second}`).toBeLessThanOrEqual(1);
    }
    expect(result.workers).toBe(2);
    expect(result.summary.total_requests).toBe(target.count);
    expect(result.summary.concurrent_users).toBe(5);
  }, 20_000);
});

describe('open model (arrival_rate)', () => {
  it('starts the planned iterations per second, on time, whatever the users', async () => {
    const plan = testPlan([{ url: url('/rate') }], { concurrent_users: 1 });
    const { result, snapshots } = await run(plan, {
      model: 'arrival_rate',
      start: 200,
      stages: [{ duration: '3s', target: 200 }],
    });
    // 200 /s for 3 s: 600 iterations, one request each; the pool (default 200) is never short.
    expect(result.iterations).toMatchObject({ started: 600, dropped: 0 });
    // How late the iterations started after they were due: the generator's own delay, well under a second.
    const lag = result.iterations!.schedule_lag;
    expect(lag.p50).toBeGreaterThanOrEqual(0);
    expect(lag.max).toBeGreaterThanOrEqual(lag.p99);
    expect(lag.max).toBeLessThan(1000);
    expect(snapshots[0]!.scheduleLag).toBeDefined();
    expect(target.count).toBe(600);
    expect(result.summary.total_requests).toBe(600);
    const perSecond = snapshots.filter((s) => s.second <= 3).map((s) => s.iterations ?? -1);
    expect(perSecond.length).toBe(3);
    for (const n of perSecond) expect(Math.abs(n - 200)).toBeLessThanOrEqual(2);
    expect(snapshots.at(-1)!.totals.iterations).toBe(600);
    // The target's own view: about 20 requests in every 100 ms, 200 in every second.
    const windows = perWindow(result, 100, 30);
    const seconds = [0, 1, 2].map((k) => sum(windows.slice(k * 10, k * 10 + 10)));
    for (const n of seconds)
      expect(Math.abs(n - 200), `target per second ${seconds.join(', ')}`).toBeLessThanOrEqual(10);
    expect(windows.filter((n) => n >= 10 && n <= 30).length).toBeGreaterThanOrEqual(25);
    // A flat closed loop would have sent far more than the schedule.
    expect(result.summary.concurrent_users).toBe(200);
    expect(Histogram.decode(result.histogram).totalCount).toBe(600);
  }, 20_000);

  it('counts the iterations a too small pool cannot take as dropped', async () => {
    answerAfterMs = 200;
    const plan = testPlan([{ url: url('/pool') }], { concurrent_users: 1 });
    const { result, snapshots } = await run(plan, {
      model: 'arrival_rate',
      start: 20,
      max_users: 2,
      stages: [{ duration: '2s', target: 20 }],
    });
    // 40 iterations due; 2 users each busy 200 ms can take at most about 2 × 2 s / 0.2 s = 20 of them.
    const { started, dropped } = result.iterations!;
    expect(started + dropped).toBe(40);
    expect(dropped).toBeGreaterThan(0);
    expect(started).toBeLessThanOrEqual(22);
    expect(target.count).toBe(started);
    expect(sum(snapshots.map((s) => s.droppedIterations ?? 0))).toBe(dropped);
    expect(sum(snapshots.map((s) => s.iterations ?? 0))).toBe(started);
    expect(Math.max(...snapshots.map((s) => s.activeUsers))).toBeLessThanOrEqual(2);
    expect(result.summary.concurrent_users).toBe(2);
    // A taken iteration's latency counts from when it was due: at least the answer's 200 ms.
    expect(result.summary.percentile_50).toBeGreaterThanOrEqual(200);
  }, 20_000);

  it('times an iteration’s first request from when it was due, not from when it could be sent', async () => {
    // The token endpoint answers after 400 ms: the iterations due meanwhile wait for it before
    // sending. Timed from the send they would read ~1 ms; timed from their due time, up to ~375 ms.
    target.route = (req, res) => {
      if (req.path === '/token') {
        setTimeout(() => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ access_token: 'T', token_type: 'bearer', expires_in: 3600 }));
        }, 400);
        return;
      }
      res.end('ok');
    };
    const plan = testPlan(
      [{ url: url('/api'), authorization: { type: 'oauth2', token: 'c:s', tokenUrl: url('/token') } }],
      { concurrent_users: 1 },
    );
    const { result } = await run(plan, {
      model: 'arrival_rate',
      start: 20,
      stages: [{ duration: '1s', target: 20 }],
    });
    expect(result.iterations).toMatchObject({ started: 20, dropped: 0 });
    expect(result.summary.total_requests).toBe(20);
    // Iterations 0–7 (due at 25, 75, … 375 ms) waited: the slowest about 375 ms, the 18th of 20 about 275.
    expect(result.summary.max_response_time).toBeGreaterThanOrEqual(300);
    expect(result.summary.percentile_90).toBeGreaterThanOrEqual(150);
  }, 20_000);

  it('takes the schedule by stride on two workers: together exactly the plan', async () => {
    const plan = testPlan([{ url: url('/two') }], { concurrent_users: 1 });
    const handle = startRun(plan, {
      workers: 2,
      loadProfile: { model: 'arrival_rate', stages: [{ duration: '2s', target: 300 }], max_users: 40 },
    });
    expect(handle.shards).toEqual([20, 20]);
    const snapshots: RunSnapshot[] = [];
    for await (const s of handle.snapshots) snapshots.push(s);
    const result = await handle.result;
    // 0 → 300 /s over 2 s: 300 iterations, 75 due in the first second and 225 in the second.
    expect(result.iterations).toMatchObject({ started: 300, dropped: 0 });
    expect(target.count).toBe(300);
    const perSecond = snapshots.filter((s) => s.second <= 2).map((s) => s.iterations ?? -1);
    expect(Math.abs(perSecond[0]! - 75)).toBeLessThanOrEqual(2);
    expect(Math.abs(perSecond[1]! - 225)).toBeLessThanOrEqual(3);
  }, 20_000);
});

describe('a profile split over machines (load agents)', () => {
  it('gives every shard of every machine its place: the shares add up to the line, however many shards each runs', () => {
    // Three machines with 1, 2 and 3 shards: at every planned count the shares add up to it.
    const machineShards = [1, 2, 3];
    for (let planned = 0; planned <= 60; planned++) {
      let total = 0;
      machineShards.forEach((shards, offset) => {
        const split = { offset, stride: machineShards.length };
        let machine = 0;
        for (let shard = 0; shard < shards; shard++) {
          const place = machineProfileShare(split, shards, shard);
          machine += shareOf(planned, place.shards, place.index);
        }
        // The machine's own share is what the server placed on it (splitUsers over the machines).
        expect(machine, `machine ${offset} at ${planned}`).toBe(
          shareOf(planned, machineShards.length, offset),
        );
        total += machine;
      });
      expect(total).toBe(planned);
    }
  });

  it('runs two machines’ shares of an open-model schedule: together exactly the plan, no iteration twice', async () => {
    const plan = testPlan([{ url: url('/m/{{sequence_number,1000000}}') }], { concurrent_users: 1 });
    const profile: LoadProfileInput = {
      model: 'arrival_rate',
      stages: [{ duration: '2s', target: 200 }],
      max_users: 10,
    };
    const machines = [0, 1].map((offset) =>
      startRun(plan, { workers: offset + 1, loadProfile: profile, sequenceSplit: { offset, stride: 2 } }),
    );
    // The pool of 10 split 5 + 5; the second machine splits its 5 over two workers.
    expect(machines.map((m) => m.shards)).toEqual([[5], [3, 2]]);
    const results = await Promise.all(
      machines.map(async (m) => {
        for await (const s of m.snapshots) void s;
        return m.result;
      }),
    );
    // 0 → 200 /s over 2 s: 200 iterations, each machine half of them. A busy machine may drop a few
    // (a pause of a worker while its small pool is busy): counted, never run twice or lost.
    expect(results.map((r) => r.iterations!.started + r.iterations!.dropped)).toEqual([100, 100]);
    const started = results.reduce((n, r) => n + r.iterations!.started, 0);
    expect(started).toBeGreaterThanOrEqual(190);
    expect(target.count).toBe(started);
    const values = target.recorded.map((r) => r.path);
    expect(new Set(values).size).toBe(started);
  }, 20_000);
});

describe('stopping a profile run', () => {
  it('ends within the stop grace, during the line or before the start', async () => {
    const plan = testPlan([{ url: url('/stop'), thinkTime: '50ms' }], { concurrent_users: 1 });
    const profile: LoadProfileInput = {
      model: 'users',
      stages: [
        { duration: '2s', target: 4 },
        { duration: '30s', target: 4 },
      ],
    };
    const during = startRun(plan, { workers: 1, loadProfile: profile });
    const snapshots: RunSnapshot[] = [];
    for await (const s of during.snapshots) {
      snapshots.push(s);
      if (s.second === 2) void during.stop();
    }
    const result = await during.result;
    expect(result.status).toBe('stopped');
    expect(snapshots[1]!.activeUsers).toBeGreaterThanOrEqual(3);
    expect(result.summary.test_duration).toBeLessThan(4.5);
    expect(result.summary.total_requests).toBe(target.count);

    target.reset();
    const early = startRun(plan, {
      workers: 1,
      loadProfile: { model: 'arrival_rate', start: 50, stages: [{ duration: '30s', target: 50 }] },
    });
    await early.stop();
    const none = await early.result;
    expect(none.status).toBe('stopped');
    expect(none.summary.total_requests).toBe(0);
    expect(target.count).toBe(0);
  }, 20_000);
});

describe('profiles that cannot run', () => {
  it('lists the profile’s problems with the plan’s, and refuses a duration beside it', () => {
    const plan = testPlan([{ url: url('/x') }]);
    const bad: LoadProfileInput = { model: 'users', stages: [{ duration: '2s', target: 1.5 }] };
    expect(() => startRun(plan, { loadProfile: bad, durationSeconds: 5 })).toThrow(PlanCompileError);
    try {
      startRun({ ...plan, name: '' }, { loadProfile: bad, durationSeconds: 5 });
    } catch (e) {
      expect((e as PlanCompileError).problems).toEqual([
        expect.stringMatching(/^name: /),
        'load_profile.stages[0].target: In the users model a stage target is a whole number of users',
        'durationSeconds: a run with a load profile lasts as long as its stages: leave durationSeconds out',
      ]);
    }
  });
});
