import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MessageList, TestResult } from '@aqa/plan';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config';
import { openDatabase } from '../src/db/database';
import { startCountingTarget, type CountingTarget } from './counting-target';
import {
  makeTempDir,
  newRegistration,
  registerAndLogin,
  removeDir,
  startTestServer,
  testDatabase,
} from './helpers';
import {
  ExitedError,
  readEvents,
  startServerProcess,
  stopServerProcesses,
  type ServerProcess,
} from './server-process';
import { testDatabaseConfig, testDatabaseEnv, testStore, withTestSql } from './test-database';
import { waitFor } from './wait-for';

/*
 * Two real server processes on one database and one Redis (docs/adr/0020-server-replicas.md): a user
 * signs in on A and goes on through B; a run started through A is read, streamed and stopped through B;
 * the sign-in limit and MAX_RUNS_PER_USER hold across both; a third server without REDIS_URL refuses to
 * start; a replica killed mid-run has its run ended by the other.
 */

const hasRedis = (process.env.AQA_TEST_REDIS_URL ?? '') !== '';
// A Redis database of this test's own per store, since the SQLite and PostgreSQL projects may run at once.
const REDIS_DB = testStore() === 'postgres' ? 3 : 2;
const redisUrl = `${process.env.AQA_TEST_REDIS_URL ?? ''}/${REDIS_DB}`;
const LOGINS_PER_MINUTE = 5;
const PATH = '/replicas';

let dataDir: string;
let env: Record<string, string>;
let target: CountingTarget;
let a: ServerProcess | undefined;
let b: ServerProcess | undefined;
const account = newRegistration();
let token = '';
let planId = '';
/** The run started through A before B started, B's view of it while it ran, B's answer to a second run. */
let first = '';
let seenOnBWhileRunning: TestResult | undefined;
let refusedOnB: { status: number; body: { code?: string } } | undefined;
/** The start of a third server without REDIS_URL, while A runs. */
let alone: Promise<unknown>;

