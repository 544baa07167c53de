import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCountingTarget, type CountingTarget } from './counting-target';
import {
  registerAndLogin,
  removeDir,
  startTestServer,
  type RequestOptions,
  type TestServer,
} from './helpers';
import { withTestSql } from './test-database';
import { waitFor, waitForRunEnd } from './wait-for';

/*
 * Runs that ended early — stopped, or failed part-way — can be compared and made the baseline when they
 * measured requests; their status in the answers marks them. Runs that measured nothing are refused
 * with the reason. Real runs of the built-in engine against a local counting target.
 */

interface PastRun {
  test_id: string;
  status: string;
  is_baseline: boolean;
  results_summary: { total_requests: number } | null;
}

interface Comparison {
  base: PastRun;
  candidate: PastRun;
  metrics: { key: string; base: number; candidate: number }[];
}

let dataDir: string;
let server: TestServer;
let target: CountingTarget;
let token: string;
let planId: string;
const runs = { completed: '', stopped: '', stoppedEmpty: '', interrupted: '', interruptedEmpty: '' };

function call(options: Omit<RequestOptions, 'token'>) {
  return server.request({ ...options, token });
}

async function savePlan(name: string, url: string): Promise<string> {
  const response = await call({
    method: 'POST',
    url: '/api/save-test-plan',
    body: {
      name,
      tool: 'k6',
      concurrent_users: 2,
      duration: 1,
      urls: [{ method: 'GET', url, thinkTime: '20ms' }],
    },
  });
  if (response.statusCode !== 201) throw new Error(`save failed: ${response.body}`);
  return response.json<{ id: string }>().id;
}

async function startRun(plan: string, seconds: number): Promise<string> {
  const response = await call({
    method: 'POST',
    url: '/api/run-test',
    body: { plan_id: plan, duration_seconds: seconds, concurrent_users: 2 },
  });
  if (response.statusCode !== 201) throw new Error(`run-test failed: ${response.body}`);
  return response.json<{ test_id: string }>().test_id;
}

interface Result {
  status: string;
  elapsed_seconds: number;
  summary: { total_requests: number } | null;
}

async function result(id: string) {
  return (await call({ method: 'GET', url: `/api/get-test-result/${id}` })).json<Result>();
}

const ended = (id: string) => waitForRunEnd<Result>(server, token, 'load', id, 15_000);

/** Stops a run once `ready` says so, and waits for its stored result. */
async function stopWhen(
  id: string,
  ready: (r: Awaited<ReturnType<typeof result>>) => boolean | Promise<boolean>,
) {
  await waitFor(
    `run ${id} to be ready to stop`,
    async () => ((await ready(await result(id))) ? true : undefined),
    15_000,
  );
  const stopped = await call({ method: 'POST', url: `/api/stop-test/${id}` });
  expect(stopped.statusCode, stopped.body).toBe(200);
  return ended(id);
}

function compare(base: string, candidate: string) {
  return call({ method: 'GET', url: `/api/compare-test-results?base=${base}&candidate=${candidate}` });
}

function setBaseline(testId: string | null) {
  return call({ method: 'POST', url: '/api/set-baseline', body: { plan_id: planId, test_id: testId } });
}

async function pastRun(id: string): Promise<PastRun> {
  const list = (await call({ method: 'GET', url: '/api/get-test-results?limit=100' })).json<PastRun[]>();
  const run = list.find((r) => r.test_id === id);
  if (!run) throw new Error(`run ${id} not listed`);
  return run;
}

beforeAll(async () => {
  target = await startCountingTarget();

  server = await startTestServer({ EXTERNAL_TOOLS: 'off', MAX_RUNS_PER_USER: '4', MAX_RUNS_PER_SERVER: '8' });
  dataDir = server.dataDir;
  const account = await registerAndLogin(server);
  token = account.token;
  planId = await savePlan('Partial runs', `${target.origin}/items`);

  runs.completed = await startRun(planId, 1);
  await ended(runs.completed);
  runs.stopped = await startRun(planId, 30);
  await stopWhen(runs.stopped, (r) => (r.summary?.total_requests ?? 0) > 0);
  runs.interrupted = await startRun(planId, 1);
  await ended(runs.interrupted);
  runs.interruptedEmpty = await startRun(planId, 1);
  await ended(runs.interruptedEmpty);
  runs.stoppedEmpty = await startRun(planId, 30);
  await stopWhen(runs.stoppedEmpty, (r) => (r.summary?.total_requests ?? 0) > 0);

  // A server restart interrupts runs that are still going: they are stored as interrupted, rebuilt
  // from what they measured. Two runs are set back to running (one with its figures, one before any were
  // stored) and the server is started again on the same data. A run stopped before its first request
  // completed is stored with a summary that counted nothing (the engine's timing cannot be relied on
  // to stop that early, so its row is set so).
  await server.close();
  await withTestSql(server.database, async (sql) => {
    await sql.run("update runs set status = 'running', ended_at = null where id = ?", runs.interrupted);
    await sql.run(
      "update runs set status = 'running', ended_at = null, summary = null, total_requests = null where id = ?",
      runs.interruptedEmpty,
    );
    // Nothing of it was stored: the next start rebuilds an interrupted run from its stored seconds.
    await sql.run('delete from run_points where run_id = ?', runs.interruptedEmpty);
    // The summary is JSON text; each store has its own function to change one of its fields.
    const noRequests =
      sql.dialect === 'postgres'
        ? "jsonb_set(summary::jsonb, '{total_requests}', '0')::text"
        : "json_set(summary, '$.total_requests', 0)";
    await sql.run(
      `update runs set summary = ${noRequests}, total_requests = 0 where id = ?`,
      runs.stoppedEmpty,
    );
  });
  server = await startTestServer({ EXTERNAL_TOOLS: 'off' }, dataDir);
  const login = await server.request({
    method: 'POST',
    url: '/api/login',
    body: { username: account.registration.email, password: account.registration.password },
  });
  token = login.json<{ token: string }>().token;
}, 60_000);

