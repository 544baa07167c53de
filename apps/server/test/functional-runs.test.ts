import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCountingTarget, type CountingTarget } from './counting-target';
import {
  closeTestServer,
  makeTempDir,
  registerAndLogin,
  removeDir,
  startServerWithTwoUsers,
  startTestServer,
  type SignedInUser,
  type TestServer,
} from './helpers';
import { withTestSql } from './test-database';
import { waitFor } from './wait-for';

/*
 * Functional runs through the calls of docs/reference/02-running.md §7: the engine's runner against a
 * real local target that counts what it receives, stored in a real SQLite file.
 */

let server: TestServer;
let target: CountingTarget;
let alice: SignedInUser;
let bob: SignedInUser;

interface Result {
  test_id: string;
  plan_id: string | null;
  status: string;
  error?: string | null;
  summary: {
    total_requests: number;
    successful_requests: number;
    failed_requests: number;
    validation_failures: number;
  };
  validation_results: { api_name: string; success: boolean; iteration?: number; user?: number }[];
  validation_results_total?: number;
  api_results: { name: string }[];
}

beforeAll(async () => {
  target = await startCountingTarget();
  ({ server, alice, bob } = await startServerWithTwoUsers());
});

afterAll(async () => {
  await closeTestServer(server);
  await target?.close();
});

function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, body?: unknown) {
  return server.request({ method, url, token, ...(body === undefined ? {} : { body }) });
}

function plan(path: string, overrides: Record<string, unknown> = {}) {
  return {
    test_name: `Run ${path}`,
    concurrent_users: 2,
    iterations: 3,
    think_time: 0,
    apis: [
      {
        name: 'List',
        url: `${target.origin}/${path}/list`,
        validations: [{ type: 'json_path', expected_value: '$.ok == true' }],
      },
      { name: 'Read', url: `${target.origin}/${path}/read` },
    ],
    ...overrides,
  };
}

async function start(token: string, body: unknown): Promise<string> {
  const response = await call('POST', '/api/functional/run-test', token, body);
  if (response.statusCode !== 201) throw new Error(`run-test: ${response.statusCode} ${response.body}`);
  const { test_id } = response.json<{ test_id: string }>();
  expect(test_id).toMatch(/^fc_/);
  return test_id;
}

/** The run's result once `done` says so. */
async function until(id: string, done: (r: Result) => boolean, token = alice.token): Promise<Result> {
  let last: Result | undefined;
  return waitFor(
    () => `run ${id}: ${JSON.stringify(last).slice(0, 300)}`,
    async () => {
      last = (await call('GET', `/api/functional/get-test-result/${id}`, token)).json<Result>();
      return done(last) ? last : undefined;
    },
    30_000,
    50,
  );
}

async function countedUnder(prefix: string): Promise<number> {
  const { byPath } = await target.counts();
  return Object.entries(byPath)
    .filter(([path]) => path.startsWith(prefix))
    .reduce((sum, [, n]) => sum + n, 0);
}

