import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LoadProfileInput } from '@aqa/plan';
import { startRun, type RunOptions } from './run';
import { PlanCompileError } from './executor/compile';
import { TestTarget, testPlan } from './testing/target';
import type { PerfPlan } from '@aqa/plan';
import type { RunResult } from './types';

// Abort criteria in the engine (docs/adr/0027-load-profiles.md, "Abort criteria") against a local
// target that answers at once until `slowAfterMs` from its first request, then `slowMs` later.
const target = new TestTarget();
let firstAt: number | undefined;
let slowAfterMs = Infinity;
const slowMs = 300;
/** Paths that slow down; others stay fast. */
let slowPaths: (path: string) => boolean = () => true;
beforeAll(async () => {
  await target.start();
});
afterAll(async () => {
  await target.close();
});
beforeEach(() => {
  target.reset();
  firstAt = undefined;
  slowAfterMs = Infinity;
  slowPaths = () => true;
  target.route = (req, res) => {
    const now = performance.now();
    firstAt ??= now;
    const answer = (): void => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
    };
    if (now - firstAt >= slowAfterMs && slowPaths(req.path)) setTimeout(answer, slowMs);
    else answer();
  };
});

const url = (path: string): string => `${target.origin}${path}`;

async function run(plan: PerfPlan, opts: RunOptions): Promise<RunResult> {
  const handle = startRun(plan, { workers: 1, ...opts });
  for await (const _ of handle.snapshots) {
    // drained: the result is what is judged
  }
  return handle.result;
}

const rising: LoadProfileInput = {
  model: 'arrival_rate',
  max_users: 50,
  graceful_stop: '1s',
  stages: [{ duration: '12s', target: 60 }],
};

