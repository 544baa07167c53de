import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCountingTarget, type CountingTarget } from './counting-target';
import { makeTempDir, newRegistration, removeDir, startTestServer, type TestServer } from './helpers';
import { hasLocust, LOCUST_CMD } from './installed-tools';
import { testDatabaseConfig, testDatabaseEnv, withTestSql } from './test-database';
import { waitFor } from './wait-for';

/*
 * Fault tests of docs/adr/0016-crash-recovery.md: a real server process runs a plan on the built-in
 * engine and one in Locust, and is killed with SIGKILL (no shutdown hook runs). The built-in engine's
 * worker threads die with it; Locust, in a process group of its own, is ended within seconds by its
 * watchdog (packages/engine/src/adapters/process.ts; tool-watchdog.test.ts measures it), and the next
 * start finds it gone and removes its folder. Each run is then "interrupted": its figures rebuilt from
 * its stored seconds, ended at its last one, comparable and a possible baseline.
 */

const SERVER_MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const SERVER_DIR = fileURLToPath(new URL('..', import.meta.url));

let dataDir: string;
let target: CountingTarget;
let child: ChildProcess | undefined;
let restarted: TestServer | undefined;
const logLines: string[] = [];
const account = newRegistration();
let token = '';
let planId = '';
const runs = { builtin: '', locust: '' };
/** What the target had counted by path: when the server died, and a moment later. */
const received = { atKill: {} as Record<string, number>, afterKill: {} as Record<string, number> };
/** The Locust process as the killed server recorded it, and what the target counted after the restart. */
let locustProcess: { pid: number; work_dir: string } | undefined;
const afterRestart = { atStart: 0, later: 0 };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Starts src/main.ts in its own process (through tsx) and answers its base URL once it listens. It runs
 * on the test's store: SQLite in dataDir, or the folder's PostgreSQL database (test-database.ts).
 */
async function startServerProcess(): Promise<string> {
  const databaseEnv = await testDatabaseEnv(dataDir);
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', SERVER_MAIN], {
      cwd: SERVER_DIR,
      env: {
        ...process.env,
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        DEMO_ACCOUNT: 'off',
        EXTERNAL_TOOLS: 'on',
        // k6 plans run on the built-in engine here, whatever is installed.
        K6_CMD: join(dataDir, 'no-k6-here'),
        LOCUST_CMD,
        JMETER_CMD: join(dataDir, 'no-jmeter-here'),
        BZT_CMD: join(dataDir, 'no-bzt-here'),
        LOG_LEVEL: 'info',
        WEB_DIST_DIR: join(dataDir, 'no-web-build'),
        ...databaseEnv,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = proc;
    let output = '';
    const onData = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      const listening = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (listening?.[1]) resolve(listening[1]);
    };
    proc.stdout.on('data', onData);
    proc.stderr.on('data', onData);
    proc.on('exit', (code) => reject(new Error(`The server exited (${code}) before listening:\n${output}`)));
  });
}

async function json<T>(response: Response): Promise<T> {
  const text = await response.text();
  if (!response.ok) throw new Error(`${response.status} ${text}`);
  return JSON.parse(text) as T;
}

/** Whether anything of process group `pgid` still runs (a zombie only waits to be reaped). */
function groupAlive(pgid: number): boolean {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .some((name) => {
      try {
        const text = readFileSync(`/proc/${name}/stat`, 'utf8');
        const [state, , pgrp] = text.slice(text.lastIndexOf(')') + 2).split(' ');
        return Number(pgrp) === pgid && state !== 'Z';
      } catch {
        return false;
      }
    });
}

beforeAll(async () => {
  dataDir = makeTempDir();
  target = await startCountingTarget();
  const base = await startServerProcess();
  const post = (path: string, body: unknown) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
  await json(await post('/api/register', account));
  ({ token } = await json<{ token: string }>(
    await post('/api/login', { username: account.email, password: account.password }),
  ));
  const start = async (tool: 'k6' | 'locust', path: string): Promise<string> => {
    const plan = await json<{ id: string }>(
      await post('/api/save-test-plan', {
        name: `Killed mid-run in ${tool}`,
        tool,
        concurrent_users: 2,
        duration: 1,
        urls: [{ method: 'GET', url: `${target.origin}${path}`, thinkTime: '20ms' }],
      }),
    );
    planId = tool === 'k6' ? plan.id : planId;
    const run = await json<{ test_id: string; engine: string }>(
      await post('/api/run-test', { plan_id: plan.id, duration_seconds: 60 }),
    );
    expect(run.engine).toBe(tool === 'k6' ? 'builtin' : 'locust');
    return run.test_id;
  };
  // Locust first: its start may wait for the server's check of Locust, which the built-in run need not.
  if (hasLocust) runs.locust = await start('locust', '/locust');
  runs.builtin = await start('k6', '/builtin');

  // A few seconds measured and stored by each run, far from the end of its 60 s.
  for (const id of Object.values(runs).filter(Boolean)) {
    await waitFor(
      `three measured seconds of run ${id}`,
      async () => {
        const live = await json<{ elapsed_seconds: number; status: string; summary: unknown }>(
          await fetch(`${base}/api/get-test-result/${id}`, { headers: { authorization: `Bearer ${token}` } }),
        );
        expect(live.status).toBe('running');
        return live.elapsed_seconds >= 3 && live.summary !== null ? true : undefined;
      },
      40_000,
      200,
    );
  }
  child!.kill('SIGKILL');
  await new Promise((r) => child!.once('exit', r));
  // Requests already on the wire still arrive; then nothing more from the dead process.
  await sleep(300);
  received.atKill = (await target.counts()).byPath;
  await sleep(1000);
  received.afterKill = (await target.counts()).byPath;

  locustProcess = await withTestSql(await testDatabaseConfig(dataDir), (sql) =>
    sql.get<{ pid: number; work_dir: string }>(
      'select pid, work_dir from run_processes where run_id = ?',
      runs.locust,
    ),
  );

  restarted = await startTestServer({ EXTERNAL_TOOLS: 'off', LOG_LEVEL: 'warn' }, dataDir, { logLines });
  afterRestart.atStart = (await target.counts()).total;
  await sleep(2000);
  afterRestart.later = (await target.counts()).total;
  // The test server's clock is its own, so sign in again there rather than reuse the first session.
  const signIn = await restarted.request({
    method: 'POST',
    url: '/api/login',
    body: { username: account.email, password: account.password },
  });
  token = signIn.json<{ token: string }>().token;
}, 60_000);