describe('functional runs', () => {
  it('runs 2 users × 3 iterations × 2 APIs, counts what the target received, and lists, reports and deletes it', async () => {
    const saved = await call('POST', '/api/functional/save-config', alice.token, plan('counted'));
    const planId = saved.json<{ id: string }>().id;
    const id = await start(alice.token, { ...plan('counted'), plan_id: planId, user_email: alice.email });
    const result = await until(id, (r) => r.status !== 'running');

    expect(result.status).toBe('completed');
    expect(result.plan_id).toBe(planId);
    expect(result.summary).toEqual({
      total_requests: 12,
      successful_requests: 12,
      failed_requests: 0,
      validation_failures: 0,
    });
    expect(await countedUnder('/counted/')).toBe(12);
    expect(result.validation_results).toHaveLength(12);
    expect(result.validation_results_total).toBe(12);
    expect(result.api_results.map((api) => api.name)).toEqual(['List', 'Read']);

    const status = await call(
      'GET',
      `/api/functional/get-test-status/${id}?user_email=${alice.email}`,
      alice.token,
    );
    expect(status.json()).toEqual({ test_id: id, status: 'completed' });
    // The run's status became its plan's.
    const savedPlan = await call('GET', `/api/functional/get-test-plan/${planId}`, alice.token);
    expect(savedPlan.json<{ status: string }>().status).toBe('completed');
    // Stopping a finished run answers its status.
    const stopped = await call('POST', `/api/functional/stop-test/${id}`, alice.token);
    expect(stopped.statusCode).toBe(200);
    expect(stopped.json()).toEqual({ test_id: id, status: 'completed' });

    const list = (await call('GET', '/api/functional/functional-test-results', alice.token)).json<Result[]>();
    const listed = list.find((r) => r.test_id === id)!;
    expect(listed.validation_results).toEqual(result.validation_results.slice(0, 3));
    expect(listed.validation_results_total).toBe(12);
    expect(listed.summary).toEqual(result.summary);

    for (const [format, type, extension] of [
      ['junit', 'application/xml', 'xml'],
      ['json', 'application/json', 'json'],
      ['html', 'text/html', 'html'],
    ] as const) {
      const report = await call('GET', `/api/functional/test-report/${id}?format=${format}`, alice.token);
      expect(report.statusCode, format).toBe(200);
      expect(report.headers['content-type']).toContain(type);
      expect(report.headers['content-disposition']).toBe(
        `attachment; filename="functional_report_${id}.${extension}"`,
      );
      expect(report.body).toContain(format === 'json' ? `"test_id": "${id}"` : 'List');
    }
    expect((await call('GET', `/api/functional/test-report/${id}?format=pdf`, alice.token)).statusCode).toBe(
      400,
    );

    // Another user's run is not found, on every call.
    for (const [method, path] of [
      ['GET', `get-test-result/${id}`],
      ['GET', `get-test-status/${id}`],
      ['POST', `stop-test/${id}`],
      ['DELETE', `delete-result/${id}`],
      ['GET', `test-report/${id}`],
    ] as const) {
      const response = await call(method, `/api/functional/${path}`, bob.token);
      expect(response.statusCode, path).toBe(404);
      expect(response.json()).toMatchObject({ code: 'RESULT_NOT_FOUND', detail: 'Test result not found' });
    }
    const bobs = (await call('GET', '/api/functional/functional-test-results', bob.token)).json<Result[]>();
    expect(bobs.map((r) => r.test_id)).not.toContain(id);

    const deleted = await call('DELETE', `/api/functional/delete-result/${id}`, alice.token);
    expect(deleted.statusCode).toBe(200);
    expect((await call('GET', `/api/functional/get-test-result/${id}`, alice.token)).statusCode).toBe(404);
  });

  it('stops a slow run within a second, keeps what it measured, and refuses to delete it while it runs', async () => {
    // Each user makes one call, then thinks for a minute: the run would last far longer than the test.
    const id = await start(alice.token, plan('slow', { iterations: 1000, think_time: 60 }));
    const live = await until(id, (r) => r.summary.total_requests >= 2);
    expect(live.status).toBe('running');
    expect(live.validation_results.length).toBe(live.summary.total_requests);
    const listed = (await call('GET', '/api/functional/functional-test-results', alice.token))
      .json<Result[]>()
      .find((r) => r.test_id === id);
    expect(listed?.status).toBe('running');

    const refused = await call('DELETE', `/api/functional/delete-result/${id}`, alice.token);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'RUN_IN_PROGRESS' });

    const began = Date.now();
    const stop = await call('POST', `/api/functional/stop-test/${id}?user_email=${alice.email}`, alice.token);
    expect(Date.now() - began).toBeLessThan(1000);
    expect(stop.json()).toEqual({ test_id: id, status: 'stopped' });
    const stopped = (await call('GET', `/api/functional/get-test-result/${id}`, alice.token)).json<Result>();
    expect(stopped.status).toBe('stopped');
    expect(stopped.summary.total_requests).toBe(await countedUnder('/slow/'));
    expect(stopped.summary.total_requests).toBeGreaterThanOrEqual(2);
    expect((await call('DELETE', `/api/functional/delete-result/${id}`, alice.token)).statusCode).toBe(200);
  });

  it("refuses a bad plan with the model's message, another user's plan_id, a foreign user_email and a refused target", async () => {
    const bad = await call('POST', '/api/functional/run-test', alice.token, { test_name: 'x', apis: [] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ detail: string }>().detail).toBe('apis: At least one API must be configured');

    const bobsPlan = (await call('POST', '/api/functional/save-config', bob.token, plan('bob'))).json<{
      id: string;
    }>();
    const foreignPlan = await call('POST', '/api/functional/run-test', alice.token, {
      ...plan('x'),
      plan_id: bobsPlan.id,
    });
    expect(foreignPlan.statusCode).toBe(404);
    expect(foreignPlan.json()).toMatchObject({ code: 'PLAN_NOT_FOUND' });

    const foreignEmail = await call('POST', '/api/functional/run-test', alice.token, {
      ...plan('x'),
      user_email: bob.email,
    });
    expect(foreignEmail.statusCode).toBe(403);
    for (const path of ['functional-test-results', 'get-test-result/fc_x', 'get-test-status/fc_x']) {
      const response = await call('GET', `/api/functional/${path}?user_email=${bob.email}`, alice.token);
      expect(response.statusCode, path).toBe(403);
    }
    for (const [method, path] of [
      ['GET', 'get-test-result/fc_unknown'],
      ['GET', 'get-test-status/fc_unknown'],
      ['POST', 'stop-test/fc_unknown'],
      ['DELETE', 'delete-result/fc_unknown'],
    ] as const) {
      expect((await call(method, `/api/functional/${path}`, alice.token)).statusCode, path).toBe(404);
    }

    // The cloud metadata address is never a target (docs/adr/0015-target-guard.md); nothing is stored.
    const before = (await call('GET', '/api/functional/functional-test-results', alice.token)).json<
      Result[]
    >();
    const refused = await call('POST', '/api/functional/run-test', alice.token, {
      test_name: 'Metadata',
      apis: [{ name: 'Meta', url: 'http://169.254.169.254/latest/meta-data' }],
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'TARGET_REFUSED' });
    const after = (await call('GET', '/api/functional/functional-test-results', alice.token)).json<
      Result[]
    >();
    expect(after).toHaveLength(before.length);
  });

  it('lists a run with its failing calls first, so none hides behind "+N more validations" (issue 24)', async () => {
    const failLast = {
      test_name: 'Failure last',
      concurrent_users: 1,
      iterations: 1,
      think_time: 0,
      apis: [
        { name: 'One', url: `${target.origin}/order/one` },
        { name: 'Two', url: `${target.origin}/order/two` },
        { name: 'Three', url: `${target.origin}/order/three` },
        { name: 'Four', url: `${target.origin}/fail/four` },
        { name: 'Five', url: `${target.origin}/order/five` },
      ],
    };
    const id = await start(alice.token, failLast);
    const result = await until(id, (r) => r.status !== 'running');
    expect(result.validation_results.map((c) => [c.api_name, c.success])).toEqual([
      ['One', true],
      ['Two', true],
      ['Three', true],
      ['Four', false],
      ['Five', true],
    ]);
    const list = (await call('GET', '/api/functional/functional-test-results', alice.token)).json<Result[]>();
    const listed = list.find((r) => r.test_id === id)!;
    // The failing call first, then the others in the order they ran.
    expect(listed.validation_results.map((c) => [c.api_name, c.success])).toEqual([
      ['Four', false],
      ['One', true],
      ['Two', true],
    ]);
    expect(listed.validation_results_total).toBe(5);
  });
});

