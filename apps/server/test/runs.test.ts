import { chmodSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { ChartData, LiveSnapshot, TestResult } from '@aqa/plan';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCountingTarget, type CountingTarget } from './counting-target';
import {
  makeTempDir,
  registerAndLogin,
  removeDir,
  startTestServer,
  testDatabase,
  type RequestOptions,
  type TestServer,
} from './helpers';
import { closedPort } from './target-server';
import { insertUnfinishedRun } from './unfinished-run';
import { waitFor } from './wait-for';

interface StreamEvent {
  event: string;
  data: unknown;
  /** ms since the stream was opened. */
  at: number;
}

interface User {
  token: string;
  email: string;
}

let server: TestServer;
let baseUrl: string;
let target: CountingTarget;
let toolsDir: string;
let alice: User;
let bob: User;
let carol: User;

/** A JMeter that only knows its version, so "installed" does not depend on this machine. */
function fakeTool(dir: string, name: string, output: string): string {
  const file = join(dir, name);
  writeFileSync(file, `#!/bin/sh\necho "${output}"\n`);
  chmodSync(file, 0o755);
  return file;
}

beforeAll(async () => {
  toolsDir = makeTempDir();
  target = await startCountingTarget();
  server = await startTestServer({
    LOGIN_RATE_LIMIT_PER_IP: '1000',
    REGISTER_RATE_LIMIT_PER_IP: '1000',
    MAX_RUNS_PER_USER: '2',
    MAX_RUNS_PER_SERVER: '3',
    // The adapters' own runs are proven in runs-in-tools.test.ts; here every run is the built-in engine's.
    EXTERNAL_TOOLS: 'off',
    JMETER_CMD: fakeTool(toolsDir, 'jmeter', 'Version 5.6.3'),
    K6_CMD: join(toolsDir, 'no-k6-here'),
    LOCUST_CMD: join(toolsDir, 'no-locust-here'),
    BZT_CMD: join(toolsDir, 'no-bzt-here'),
  });
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
  const users = await Promise.all([
    registerAndLogin(server),
    registerAndLogin(server),
    registerAndLogin(server),
  ]);
  [alice, bob, carol] = users.map((u) => ({ token: u.token, email: u.registration.email })) as [
    User,
    User,
    User,
  ];
});

afterAll(async () => {
  await server.close();
  await target.close();
  removeDir(server.dataDir);
  removeDir(toolsDir);
});

function planBody(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Shop API',
    tool: 'k6',
    concurrent_users: 4,
    duration: 1,
    urls: [
      { method: 'GET', url: `${target.origin}/items`, thinkTime: '10ms', name: 'List items' },
      { method: 'POST', url: `${target.origin}/orders`, payload: '{"item":1}', thinkTime: '10ms' },
    ],
    ...overrides,
  };
}

async function savePlan(user: User, overrides: Record<string, unknown> = {}): Promise<string> {
  const response = await server.request({
    method: 'POST',
    url: '/api/save-test-plan',
    token: user.token,
    body: planBody(overrides),
  });
  if (response.statusCode !== 201) throw new Error(`save failed: ${response.body}`);
  return response.json<{ id: string }>().id;
}

function call(user: User | undefined, options: Omit<RequestOptions, 'token'>) {
  return server.request({ ...options, ...(user === undefined ? {} : { token: user.token }) });
}

async function startRun(user: User, body: Record<string, unknown>): Promise<string> {
  const response = await call(user, { method: 'POST', url: '/api/run-test', body });
  if (response.statusCode !== 201)
    throw new Error(`run-test failed: ${response.statusCode} ${response.body}`);
  return response.json<{ test_id: string }>().test_id;
}

async function result(user: User, id: string): Promise<TestResult> {
  const response = await call(user, { method: 'GET', url: `/api/get-test-result/${id}` });
  expect(response.statusCode).toBe(200);
  return response.json<TestResult>();
}