function call(
  server: ServerProcess,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<Response> {
  return fetch(`${server.base}${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token === '' ? {} : { authorization: `Bearer ${token}` }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function json<T>(response: Response): Promise<T> {
  const text = await response.text();
  if (!response.ok) throw new Error(`${response.status} ${text}`);
  return JSON.parse(text) as T;
}

const result = async (server: ServerProcess, id: string) =>
  json<TestResult>(await call(server, 'GET', `/api/get-test-result/${id}`));

async function startRun(seconds: number): Promise<string> {
  const run = await json<{ test_id: string }>(
    await call(a!, 'POST', '/api/run-test', { plan_id: planId, duration_seconds: seconds }),
  );
  return run.test_id;
}

/** Waits until `server` answers the run as running with measured requests. */
async function measuredOn(server: ServerProcess, id: string, timeoutMs = 10_000): Promise<TestResult> {
  let last: TestResult | undefined;
  try {
    return await waitFor(
      `requests measured in ${id}`,
      async () => {
        last = await result(server, id);
        return last.status === 'running' && (last.summary?.total_requests ?? 0) > 0 ? last : undefined;
      },
      timeoutMs,
    );
  } catch (error) {
    throw new Error(
      `${(error as Error).message}; last answer: ${JSON.stringify(last)}; A wrote:\n${a?.output().slice(-4000) ?? ''}`,
      { cause: error },
    );
  }
}

/** Waits until the store holds a whole-run second of run `id` with requests in it (the store A writes). */
async function storedRequests(id: string): Promise<number> {
  return withTestSql(await testDatabaseConfig(dataDir), (sql) =>
    waitFor(`a stored second with requests of ${id}`, async () => {
      const points = await sql.all<{ data: string }>(
        'select data from run_points where run_id = ? and step_index = -1',
        id,
      );
      const requests = points.reduce(
        (sum, p) => sum + (JSON.parse(p.data) as { requests: number }).requests,
        0,
      );
      return requests > 0 ? requests : undefined;
    }),
  );
}

describe('a server with REDIS_URL', () => {
  it('refuses to start when that Redis cannot be reached, naming REDIS_URL and host:port', async () => {
    const dir = makeTempDir();
    try {
      // Nothing listens on this port of this test's range (6200–6299).
      await expect(startTestServer({ REDIS_URL: 'redis://127.0.0.1:6299' }, dir)).rejects.toThrow(
        /Cannot reach the Redis named by REDIS_URL at 127\.0\.0\.1:6299/,
      );
    } finally {
      removeDir(dir);
    }
  });
});

describe.skipIf(!hasRedis)('start-up recovery beside other servers', () => {
  it('ends only the runs of dead servers, and signals no tool a server on another host recorded', async () => {
    const dataDir = makeTempDir();
    // A database of its own in this Redis: the live "other server" says there that it is on it.
    const url = `${process.env.AQA_TEST_REDIS_URL ?? ''}/${REDIS_DB + 4}`;
    const first = await startTestServer({ REDIS_URL: url }, dataDir);
    const { token } = await registerAndLogin(first);
    const planId = (
      await first.request({
        method: 'POST',
        url: '/api/save-test-plan',
        token,
        body: { name: 'Recovered', urls: [{ method: 'GET', url: 'http://127.0.0.1:6201/' }] },
      })
    ).json<{ id: string }>().id;
    await first.close();
    // A "tool" of a dead server on another host: a process group of its own in an aqa- folder.
    const workDir = mkdtempSync(join(tmpdir(), 'aqa-replica-tool-'));
    const tool = spawn('sleep', ['60'], { cwd: workDir, detached: true, stdio: 'ignore' });
    const pid = tool.pid!;
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const startTicks = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
    const db = testDatabase(first);
    const redis = new Redis(url);
    let second: Awaited<ReturnType<typeof startTestServer>> | undefined;
    try {
      const now = new Date().toISOString();
      const hourAgo = new Date(Date.now() - 3600_000).toISOString();
      await db
        .insertInto('server_instances')
        .values([
          { id: 'srv_dead', host: 'another-host', pid: 4242, started_at: hourAgo, last_seen_at: hourAgo },
          { id: 'srv_live', host: 'another-host', pid: 4343, started_at: now, last_seen_at: now },
        ])
        .execute();
      await redis.set('aqa:replicas:server:srv_live', '1', 'PX', 15_000);
      const { user_id } = await db
        .selectFrom('plans')
        .select('user_id')
        .where('id', '=', planId)
        .executeTakeFirstOrThrow();
      const run = (id: string, serverId: string) => ({
        id,
        user_id,
        workspace_id: user_id,
        plan_id: planId,
        plan_name: 'Recovered',
        status: 'running',
        tool: 'k6',
        engine: 'builtin',
        engine_note: '',
        config: JSON.stringify({ plan: {}, duration_seconds: 60, steps: [] }),
        concurrent_users: 1,
        duration_seconds: 60,
        started_at: now,
        server_id: serverId,
      });
      await db
        .insertInto('runs')
        .values([run('run_on_live', 'srv_live'), run('run_on_dead', 'srv_dead')])
        .execute();
      await db
        .insertInto('run_processes')
        .values({ run_id: 'run_on_dead', pid, start_ticks: startTicks, work_dir: workDir, started_at: now })
        .execute();

      second = await startTestServer({ REDIS_URL: url }, dataDir);
      const status = async (id: string) =>
        (
          await second!.request({ method: 'GET', url: `/api/get-test-result/${id}`, token })
        ).json<TestResult>().status;
      expect(await status('run_on_live')).toBe('running');
      expect(await status('run_on_dead')).toBe('interrupted');
      // Its pid means nothing on this host: left alone, and left recorded.
      expect(tool.exitCode).toBeNull();
      expect(() => process.kill(pid, 0)).not.toThrow();
      expect(await db.selectFrom('run_processes').select('pid').execute()).toEqual([{ pid }]);
    } finally {
      await second?.close();
      process.kill(-pid, 'SIGKILL');
      await redis.quit();
      await db.destroy();
      removeDir(dataDir);
      removeDir(workDir);
    }
  });
});

describe.skipIf(!hasRedis)('two server replicas on one database and one Redis', () => {
  beforeAll(async () => {
    const redis = new Redis(redisUrl);
    await redis.flushdb();
    await redis.quit();
    dataDir = makeTempDir();
    target = await startCountingTarget();
    env = {
      DATA_DIR: dataDir,
      DEMO_ACCOUNT: 'off',
      EXTERNAL_TOOLS: 'off',
      LOG_LEVEL: 'info',
      WEB_DIST_DIR: `${dataDir}/no-web-build`,
      LOGIN_RATE_LIMIT_PER_IP: String(LOGINS_PER_MINUTE),
      MAX_RUNS_PER_USER: '1',
      MAX_RUNS_PER_SERVER: '3',
      REDIS_URL: redisUrl,
      ...(await testDatabaseEnv(dataDir)),
    };
    a = await startServerProcess(env);
    await json(await call(a, 'POST', '/api/register', account));
    ({ token } = await json<{ token: string }>(
      await call(a, 'POST', '/api/login', { username: account.email, password: account.password }),
    ));
    planId = (
      await json<{ id: string }>(
        await call(a, 'POST', '/api/save-test-plan', {
          name: 'Across replicas',
          tool: 'k6',
          concurrent_users: 2,
          duration: 1,
          urls: [{ method: 'GET', url: `${target.origin}${PATH}`, thinkTime: '20ms' }],
        }),
      )
    ).id;
    // B starts while A's run goes on: its start-up recovery must leave that run alone. A third server
    // without REDIS_URL starts at the same time, and must refuse.
    // Long enough for B to start on a busy machine; the stream test stops it.
    first = await startRun(60);
    await measuredOn(a, first);
    const { REDIS_URL: _shared, ...withoutRedis } = env;
    alone = startServerProcess(withoutRedis).then(
      async (started) => {
        await started.stop();
        return undefined;
      },
      (error: unknown) => error,
    );
    b = await startServerProcess(env);
    seenOnBWhileRunning = await result(b, first);
    const refused = await call(b, 'POST', '/api/run-test', { plan_id: planId, duration_seconds: 3 });
    refusedOnB = { status: refused.status, body: (await refused.json()) as { code?: string } };
    // Server processes start slowly on a busy machine (tsx compiles on the way).
  }, 90_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await stopServerProcesses();
    await target?.close();
    if (dataDir !== undefined) removeDir(dataDir);
  });

  it('B, started during a run of A, leaves it running and answers its live figures with A’s token', () => {
    expect(seenOnBWhileRunning).toMatchObject({ test_id: first, status: 'running' });
    expect(seenOnBWhileRunning!.summary!.total_requests).toBeGreaterThan(0);
    // MAX_RUNS_PER_USER=1 counts the run on A: B refuses the user a second one.
    expect(refusedOnB).toMatchObject({ status: 429, body: { code: 'RUN_LIMIT_USER' } });
  });

  it('streams A’s run live through B and stops it through B, to an end with the total the target counted', async () => {
    let stopping: Promise<Response> | undefined;
    let snapshots = 0;
    const events = await readEvents(await call(b!, 'GET', `/api/test-stream/${first}`), (event) => {
      if (event.event === 'snapshot' && ++snapshots === 2) {
        stopping = call(b!, 'POST', `/api/stop-test/${first}`);
      }
    });
    const kinds = events.map((e) => e.event);
    expect(kinds[0]).toBe('status');
    expect(snapshots).toBeGreaterThanOrEqual(2);
    expect(kinds.at(-1)).toBe('end');
    const end = events.at(-1)!.data as TestResult;
    expect(end.status).toBe('stopped');
    // The stop answered once the result was stored by A, the owner.
    expect(await json<{ status: string }>(await stopping!)).toMatchObject({ status: 'stopped' });
    expect((await result(a!, first)).status).toBe('stopped');
    const counted = (await target.counts()).byPath[PATH];
    expect(end.summary!.total_requests).toBe(counted);
    // The run's message, written by A, is read through B.
    const { messages } = await json<MessageList>(await call(b!, 'GET', '/api/messages'));
    expect(messages.some((m) => m.link === `/test-result/${first}`)).toBe(true);
  });

  it('reads through B the calls so far of a functional run A runs, and stops it through B', async () => {
    const started = await json<{ test_id: string }>(
      await call(a!, 'POST', '/api/functional/run-test', {
        test_name: 'Functional across replicas',
        concurrent_users: 1,
        iterations: 1000,
        think_time: 60,
        apis: [{ name: 'Slow', url: `${target.origin}/functional/slow` }],
      }),
    );
    const id = started.test_id;
    type Functional = { status: string; summary: { total_requests: number } };
    const functional = async (server: ServerProcess) =>
      json<Functional>(await call(server, 'GET', `/api/functional/get-test-result/${id}`));
    await waitFor('calls of the functional run seen through B', async () => {
      const seen = await functional(b!);
      return seen.status === 'running' && seen.summary.total_requests > 0 ? seen : undefined;
    });
    const stopped = await json<{ status: string }>(await call(b!, 'POST', `/api/functional/stop-test/${id}`));
    expect(stopped.status).toBe('stopped');
    const stored = await functional(a!);
    expect(stored.status).toBe('stopped');
    expect(stored.summary.total_requests).toBe((await target.counts()).byPath['/functional/slow']);
  });

  it('a third server without REDIS_URL refuses to start, saying why', async () => {
    const refused = await alone;
    expect(refused).toBeInstanceOf(ExitedError);
    expect((refused as ExitedError).output).toMatch(
      /Another AnybodyQA server \(.+, pid \d+, seen \d+ s ago\) uses this database; several servers need REDIS_URL set to one Redis they all share\./,
    );
    // Nor does one on another Redis (here another database of the same Redis): it would not see A's runs.
    const otherRedis = `${process.env.AQA_TEST_REDIS_URL ?? ''}/${REDIS_DB + 8}`;
    await expect(startTestServer({ REDIS_URL: otherRedis }, dataDir)).rejects.toThrow(
      /Another AnybodyQA server \(.+, pid \d+, seen \d+ s ago\) uses this database but not this Redis; several servers need REDIS_URL set to one Redis they all share\./,
    );
    expect(() => parseConfig({ REDIS_URL: 'http://127.0.0.1:6379' })).toThrow(
      /REDIS_URL: must be a redis:\/\/ or rediss:\/\/ address/,
    );
  });

  it('counts sign-in attempts once across both replicas', async () => {
    // One sign-in was made through A at the start; the rest of the minute's budget, alternating.
    const servers = [b!, a!];
    const statuses: number[] = [];
    for (let attempt = 1; attempt <= LOGINS_PER_MINUTE; attempt++) {
      const answer = await call(servers[attempt % 2]!, 'POST', '/api/login', {
        username: account.email,
        password: account.password,
      });
      statuses.push(answer.status);
      if (answer.status === 429) {
        expect(answer.headers.get('retry-after')).toMatch(/^\d+$/);
        expect(await answer.text()).toContain('Too many sign-in attempts');
      }
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
  });

  it('ends as interrupted, through B, the run of a replica killed mid-run', async () => {
    const id = await startRun(30);
    // The built-in engine's workers may take a while to start on a busy machine.
    await measuredOn(b!, id, 20_000);
    // B's live view comes from A through Redis within the second; the store gets each second once it
    // ends (docs/adr/0016-crash-recovery.md). What the sweep keeps is what was stored, so the kill waits
    // for a stored second with requests in it, else a kill early in the first second leaves nothing.
    await storedRequests(id);
    a!.child.kill('SIGKILL');
    await a!.stop();
    const ended = await waitFor(
      'the sweep of the dead replica’s run',
      async () => {
        const seen = await result(b!, id);
        return seen.status === 'running' ? undefined : seen;
      },
      15_000,
    );
    expect(ended).toMatchObject({ status: 'interrupted', error: 'interrupted by a server restart' });
    expect(ended.summary!.total_requests).toBeGreaterThan(0);
  }, 40_000);

  it('leaves no server registered: B removes itself at a clean shutdown, the sweep removed the killed A', async () => {
    await b!.stop();
    expect(b!.child.exitCode).toBe(0);
    const db = openDatabase(parseConfig(env).database);
    try {
      expect(await db.selectFrom('server_instances').selectAll().execute()).toEqual([]);
    } finally {
      await db.destroy();
    }
  });
});