describe('functional runs across a restart', () => {
  it('marks a run a dead server left running as interrupted, saying why, and so its plan; lists runs newest first, at most limit', async () => {
    const dataDir = makeTempDir();
    const first = await startTestServer({}, dataDir);
    const { token } = await registerAndLogin(first);
    const planId = (
      await first.request({
        method: 'POST',
        url: '/api/functional/save-config',
        token,
        body: plan('restart'),
      })
    ).json<{ id: string }>().id;
    await first.close();
    // What a killed server leaves: a run row still "running", its plan "running".
    await withTestSql(first.database, async (sql) => {
      const { user_id } = (await sql.get<{ user_id: string }>(
        'select user_id from functional_plans where id = ?',
        planId,
      ))!;
      await sql.run(
        `insert into functional_runs (id, user_id, workspace_id, plan_id, test_name, status, test_type, source, config, start_time)
         values ('fc_left', ?, ?, ?, 'Left running', 'running', 'functional', 'url_input', '{}', '2030-01-01T00:00:00.000Z'),
                ('fc_earlier', ?, ?, ?, 'Ended before', 'completed', 'functional', 'url_input', '{}', '2029-01-01T00:00:00.000Z')`,
        user_id,
        user_id,
        planId,
        user_id,
        user_id,
        planId,
      );
      await sql.run("update functional_plans set status = 'running' where id = ?", planId);
      // What it had checkpointed: one row that no longer reads, one call whose step kept a screenshot;
      // and a screenshot of a step it never stored.
      const step = {
        api_name: 'Page',
        method: 'GET',
        url: 'http://127.0.0.1:9/page',
        status_code: 200,
        response_time: 5,
        success: true,
        validation_details: [],
        ui: {
          timings: null,
          vitals: { fcp: null, lcp: null, cls: null },
          console_errors: [],
          failed_requests: [],
          screenshots: [{ id: 'ss_linked', label: 'Step', failure: false }],
          actions: [],
        },
      };
      await sql.run(
        `insert into functional_run_calls (run_id, seq, calls) values ('fc_left', 1, 'not json'), ('fc_left', 2, ?)`,
        JSON.stringify([{ i: 0, at: 10, ms: 1500, call: step }]),
      );
      const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xd9]);
      await sql.run(
        `insert into functional_screenshots (id, run_id, seq, label, failure, jpeg, created_at)
         values ('ss_linked', 'fc_left', 1, 'Step', 0, ?, '2030-01-01T00:00:01.000Z'),
                ('ss_unlinked', 'fc_left', 2, 'Step', 0, ?, '2030-01-01T00:00:02.000Z'),
                ('ss_of_an_old_restart', 'fc_earlier', 1, 'Step', 0, ?, '2029-01-01T00:00:01.000Z')`,
        jpeg,
        jpeg,
        jpeg,
      );
    });

    const second = await startTestServer({}, dataDir);
    try {
      const login = await second.request({
        method: 'GET',
        url: '/api/functional/get-test-result/fc_left',
        token,
      });
      expect(login.statusCode).toBe(200);
      // Its plan no longer reads: it is counted from the checkpoint that does read, and ends at its call.
      expect(login.json()).toMatchObject({
        status: 'interrupted',
        error: 'The server stopped during the run, so it did not finish',
        summary: { total_requests: 1, successful_requests: 1 },
        validation_results: [{ api_name: 'Page', success: true }],
        end_time: '2030-01-01T00:00:01.500Z',
      });
      // The screenshot its stored step links to is kept; the others are linked to nothing and gone.
      const shots = await withTestSql(second.database, (sql) =>
        sql.all<{ id: string }>('select id from functional_screenshots order by id'),
      );
      expect(shots.map((shot) => shot.id)).toEqual(['ss_linked']);
      const left = await withTestSql(second.database, (sql) =>
        sql.get<{ n: number }>('select count(*) as n from functional_run_calls'),
      );
      expect(Number(left!.n)).toBe(0);
      const saved = await second.request({
        method: 'GET',
        url: `/api/functional/get-test-plan/${planId}`,
        token,
      });
      expect(saved.json()).toMatchObject({ status: 'interrupted' });

      // The list is newest first; limit keeps the newest that many (the home page asks for 5).
      const listed = async (query: string) => {
        const response = await second.request({
          method: 'GET',
          url: `/api/functional/functional-test-results${query}`,
          token,
        });
        return { status: response.statusCode, body: response.json<unknown>() };
      };
      const ids = async (query: string) => ((await listed(query)).body as Result[]).map((r) => r.test_id);
      expect(await ids('')).toEqual(['fc_left', 'fc_earlier']);
      expect(await ids('?limit=1')).toEqual(['fc_left']);
      expect(await ids('?limit=500')).toEqual(['fc_left', 'fc_earlier']);
      for (const bad of ['0', '501', '1.5', '1e2', 'five']) {
        expect(await listed(`?limit=${bad}`), bad).toMatchObject({
          status: 400,
          body: { detail: 'limit: Must be a whole number from 1 to 500' },
        });
      }
    } finally {
      await second.close();
      removeDir(dataDir);
    }
  });
});

