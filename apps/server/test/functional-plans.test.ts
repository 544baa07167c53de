import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeTestServer, startServerWithTwoUsers, type SignedInUser, type TestServer } from './helpers';

/* The saved functional plan calls of docs/reference/02-running.md §7, on a real server and SQLite. */

let server: TestServer;
let alice: SignedInUser;
let bob: SignedInUser;

beforeAll(async () => {
  ({ server, alice, bob } = await startServerWithTwoUsers());
});

afterAll(() => closeTestServer(server));

function planBody(overrides: Record<string, unknown> = {}) {
  return {
    test_name: 'Orders API',
    description: 'Create an order, then read it',
    concurrent_users: '2',
    iterations: 3,
    think_time: '',
    test_type: 'functional',
    source: 'url_input',
    apis: [
      {
        id: 7,
        name: 'Create order',
        url: 'http://127.0.0.1:9/orders',
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{"item":"tea"}',
        timeout: 'soon',
        validations: [{ id: 1, name: 'Created', type: 'status_code', expected_value: '201' }],
        captures: [{ name: 'order', from: 'json_path', expression: '$.id' }],
      },
      { name: 'Read order', url: 'http://127.0.0.1:9/orders/{{order}}' },
    ],
    ...overrides,
  };
}

type Saved = Record<string, unknown> & {
  id: string;
  apis: Record<string, unknown>[];
  created_at: string;
  updated_at: string;
};

async function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, body?: unknown) {
  return server.request({ method, url, token, ...(body === undefined ? {} : { body }) });
}

async function save(token: string, body: unknown = planBody()): Promise<string> {
  const response = await call('POST', '/api/functional/save-config', token, body);
  if (response.statusCode !== 201) throw new Error(`save failed: ${response.body}`);
  const answer = response.json<{ id: string; test_id: string }>();
  expect(answer).toEqual({ id: answer.id, test_id: answer.id, version: 1 });
  return answer.id;
}

describe('functional plans', () => {
  it('saves a plan as the model reads it and answers it by both paths, with the server-owned fields', async () => {
    const id = await save(alice.token, {
      ...planBody(),
      status: 'completed',
      user_email: alice.email.toUpperCase(),
    });
    for (const path of ['get-test-config', 'get-test-plan']) {
      const response = await call(
        'GET',
        `/api/functional/${path}/${id}?user_email=${alice.email}`,
        alice.token,
      );
      expect(response.statusCode).toBe(200);
      const plan = response.json<Saved>();
      expect(plan).toMatchObject({
        id,
        _id: id,
        test_name: 'Orders API',
        concurrent_users: 2,
        iterations: 3,
        // A blank think time falls back to 1 (docs/reference/02-running.md §5).
        think_time: 1,
        test_framework: 'taurus',
        // The server owns the status: "saved" until a run.
        status: 'saved',
        user_email: alice.email,
      });
      expect(plan.apis[0]).toMatchObject({
        id: '7',
        timeout: 30,
        captures: [{ name: 'order', from: 'json_path', expression: '$.id' }],
        validations: [{ id: '1', type: 'status_code', expected_value: '201', enabled: true }],
      });
      expect(plan.apis[1]).toMatchObject({ method: 'GET', timeout: 30, validations: [] });
    }
  });

  it("updates and lists the user's plans newest first, and deletes them", async () => {
    const first = await save(bob.token, planBody({ test_name: 'First' }));
    server.clock.advance(1000);
    const second = await save(bob.token, planBody({ test_name: 'Second' }));
    server.clock.advance(1000);
    const updated = await call('PUT', `/api/functional/update-config/${first}`, bob.token, {
      ...planBody({ test_name: 'First, renamed', iterations: 5 }),
      user_email: bob.email,
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toEqual({ id: first, test_id: first, version: 2 });

    const list = await call('GET', `/api/functional/get-test-configs?user_email=${bob.email}`, bob.token);
    expect(list.statusCode).toBe(200);
    const plans = list.json<Saved[]>();
    expect(plans.map((p) => [p.id, p.test_name, p.iterations])).toEqual([
      [second, 'Second', 3],
      [first, 'First, renamed', 5],
    ]);
    expect(plans[1]!.updated_at > plans[1]!.created_at).toBe(true);

    const deleted = await call('DELETE', `/api/functional/delete-config/${second}`, bob.token);
    expect(deleted.statusCode).toBe(200);
    expect((await call('GET', `/api/functional/get-test-plan/${second}`, bob.token)).statusCode).toBe(404);
    const after = (await call('GET', '/api/functional/get-test-configs', bob.token)).json<Saved[]>();
    expect(after.map((p) => p.id)).toEqual([first]);
  });

  it("refuses a plan the model refuses with the model's messages, naming each field", async () => {
    const response = await call('POST', '/api/functional/save-config', alice.token, {
      test_name: ' ',
      apis: [
        { name: 'ok', url: 'http://127.0.0.1:9/' },
        { name: '', url: '' },
      ],
    });
    expect(response.statusCode).toBe(400);
    const { detail } = response.json<{ detail: string }>();
    for (const message of [
      'test_name: Test name is required',
      'apis.1.name: API #2 name is required',
      'apis.1.url: API #2 URL is required',
    ]) {
      expect(detail).toContain(message);
    }
    const bounds = await call(
      'POST',
      '/api/functional/save-config',
      alice.token,
      planBody({ concurrent_users: 101 }),
    );
    expect(bounds.statusCode).toBe(400);
    expect(bounds.json<{ detail: string }>().detail).toBe(
      'concurrent_users: Concurrent users must be a whole number from 1 to 100',
    );
    const noApis = await call(
      'PUT',
      `/api/functional/update-config/${await save(alice.token)}`,
      alice.token,
      {
        test_name: 'x',
        apis: [],
      },
    );
    expect(noApis.statusCode).toBe(400);
    expect(noApis.json<{ detail: string }>().detail).toContain('At least one API must be configured');
  });

  it("answers another user's plan as not found and a foreign user_email as forbidden", async () => {
    const id = await save(alice.token);
    for (const [method, path, body] of [
      ['GET', `get-test-config/${id}`, undefined],
      ['GET', `get-test-plan/${id}`, undefined],
      ['PUT', `update-config/${id}`, planBody()],
      ['DELETE', `delete-config/${id}`, undefined],
    ] as const) {
      const response = await call(method, `/api/functional/${path}`, bob.token, body);
      expect(response.statusCode, `${method} ${path}`).toBe(404);
      expect(response.json()).toMatchObject({ code: 'PLAN_NOT_FOUND', detail: 'Test plan not found' });
    }
    for (const [method, path, body] of [
      ['GET', `get-test-config/${id}?user_email=${alice.email}`, undefined],
      ['GET', `get-test-configs?user_email=${alice.email}`, undefined],
      ['DELETE', `delete-config/${id}?user_email=${alice.email}`, undefined],
      ['POST', 'save-config', { ...planBody(), user_email: alice.email }],
    ] as const) {
      const response = await call(method, `/api/functional/${path}`, bob.token, body);
      expect(response.statusCode, `${method} ${path}`).toBe(403);
      expect(response.json()).toMatchObject({ code: 'USER_MISMATCH' });
    }
    expect(
      (await call('GET', '/api/functional/get-test-configs', bob.token)).json<Saved[]>(),
    ).not.toContainEqual(expect.objectContaining({ id }));
    expect((await call('GET', `/api/functional/get-test-plan/${id}`, alice.token)).statusCode).toBe(200);
    expect((await call('GET', '/api/functional/get-test-plan/no-such-plan', alice.token)).statusCode).toBe(
      404,
    );
  });
});
