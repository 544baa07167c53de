import { spawnSync } from 'node:child_process';
import { copyFileSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'libsql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCountingTarget, type CountingTarget } from './counting-target';
import { makeTempDir, registerAndLogin, removeDir, startTestServer, type TestServer } from './helpers';
import { waitFor } from './wait-for';

/*
 * `npm run backup` (scripts/backup.ts, docs/operations.md "Backups"): taken from another process while
 * the server runs and a run writes its seconds, the copy opens as the database of a new server, which
 * finds every plan and run and the points of each.
 */

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

let target: CountingTarget;
let server: TestServer;
let restoredDir: string;
let token: string;
let password: string;
let email: string;
const planIds: string[] = [];
let completedRunId: string;
let liveRunId: string;

function backup(dataDir: string, ...args: string[]) {
  return backupWith({ DATA_DIR: dataDir }, ...args);
}

function backupWith(env: Record<string, string>, ...args: string[]) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/backup.ts', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

function rowsOf(file: string, query: string, ...args: unknown[]): unknown[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare(query).all(...args);
  } finally {
    db.close();
  }
}

const pointsQuery = 'select * from run_points where run_id = ? order by step_index, second';

async function api<T>(s: TestServer, method: 'GET' | 'POST', url: string, body?: unknown, status = 200) {
  const response = await s.request({ method, url, token, ...(body === undefined ? {} : { body }) });
  if (response.statusCode !== status)
    throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
  return response.json<T>();
}

beforeAll(async () => {
  target = await startCountingTarget();
  const noTool = join(tmpdir(), 'aqa-backup-test-no-tool');
  server = await startTestServer({
    EXTERNAL_TOOLS: 'off',
    JMETER_CMD: noTool,
    K6_CMD: noTool,
    LOCUST_CMD: noTool,
    BZT_CMD: noTool,
  });
  const login = await registerAndLogin(server);
  ({ token } = login);
  ({ email, password } = login.registration);
  for (const name of ['Checkout', 'Catalog']) {
    const saved = await api<{ id: string }>(
      server,
      'POST',
      '/api/save-test-plan',
      {
        name,
        tool: 'k6',
        concurrent_users: 1,
        duration: 1,
        urls: [{ method: 'GET', url: `${target.origin}/${name.toLowerCase()}`, thinkTime: '20ms' }],
      },
      201,
    );
    planIds.push(saved.id);
  }
  const start = (planId: string, seconds: number) =>
    api<{ test_id: string }>(
      server,
      'POST',
      '/api/run-test',
      { plan_id: planId, duration_seconds: seconds },
      201,
    );
  [{ test_id: completedRunId }, { test_id: liveRunId }] = await Promise.all([
    start(planIds[0]!, 2),
    start(planIds[1]!, 60),
  ]);
  await waitFor(
    'the short run to complete',
    async () => {
      const { status } = await api<{ status: string }>(
        server,
        'GET',
        `/api/get-test-result/${completedRunId}`,
      );
      return status === 'completed' ? true : undefined;
    },
    40_000,
    200,
  );
  const dbFile = join(server.dataDir, 'anybodyqa.db');
  await waitFor(
    'the long run to write seconds',
    () => (rowsOf(dbFile, pointsQuery, liveRunId).length >= 2 ? true : undefined),
    40_000,
    200,
  );
}, 90_000);

afterAll(async () => {
  await server?.close();
  await target?.close();
  if (server !== undefined) removeDir(server.dataDir);
  if (restoredDir !== undefined) removeDir(restoredDir);
});