describe('functional runs of the demo account', () => {
  it('bounds its users and shares the one run at a time it has with load runs', async () => {
    const demo = await startTestServer({ DEMO_ACCOUNT: 'on', EXTERNAL_TOOLS: 'off' });
    try {
      const login = await demo.request({
        method: 'POST',
        url: '/api/login',
        body: { username: 'demo@anybodyqa.dev', password: 'demo1234' },
      });
      const { token } = login.json<{ token: string }>();
      const run = (body: unknown) =>
        demo.request({ method: 'POST', url: '/api/functional/run-test', token, body });
      const many = await run(plan('demo', { concurrent_users: 51 }));
      expect(many.statusCode).toBe(400);
      expect(many.json<{ detail: string }>().detail).toBe(
        'concurrent_users: The demo account runs at most 50 concurrent users',
      );
      const first = await run(plan('demo', { iterations: 1000, think_time: 60 }));
      expect(first.statusCode).toBe(201);
      const loadPlan = await demo.request({
        method: 'POST',
        url: '/api/save-test-plan',
        token,
        body: {
          name: 'Load',
          tool: 'k6',
          concurrent_users: 1,
          duration: 1,
          urls: [{ url: `${target.origin}/demo-load` }],
        },
      });
      const load = await demo.request({
        method: 'POST',
        url: '/api/run-test',
        token,
        body: { plan_id: loadPlan.json<{ id: string }>().id, duration_seconds: 5 },
      });
      expect(load.statusCode).toBe(429);
      expect(load.json()).toMatchObject({ code: 'RUN_LIMIT_USER' });
      const second = await run(plan('demo'));
      expect(second.statusCode).toBe(429);
    } finally {
      await demo.close();
      removeDir(demo.dataDir);
    }
  });
});

