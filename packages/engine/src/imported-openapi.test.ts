import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiToPlan } from '@aqa/converters';
import { migratePlan, type UrlEntry } from '@aqa/plan';
import { FIXTURES_DIR } from '../test/fixtures';
import { startRun } from './run';
import { TestTarget } from './testing/target';

/**
 * A plan imported from the Petstore OpenAPI document runs in the built-in engine as it stands: every call
 * reaches the target, none pauses (imported calls have no think time), and once the values the import
 * summary lists as "needs a value" are given, every call reaches the path the document describes.
 */

const PETSTORE = `${FIXTURES_DIR}openapi/swagger-petstore/v3-openapi.yaml`;

const target = new TestTarget();
beforeAll(async () => {
  await target.start();
  target.route = (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{}');
  };
});
afterAll(async () => {
  await target.close();
});

function imported() {
  return openApiToPlan(
    { name: 'v3-openapi.yaml', bytes: new Uint8Array(readFileSync(PETSTORE)) },
    { baseUrl: `${target.origin}/api/v3` },
  );
}

async function runFor(urls: UrlEntry[], seconds: number) {
  const plan = migratePlan({ name: 'Petstore', concurrent_users: 1, duration: 1, urls });
  const handle = startRun(plan, { durationSeconds: seconds, workers: 1 });
  for await (const _snapshot of handle.snapshots) {
    // Drained so the run is not held back by unread snapshots.
  }
  return handle.result;
}

/** "METHOD /path" of every call the document describes, its path parameters given these values. */
function expectedCalls(steps: UrlEntry[], values: Record<string, string>): string[] {
  return steps.map((step) => {
    const path = new URL(step.url.replace(/\{\{(\w+)\}\}/g, (_m, name: string) => values[name] ?? ''))
      .pathname;
    return `${step.method} ${path}`;
  });
}

describe('a plan imported from Petstore, in the built-in engine', () => {
  it('runs as imported: every call is sent, none pauses, and the calls without variables hit their paths', async () => {
    const result = imported();
    expect(result.steps).toHaveLength(19);
    expect(result.steps.every((s) => s.thinkTime === '0')).toBe(true);
    target.reset();
    const run = await runFor(result.steps, 2);
    expect(run.summary.total_requests).toBeGreaterThan(0);
    const seen = new Set(target.recorded.map((r) => `${r.method} ${decodeURIComponent(r.path)}`));
    const plain = result.steps.filter((s) => !s.url.includes('{{'));
    expect(plain).toHaveLength(10);
    for (const call of expectedCalls(plain, {})) expect(seen).toContain(call);
    // The other 9 are sent too, with the variable as written: why the summary lists it as needing a value.
    expect(seen.size).toBe(19);
    expect(seen).toContain('GET /api/v3/pet/{{petId}}');
    expect(seen).toContain('DELETE /api/v3/user/{{username}}');
    // With no think time one user goes round the 19 calls many times in 2 s (with 5 s each: not once).
    expect(
      target.recorded.filter((r) => r.method === 'GET' && r.path === '/api/v3/store/inventory').length,
    ).toBeGreaterThan(3);
  });

  it('hits every path the document describes once the listed values are given', async () => {
    const result = imported();
    const values: Record<string, string> = { petId: '10', orderId: '7', username: 'user1' };
    expect(result.needsValue.map((v) => v.name).sort()).toEqual(Object.keys(values).sort());
    // What a user does with the "needs a value" list: put a value where the calls hold the variable.
    const filled = result.steps.map((step) => ({
      ...step,
      url: step.url.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => values[name] ?? whole),
    }));
    target.reset();
    await runFor(filled, 2);
    const counts = new Map<string, number>();
    for (const r of target.recorded)
      counts.set(`${r.method} ${r.path}`, (counts.get(`${r.method} ${r.path}`) ?? 0) + 1);
    const expected = expectedCalls(result.steps, values);
    expect(new Set(expected).size).toBe(19);
    for (const call of expected) expect(counts.get(call) ?? 0, call).toBeGreaterThan(0);
    expect([...counts.keys()].filter((call) => !expected.includes(call))).toEqual([]);

    const addPet = target.recorded.find((r) => r.method === 'POST' && r.path === '/api/v3/pet');
    expect(addPet?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(addPet?.body ?? '')).toMatchObject({ id: 10, name: 'doggie' });
    const byStatus = target.recorded.find((r) => r.path === '/api/v3/pet/findByStatus');
    expect(byStatus?.query.get('status')).toBe('available');
  });
});