afterAll(async () => {
  if (child?.exitCode === null) child.kill('SIGKILL');
  if (locustProcess !== undefined && groupAlive(locustProcess.pid))
    process.kill(-locustProcess.pid, 'SIGKILL');
  await restarted?.close();
  await target.close();
  removeDir(dataDir);
});

interface Result {
  status: string;
  error: string | null;
  started_at: string;
  ended_at: string;
  elapsed_seconds: number;
  duration_seconds: number;
  summary: { total_requests: number; failed_requests: number; test_duration: number } | null;
  api_results: { total_requests: number; failed_requests: number }[];
}

const get = (url: string) => restarted!.request({ method: 'GET', url, token });

/** The run after the restart, checked against its stored seconds; returns it. */
async function checkInterrupted(id: string): Promise<Result> {
  const result = (await get(`/api/get-test-result/${id}`)).json<Result>();
  expect(result).toMatchObject({ status: 'interrupted', error: 'interrupted by a server restart' });
  const chart = (await get(`/api/chart-data/${id}`)).json<{
    series: { second: number; requests: number; errors: number }[];
    api_series: { points: unknown[] }[];
  }>();
  const summary = result.summary!;
  const sum = (key: 'requests' | 'errors') => chart.series.reduce((total, p) => total + p[key], 0);
  expect(summary.total_requests).toBeGreaterThan(0);
  expect(summary.total_requests).toBe(sum('requests'));
  expect(summary.failed_requests).toBe(sum('errors'));
  expect(result.api_results.reduce((total, row) => total + row.total_requests, 0)).toBe(
    summary.total_requests,
  );
  // Ended at its last stored second, not after its planned 60 s (a kill right at a second's end may
  // leave that whole next second counted: at most one second more).
  const lastSecond = chart.series.at(-1)!.second;
  expect(summary.test_duration).toBeGreaterThan(lastSecond - 1);
  expect(summary.test_duration).toBeLessThanOrEqual(lastSecond + 1);
  expect(Date.parse(result.ended_at) - Date.parse(result.started_at)).toBe(
    Math.round(summary.test_duration * 1000),
  );
  expect(result.elapsed_seconds).toBe(Math.round(summary.test_duration * 10) / 10);
  expect(result.elapsed_seconds).toBeLessThan(result.duration_seconds);
  return result;
}

describe('a server killed during a run, started again', () => {
  it('built-in engine: the load stops with the server; the run is interrupted, rebuilt from its seconds, comparable', async () => {
    expect(received.atKill['/builtin']).toBeGreaterThan(0);
    expect(received.afterKill['/builtin']).toBe(received.atKill['/builtin']);

    const result = await checkInterrupted(runs.builtin);
    expect(result.summary!.total_requests).toBeLessThanOrEqual(received.atKill['/builtin']!);

    const comparison = await get(`/api/compare-test-results?base=${runs.builtin}&candidate=${runs.builtin}`);
    expect(comparison.statusCode, comparison.body).toBe(200);
    const baseline = await restarted!.request({
      method: 'POST',
      url: '/api/set-baseline',
      token,
      body: { plan_id: planId, test_id: runs.builtin },
    });
    expect(baseline.statusCode, baseline.body).toBe(200);
    // The plan is as it was saved, its baseline aside.
    const plan = (await get(`/api/get-test-plan/${planId}`)).json<{
      name: string;
      concurrent_users: number;
      duration: number;
      urls: { url: string }[];
    }>();
    expect(plan).toMatchObject({ name: 'Killed mid-run in k6', concurrent_users: 2, duration: 1 });
    expect(plan.urls.map((u) => u.url)).toEqual([`${target.origin}/builtin`]);
  });

  it.skipIf(!hasLocust)(
    'Locust: it ends with the server, the next start removes its folder; the run is rebuilt',
    async () => {
      expect(received.atKill['/locust']).toBeGreaterThan(0);
      expect(locustProcess).toBeDefined();
      const { pid, work_dir } = locustProcess!;
      expect(groupAlive(pid)).toBe(false);
      expect(existsSync(work_dir)).toBe(false);
      expect(afterRestart.later).toBe(afterRestart.atStart);
      // Ended by its watchdog before the restart, or by the restart's recovery: either way, said and cleared.
      expect(
        logLines.some(
          (line) =>
            /A tool of the last server process had already ended|Ended a tool left running/.test(line) &&
            line.includes(String(pid)),
        ),
      ).toBe(true);
      await checkInterrupted(runs.locust);
      const left = await withTestSql(restarted!.database, (sql) =>
        sql.get('select count(*) as n from run_processes'),
      );
      expect(left).toMatchObject({ n: 0 });
    },
  );
});