/** Waits for the run's first second, so a stop has something to keep. */
function firstSecond(user: User, id: string): Promise<TestResult> {
  // A run's workers start in a few seconds; on a machine busy with the rest of the suite, in more.
  return waitFor(
    'the first snapshot',
    async () => {
      const r = await result(user, id);
      return r.summary !== null ? r : undefined;
    },
    30_000,
  );
}

/** Reads a live stream over real HTTP, as the web app does (fetch with the Authorization header). */
async function readStream(user: User, id: string): Promise<StreamEvent[]> {
  const opened = Date.now();
  const response = await fetch(`${baseUrl}/api/test-stream/${id}`, {
    headers: { authorization: `Bearer ${user.token}` },
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const events: StreamEvent[] = [];
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let cut: number;
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (event !== undefined && data !== undefined) {
        events.push({ event, data: JSON.parse(data), at: Date.now() - opened });
      }
    }
  }
  return events;
}

describe('a run, live and stored', () => {
  let planId: string;
  let runId: string;
  let final: TestResult;

  it('streams a snapshot each second while the API stays responsive, and stores totals equal to what the target counted', async () => {
    await target.reset();
    planId = await savePlan(alice);
    const started = await call(alice, {
      method: 'POST',
      url: '/api/run-test',
      body: { plan_id: planId, user_email: alice.email, concurrent_users: 20, duration_seconds: 3 },
    });
    expect(started.statusCode).toBe(201);
    const answer = started.json<{ test_id: string; status: string; engine: string; engine_note: string }>();
    expect(answer).toEqual({
      test_id: expect.stringMatching(/^run_[\w-]+$/) as string,
      status: 'running',
      engine: 'builtin',
      engine_note: 'ran with the built-in engine: Grafana k6 is not installed on this server',
    });
    runId = answer.test_id;

    const streamed = readStream(alice, runId);
    // The health check, over real HTTP while the load runs, until the stream has ended.
    const health: { at: number; status: number; ms: number }[] = [];
    const t0 = Date.now();
    let streaming = true;
    const probing = (async () => {
      while (streaming) {
        const sent = Date.now();
        const response = await fetch(`${baseUrl}/api/health`);
        health.push({ at: sent - t0, status: response.status, ms: Date.now() - sent });
        await new Promise((r) => setTimeout(r, 150));
      }
    })();
    const live = await firstSecond(alice, runId);
    const events = await streamed;
    streaming = false;
    await probing;

    expect(live).toMatchObject({
      status: 'running',
      intermediate: true,
      duration_seconds: 3,
      concurrent_users: 20,
    });
    expect(live.summary!.total_requests).toBeGreaterThan(0);
    expect(live.api_results).toHaveLength(2);

    const names = events.map((e) => e.event);
    expect(names[0]).toBe('status');
    expect(names.at(-1)).toBe('end');
    const snapshots = events.filter((e) => e.event === 'snapshot').map((e) => e.data as LiveSnapshot);
    expect(snapshots.map((s) => s.second)).toEqual(snapshots.map((_, i) => i + 1));
    expect(snapshots.length).toBeGreaterThanOrEqual(3);
    expect(snapshots.length).toBeLessThanOrEqual(4);
    expect(snapshots[0]!.active_users).toBe(20);
    expect(snapshots[0]!.steps.map((s) => s.name)).toEqual(['List items', `POST ${target.origin}/orders`]);
    // Delivered as measured, not all at the end: the first second arrived well before the end event.
    const firstAt = events.find((e) => e.event === 'snapshot')!.at;
    expect(events.at(-1)!.at - firstAt).toBeGreaterThan(1500);

    // The API answered throughout the run (the engine runs in worker threads).
    const endAt = events.at(-1)!.at;
    const duringRun = health.filter((h) => h.at + h.ms < endAt);
    expect(duringRun.length).toBeGreaterThanOrEqual(5);
    expect(duringRun.every((h) => h.status === 200)).toBe(true);

    final = events.at(-1)!.data as TestResult;
    const counted = await target.counts();
    expect(final).toMatchObject({
      test_id: runId,
      plan_id: planId,
      plan_name: 'Shop API',
      status: 'completed',
      progress: 100,
      intermediate: false,
      engine: 'builtin',
      tool: 'k6',
      error: null,
    });
    expect(final.ended_at).not.toBeNull();
    expect(final.summary!.total_requests).toBe(counted.total);
    expect(final.summary!.total_requests).toBe(snapshots.at(-1)!.totals.requests);
    expect(final.summary).toMatchObject({ failed_requests: 0, error_rate: 0, concurrent_users: 20 });
    expect(final.api_results.map((r) => [r.name, r.method, r.total_requests])).toEqual([
      ['List items', 'GET', counted.byPath['/items']],
      [`POST ${target.origin}/orders`, 'POST', counted.byPath['/orders']],
    ]);
    expect(await result(alice, runId)).toEqual(final);
  });

  it('keeps the per-second series and the latency distribution of the run', async () => {
    const response = await call(alice, { method: 'GET', url: `/api/chart-data/${runId}` });
    expect(response.statusCode).toBe(200);
    const chart = response.json<ChartData>();
    const total = final.summary!.total_requests;
    expect(chart.series.length).toBeGreaterThanOrEqual(3);
    expect(chart.series.length).toBeLessThanOrEqual(4);
    expect(chart.series.map((p) => p.second)).toEqual(chart.series.map((_, i) => i + 1));
    expect(chart.series.reduce((sum, p) => sum + p.requests, 0)).toBe(total);
    expect(chart.api_series.map((s) => [s.index, s.name, s.points.length])).toEqual([
      [0, 'List items', chart.series.length],
      [1, `POST ${target.origin}/orders`, chart.series.length],
    ]);
    expect(chart.distribution.map((b) => b.label)).toEqual([
      '0-100ms',
      '100-200ms',
      '200-300ms',
      '300-400ms',
      '400-500ms',
      '500ms+',
    ]);
    expect(chart.distribution.reduce((sum, b) => sum + b.count, 0)).toBe(total);
  });

  it('a stream of a finished run sends its status and its end at once', async () => {
    const response = await call(alice, { method: 'GET', url: `/api/test-stream/${runId}` });
    expect(response.statusCode).toBe(200);
    const events = [...response.body.matchAll(/^event: (\w+)\ndata: (.*)$/gm)].map((m) => m[1]);
    expect(events).toEqual(['status', 'end']);
    expect(response.body).toContain('"status":"completed"');
  });
  it('keeps the run when its plan is deleted', async () => {
    const deleted = await call(alice, { method: 'DELETE', url: `/api/delete-test-plan/${planId}` });
    expect(deleted.statusCode).toBe(200);
    const kept = await result(alice, runId);
    expect(kept).toMatchObject({ plan_id: null, plan_name: 'Shop API', status: 'completed' });
    expect(kept.summary).toEqual(final.summary);
  });

  it('documents the run calls in the OpenAPI document', async () => {
    const doc = (await call(undefined, { method: 'GET', url: '/api/docs/json' })).json<{
      paths: Record<string, unknown>;
    }>();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/run-test',
        '/api/get-test-result/{id}',
        '/api/test-stream/{id}',
        '/api/stop-test/{id}',
        '/api/force-stop-all-tests',
        '/api/chart-data/{id}',
        '/api/engines',
      ]),
    );
  });
});

