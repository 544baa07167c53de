import { existsSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { MessageList } from '@aqa/plan';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, newRegistration, removeDir, startTestServer, type TestServer } from './helpers';
import { startServerProcess, stopServerProcesses, type ServerProcess } from './server-process';
import { testDatabaseConfig, testDatabaseEnv, testStore, withTestSql, type TestSql } from './test-database';
import { waitFor } from './wait-for';

/*
 * Fault tests of docs/adr/0016-crash-recovery.md for functional runs: a real server process runs an API
 * run of 14 calls and a UI run of 5 steps in real Chromium, and is killed with SIGKILL while a call and a
 * step are in flight. Started again, it ends both `interrupted` with exactly what they judged before —
 * each call's and step's verdict, evidence and screenshots — and one message each; the screenshot the
 * unfinished step had taken, and one of a run that no longer exists, are collected. With Redis, a
 * replica killed mid-run beside a live one has its run ended the same way by the live one's sweep
 * (docs/adr/0020-server-replicas.md).
 */

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
/** Each API call is answered after this long; the plan thinks 1 s between calls. */
const DELAY_MS = 150;
/** The API call the target never answers: in flight when the server dies. */
const HOLD_AT = 6;

/** What a target of this test received, and what it holds unanswered. */
class SlowTarget {
  readonly byPath = new Map<string, number>();
  apiCalls = 0;
  private readonly held: ServerResponse[] = [];
  private readonly server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    this.byPath.set(path, (this.byPath.get(path) ?? 0) + 1);
    req.resume();
    if (path === '/api/ok' || path === '/api/fail') {
      if (++this.apiCalls >= HOLD_AT) return void this.held.push(res);
      const status = path === '/api/ok' ? 200 : 500;
      setTimeout(() => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ ok: status === 200, call: this.apiCalls }));
      }, DELAY_MS).unref();
      return;
    }
    const page = /^\/page\/(\d)$/.exec(path);
    if (page !== null) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><title>Page ${page[1]}</title><h1>Page ${page[1]}</h1>`);
      return;
    }
    if (path === '/hang') return void this.held.push(res);
    res.writeHead(404).end();
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  count(path: string): number {
    return this.byPath.get(path) ?? 0;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

interface Call {
  api_name: string;
  url: string;
  status_code: number | null;
  success: boolean;
  evidence?: { response: { status: number } | null };
  ui?: { screenshots: { id: string; label: string; failure: boolean }[] };
}

interface Result {
  test_id: string;
  status: string;
  error: string | null;
  start_time: string;
  end_time: string | null;
  summary: {
    total_requests: number;
    successful_requests: number;
    failed_requests: number;
    validation_failures: number;
  };
  validation_results: Call[];
  validation_results_total: number;
  api_results: { name: string; status: string }[];
  timeline_data: { requests: number }[];
}

let dataDir: string;
let target: SlowTarget;
let origin: string;
let killed: ServerProcess | undefined;
let restarted: TestServer | undefined;
const account = newRegistration();
let token = '';
let planId = '';
const runs = { api: '', ui: '' };
/** What the target had received when the server died. */
const atKill = { apiCalls: 0, pages: [] as number[], hang: 0 };
/** The API run's calls as the killed server answered them live just before. */
let liveCalls = 0;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function json<T>(response: Response): Promise<T> {
  const text = await response.text();
  if (!response.ok) throw new Error(`${response.status} ${text}`);
  return JSON.parse(text) as T;
}

/** The UI run's Selenium-style script: four pages, the third failing its check, a fifth that hangs after a screenshot. */
function uiScript(): string {
  const page = (n: number, title: string) => [
    `    - url: ${origin}/page/${n}`,
    `      label: Page ${n}`,
    '      actions:',
    `      - assertTitle: ${title}`,
  ];
  return [
    'execution:',
    '- executor: selenium',
    '  scenario: crash',
    'scenarios:',
    '  crash:',
    '    requests:',
    ...page(1, 'Page 1'),
    ...page(2, 'Page 2'),
    ...page(3, 'Not this title'),
    ...page(4, 'Page 4'),
    `    - url: ${origin}/page/5`,
    '      label: Page 5',
    '      actions:',
    '      - screenshot: before-hang.png',
    `      - go: ${origin}/hang`,
  ].join('\n');
}

/** 7 iterations of a call that passes and one that fails: 14 calls, a second apart. */
function apiPlan(name: string, at: string) {
  const check = { type: 'status_code', expected_value: '200' };
  return {
    test_name: name,
    concurrent_users: 1,
    iterations: 7,
    think_time: 1,
    apis: [
      { name: 'Ok', url: `${at}/api/ok`, validations: [check] },
      { name: 'Broken', url: `${at}/api/fail`, validations: [check] },
    ],
  };
}

/** Turns foreign keys off for one statement, as a store edited by hand (the sqlite3 shell) would be. */
async function withoutForeignKeys(sql: TestSql, statement: () => Promise<unknown>): Promise<void> {
  if (sql.dialect === 'sqlite') {
    await sql.run('PRAGMA foreign_keys = OFF');
    await statement();
    await sql.run('PRAGMA foreign_keys = ON');
  } else {
    await sql.run('alter table functional_screenshots disable trigger all');
    await statement();
    await sql.run('alter table functional_screenshots enable trigger all');
  }
}

beforeAll(async () => {
  dataDir = makeTempDir();
  target = new SlowTarget();
  origin = await target.start();
  killed = await startServerProcess({
    DATA_DIR: dataDir,
    DEMO_ACCOUNT: 'off',
    LOG_LEVEL: 'info',
    WEB_DIST_DIR: join(dataDir, 'no-web-build'),
    AQA_BROWSER_PATH: CHROMIUM,
    // The hung page holds its step far beyond this test.
    AQA_UI_STEP_TIMEOUT_MS: '120000',
    ...(await testDatabaseEnv(dataDir)),
  });
  const base = killed.base;
  const call = (method: 'GET' | 'POST', path: string, body?: unknown) =>
    fetch(`${base}${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token === '' ? {} : { authorization: `Bearer ${token}` }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  await json(await call('POST', '/api/register', account));
  ({ token } = await json<{ token: string }>(
    await call('POST', '/api/login', { username: account.email, password: account.password }),
  ));

  if (hasChromium) {
    runs.ui = (
      await json<{ test_id: string }>(
        await call('POST', '/api/functional/run-test', {
          test_name: 'Killed mid-step',
          source: 'script_input',
          source_page: 'functional-script-input',
          test_framework: 'selenium',
          script_content: uiScript(),
        }),
      )
    ).test_id;
  }
  const plan = apiPlan('Killed mid-call', origin);
  planId = (await json<{ id: string }>(await call('POST', '/api/functional/save-config', plan))).id;
  runs.api = (
    await json<{ test_id: string }>(
      await call('POST', '/api/functional/run-test', { ...plan, plan_id: planId }),
    )
  ).test_id;

  // The API call HOLD_AT and the hung page are in flight; every call and step before them was judged.
  const seen = (what: () => boolean) => () => Promise.resolve(what() ? true : undefined);
  await waitFor(
    'the held API call',
    seen(() => target.apiCalls >= HOLD_AT),
    40_000,
  );
  if (hasChromium)
    await waitFor(
      'the hung page',
      seen(() => target.count('/hang') > 0),
      40_000,
    );
  const live = await json<Result>(await call('GET', `/api/functional/get-test-result/${runs.api}`));
  expect(live.status).toBe('running');
  liveCalls = live.validation_results_total;
  // Settled: nothing more happens until the server dies.
  await sleep(500);
  atKill.apiCalls = target.apiCalls;
  atKill.pages = [1, 2, 3, 4, 5].map((n) => target.count(`/page/${n}`));
  atKill.hang = target.count('/hang');
  killed.child.kill('SIGKILL');
  await killed.stop();

  // A screenshot of a run that no longer exists, as a store edited by hand leaves it.
  await withTestSql(await testDatabaseConfig(dataDir), (sql) =>
    withoutForeignKeys(sql, () =>
      sql.run(
        `insert into functional_screenshots (id, run_id, seq, label, failure, jpeg, created_at)
         values ('ss_of_a_gone_run', 'fc_gone', 1, 'Step', 0, ?, ?)`,
        Buffer.from([0xff, 0xd8, 0xff, 0xd9]),
        new Date().toISOString(),
      ),
    ),
  );

  restarted = await startTestServer({ LOG_LEVEL: 'warn' }, dataDir);
  // The test server's clock is its own, so sign in again there.
  const signIn = await restarted.request({
    method: 'POST',
    url: '/api/login',
    body: { username: account.email, password: account.password },
  });
  token = signIn.json<{ token: string }>().token;
}, 120_000);

