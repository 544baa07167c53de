import { execFile, spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { ApiTokenCreated, TestResult } from '@aqa/plan';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCountingTarget, type CountingTarget } from './counting-target';
import { closedPort } from './target-server';
import {
  closeTestServer,
  makeTempDir,
  registerAndLogin,
  removeDir,
  startTestServer,
  type TestServer,
} from './helpers';

/*
 * The served command line against the real server (docs/reference/02-running.md §7): downloaded from
 * GET /downloads/aqa.mjs into a folder with no node_modules, run with `node` as a CI job would, with
 * an API token in AQA_TOKEN, against saved plans aimed at a local target that counts what it receives.
 */

let server: TestServer;
let baseUrl: string;
let target: CountingTarget;
let session: string;
let apiToken: ApiTokenCreated;
let dir: string;

interface CliOutcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the downloaded aqa.mjs as a child process, with only PATH and the given variables. */
function aqa(args: string[], env: Record<string, string> = {}): Promise<CliOutcome> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(dir, 'aqa.mjs'), ...args],
      { cwd: dir, env: { PATH: process.env.PATH ?? '', ...env }, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

const withToken = (token = apiToken.token) => ({ AQA_SERVER: baseUrl, AQA_TOKEN: token });

async function post<T>(url: string, body: unknown, token = session): Promise<T> {
  const response = await server.request({ method: 'POST', url, token, body });
  if (response.statusCode !== 201) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
  return response.json<T>();
}

async function countedUnder(prefix: string): Promise<number> {
  const { byPath } = await target.counts();
  return Object.entries(byPath)
    .filter(([path]) => path.startsWith(prefix))
    .reduce((sum, [, n]) => sum + n, 0);
}

/** The run id the command prints when the server has started the run. */
function runIdOf(stdout: string): string {
  const id = /run (\S+) started on/.exec(stdout)?.[1];
  if (id === undefined) throw new Error(`no run id in: ${stdout}`);
  return id;
}

beforeAll(async () => {
  target = await startCountingTarget();
  server = await startTestServer({
    LOGIN_RATE_LIMIT_PER_IP: '1000',
    REGISTER_RATE_LIMIT_PER_IP: '1000',
    EXTERNAL_TOOLS: 'off',
  });
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
  session = (await registerAndLogin(server)).token;
  apiToken = await post<ApiTokenCreated>('/api/tokens', { name: 'CI' });
  dir = makeTempDir();
  // Downloaded as a CI job does: no session, no token.
  const response = await fetch(`${baseUrl}/downloads/aqa.mjs`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/javascript/);
  expect(response.headers.get('content-disposition')).toBe('attachment; filename="aqa.mjs"');
  writeFileSync(join(dir, 'aqa.mjs'), Buffer.from(await response.arrayBuffer()));
}, 120_000);

afterAll(async () => {
  await closeTestServer(server);
  await target.close();
  removeDir(dir);
});

describe('the served aqa command line', () => {
  it('runs with Node alone, nothing installed beside it: its help names the server commands, and a local test runs', async () => {
    expect(existsSync(join(dir, 'node_modules'))).toBe(false);
    const help = await aqa(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('aqa run --plan ID --server URL');
    expect(help.stdout).toContain('AQA_TOKEN');
    const testHelp = await aqa(['test', '--help']);
    expect(testHelp.stdout).toContain('aqa test --plan ID --server URL');

    // A local run too: the worker threads' code travels inside the one file.
    const plan = join(dir, 'local-plan.json');
    writeFileSync(
      plan,
      JSON.stringify({
        test_name: 'Local',
        apis: [{ name: 'Local call', url: `${target.origin}/cli-local` }],
      }),
    );
    const local = await aqa(['test', plan]);
    expect(local.code, local.stdout + local.stderr).toBe(0);
    expect(local.stdout).toMatch(/✓ Local call {2}200/);
    expect(await countedUnder('/cli-local')).toBe(1);
  });

  it('runs a saved load plan on the server with a token: live lines, the summary, exit 0, and the target counted every request', async () => {
    const plan = await post<{ id: string }>('/api/save-test-plan', {
      name: 'CLI load',
      tool: 'k6',
      concurrent_users: 2,
      duration: 1,
      thresholds: ['error_rate<1%'],
      urls: [{ method: 'GET', url: `${target.origin}/cli-load/items`, thinkTime: '50ms', name: 'Items' }],
    });
    const junit = join(dir, 'load-ok.xml');
    const run = await aqa(['run', '--plan', plan.id, '--duration', '2s', '--junit', junit], withToken());
    expect(run.stderr).toMatch(
      /\[\d+s\/2s\] users \d+ \| requests \d+ \| \d+ req\/s \| p95 [\d.]+ ms \| errors 0\.00%/,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Run completed: CLI load, 2 users');
    expect(run.stdout).toMatch(/PASS {2}error_rate<1%/);

    const stored = await server.request({
      method: 'GET',
      url: `/api/get-test-result/${runIdOf(run.stdout)}`,
      token: session,
    });
    const result = stored.json<TestResult>();
    expect(result.status).toBe('completed');
    const counted = await countedUnder('/cli-load/');
    expect(counted).toBeGreaterThan(0);
    expect(result.summary?.total_requests).toBe(counted);
    expect(run.stdout).toContain(counted.toLocaleString('en-US'));
    expect(readFileSync(junit, 'utf8')).toContain('name="error_rate&lt;1%"');
  }, 60_000);

  it('exits 1 when a threshold breaks, the plan’s own or --threshold, and writes the failure in JUnit', async () => {
    const plan = await post<{ id: string }>('/api/save-test-plan', {
      name: 'CLI gate',
      tool: 'k6',
      concurrent_users: 1,
      duration: 1,
      thresholds: ['p95<60s'],
      urls: [{ method: 'GET', url: `${target.origin}/cli-gate`, thinkTime: '50ms' }],
    });
    const junit = join(dir, 'gate.xml');
    const run = await aqa(
      ['run', '--plan', plan.id, '--duration', '1', '--threshold', 'requests<1', '--junit', junit, '--quiet'],
      withToken(),
    );
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toMatch(/PASS {2}p95<60s/);
    expect(run.stdout).toMatch(/FAIL {2}requests<1 {2}\(actual [1-9]/);
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toContain('failures="1"');
    expect(xml).toContain('<failure message="requests&lt;1 failed: actual');
  }, 60_000);

  it('runs a saved functional plan: exit 0 when every call passes, 1 with the failed rule when one fails', async () => {
    const plan = (name: string, path: string) => ({
      test_name: name,
      concurrent_users: 1,
      iterations: 2,
      think_time: 0,
      apis: [
        {
          name: 'Health',
          url: `${target.origin}${path}`,
          validations: [{ type: 'status_code', expected_value: '200' }],
        },
      ],
    });
    const passing = await post<{ id: string }>(
      '/api/functional/save-config',
      plan('CLI smoke', '/cli-fn/ok'),
    );
    const ok = await aqa(['test', '--plan', passing.id, '--junit', join(dir, 'fn-ok.xml')], withToken());
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/✓ Health/);
    expect(ok.stdout).toContain('calls 2: 2 passed, 0 failed');
    expect(await countedUnder('/cli-fn/ok')).toBe(2);
    expect(readFileSync(join(dir, 'fn-ok.xml'), 'utf8')).toContain('<testsuites');

    const failing = await post<{ id: string }>(
      '/api/functional/save-config',
      plan('CLI broken', '/fail/cli'),
    );
    const junit = join(dir, 'fn-fail.xml');
    const bad = await aqa(['test', '--plan', failing.id, '--junit', junit], withToken());
    expect(bad.code, bad.stderr).toBe(1);
    expect(bad.stdout).toMatch(/✗ Health.*500/);
    expect(bad.stdout).toContain('calls 2: 0 passed, 2 failed');
    expect(readFileSync(junit, 'utf8')).toContain('<failure');
  }, 60_000);

  it('runs a plan of a team workspace named by --workspace or AQA_WORKSPACE, and says where to look without', async () => {
    const team = await post<{ id: string }>('/api/workspaces', { name: 'CLI team' });
    const response = await server.request({
      method: 'POST',
      url: '/api/functional/save-config',
      token: session,
      headers: { 'x-workspace-id': team.id },
      body: {
        test_name: 'Team smoke',
        iterations: 1,
        think_time: 0,
        apis: [{ name: 'Team', url: `${target.origin}/cli-team/ok` }],
      },
    });
    expect(response.statusCode, response.body).toBe(201);
    const planId = response.json<{ id: string }>().id;
    const flagged = await aqa(['test', '--plan', planId, '--workspace', team.id], withToken());
    expect(flagged.code, flagged.stderr).toBe(0);
    const fromEnv = await aqa(['test', '--plan', planId], { ...withToken(), AQA_WORKSPACE: team.id });
    expect(fromEnv.code, fromEnv.stderr).toBe(0);
    expect(await countedUnder('/cli-team/ok')).toBe(2);
    // The token's personal workspace does not hold it: said, naming the option.
    const personal = await aqa(['test', '--plan', planId], withToken());
    expect(personal.code).toBe(2);
    expect(personal.stderr).toContain('--workspace');
  }, 60_000);

  it('prints each functional call as the server judges it, before the run ends, and each once', async () => {
    // The second API's answer takes 6 s: the first's line must be out well before the run ends.
    const slow = createServer((_req, res) => {
      setTimeout(() => res.end('late'), 6000);
    });
    await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
    const slowPort = (slow.address() as AddressInfo).port;
    try {
      const plan = await post<{ id: string }>('/api/functional/save-config', {
        test_name: 'CLI live',
        concurrent_users: 1,
        iterations: 1,
        think_time: 0,
        apis: [
          { name: 'First', url: `${target.origin}/cli-live/first` },
          { name: 'Slow', url: `http://127.0.0.1:${slowPort}/slow`, timeout: 20 },
        ],
      });
      const startedAt = Date.now();
      const child = spawn(process.execPath, [join(dir, 'aqa.mjs'), 'test', '--plan', plan.id], {
        cwd: dir,
        env: { PATH: process.env.PATH ?? '', ...withToken() },
      });
      let stdout = '';
      let firstAt: number | null = null;
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        if (firstAt === null && /✓ First/.test(stdout)) firstAt = Date.now();
      });
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      const endedAt = Date.now();
      expect(code, stdout).toBe(0);
      expect(firstAt, stdout).not.toBeNull();
      // Printed while the slow call was still waiting for its answer (6 s), not at the end.
      expect(endedAt - firstAt!, `first line ${firstAt! - startedAt} ms after the start`).toBeGreaterThan(
        2000,
      );
      expect(stdout.match(/✓ First/g)).toHaveLength(1);
      expect(stdout.match(/✓ Slow/g)).toHaveLength(1);
      expect(stdout).toContain('calls 2: 2 passed, 0 failed');
    } finally {
      slow.closeAllConnections();
      await new Promise((r) => slow.close(r));
    }
  }, 60_000);

  it('stops the run on the server at Ctrl-C, prints what it measured, and exits 2', async () => {
    const plan = await post<{ id: string }>('/api/save-test-plan', {
      name: 'CLI stopped',
      tool: 'k6',
      concurrent_users: 1,
      duration: 1,
      urls: [{ method: 'GET', url: `${target.origin}/cli-stop`, thinkTime: '50ms' }],
    });
    const child = spawn(
      process.execPath,
      [join(dir, 'aqa.mjs'), 'run', '--plan', plan.id, '--duration', '60'],
      {
        cwd: dir,
        env: { PATH: process.env.PATH ?? '', ...withToken() },
      },
    );
    let stdout = '';
    let stderr = '';
    let interrupted = false;
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => {
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        // The first live line: the run is going on the server.
        if (!interrupted && /\[1s\/60s\] users 1/.test(stderr)) interrupted = child.kill('SIGINT');
      });
      child.on('exit', resolve);
    });
    expect(code, stderr).toBe(2);
    expect(stderr).toContain('aqa: stopping the run on the server');
    expect(stderr).toContain('the run did not complete: it was stopped before its end');
    expect(stdout).toContain('Run stopped: CLI stopped');
    const stored = await server.request({
      method: 'GET',
      url: `/api/get-test-result/${runIdOf(stdout)}`,
      token: session,
    });
    expect(stored.json<TestResult>().status).toBe('stopped');
    expect(stored.json<TestResult>().summary?.total_requests).toBeGreaterThan(0);
  }, 60_000);

  it('exits 2 in words: an unknown plan, a server that is not there, and a revoked token', async () => {
    const unknown = await aqa(['run', '--plan', 'no-such-plan'], withToken());
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('performance plan no-such-plan was not found on');

    const gone = `http://127.0.0.1:${await closedPort()}`;
    const nowhere = await aqa(['test', '--plan', 'x'], { AQA_SERVER: gone, AQA_TOKEN: apiToken.token });
    expect(nowhere.code).toBe(2);
    expect(nowhere.stderr).toContain(`aqa test: cannot reach the server at ${gone}: connection refused`);

    const noToken = await aqa(['run', '--plan', 'x', '--server', baseUrl]);
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toContain('the server needs an API token: set AQA_TOKEN');

    const revoked = await post<ApiTokenCreated>('/api/tokens', { name: 'Revoked' });
    const deleted = await server.request({
      method: 'DELETE',
      url: `/api/tokens/${revoked.id}`,
      token: session,
    });
    expect(deleted.statusCode, deleted.body).toBeLessThan(300);
    const before = (await target.counts()).total;
    const refused = await aqa(['run', '--plan', 'x'], withToken(revoked.token));
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/refused the token \(401: .+\)/);
    expect((await target.counts()).total).toBe(before);
  }, 60_000);
});