describe('stopping runs', () => {
  it('stop-test ends a run within 2 s and stores what it measured as stopped', async () => {
    const planId = await savePlan(alice, { concurrent_users: 2 });
    const id = await startRun(alice, { plan_id: planId, duration_seconds: 30 });
    await firstSecond(alice, id);
    // Chart data is there while the run goes, as its seconds are stored.
    await waitFor('the first stored second', async () => {
      const chart = (await call(alice, { method: 'GET', url: `/api/chart-data/${id}` })).json<ChartData>();
      return chart.series.length > 0 && chart.distribution.some((b) => b.count > 0) ? chart : undefined;
    });
    const asked = Date.now();
    const stopped = await call(alice, { method: 'POST', url: `/api/stop-test/${id}` });
    expect(Date.now() - asked).toBeLessThan(2500);
    expect(stopped.statusCode).toBe(200);
    expect(stopped.json()).toEqual({ test_id: id, status: 'stopped' });

    const stored = await result(alice, id);
    expect(stored).toMatchObject({ status: 'stopped', intermediate: false, error: null });
    expect(stored.progress).toBeLessThan(50);
    expect(stored.summary!.total_requests).toBeGreaterThan(0);
    const chart = (await call(alice, { method: 'GET', url: `/api/chart-data/${id}` })).json<ChartData>();
    expect(chart.series.length).toBeGreaterThanOrEqual(1);
    // Stopping again leaves the stored run as it is.
    expect((await call(alice, { method: 'POST', url: `/api/stop-test/${id}` })).json()).toEqual({
      test_id: id,
      status: 'stopped',
    });
  });

  it("force-stop-all-tests stops the signed-in user's runs and no one else's", async () => {
    const alicePlan = await savePlan(alice, { concurrent_users: 1 });
    const bobPlan = await savePlan(bob, { concurrent_users: 1 });
    const aliceRun = await startRun(alice, { plan_id: alicePlan, duration_seconds: 30 });
    const bobRun = await startRun(bob, { plan_id: bobPlan, duration_seconds: 30 });

    const forced = await call(alice, { method: 'POST', url: '/api/force-stop-all-tests' });
    expect(forced.statusCode).toBe(200);
    expect(forced.json()).toEqual({ stopped: [aliceRun] });
    expect((await result(alice, aliceRun)).status).toBe('stopped');
    expect((await result(bob, bobRun)).status).toBe('running');

    expect((await call(bob, { method: 'POST', url: '/api/force-stop-all-tests' })).json()).toEqual({
      stopped: [bobRun],
    });
    expect((await result(bob, bobRun)).status).toBe('stopped');
  });

  it('refuses a run over the per-user or the per-server limit, saying so', async () => {
    const alicePlan = await savePlan(alice, { concurrent_users: 1 });
    const bobPlan = await savePlan(bob, { concurrent_users: 1 });
    const carolPlan = await savePlan(carol, { concurrent_users: 1 });
    await startRun(alice, { plan_id: alicePlan, duration_seconds: 30 });
    await startRun(alice, { plan_id: alicePlan, duration_seconds: 30 });
    const third = await call(alice, { method: 'POST', url: '/api/run-test', body: { plan_id: alicePlan } });
    expect(third.statusCode).toBe(429);
    expect(third.json()).toMatchObject({
      detail: 'You already have 2 tests running. Stop one or wait for it to finish.',
      code: 'RUN_LIMIT_USER',
    });
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);

    await startRun(bob, { plan_id: bobPlan, duration_seconds: 30 });
    const serverFull = await call(carol, {
      method: 'POST',
      url: '/api/run-test',
      body: { plan_id: carolPlan },
    });
    expect(serverFull.statusCode).toBe(429);
    expect(serverFull.json<{ detail: string }>().detail).toBe(
      'This server is already running 3 tests, as many as it allows at once. Try again when one finishes.',
    );

    expect((await call(alice, { method: 'POST', url: '/api/force-stop-all-tests' })).json()).toMatchObject({
      stopped: [expect.any(String), expect.any(String)],
    });
    await call(bob, { method: 'POST', url: '/api/force-stop-all-tests' });
    const id = await startRun(carol, { plan_id: carolPlan, duration_seconds: 30 });
    await call(carol, { method: 'POST', url: `/api/stop-test/${id}` });
  });
  it('lets the demo account run one test at a time, its password being public (docs/adr/0018-safe-defaults-and-lockout.md)', async () => {
    const demoServer = await startTestServer({ DEMO_ACCOUNT: 'on', EXTERNAL_TOOLS: 'off' });
    try {
      const login = await demoServer.request({
        method: 'POST',
        url: '/api/login',
        body: { username: 'demo@anybodyqa.dev', password: 'demo1234' },
      });
      expect(login.statusCode).toBe(200);
      const { token } = login.json<{ token: string }>();
      const saved = await demoServer.request({
        method: 'POST',
        url: '/api/save-test-plan',
        token,
        body: planBody({ concurrent_users: 1 }),
      });
      const plan_id = saved.json<{ id: string }>().id;
      const run = () =>
        demoServer.request({
          method: 'POST',
          url: '/api/run-test',
          token,
          body: { plan_id, duration_seconds: 30 },
        });
      const first = await run();
      expect(first.statusCode).toBe(201);
      const second = await run();
      expect(second.statusCode).toBe(429);
      expect(second.json()).toMatchObject({
        detail: 'You already have 1 test running. Stop one or wait for it to finish.',
        code: 'RUN_LIMIT_USER',
      });
      await demoServer.request({ method: 'POST', url: '/api/force-stop-all-tests', token });
    } finally {
      await demoServer.close();
      removeDir(demoServer.dataDir);
    }
  });
});

