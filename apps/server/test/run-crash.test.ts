import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCountingTarget, type CountingTarget } from './counting-target';
import { makeTempDir, newRegistration, removeDir, startTestServer, type TestServer } from './helpers';

/*
 * A server that dies mid-run (SIGKILL: no shutdown hook runs) leaves the run's row with the figures of
 * its last checkpoint (written every 5 s while it runs). The next start marks it "interrupted by a server
 * restart", and it can be compared and made the baseline as a partial run — with what it really measured,
 * never more than the target received. The first server is a real process, killed for real.
 */

const SERVER_MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const SERVER_DIR = fileURLToPath(new URL('..', import.meta.url));

let dataDir: string;
let target: CountingTarget;
let child: ChildProcess | undefined;
let restarted: TestServer | undefined;

/** Starts src/main.ts in its own process (through tsx) and answers its base URL once it listens. */
function startServerProcess(): Promise<string> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', SERVER_MAIN], {
      cwd: SERVER_DIR,
      env: {
        ...process.env,
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        DEMO_ACCOUNT: 'off',
        EXTERNAL_TOOLS: 'off',
        LOG_LEVEL: 'info',
        WEB_DIST_DIR: join(dataDir, 'no-web-build'),
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

beforeAll(async () => {
  dataDir = makeTempDir();
  target = await startCountingTarget();
});

afterAll(async () => {
  if (child?.exitCode === null) child.kill('SIGKILL');
  await restarted?.close();
  await target.close();
  removeDir(dataDir);
});

describe('a server killed during a run', () => {
  it('leaves the run interrupted with the figures of its last checkpoint, comparable as a partial run', async () => {
    const base = await startServerProcess();
    const post = (path: string, body: unknown, token?: string) =>
      fetch(`${base}${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify(body),
      });
    const account = newRegistration();
    await json(await post('/api/register', account));
    const { token } = await json<{ token: string }>(
      await post('/api/login', { username: account.email, password: account.password }),
    );
    const plan = await json<{ id: string }>(
      await post(
        '/api/save-test-plan',
        {
          name: 'Killed mid-run',
          tool: 'k6',
          concurrent_users: 2,
          duration: 1,
          urls: [{ method: 'GET', url: `${target.origin}/crash`, thinkTime: '20ms' }],
        },
        token,
      ),
    );
    const { test_id } = await json<{ test_id: string }>(
      await post('/api/run-test', { plan_id: plan.id, duration_seconds: 60 }, token),
    );

    // Past the first checkpoint (after 5 measured seconds) and on into the next interval.
    for (;;) {
      const live = await json<{ elapsed_seconds: number; status: string }>(
        await fetch(`${base}/api/get-test-result/${test_id}`, {
          headers: { authorization: `Bearer ${token}` },
        }),
      );
      expect(live.status).toBe('running');
      if (live.elapsed_seconds >= 7) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    child!.kill('SIGKILL');
    await new Promise((r) => child!.once('exit', r));
    const receivedAtKill = (await target.counts()).total;

    restarted = await startTestServer({ EXTERNAL_TOOLS: 'off' }, dataDir);
    // The test server's clock is its own, so sign in again there rather than reuse the first session.
    const signIn = await restarted.request({
      method: 'POST',
      url: '/api/login',
      body: { username: account.email, password: account.password },
    });
    const token2 = signIn.json<{ token: string }>().token;
    const get = (url: string) => restarted!.request({ method: 'GET', url, token: token2 });
    const result = (await get(`/api/get-test-result/${test_id}`)).json<{
      status: string;
      error: string;
      summary: { total_requests: number; test_duration: number } | null;
    }>();
    expect(result.status).toBe('failed');
    expect(result.error).toBe('interrupted by a server restart');
    expect(result.summary?.total_requests).toBeGreaterThan(0);
    expect(result.summary!.total_requests).toBeLessThanOrEqual(receivedAtKill);
    expect(result.summary!.test_duration).toBeGreaterThanOrEqual(5);

    // A second, completed run of the same plan compares with the interrupted one.
    const completed = (
      await restarted.request({
        method: 'POST',
        url: '/api/run-test',
        token: token2,
        body: { plan_id: plan.id, duration_seconds: 2 },
      })
    ).json<{ test_id: string }>().test_id;
    for (;;) {
      const status = (await get(`/api/get-test-result/${completed}`)).json<{ status: string }>().status;
      if (status === 'completed') break;
      expect(['running', 'processing']).toContain(status);
      await new Promise((r) => setTimeout(r, 250));
    }
    const comparison = await get(`/api/compare-test-results?base=${test_id}&candidate=${completed}`);
    expect(comparison.statusCode, comparison.body).toBe(200);
    const baseline = await restarted.request({
      method: 'POST',
      url: '/api/set-baseline',
      token: token2,
      body: { plan_id: plan.id, test_id },
    });
    expect(baseline.statusCode, baseline.body).toBe(200);
  }, 90_000);
});
