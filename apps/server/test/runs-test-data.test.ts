import { join } from 'node:path';
import type { TestResult } from '@aqa/plan';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCountingTarget, type CountingTarget } from './counting-target';
import { makeTempDir, registerAndLogin, removeDir, startTestServer, type TestServer } from './helpers';
import { waitForRunEnd } from './wait-for';

/*
 * A performance plan's test data through the server (docs/adr/0027-load-profiles.md "Test data"): saved and
 * answered with its CSV files and sources, run by the built-in engine with every row once, and never
 * handed to a runner that would run without the rows.
 */

let server: TestServer;
let target: CountingTarget;
let toolsDir: string;
let token: string;

beforeAll(async () => {
  toolsDir = makeTempDir();
  target = await startCountingTarget();
  server = await startTestServer({
    // No tool is found: the engine note says so, whatever the machine has.
    JMETER_CMD: join(toolsDir, 'no-jmeter-here'),
    K6_CMD: join(toolsDir, 'no-k6-here'),
    LOCUST_CMD: join(toolsDir, 'no-locust-here'),
    BZT_CMD: join(toolsDir, 'no-bzt-here'),
  });
  token = (await registerAndLogin(server)).token;
});

afterAll(async () => {
  await server.close();
  await target.close();
  removeDir(server.dataDir);
  removeDir(toolsDir);
});

/** A CSV of `n` rows: id 1..n. */
const csv = (n: number): string => ['id', ...Array.from({ length: n }, (_, i) => String(i + 1))].join('\n');

function planBody(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'With data',
    tool: 'k6',
    concurrent_users: 2,
    urls: [{ url: `${target.origin}/items/{{id}}`, thinkTime: '0' }],
    data_files: { 'ids.csv': csv(20) },
    data_sources: [{ path: 'ids.csv', loop: false }],
    ...over,
  };
}

async function save(body: Record<string, unknown>) {
  return server.request({ method: 'POST', url: '/api/save-test-plan', token, body });
}

async function savedId(body: Record<string, unknown>): Promise<string> {
  const response = await save(body);
  if (response.statusCode !== 201) throw new Error(`save failed: ${response.body}`);
  return response.json<{ id: string }>().id;
}

describe('a performance plan with test data', () => {
  it('is saved, updated and answered with its data files and sources', async () => {
    const response = await save(planBody());
    expect(response.statusCode).toBe(201);
    const id = response.json<{ id: string }>().id;
    const source = { path: 'ids.csv', loop: false, random_order: false, share: 'all' };
    expect(response.json<{ plan: unknown }>().plan).toMatchObject({
      data_files: { 'ids.csv': csv(20) },
      data_sources: [source],
    });
    const updated = await server.request({
      method: 'PUT',
      url: `/api/update-test-plan/${id}`,
      token,
      body: planBody({ data_sources: [{ path: 'ids.csv', share: 'user', delimiter: ',' }] }),
    });
    expect(updated.statusCode).toBe(200);
    const read = await server.request({ method: 'GET', url: `/api/get-test-plan/${id}`, token });
    expect(read.json()).toMatchObject({
      data_files: { 'ids.csv': csv(20) },
      data_sources: [{ path: 'ids.csv', loop: true, random_order: false, share: 'user', delimiter: ',' }],
    });
  });

  it('a malformed CSV is refused with its file and line', async () => {
    const response = await save(planBody({ data_files: { 'ids.csv': 'id,email\n1,a\n2\n' } }));
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('Data file \\"ids.csv\\" line 3: 1 field where the header has 2');
  });

  it('data over 10 MB is refused in words; a body over the limit of the call is a 413 naming it', async () => {
    const big = `id\n${'1234567\n'.repeat(1_400_000)}`;
    const refused = await save(planBody({ data_files: { 'ids.csv': big } }));
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('The data files together must be at most 10 MB');
    const huge = await save(planBody({ data_files: { 'a.csv': big, 'b.csv': big, 'c.csv': big } }));
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toEqual({
      detail: 'The request body is too large',
      code: 'PAYLOAD_TOO_LARGE',
      hint: 'This call takes a body of at most 28 MB.',
    });
  });

  it('runs in the built-in engine where its tool is missing: every row once, then the users end and the result says so', async () => {
    const planId = await savedId(planBody());
    await target.reset();
    const started = await server.request({
      method: 'POST',
      url: '/api/run-test',
      token,
      body: { plan_id: planId, duration_seconds: 30 },
    });
    expect(started.statusCode).toBe(201);
    // k6 runs shared test data where it is installed (docs/adr/0027-load-profiles.md "Runs in the tools").
    expect(started.json()).toMatchObject({
      engine: 'builtin',
      engine_note: 'ran with the built-in engine: Grafana k6 is not installed on this server',
    });
    const runId = started.json<{ test_id: string }>().test_id;
    const final = await waitForRunEnd<TestResult>(server, token, 'load', runId, 25_000);
    expect(final.status).toBe('completed');
    const { byPath } = await target.counts();
    const expected = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`/items/${i + 1}`, 1]));
    expect(byPath).toEqual(expected);
    expect(final.summary!.data_exhausted).toEqual([
      'test data "ids.csv" ran out after its 20 rows (loop: false): 2 users ended there',
    ]);
  }, 30_000);

  it('generate-script writes the CSV Data Set and says where the script reads the rows', async () => {
    const response = await server.request({
      method: 'POST',
      url: '/api/generate-script',
      token,
      body: { ...planBody(), tool: 'jmeter' },
    });
    expect(response.statusCode).toBe(200);
    const answer = response.json<{ script: string; warnings: { field: string; message: string }[] }>();
    expect(answer.script).toContain('<stringProp name="filename">aqa_data_1_ids.csv</stringProp>');
    expect(answer.warnings.map((w) => w.field)).toContain('data_sources[0]');
    const bad = await server.request({
      method: 'POST',
      url: '/api/generate-script',
      token,
      body: { ...planBody(), data_sources: [{ path: 'other.csv' }] },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('Data source \\"other.csv\\" names no file');
  });
});