afterAll(async () => {
  await stopServerProcesses();
  await restarted?.close();
  await target?.close();
  if (dataDir !== undefined) removeDir(dataDir);
});

const get = (url: string) => restarted!.request({ method: 'GET', url, token });
const resultOf = async (id: string) => (await get(`/api/functional/get-test-result/${id}`)).json<Result>();

/** Every screenshot row of the store: its run and id. */
function screenshotRows(): Promise<{ id: string; run_id: string }[]> {
  return withTestSql(restarted!.database, (sql) =>
    sql.all<{ id: string; run_id: string }>('select id, run_id from functional_screenshots order by id'),
  );
}

describe('a server killed during functional runs, started again', () => {
  it('API run: interrupted with every call judged before the kill, each with its verdict and evidence, once', async () => {
    // One call was in flight (the target holds it); the ones before were judged, and shown live.
    expect(atKill.apiCalls).toBe(HOLD_AT);
    expect(liveCalls).toBe(HOLD_AT - 1);
    const result = await resultOf(runs.api);
    expect(result).toMatchObject({
      status: 'interrupted',
      error: 'The server stopped during the run, so it did not finish',
      summary: { total_requests: 5, successful_requests: 3, failed_requests: 2, validation_failures: 2 },
      validation_results_total: 5,
    });
    expect(result.validation_results.map((c) => [c.api_name, c.status_code, c.success])).toEqual([
      ['Ok', 200, true],
      ['Broken', 500, false],
      ['Ok', 200, true],
      ['Broken', 500, false],
      ['Ok', 200, true],
    ]);
    // A failed call keeps what it got.
    expect(result.validation_results[1]!.evidence?.response?.status).toBe(500);
    // Rebuilt as the live run tallied them: each API's row, one timeline point per second.
    expect(result.api_results.map((api) => [api.name, api.status])).toEqual([
      ['Ok', 'success'],
      ['Broken', 'failed'],
    ]);
    expect(result.timeline_data.reduce((sum, p) => sum + p.requests, 0)).toBe(5);
    // Ended at its last judged call, not at the restart.
    const ranMs = Date.parse(result.end_time!) - Date.parse(result.start_time);
    expect(ranMs).toBeGreaterThan(4 * 1000);
    expect(ranMs).toBeLessThan(30_000);

    const status = await get(`/api/functional/get-test-status/${runs.api}`);
    expect(status.json()).toEqual({ test_id: runs.api, status: 'interrupted' });
    const plan = await get(`/api/functional/get-test-plan/${planId}`);
    expect(plan.json()).toMatchObject({ status: 'interrupted' });
    const { messages } = (await get('/api/messages')).json<MessageList>();
    const about = messages.filter((m) => m.run_id === runs.api);
    expect(about).toHaveLength(1);
    expect(about[0]).toMatchObject({
      kind: 'interrupted',
      test_type: 'api',
      title: 'Killed mid-call API test was interrupted',
    });
    expect(about[0]!.body).toContain('5 calls: 3 passed, 2 failed');

    // The reports say so too.
    const junit = await get(`/api/functional/test-report/${runs.api}?format=junit`);
    expect(junit.statusCode).toBe(200);
    expect(junit.body.match(/<testcase /g)).toHaveLength(6);
    expect(junit.body).toContain('type="run interrupted"');
  });

  it.skipIf(!hasChromium)(
    'UI run: interrupted with its judged steps and their screenshots, served to the owner; the unfinished step’s is collected',
    async () => {
      expect(atKill.pages).toEqual([1, 1, 1, 1, 1]);
      expect(atKill.hang).toBe(1);
      const result = await resultOf(runs.ui);
      expect(result).toMatchObject({
        status: 'interrupted',
        error: 'The server stopped during the run, so it did not finish',
        summary: { total_requests: 4, successful_requests: 3, failed_requests: 1 },
      });
      const steps = result.validation_results;
      expect(steps.map((s) => [s.api_name, s.success])).toEqual([
        ['Page 1', true],
        ['Page 2', true],
        ['Page 3', false],
        ['Page 4', true],
      ]);
      expect(result.api_results.map((page) => page.status)).toEqual([
        'success',
        'success',
        'failed',
        'success',
        'not_run',
      ]);
      expect(result.timeline_data).toHaveLength(4);
      const shots = steps.flatMap((s) => s.ui?.screenshots ?? []);
      expect(shots.length).toBeGreaterThanOrEqual(4);
      expect(steps[2]!.ui!.screenshots.some((s) => s.failure)).toBe(true);
      for (const shot of shots) {
        const image = await get(`/api/functional/screenshot/${runs.ui}/${shot.id}`);
        expect(image.statusCode, shot.label).toBe(200);
        expect([...image.rawPayload.subarray(0, 2)]).toEqual([0xff, 0xd8]);
      }
      // The fifth step's screenshot was stored, but the step never was: collected.
      const rows = (await screenshotRows()).filter((row) => row.run_id === runs.ui);
      expect(rows.map((row) => row.id).sort()).toEqual(shots.map((shot) => shot.id).sort());

      const { messages } = (await get('/api/messages')).json<MessageList>();
      const about = messages.filter((m) => m.run_id === runs.ui);
      expect(about).toHaveLength(1);
      expect(about[0]).toMatchObject({ kind: 'interrupted', test_type: 'ui' });
      expect(about[0]!.body).toContain('4 steps: 3 passed, 1 failed');
    },
  );

  it('leaves no screenshot linked to nothing, and deletes an interrupted run’s with it', async () => {
    const rows = await screenshotRows();
    expect(rows.some((row) => row.run_id === 'fc_gone')).toBe(false);
    const left = await withTestSql(restarted!.database, (sql) =>
      sql.get<{ n: number }>('select count(*) as n from functional_run_calls'),
    );
    expect(Number(left!.n)).toBe(0);
    if (!hasChromium) return;
    expect(rows.length).toBeGreaterThan(0);
    const deleted = await restarted!.request({
      method: 'DELETE',
      url: `/api/functional/delete-result/${runs.ui}`,
      token,
    });
    expect(deleted.statusCode).toBe(200);
    expect(await screenshotRows()).toEqual([]);
  });
});

