import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCountingTarget, type CountingTarget } from './counting-target';
import { registerAndLogin, startTestServer, type TestServer } from './helpers';
import { hasJmeter, hasLocust, TOOL_RUNS_ENV } from './installed-tools';
import { waitForRunEnd } from './wait-for';

/*
 * A plan whose tool is installed runs in that tool (docs/design.md §4): its script is generated, run by the
 * real tool, and its results are read into the same model. The stored totals must equal what the
 * target received. With JMETER_CMD unset, Debian's JMeter 2.13 runs through the engine's own launcher
 * (Debian's package cannot load a plan as shipped; the launcher is compiled with javac on first use);
 * Locust through Debian's python3-locust.
 */
let server: TestServer;
let target: CountingTarget;
let token: string;
// The user's own cache folder, empty: every helper program a tool needs is built in the server's data
// folder, for the check and for the runs alike (a service's home may not be writable).
const userCache = mkdtempSync(join(tmpdir(), 'aqa-user-cache-'));
const savedCacheHome = process.env.XDG_CACHE_HOME;

beforeAll(async () => {
  process.env.XDG_CACHE_HOME = userCache;
  if (!hasJmeter)
    console.warn('JMeter runs through the app are not tested: Debian jmeter or the JDK (javac) is absent');
  if (!hasLocust) console.warn('Locust runs through the app are not tested: python3-locust is absent');
  target = await startCountingTarget();
  server = await startTestServer(TOOL_RUNS_ENV);
  ({ token } = await registerAndLogin(server));
});

afterAll(async () => {
  await server?.close();
  await target?.close();
  if (savedCacheHome === undefined) delete process.env.XDG_CACHE_HOME;
  else process.env.XDG_CACHE_HOME = savedCacheHome;
  rmSync(userCache, { recursive: true, force: true });
});

interface Result {
  test_id: string;
  status: string;
  engine: string;
  engine_note: string;
  error: string | null;
  summary: { total_requests: number } | null;
  api_results: { total_requests: number }[];
}

async function runInTool(
  tool: 'jmeter' | 'locust',
  profiled = false,
): Promise<{ result: Result; counted: number; engine: string }> {
  await target.reset();
  const saved = await server.request({
    method: 'POST',
    url: '/api/save-test-plan',
    token,
    body: {
      name: `In ${tool}`,
      tool,
      concurrent_users: 2,
      duration: 1,
      urls: [
        { method: 'GET', url: `${target.origin}/first`, thinkTime: '50ms' },
        { method: 'GET', url: `${target.origin}/second`, thinkTime: '50ms' },
      ],
      ...(profiled
        ? { load_profile: { model: 'users', start: 2, stages: [{ duration: '3s', target: 2 }] } }
        : {}),
    },
  });
  expect(saved.statusCode).toBe(201);
  const planId = saved.json<{ id: string }>().id;
  const started = await server.request({
    method: 'POST',
    url: '/api/run-test',
    token,
    // A profile sets the run's length itself (docs/adr/0027-load-profiles.md).
    body: { plan_id: planId, ...(profiled ? {} : { duration_seconds: 5 }) },
  });
  expect(started.statusCode, started.body).toBe(201);
  const { test_id: id, engine } = started.json<{ test_id: string; engine: string }>();

  const result = await waitForRunEnd<Result>(server, token, 'load', id, 60_000, 250);
  return { result, counted: (await target.counts()).total, engine };
}

describe('a plan run in its own tool through the app', () => {
  it.skipIf(!hasLocust)(
    'Locust: stored totals equal what the target counted',
    async () => {
      const { result, counted, engine } = await runInTool('locust');
      expect(engine).toBe('locust');
      expect(result.error).toBeNull();
      expect(result.status).toBe('completed');
      expect(result.engine_note).toMatch(/^ran in Locust/);
      expect(counted).toBeGreaterThan(0);
      expect(result.summary?.total_requests).toBe(counted);
      expect(result.api_results.map((row) => row.total_requests).reduce((a, b) => a + b, 0)).toBe(counted);
    },
    90_000,
  );

  it.skipIf(!hasJmeter)(
    'JMeter: stored totals equal what the target counted',
    async () => {
      const { result, counted, engine } = await runInTool('jmeter');
      expect(engine).toBe('jmeter');
      expect(result.error).toBeNull();
      expect(result.status).toBe('completed');
      expect(result.engine_note).toBe('ran in Apache JMeter 2.13');
      expect(counted).toBeGreaterThan(0);
      expect(result.summary?.total_requests).toBe(counted);
      expect(readdirSync(join(server.dataDir, 'cache'))).toContain('jmeter-launcher');
      expect(readdirSync(userCache)).toEqual([]);
    },
    90_000,
  );

  it.skipIf(!hasLocust)(
    'a plan with a closed load profile runs in its tool, which follows it',
    async () => {
      // Locust's LoadTestShape runs the profile (docs/adr/0027-load-profiles.md "Runs in the tools").
      const { result, counted, engine } = await runInTool('locust', true);
      expect(engine).toBe('locust');
      expect(result).toMatchObject({ status: 'completed', engine: 'locust', error: null });
      expect(result.engine_note).toMatch(/^ran in Locust \d/);
      expect(counted).toBeGreaterThan(0);
      expect(result.summary?.total_requests).toBe(counted);
      // The stored seconds carry Locust's own user count: the profile holds 2 users (within one: Locust
      // spawns them within its shape's first second). The last, partial second ends as the users stop.
      const chart = await server.request({ method: 'GET', url: `/api/chart-data/${result.test_id}`, token });
      const series = chart.json<{ series: { requests: number; active_users: number }[] }>().series;
      const measured = series
        .slice(0, -1)
        .filter((p) => p.requests > 0)
        .map((p) => p.active_users);
      expect(measured.length).toBeGreaterThan(0);
      expect(measured.every((users) => Math.abs(users - 2) <= 1)).toBe(true);
      expect(Math.max(...measured)).toBe(2);
    },
    90_000,
  );
});