describe('starting a run', () => {
  it('requires a plan id, with the spec message', async () => {
    for (const body of [{}, { plan_id: '' }, { plan_id: null }, undefined]) {
      const response = await call(alice, { method: 'POST', url: '/api/run-test', ...(body ? { body } : {}) });
      expect(response.statusCode).toBe(400);
      expect(response.json<{ detail: string }>().detail).toBe(
        'plan_id is required. Please save the test plan first before running the test.',
      );
    }
  });

  it("answers 404 for a plan that is not the user's", async () => {
    const planId = await savePlan(bob);
    const response = await call(alice, { method: 'POST', url: '/api/run-test', body: { plan_id: planId } });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ detail: 'Test plan not found' });
  });

  it('refuses a plan whose target cannot be reached, naming host and port', async () => {
    const port = await closedPort();
    const planId = await savePlan(alice, { urls: [{ url: `http://127.0.0.1:${port}/nothing` }] });
    const response = await call(alice, { method: 'POST', url: '/api/run-test', body: { plan_id: planId } });
    expect(response.statusCode).toBe(400);
    const body = response.json<{ detail: string; code: string; errors: { field: string }[] }>();
    expect(body.code).toBe('TARGET_UNREACHABLE');
    expect(body.detail).toBe(
      `Cannot reach 127.0.0.1:${port}: the connection was refused (nothing listens on that port)`,
    );
    expect(body.errors[0]!.field).toBe('urls.0.url');
  });

  it('refuses a plan that cannot run, listing every problem', async () => {
    const planId = await savePlan(alice, {
      urls: [
        {
          url: `${target.origin}/items`,
          assertionType: 'text',
          assertionOperator: 'regex',
          assertionValue: 'x',
        },
        { url: `${target.origin}/items`, extractType: 'regex', extractName: 'v', extractValue: 'x' },
      ],
    });
    // Saving refuses such patterns now; a plan stored before patterns ran on RE2 may still hold them
    // (docs/adr/0022-linear-time-patterns.md): written straight to its row, it opens, and cannot run.
    const db = testDatabase(server);
    const row = await db
      .selectFrom('plans')
      .select('body')
      .where('id', '=', planId)
      .executeTakeFirstOrThrow();
    const body = JSON.parse(row.body) as { urls: Record<string, unknown>[] };
    body.urls[0]!.assertionValue = '(';
    body.urls[1]!.extractValue = '(?<=a)b';
    await db
      .updateTable('plans')
      .set({ body: JSON.stringify(body) })
      .where('id', '=', planId)
      .execute();
    await db.destroy();
    expect((await call(alice, { method: 'GET', url: `/api/get-test-plan/${planId}` })).statusCode).toBe(200);
    const response = await call(alice, { method: 'POST', url: '/api/run-test', body: { plan_id: planId } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'PLAN_CANNOT_RUN',
      detail: expect.stringMatching(/^urls\[0\] assertion: invalid regular expression/) as string,
    });
    expect(response.json<{ detail: string }>().detail).toContain(
      'urls[1] extraction: lookbehind (?<=…) is not supported — patterns run on a linear-time engine (RE2 syntax)',
    );
    const badUsers = await call(alice, {
      method: 'POST',
      url: '/api/run-test',
      body: { plan_id: planId, concurrent_users: 0 },
    });
    expect(badUsers.statusCode).toBe(400);
    expect(badUsers.json<{ detail: string }>().detail).toMatch(/^concurrent_users: Concurrent users must be/);
  });

  it('refuses bad numbers and control characters with 400 naming the field, and starts nothing (docs/design.md §11)', async () => {
    await target.reset();
    const planId = await savePlan(alice);
    const cases: [Record<string, unknown>, string][] = [];
    for (const value of [0, -1, 'abc', null, '1e3', '0x10', ' 10 ', 1.5, 'Infinity', 1e300]) {
      cases.push([{ duration: value }, 'duration'], [{ concurrent_users: value }, 'concurrent_users']);
      if (value !== null) cases.push([{ duration_seconds: value }, 'duration_seconds']);
    }
    cases.push([{ planName: 'Run\u0000name' }, 'planName'], [{ planName: 'Run\u2028name' }, 'planName']);
    for (const [fields, field] of cases) {
      const response = await call(alice, {
        method: 'POST',
        url: '/api/run-test',
        body: { plan_id: planId, duration_seconds: 2, ...fields },
      });
      const label = JSON.stringify(fields);
      expect(response.statusCode, label).toBe(400);
      const answer = response.json<{ detail: string; errors: { field: string }[] }>();
      expect(
        answer.errors.map((e) => e.field),
        label,
      ).toEqual([field]);
      expect(answer.detail, label).toMatch(/whole number|control characters/);
    }
    const runs = await call(alice, { method: 'GET', url: `/api/get-test-results?plan_id=${planId}` });
    expect(runs.json()).toEqual([]);
    for (const query of ['limit=1e3', 'limit=0x10', 'limit=%2010%20', 'offset=-1', 'limit=1.5']) {
      const page = await call(alice, { method: 'GET', url: `/api/get-test-results?${query}` });
      expect(page.statusCode, query).toBe(400);
    }
    expect((await target.counts()).byPath).toEqual({});
  });

  it("runs the request's fields in place of the saved ones, cleaned as the spec's client sends them", async () => {
    await target.reset();
    const planId = await savePlan(alice);
    const response = await call(alice, {
      method: 'POST',
      url: '/api/run-test',
      body: {
        planId,
        planName: 'Checkout only',
        tool: 'jmeter',
        concurrent_users: '1',
        duration: '1',
        urls: [
          {
            method: 'GET',
            url: `${target.origin}/checkout`,
            thinkTime: '50ms',
            transactionRate: alice.email,
            parameters: [
              { name: '', value: 'dropped' },
              { name: 'q', value: '1' },
            ],
            headers: [
              { name: 'X-Blank', value: '' },
              { name: 'X-Kept', value: 'yes' },
            ],
          },
        ],
      },
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      engine: 'builtin',
      engine_note:
        'ran with the built-in engine: Apache JMeter is installed, but running plans in external tools is turned off on this server (EXTERNAL_TOOLS=off)',
    });
    const id = response.json<{ test_id: string }>().test_id;
    const live = await firstSecond(alice, id);
    expect(live).toMatchObject({
      plan_id: planId,
      plan_name: 'Checkout only',
      tool: 'jmeter',
      concurrent_users: 1,
      duration_seconds: 60,
    });
    await call(alice, { method: 'POST', url: `/api/stop-test/${id}` });
    const counted = await target.counts();
    expect(Object.keys(counted.byPath)).toEqual(['/checkout']);
    const sent = counted.samples['/checkout']![0]!;
    expect(sent.url).toBe('/checkout?q=1');
    expect(sent.headers['x-kept']).toBe('yes');
    expect(sent.headers['x-blank']).toBeUndefined();
    // The saved plan is unchanged.
    const saved = await call(alice, { method: 'GET', url: `/api/get-test-plan/${planId}` });
    expect(saved.json()).toMatchObject({ name: 'Shop API', tool: 'k6', concurrent_users: 4 });
  });
});