const hasRedis = (process.env.AQA_TEST_REDIS_URL ?? '') !== '';

describe.skipIf(!hasRedis)('a replica killed during a functional run, beside a live one', () => {
  // A Redis database of this test's own per store (replicas.test.ts and the matrix use 2–11).
  const redisUrl = `${process.env.AQA_TEST_REDIS_URL ?? ''}/${testStore() === 'postgres' ? 13 : 12}`;
  const own = { dataDir: '', target: new SlowTarget(), token: '', runId: '', atKill: 0 };
  let a: ServerProcess | undefined;
  let b: TestServer | undefined;

  beforeAll(async () => {
    const redis = new Redis(redisUrl);
    await redis.flushdb();
    await redis.quit();
    own.dataDir = makeTempDir();
    const at = await own.target.start();
    const env = { REDIS_URL: redisUrl, ...(await testDatabaseEnv(own.dataDir)) };
    a = await startServerProcess({
      DATA_DIR: own.dataDir,
      DEMO_ACCOUNT: 'off',
      WEB_DIST_DIR: join(own.dataDir, 'no-web-build'),
      ...env,
    });
    const post = async <T>(path: string, body: unknown): Promise<T> =>
      json<T>(
        await fetch(`${a!.base}${path}`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(own.token === '' ? {} : { authorization: `Bearer ${own.token}` }),
          },
          body: JSON.stringify(body),
        }),
      );
    const replicaAccount = newRegistration();
    await post('/api/register', replicaAccount);
    ({ token: own.token } = await post<{ token: string }>('/api/login', {
      username: replicaAccount.email,
      password: replicaAccount.password,
    }));
    own.runId = (await post<{ test_id: string }>('/api/functional/run-test', apiPlan('Swept', at))).test_id;
    b = await startTestServer(env, own.dataDir);
    ({ token: own.token } = (
      await b.request({
        method: 'POST',
        url: '/api/login',
        body: { username: replicaAccount.email, password: replicaAccount.password },
      })
    ).json<{ token: string }>());
    await waitFor(
      'the held API call',
      () => Promise.resolve(own.target.apiCalls >= HOLD_AT || undefined),
      40_000,
    );
    await sleep(500);
    own.atKill = own.target.apiCalls;
    a.child.kill('SIGKILL');
    await a.stop();
  }, 120_000);

  afterAll(async () => {
    await stopServerProcesses();
    await b?.close();
    await own.target.close();
    if (own.dataDir !== '') removeDir(own.dataDir);
  });

  it('is ended interrupted by the live replica’s sweep, with the calls it judged, once', async () => {
    const ended = await waitFor(
      'the sweep of the killed replica’s run',
      async () => {
        const seen = (
          await b!.request({
            method: 'GET',
            url: `/api/functional/get-test-result/${own.runId}`,
            token: own.token,
          })
        ).json<Result>();
        return seen.status === 'running' ? undefined : seen;
      },
      // One sweep every 10 s; the killed server is dead at once (its pid is gone on this host).
      25_000,
    );
    expect(own.atKill).toBe(HOLD_AT);
    expect(ended).toMatchObject({
      status: 'interrupted',
      summary: { total_requests: 5, successful_requests: 3, failed_requests: 2 },
    });
    expect(ended.validation_results.map((c) => c.success)).toEqual([true, false, true, false, true]);
    const { messages } = (
      await b!.request({ method: 'GET', url: '/api/messages', token: own.token })
    ).json<MessageList>();
    expect(messages.filter((m) => m.run_id === own.runId)).toHaveLength(1);
  }, 40_000);
});