afterAll(async () => {
  await server.close();
  await target.close();
  removeDir(dataDir);
});

describe('runs that ended early, in comparisons and baselines', () => {
  it('the runs are what the tests need', async () => {
    const rows = await withTestSql(server.database, (sql) =>
      sql.all<{ id: string; status: string; error: string | null; total_requests: number | null }>(
        'select id, status, error, total_requests from runs',
      ),
    );
    const row = (id: string) => rows.find((r) => r.id === id)!;
    expect(row(runs.completed)).toMatchObject({ status: 'completed' });
    expect(row(runs.completed).total_requests).toBeGreaterThan(0);
    expect(row(runs.stopped)).toMatchObject({ status: 'stopped' });
    expect(row(runs.stopped).total_requests).toBeGreaterThan(0);
    expect(row(runs.stoppedEmpty)).toMatchObject({ status: 'stopped' });
    expect(row(runs.stoppedEmpty).total_requests).toBe(0);
    expect(row(runs.interrupted)).toMatchObject({
      status: 'interrupted',
      error: 'interrupted by a server restart',
    });
    expect(row(runs.interrupted).total_requests).toBeGreaterThan(0);
    expect(row(runs.interruptedEmpty)).toMatchObject({ status: 'interrupted', total_requests: null });
  });
});

describe('compare-test-results with runs that ended early', () => {
  it('compares a completed run with a stopped one that measured requests; the status marks it', async () => {
    const response = await compare(runs.completed, runs.stopped);
    expect(response.statusCode, response.body).toBe(200);
    const comparison = response.json<Comparison>();
    expect(comparison.base.status).toBe('completed');
    expect(comparison.candidate.status).toBe('stopped');
    const requests = comparison.metrics.find((m) => m.key === 'requests_per_second')!;
    expect(requests.base).toBeGreaterThan(0);
    expect(requests.candidate).toBeGreaterThan(0);
  });

  it('compares a run a server restart interrupted, with what it measured', async () => {
    const response = await compare(runs.stopped, runs.interrupted);
    expect(response.statusCode, response.body).toBe(200);
    const comparison = response.json<Comparison>();
    expect(comparison.candidate.status).toBe('interrupted');
    expect(comparison.candidate.results_summary!.total_requests).toBeGreaterThan(0);
  });

  it.each([
    ['stopped before any request completed', () => runs.stoppedEmpty, 'stopped'],
    ['interrupted before its figures were stored', () => runs.interruptedEmpty, 'interrupted'],
  ])('refuses a run %s, saying why', async (_what, id, status) => {
    const response = await compare(runs.completed, id());
    expect(response.statusCode).toBe(400);
    expect(response.json<{ detail: string }>().detail).toContain(
      `Run ${id()} (${status}) measured no request, so it has no figures to compare`,
    );
  });
});

describe('set-baseline with runs that ended early', () => {
  it('makes a stopped run that measured requests the baseline, then an interrupted one', async () => {
    for (const id of [runs.stopped, runs.interrupted]) {
      const response = await setBaseline(id);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ plan_id: planId, baseline_test_id: id });
      expect(await pastRun(id)).toMatchObject({ is_baseline: true });
    }
    expect((await pastRun(runs.stopped)).is_baseline).toBe(false);
  });

  it('refuses runs that measured nothing, saying why, and keeps the baseline', async () => {
    for (const [id, status] of [
      [runs.stoppedEmpty, 'stopped'],
      [runs.interruptedEmpty, 'interrupted'],
    ] as const) {
      const response = await setBaseline(id);
      expect(response.statusCode).toBe(400);
      expect(response.json<{ detail: string }>().detail).toContain(
        `Run ${id} (${status}) measured no request, so it cannot be the baseline`,
      );
    }
    expect((await pastRun(runs.interrupted)).is_baseline).toBe(true);
  });
});

describe('chart-data of a real run', () => {
  it('has bars fitted to the measured range beside the fixed ones, counting the same requests', async () => {
    const response = await call({ method: 'GET', url: `/api/chart-data/${runs.completed}` });
    expect(response.statusCode, response.body).toBe(200);
    const chart = response.json<{
      distribution: { label: string; count: number }[];
      distribution_fitted: { label: string; count: number }[];
    }>();
    const total = (bins: { count: number }[]) => bins.reduce((sum, bin) => sum + bin.count, 0);
    expect(total(chart.distribution)).toBeGreaterThan(0);
    expect(total(chart.distribution_fitted)).toBe(total(chart.distribution));
    expect(chart.distribution_fitted.length).toBeGreaterThanOrEqual(1);
    expect(chart.distribution_fitted.length).toBeLessThanOrEqual(21);
    for (const bin of chart.distribution_fitted)
      expect(bin.label).toMatch(/^\d+(\.\d+)?(-\d+(\.\d+)?ms|ms\+)$/);
  });
});