describe('npm run backup', () => {
  it('on PostgreSQL, copies nothing and says to use pg_dump, never showing the password', () => {
    const refused = backupWith({
      DATA_DIR: server.dataDir,
      DATABASE_URL: 'postgres://aqa:s3cret@db.internal:6543/aqa',
    });
    expect(refused.status).toBe(2);
    expect(refused.output).toContain('PostgreSQL database (db.internal:6543/aqa)');
    expect(refused.output).toContain('pg_dump --format=custom');
    expect(refused.output).not.toContain('s3cret');
  });

  it('copies the database while a run writes; the copy serves every plan and run with its points', async () => {
    const source = join(server.dataDir, 'anybodyqa.db');
    const taken = backup(server.dataDir);
    expect(taken.output).toMatch(/Backed up/);
    expect(taken.status).toBe(0);
    const file = /to (\S+\/backups\/anybodyqa-[\dT-]+Z\.db)/.exec(taken.output)?.[1];
    expect(file, taken.output).toBeDefined();
    const copy = file!;
    expect(statSync(copy).mode & 0o077).toBe(0);

    // A second backup to the same file is refused and leaves it as it was.
    const bytes = readFileSync(copy);
    const again = backup(server.dataDir, '--to', copy);
    expect(again.status).toBe(1);
    expect(again.output).toContain('already exists');
    expect(readFileSync(copy).equals(bytes)).toBe(true);

    // The run kept writing after the copy was taken: the copy is a moment in the middle of it.
    const copiedLivePoints = rowsOf(copy, pointsQuery, liveRunId);
    expect(copiedLivePoints.length).toBeGreaterThanOrEqual(2);
    await waitFor(
      'the long run to write more',
      () => (rowsOf(source, pointsQuery, liveRunId).length > copiedLivePoints.length ? true : undefined),
      40_000,
      200,
    );
    // Every second the copy holds is the server's, unchanged.
    const key = (p: unknown) =>
      `${(p as { step_index: number }).step_index}/${(p as { second: number }).second}`;
    const serverPoints = new Map(rowsOf(source, pointsQuery, liveRunId).map((p) => [key(p), p]));
    for (const point of copiedLivePoints) expect(point).toEqual(serverPoints.get(key(point)));
    // Plans, the ended run and its points: exactly the server's.
    for (const query of [
      'select * from users order by id',
      'select * from plans order by id',
      `select * from runs where id = '${completedRunId}'`,
    ])
      expect(rowsOf(copy, query), query).toEqual(rowsOf(source, query));
    expect(rowsOf(copy, pointsQuery, completedRunId)).toEqual(rowsOf(source, pointsQuery, completedRunId));
    const chartBefore = await api<unknown>(server, 'GET', `/api/chart-data/${completedRunId}`);
    await server.close();

    // Restore as docs/operations.md says: the copy becomes the database file of a server.
    restoredDir = makeTempDir();
    copyFileSync(copy, join(restoredDir, 'anybodyqa.db'));
    const restored = await startTestServer({ EXTERNAL_TOOLS: 'off' }, restoredDir);
    try {
      const login = await restored.request({
        method: 'POST',
        url: '/api/login',
        body: { username: email, password },
      });
      expect(login.statusCode).toBe(200);
      token = login.json<{ token: string }>().token;
      const plans = await api<{ id: string }[]>(restored, 'GET', '/api/get-test-plans');
      expect(plans.map((p) => p.id).sort()).toEqual([...planIds].sort());
      const runs = await api<{ test_id: string }[]>(restored, 'GET', '/api/get-test-results');
      expect(runs.map((r) => r.test_id).sort()).toEqual([completedRunId, liveRunId].sort());
      expect(await api<unknown>(restored, 'GET', `/api/chart-data/${completedRunId}`)).toEqual(chartBefore);
      // The run that was going when the copy was taken ends as interrupted, with the seconds it had.
      const live = await api<{ series: unknown[] }>(restored, 'GET', `/api/chart-data/${liveRunId}`);
      const copiedSeconds = copiedLivePoints.filter((p) => (p as { step_index: number }).step_index === -1);
      expect(live.series).toHaveLength(copiedSeconds.length);
      const { status } = await api<{ status: string }>(restored, 'GET', `/api/get-test-result/${liveRunId}`);
      expect(status).not.toBe('running');
    } finally {
      await restored.close();
    }
  }, 90_000);
});
