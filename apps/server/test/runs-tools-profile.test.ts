import {
  LoadProfileSchema,
  profilePoints,
  targetAt,
  type ChartData,
  type LoadProfileInput,
  type TestResult,
} from '@aqa/plan';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCountingTarget, type CountingTarget } from './counting-target';
import { registerAndLogin, startTestServer, type TestServer } from './helpers';
import { hasJmeter, hasLocust, TOOL_RUNS_ENV } from './installed-tools';
import { waitForRunEnd } from './wait-for';

/*
 * A plan's load profile, flows and test data run in the real tools through the server
 * (docs/adr/0027-load-profiles.md "Runs in the tools"): the stored seconds carry the users the tool
 * measured, which follow the planned line; every row reaches the target once; the flows' split is the
 * weights'. Skipped, saying why, where a tool is not installed.
 */
let server: TestServer;
let target: CountingTarget;
let token: string;

beforeAll(async () => {
  if (!hasJmeter)
    console.warn(
      'JMeter profile runs through the app are not tested: Debian jmeter or the JDK (javac) is absent',
    );
  if (!hasLocust)
    console.warn('Locust flow and data runs through the app are not tested: python3-locust is absent');
  target = await startCountingTarget();
  server = await startTestServer(TOOL_RUNS_ENV);
  ({ token } = await registerAndLogin(server));
});

afterAll(async () => {
  await server?.close();
  await target?.close();
});

async function run(
  plan: Record<string, unknown>,
  request: Record<string, unknown> = {},
): Promise<{ started: { engine: string; engine_note: string }; result: TestResult }> {
  await target.reset();
  const saved = await server.request({ method: 'POST', url: '/api/save-test-plan', token, body: plan });
  expect(saved.statusCode, saved.body).toBe(201);
  const response = await server.request({
    method: 'POST',
    url: '/api/run-test',
    token,
    body: { plan_id: saved.json<{ id: string }>().id, ...request },
  });
  expect(response.statusCode, response.body).toBe(201);
  const started = response.json<{ test_id: string; engine: string; engine_note: string }>();
  const result = await waitForRunEnd<TestResult>(server, token, 'load', started.test_id, 90_000, 250);
  return { started, result };
}

async function chartData(id: string): Promise<ChartData> {
  const response = await server.request({ method: 'GET', url: `/api/chart-data/${id}`, token });
  expect(response.statusCode).toBe(200);
  return response.json<ChartData>();
}

/** 0 → 4 users over 4 s, held 4 s, down to 0 over 2 s: a run of 10 s. */
const CLOSED: LoadProfileInput = {
  model: 'users',
  graceful_stop: '1s',
  stages: [
    { duration: '4s', target: 4 },
    { duration: '4s', target: 4 },
    { duration: '2s', target: 0 },
  ],
};

describe('a load profile, flows and test data in the real tools', () => {
  it.skipIf(!hasJmeter)(
    "JMeter follows a closed profile: the stored seconds carry JMeter's own threads, on the planned line",
    async () => {
      const { started, result } = await run({
        name: 'Profile in JMeter',
        tool: 'jmeter',
        urls: [{ method: 'GET', url: `${target.origin}/ramp`, thinkTime: '100ms' }],
        load_profile: CLOSED,
      });
      expect(started).toMatchObject({ engine: 'jmeter', engine_note: 'ran in Apache JMeter 2.13' });
      expect(result).toMatchObject({ status: 'completed', engine: 'jmeter', error: null });
      const counted = (await target.counts()).total;
      expect(result.summary!.total_requests).toBe(counted);
      // The profile's 10 s, not the plan's minute; JMeter stops a leaving thread after its current sample.
      expect(result.summary!.test_duration).toBeLessThan(11);
      expect(result.load_profile).toEqual(LoadProfileSchema.parse(CLOSED));

      const points = profilePoints(LoadProfileSchema.parse(CLOSED));
      const series = (await chartData(result.test_id)).series;
      expect(series.length).toBeGreaterThanOrEqual(9);
      // A second's users are those of its last sample: judged against the line at its end or its start
      // (JMeter's thread group delays and ramp-ups are whole seconds), where JMeter sampled.
      const off = series
        .filter((p) => p.requests > 0 && p.second <= 10)
        .filter((p) =>
          [p.second, p.second - 1].every(
            (t) => Math.abs(p.active_users - Math.floor(targetAt(points, t * 1000) + 1e-9)) > 1,
          ),
        )
        .map((p) => `second ${p.second}: ${p.active_users} users`);
      expect(off).toEqual([]);
      expect(Math.max(...series.map((p) => p.active_users))).toBe(4);
      // Counted from JMeter's start, as the line is: its first user is due at 1 s, so the first second
      // has no sample and no thread yet (from the first sample on, every second would be a second late).
      expect(series[0]).toMatchObject({ second: 1, requests: 0, active_users: 0 });
    },
    120_000,
  );

  it.skipIf(!hasLocust)(
    'Locust runs flows 3:1 over a shared CSV: every row reaches the target once, the split is the weights’',
    async () => {
      const rows = 1200;
      const csv = ['id', ...Array.from({ length: rows }, (_, i) => String(i + 1))].join('\n');
      const { started, result } = await run(
        {
          name: 'Flows and data in Locust',
          tool: 'locust',
          concurrent_users: 3,
          flows: [
            { name: 'browse', weight: 3 },
            { name: 'search', weight: 1 },
          ],
          urls: [
            {
              name: 'Browse',
              method: 'GET',
              url: `${target.origin}/browse/{{id}}`,
              thinkTime: '0',
              flow: 'browse',
            },
            {
              name: 'Search',
              method: 'GET',
              url: `${target.origin}/search/{{id}}`,
              thinkTime: '0',
              flow: 'search',
            },
          ],
          data_files: { 'ids.csv': csv },
          data_sources: [{ path: 'ids.csv', loop: false, share: 'all' }],
        },
        { duration_seconds: 20 },
      );
      expect(started.engine).toBe('locust');
      expect(started.engine_note).toMatch(/^ran in Locust \d/);
      expect(started.engine_note).toContain(
        "Locust reports no iterations per flow: each flow's iterations are the requests of its first call",
      );
      expect(started.engine_note).toContain('Locust ends a user at the end of test data that does not loop');
      expect(result).toMatchObject({ status: 'completed', engine: 'locust', error: null });

      const { byPath, total } = await target.counts();
      const paths = Object.keys(byPath);
      const ids = paths.map((path) => Number(path.split('/')[2]));
      expect(total).toBe(rows);
      expect(Object.values(byPath).every((n) => n === 1)).toBe(true);
      expect(new Set(ids).size).toBe(rows);
      expect(Math.min(...ids)).toBe(1);
      expect(Math.max(...ids)).toBe(rows);

      const browse = paths.filter((path) => path.startsWith('/browse/')).length;
      expect(result.summary!.flows!.map(({ name, iterations }) => ({ name, iterations }))).toEqual([
        { name: 'browse', iterations: browse },
        { name: 'search', iterations: rows - browse },
      ]);
      // Locust draws its task weights at random: 75 % within 5 points over 1,200 iterations (σ ≈ 1.3).
      expect(Math.abs((browse / rows) * 100 - 75)).toBeLessThanOrEqual(5);
    },
    120_000,
  );
});