describe('whose runs', () => {
  let runId: string;

  beforeAll(async () => {
    const planId = await savePlan(alice, { concurrent_users: 1 });
    runId = await startRun(alice, { plan_id: planId, duration_seconds: 1 });
    await waitFor('the run to end', async () =>
      (await result(alice, runId)).intermediate ? undefined : true,
    );
  });

  it("another user's run is not found, by any call", async () => {
    for (const [method, url] of [
      ['GET', `/api/get-test-result/${runId}`],
      ['GET', `/api/test-stream/${runId}`],
      ['GET', `/api/chart-data/${runId}`],
      ['POST', `/api/stop-test/${runId}`],
      ['GET', '/api/get-test-result/run_unknown'],
    ] as const) {
      const response = await call(bob, { method, url });
      expect(response.statusCode, url).toBe(404);
      expect(response.json(), url).toMatchObject({ detail: 'Test result not found' });
    }
  });

  it('a user_email naming someone else is refused, and no token is 401', async () => {
    const other = encodeURIComponent(bob.email);
    const forbidden = await call(alice, {
      method: 'GET',
      url: `/api/get-test-result/${runId}?user_email=${other}`,
    });
    expect(forbidden.statusCode).toBe(403);
    const mine = await call(alice, {
      method: 'GET',
      url: `/api/get-test-result/${runId}?user_email=${encodeURIComponent(alice.email)}&plan_id=x`,
    });
    expect(mine.statusCode).toBe(200);
    for (const [method, url] of [
      ['POST', '/api/run-test'],
      ['GET', `/api/get-test-result/${runId}`],
      ['GET', `/api/test-stream/${runId}`],
      ['POST', `/api/stop-test/${runId}`],
      ['POST', '/api/force-stop-all-tests'],
      ['GET', `/api/chart-data/${runId}`],
      ['GET', '/api/engines'],
    ] as const) {
      expect((await call(undefined, { method, url })).statusCode, url).toBe(401);
    }
  });
});