describe('abort thresholds in a run', () => {
  it('stops a rising rate when the target slows, naming why and the highest rate that held', async () => {
    slowAfterMs = 5000;
    const plan = testPlan([{ url: url('/a') }], { abort_thresholds: ['p95<150'] });
    // A grace of 3 s (10 s outside tests), so a busy machine's first seconds are not judged.
    const result = await run(plan, { loadProfile: rising, abortGraceMs: 3000 });
    expect(result.status).toBe('stopped');
    const aborted = result.aborted!;
    expect(aborted).toMatchObject({ threshold: 'p95<150', metric: 'p95' });
    expect(aborted.actual).toBeGreaterThanOrEqual(slowMs);
    // Slow from about 5 s; the window breaks once over 5 % of it is slow: within two seconds.
    expect(aborted.at_ms).toBeGreaterThanOrEqual(6000);
    expect(aborted.at_ms).toBeLessThanOrEqual(8000);
    expect(aborted.text).toMatch(/^p95 3\d\d ms broke p95<150 at [6-8]s$/);
    // The breaking point: a second before the window broke, at a rate the line (5/s a second) allows.
    const point = result.breaking_point!;
    expect(point.model).toBe('arrival_rate');
    expect(point.at_ms).toBeLessThan(aborted.at_ms);
    expect(point.value).toBeGreaterThan(5);
    expect(point.value).toBeLessThanOrEqual((point.at_ms / 1000) * 5 + 2);
    expect(point.text).toBe(
      `the highest rate that held: ${point.value} iterations/s at ${point.at_ms / 1000}s`,
    );
    // Stopped, not run to its 12 s.
    expect(result.summary.test_duration).toBeLessThan(10.5);
  }, 30_000);

  it('judges a scoped threshold on its API only', async () => {
    slowAfterMs = 3000;
    slowPaths = (path) => path === '/slow';
    const plan = testPlan([
      { name: 'Fast', url: url('/fast') },
      { name: 'Slow', url: url('/slow') },
    ]);
    const result = await run(plan, {
      loadProfile: { ...rising, stages: [{ duration: '8s', target: 20 }] },
      abortThresholds: ['Fast: p95<150', 'Slow: p95<150'],
      abortGraceMs: 2000,
    });
    expect(result.aborted).toMatchObject({ threshold: 'Slow: p95<150', scope: 'Slow' });
    expect(result.aborted?.text).toMatch(/^Slow p95 3\d\d ms broke Slow: p95<150 at \ds$/);
  }, 30_000);

  it('judges a threshold scoped to a flow on its calls merged (docs/adr/0027-load-profiles.md "Abort criteria")', async () => {
    slowAfterMs = 3000;
    slowPaths = (path) => path === '/pay';
    const plan = testPlan(
      [
        { name: 'Browse', url: url('/browse'), flow: 'browse' },
        { name: 'Cart', url: url('/cart'), flow: 'buy' },
        { name: 'Pay', url: url('/pay'), flow: 'buy' },
      ],
      {
        flows: [
          { name: 'browse', weight: 1 },
          { name: 'buy', weight: 1 },
        ],
      },
    );
    const result = await run(plan, {
      loadProfile: { ...rising, stages: [{ duration: '8s', target: 20 }] },
      abortThresholds: ['browse: p95<150', 'buy: p95<150'],
      abortGraceMs: 2000,
    });
    // Half of the flow's requests are slow: its merged p95 breaks; "browse" held.
    expect(result.aborted).toMatchObject({ threshold: 'buy: p95<150', scope: 'buy' });
    expect(result.aborted?.text).toMatch(/^buy p95 3\d\d ms broke buy: p95<150 at \ds$/);
  }, 30_000);

  it('refuses a scope that names no flow or API, naming both', () => {
    const plan = testPlan([{ name: 'Browse', url: url('/browse'), flow: 'browse' }], {
      flows: [{ name: 'browse', weight: 1 }],
    });
    expect(() => startRun(plan, { workers: 1, abortThresholds: ['buy: p95<150'] })).toThrow(
      /no flow or API named "buy"; its flows are "browse" and its APIs "Browse"/,
    );
  });

  it('names the most users that held in the users model', async () => {
    slowAfterMs = 4000;
    // Paced users, so the slow seconds weigh in the window as much as the fast ones before them.
    const plan = testPlan([{ url: url('/u'), thinkTime: '100ms' }]);
    const result = await run(plan, {
      loadProfile: { model: 'users', graceful_stop: '1s', stages: [{ duration: '10s', target: 10 }] },
      // Well under the slow answers' 300 ms, well over what a loopback answer takes on a busy machine (a
      // 150 ms bound broke in the fast first seconds while the whole suite ran).
      abortThresholds: ['p95<250'],
      abortGraceMs: 2000,
    });
    expect(result.status).toBe('stopped');
    expect(result.aborted?.at_ms).toBeGreaterThan(4000);
    expect(result.breaking_point?.model).toBe('users');
    // About one user a second: a count the line reached before it broke.
    expect(result.breaking_point?.value).toBeGreaterThanOrEqual(1);
    expect(result.breaking_point?.value).toBeLessThanOrEqual(Math.ceil(result.aborted!.at_ms / 1000));
  }, 30_000);

  it('runs to its end when the abort thresholds hold, and as before without any', async () => {
    const plan = testPlan([{ url: url('/ok') }], { concurrent_users: 2 });
    const held = await run(plan, { durationSeconds: 3, abortThresholds: ['p95<5000'], abortGraceMs: 1000 });
    expect(held.status).toBe('completed');
    expect(held.aborted).toBeUndefined();
    expect(held.breaking_point).toBeUndefined();
    const none = await run(plan, { durationSeconds: 2 });
    expect(none.status).toBe('completed');
    expect(none.aborted).toBeUndefined();
    expect('aborted' in none).toBe(false);
  }, 30_000);

  it('refuses an abort threshold that does not read or names no API, before anything runs', () => {
    const plan = testPlan([{ name: 'Login', url: url('/x') }]);
    expect(() => startRun(plan, { abortThresholds: ['p95 < soon', 'Logout: p95<1'] })).toThrow(
      PlanCompileError,
    );
    try {
      startRun(plan, { abortThresholds: ['p95 < soon', 'Logout: p95<1'] });
    } catch (error) {
      expect((error as PlanCompileError).problems).toEqual([
        expect.stringMatching(/^abort_thresholds\.0: threshold "p95 < soon" is not understood/),
        expect.stringMatching(/^abort_thresholds\.1: .*no API named "Logout"; its APIs are "Login"/),
      ]);
    }
    expect(target.count).toBe(0);
  });
});