describe('functional runs at shutdown', () => {
  it('stops a live run when the server closes and stores it, saying why', async () => {
    const path = `shutdown-${Date.now()}`;
    const closing = await startTestServer();
    try {
      const { token } = await registerAndLogin(closing);
      const started = await closing.request({
        method: 'POST',
        url: '/api/functional/run-test',
        token,
        // Its own path each attempt: a retry must not count the calls of the attempt before.
        body: plan(path, { iterations: 1000, think_time: 60 }),
      });
      const { test_id } = started.json<{ test_id: string }>();
      // Both users' first calls answered: each then thinks for 60 s, so no call is under way at the close
      // (a call cut off by the close reached the target but has no answer to store).
      await waitFor(
        "both users' first calls",
        async () => {
          const live = await closing.request({
            method: 'GET',
            url: `/api/functional/get-test-result/${test_id}`,
            token,
          });
          return live.json<Result>().summary.total_requests >= 2 ? true : undefined;
        },
        30_000,
        50,
      );
      const began = Date.now();
      await closing.close();
      expect(Date.now() - began).toBeLessThan(2000);
      const row = (await withTestSql(closing.database, (sql) =>
        sql.get<{ status: string; error: string; summary: string }>(
          'select status, error, summary from functional_runs where id = ?',
          test_id,
        ),
      ))!;
      expect(row.status).toBe('stopped');
      expect(row.error).toBe('Stopped because the server shut down');
      expect(JSON.parse(row.summary)).toMatchObject({ total_requests: await countedUnder(`/${path}/`) });
    } finally {
      removeDir(closing.dataDir);
    }
  });
});