describe('the run list', () => {
  it("lists the user's own runs newest first, by plan and by page, with their summaries", async () => {
    const planId = await savePlan(alice, { name: 'Listed plan', concurrent_users: 1 });
    const runId = await startRun(alice, { plan_id: planId, duration_seconds: 1 });
    await waitFor('the run to end', async () =>
      (await result(alice, runId)).intermediate ? undefined : true,
    );

    const all = await call(alice, { method: 'GET', url: '/api/get-test-results' });
    expect(all.statusCode).toBe(200);
    const runs = all.json<{ test_id: string; status: string; start_time: string }[]>();
    expect(runs.length).toBeGreaterThan(1);
    expect(Number(all.headers['x-total-count'])).toBe(runs.length);
    const times = runs.map((run) => run.start_time);
    expect(times).toEqual([...times].sort().reverse());

    const ofPlan = await call(alice, { method: 'GET', url: `/api/get-test-results?plan_id=${planId}` });
    const [only, ...rest] = ofPlan.json<
      {
        test_id: string;
        plan_name: string;
        test_name: string;
        status: string;
        duration: number;
        results_summary: { total_requests: number; api_results: unknown[] } | null;
      }[]
    >();
    expect(rest).toEqual([]);
    expect(only).toMatchObject({ test_id: runId, plan_name: 'Listed plan', test_name: 'Listed plan' });
    expect(only!.results_summary!.total_requests).toBe((await result(alice, runId)).summary!.total_requests);
    expect(only!.results_summary!.api_results.length).toBeGreaterThan(0);

    const page = await call(alice, { method: 'GET', url: '/api/get-test-results?limit=1&offset=1' });
    expect(page.json<unknown[]>()).toHaveLength(1);
    expect(page.json<{ test_id: string }[]>()[0]!.test_id).toBe(runs[1]!.test_id);

    const bobs = await call(bob, { method: 'GET', url: '/api/get-test-results' });
    expect(bobs.json<{ test_id: string }[]>().map((run) => run.test_id)).not.toContain(runId);
    const forbidden = await call(alice, {
      method: 'GET',
      url: `/api/get-test-results?user_email=${encodeURIComponent(bob.email)}`,
    });
    expect(forbidden.statusCode).toBe(403);
    expect((await call(undefined, { method: 'GET', url: '/api/get-test-results' })).statusCode).toBe(401);
    expect((await call(alice, { method: 'GET', url: '/api/get-test-results?limit=0' })).statusCode).toBe(400);
  });
});

