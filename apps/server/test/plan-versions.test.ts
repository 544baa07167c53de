import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeTestServer, startServerWithTwoUsers, type SignedInUser, type TestServer } from './helpers';

/*
 * Optimistic concurrency on saved plans (docs/reference/01-authoring.md §7 "Plan versions"): every saved
 * plan carries a version; an update that names the version it was made from is refused with 409 when the
 * plan changed since, and leaves the stored plan as it was. An update without a version (API clients,
 * the CLI) replaces the plan as before. On SQLite and, in the node-postgres project, on PostgreSQL.
 */

let server: TestServer;
let alice: SignedInUser;

beforeAll(async () => {
  ({ server, alice } = await startServerWithTwoUsers());
});

afterAll(() => closeTestServer(server));

const CHANGED = { code: 'PLAN_CHANGED', detail: 'This plan changed since you opened it' };

async function call(method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) {
  return server.request({ method, url, token: alice.token, ...(body === undefined ? {} : { body }) });
}

describe('performance plans', () => {
  const body = (overrides: Record<string, unknown> = {}) => ({
    name: 'Checkout flow',
    tool: 'k6',
    urls: [{ method: 'GET', url: 'http://127.0.0.1:9/basket' }],
    ...overrides,
  });

  async function save(): Promise<{ id: string; version: number }> {
    const response = await call('POST', '/api/save-test-plan', body());
    expect(response.statusCode).toBe(201);
    return response.json<{ plan: { id: string; version: number } }>().plan;
  }

  const get = async (id: string) =>
    (await call('GET', `/api/get-test-plan/${id}`)).json<{ name: string; version: number }>();
  const update = (id: string, extra: Record<string, unknown>) =>
    call('PUT', `/api/update-test-plan/${id}`, body(extra));

  it('a new plan is version 1, and each update moves it on by one', async () => {
    const saved = await save();
    expect(saved.version).toBe(1);
    const first = await update(saved.id, { name: 'v2', version: 1 });
    expect(first.statusCode).toBe(200);
    expect(first.json<{ plan: { version: number } }>().plan.version).toBe(2);
    const list = (await call('GET', '/api/get-test-plans')).json<{ id: string; version: number }[]>();
    expect(list.find((plan) => plan.id === saved.id)?.version).toBe(2);
  });

  it('refuses an update made from an older version with 409, and keeps the stored plan', async () => {
    const saved = await save();
    // Tab 1 saves first.
    expect((await update(saved.id, { name: 'Tab one', version: 1 })).statusCode).toBe(200);
    // Tab 2 still holds version 1.
    const stale = await update(saved.id, { name: 'Tab two', version: 1 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject(CHANGED);
    expect(await get(saved.id)).toMatchObject({ name: 'Tab one', version: 2 });
    // Overwriting on purpose: the update names the version it now knows.
    const overwrite = await update(saved.id, { name: 'Tab two', version: 2 });
    expect(overwrite.statusCode).toBe(200);
    expect(await get(saved.id)).toMatchObject({ name: 'Tab two', version: 3 });
  });

  it('lets exactly one of two updates made from the same version through', async () => {
    const saved = await save();
    const answers = await Promise.all([
      update(saved.id, { name: 'First', version: 1 }),
      update(saved.id, { name: 'Second', version: 1 }),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    const winner = answers.find((answer) => answer.statusCode === 200)!;
    const name = winner.json<{ plan: { name: string } }>().plan.name;
    expect(await get(saved.id)).toMatchObject({ name, version: 2 });
  });

  it('replaces the plan as before when the update names no version (API clients)', async () => {
    const saved = await save();
    expect((await update(saved.id, { name: 'Changed elsewhere', version: 1 })).statusCode).toBe(200);
    const blind = await update(saved.id, { name: 'From a script' });
    expect(blind.statusCode).toBe(200);
    expect(await get(saved.id)).toMatchObject({ name: 'From a script', version: 3 });
  });

  it('answers 404, not 409, for a plan that does not exist', async () => {
    const response = await update('no-such-plan', { version: 1 });
    expect(response.statusCode).toBe(404);
  });

  it('refuses a version that is not a whole number from 1, naming the field', async () => {
    const saved = await save();
    const response = await update(saved.id, { version: 'two' });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ detail: string }>().detail).toContain('version');
    expect(await get(saved.id)).toMatchObject({ name: 'Checkout flow', version: 1 });
  });

  it('a text command moves the version on, so an editor holding the old one is told', async () => {
    const saved = await save();
    const command = await call('POST', '/api/update-test-plan-command', {
      plan_id: saved.id,
      command: 'set concurrent users to 20',
    });
    expect(command.statusCode).toBe(200);
    expect(command.json<{ updated_plan: { version: number } }>().updated_plan.version).toBe(2);
    const stale = await update(saved.id, { version: 1 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject(CHANGED);
  });
});

describe('functional plans', () => {
  const body = (overrides: Record<string, unknown> = {}) => ({
    test_name: 'Orders API',
    apis: [{ name: 'Read order', url: 'http://127.0.0.1:9/orders/1' }],
    ...overrides,
  });

  async function save(): Promise<{ id: string; version: number }> {
    const response = await call('POST', '/api/functional/save-config', body());
    expect(response.statusCode).toBe(201);
    return response.json<{ id: string; version: number }>();
  }

  const get = async (id: string) =>
    (await call('GET', `/api/functional/get-test-config/${id}`)).json<{
      test_name: string;
      version: number;
    }>();
  const update = (id: string, extra: Record<string, unknown>) =>
    call('PUT', `/api/functional/update-config/${id}`, body(extra));

  it('save answers version 1; update answers the next one', async () => {
    const saved = await save();
    expect(saved.version).toBe(1);
    const updated = await update(saved.id, { test_name: 'v2', version: 1 });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toEqual({ id: saved.id, test_id: saved.id, version: 2 });
    expect(await get(saved.id)).toMatchObject({ test_name: 'v2', version: 2 });
  });

  it('refuses an update made from an older version with 409, and keeps the stored plan', async () => {
    const saved = await save();
    expect((await update(saved.id, { test_name: 'Tab one', version: 1 })).statusCode).toBe(200);
    const stale = await update(saved.id, { test_name: 'Tab two', version: 1 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject(CHANGED);
    expect(await get(saved.id)).toMatchObject({ test_name: 'Tab one', version: 2 });
  });

  it('lets exactly one of two updates made from the same version through', async () => {
    const saved = await save();
    const answers = await Promise.all([
      update(saved.id, { test_name: 'First', version: 1 }),
      update(saved.id, { test_name: 'Second', version: 1 }),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    expect((await get(saved.id)).version).toBe(2);
  });

  it('replaces the plan as before when the update names no version', async () => {
    const saved = await save();
    expect((await update(saved.id, { version: 1 })).statusCode).toBe(200);
    const blind = await update(saved.id, { test_name: 'From a script' });
    expect(blind.statusCode).toBe(200);
    expect(await get(saved.id)).toMatchObject({ test_name: 'From a script', version: 3 });
  });
});
