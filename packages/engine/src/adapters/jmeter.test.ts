import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestTarget, testPlan } from '../testing/target';
import { startToolRun } from './run-tool';
import { observe, stepSum, TEST_ENV, toolForTests } from './test-helpers';

const jmeter = await toolForTests('jmeter');

describe("JMeter adapter (live, Debian's JMeter 2.13 through the engine's launcher)", () => {
  const target = new TestTarget();
  beforeAll(async () => {
    await target.start();
    target.route = (req, res) => {
      // /b fails with 500 one time in four, so failures are data too.
      const fail = req.path === '/b' && (target.byPath.get('/b') ?? 0) % 4 === 0;
      res.writeHead(fail ? 500 : 200, { 'content-type': 'text/plain' });
      res.end(fail ? 'no' : 'ok');
    };
  });
  afterAll(() => target.close());

  const plan = () =>
    testPlan(
      [
        // A short think time keeps the load light: these tests share 2 cores with the rest of the suite.
        { url: `${target.origin}/a`, name: 'Alpha', thinkTime: '20ms' },
        { url: `${target.origin}/b`, method: 'POST', payload: '{"x":1}', thinkTime: '20ms' },
      ],
      { concurrent_users: 2, duration: 1 },
    );

  it.skipIf(jmeter.skip)(
    'runs a 2-step plan: per-second snapshots while it runs, per-step rows, totals equal to what the target counted',
    async () => {
      target.reset();
      const started = Date.now();
      const run = startToolRun(plan(), 'jmeter', { env: TEST_ENV, durationSeconds: 5 });
      expect(run.exact).toBe(true);
      expect(run.shards).toEqual([2]);
      const o = await observe(run);
      const { result, snapshots } = o;

      expect(result.status).toBe('completed');
      expect(result.tool).toBe('jmeter');
      expect(result.exitCode).toBe(0);
      // With JMETER_CMD unset, Debian's JMeter ran through the engine's own launcher.
      if (!process.env.JMETER_CMD) expect(result.command).toMatch(/ DebianJMeter -n -t /);
      // Exact: every request the target received is one JTL sample.
      expect(result.summary.total_requests).toBeGreaterThan(10);
      expect(result.summary.total_requests).toBe(target.count);
      expect(result.api_results.map((r) => r.total_requests)).toEqual([
        target.byPath.get('/a') ?? 0,
        target.byPath.get('/b') ?? 0,
      ]);
      expect(result.api_results[1]!.failed_requests).toBeGreaterThan(0);
      expect(result.api_results[1]!.errors.http_status?.count).toBe(result.api_results[1]!.failed_requests);
      expect(result.summary.failed_requests).toBe(result.api_results[1]!.failed_requests);
      expect(result.summary.percentile_95).toBeGreaterThan(0);
      expect(result.summary.max_response_time).toBeGreaterThanOrEqual(result.summary.percentile_99);
      expect(result.histogram.c.reduce((a, b) => a + b, 0)).toBe(result.summary.total_requests);

      // Per second, while it ran: several snapshots, the first well before the tool ended.
      expect(snapshots.length).toBeGreaterThanOrEqual(2);
      expect(o.arrivals[0]! - started).toBeLessThan(o.resolvedAt - started - 1000);
      snapshots.forEach((s, i) => {
        expect(s.second).toBe(i + 1);
        expect(s.steps.map((x) => x.label)).toEqual([`GET ${target.origin}/a`, `POST ${target.origin}/b`]);
      });
      expect(snapshots.reduce((a, s) => a + s.requests, 0)).toBe(result.summary.total_requests);
      expect(stepSum(snapshots, 0, 'requests')).toBe(result.api_results[0]!.total_requests);
      expect(stepSum(snapshots, 1, 'failures')).toBe(result.api_results[1]!.failed_requests);
      expect(snapshots.at(-1)!.totals.requests).toBe(target.count);
      expect(result.series).toHaveLength(snapshots.length);
    },
    60_000,
  );

  it.skipIf(jmeter.skip)(
    'stop() ends JMeter early (its Shutdown message) and resolves with the partial result',
    async () => {
      target.reset();
      const run = startToolRun(plan(), 'jmeter', { env: TEST_ENV, durationSeconds: 60 });
      let stopAsked = 0;
      let stopped: Promise<void> | undefined;
      const o = await observe(run, (s) => {
        if (s.requests > 0 && !stopped) {
          stopAsked = Date.now();
          stopped = run.stop();
        }
      });
      await stopped;
      expect(Date.now() - stopAsked).toBeLessThan(8000);
      expect(o.result.status).toBe('stopped');
      expect(o.result.summary.total_requests).toBeGreaterThan(0);
      expect(o.result.summary.total_requests).toBe(target.count);
      expect(o.result.summary.test_duration).toBeLessThan(15);
    },
    60_000,
  );
});