describe('engines', () => {
  it('lists the built-in engine and the external tools, installed or not, and which may run plans', async () => {
    const response = await call(alice, { method: 'GET', url: '/api/engines' });
    expect(response.statusCode).toBe(200);
    const absent = (tool: string, name: string) => ({
      tool,
      name,
      installed: false,
      version: null,
      command: null,
      usable: false,
      reason: `${name} is not installed on this server`,
    });
    expect(response.json()).toEqual([
      {
        tool: 'builtin',
        name: 'Built-in engine',
        installed: true,
        version: '0.1.0',
        command: null,
        usable: true,
        reason: null,
      },
      {
        tool: 'jmeter',
        name: 'Apache JMeter',
        installed: true,
        version: '5.6.3',
        command: join(toolsDir, 'jmeter'),
        // EXTERNAL_TOOLS=off: found, never checked, not used.
        usable: false,
        reason:
          'Apache JMeter is installed, but running plans in external tools is turned off on this server (EXTERNAL_TOOLS=off)',
      },
      absent('k6', 'Grafana k6'),
      absent('locust', 'Locust'),
      absent('taurus', 'Taurus'),
    ]);
  });
});

describe('server restarts', () => {
  it('a closing server stops and stores its runs; one left running is marked interrupted on the next start', async () => {
    const dataDir = makeTempDir();
    const env = { K6_CMD: join(toolsDir, 'no-k6-here') };
    try {
      const first = await startTestServer(env, dataDir);
      const { token } = await registerAndLogin(first);
      const saved = await first.request({
        method: 'POST',
        url: '/api/save-test-plan',
        token,
        body: planBody(),
      });
      const planId = saved.json<{ id: string }>().id;
      const started = await first.request({
        method: 'POST',
        url: '/api/run-test',
        token,
        body: { plan_id: planId, duration_seconds: 30 },
      });
      const liveId = started.json<{ test_id: string }>().test_id;
      await waitFor('the first snapshot', async () => {
        const r = await first.request({ method: 'GET', url: `/api/get-test-result/${liveId}`, token });
        return r.json<TestResult>().summary === null ? undefined : true;
      });
      await first.close();

      // A run the last process never finished (it crashed, or was killed).
      await insertUnfinishedRun(first.database, { id: 'run_crashed', planId, planName: 'Shop API' });

      const second = await startTestServer(env, dataDir);
      try {
        const read = async (id: string) =>
          (
            await second.request({ method: 'GET', url: `/api/get-test-result/${id}`, token })
          ).json<TestResult>();
        expect(await read('run_crashed')).toMatchObject({
          status: 'interrupted',
          error: 'interrupted by a server restart',
          intermediate: false,
        });
        const stopped = await read(liveId);
        expect(stopped).toMatchObject({ status: 'stopped', error: 'stopped because the server shut down' });
        expect(stopped.summary!.total_requests).toBeGreaterThan(0);
      } finally {
        await second.close();
      }
    } finally {
      removeDir(dataDir);
    }
  });
});
