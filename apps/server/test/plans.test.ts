import { generateScript } from '@aqa/converters';
import { migratePlan } from '@aqa/plan';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  closeTestServer,
  registerAndLogin,
  startServerWithTwoUsers,
  type SignedInUser,
  type TestServer,
} from './helpers';
import { withTestSql } from './test-database';

let server: TestServer;
let alice: SignedInUser;
let bob: SignedInUser;

beforeAll(async () => {
  ({ server, alice, bob } = await startServerWithTwoUsers());
});

afterAll(() => closeTestServer(server));

interface SavedPlan {
  id: string;
  _id: string;
  name: string;
  description: string;
  tool: string;
  concurrent_users: number;
  duration: number;
  urls: Record<string, unknown>[];
  script: string;
  script_edited: boolean;
  source_page: string;
  test_type: string;
  user_email: string;
  created_at: string;
  updated_at: string;
}

function planBody(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Checkout flow',
    description: 'Sign in, then read the basket',
    tool: 'k6',
    concurrent_users: 5,
    duration: 2,
    urls: [
      {
        method: 'POST',
        url: 'http://127.0.0.1:9/login',
        payload: '{"user":"ada"}',
        extractType: 'json',
        extractName: 'token',
        extractValue: '$.token',
        validations: [{ id: 1, name: 'Validation 1', type: 'status_code', expected_value: '200' }],
      },
      {
        method: 'GET',
        url: 'http://127.0.0.1:9/basket',
        headers: [{ name: 'Accept', value: 'application/json' }],
        authorization: { type: 'bearer', token: '{{token}}' },
      },
    ],
    ...overrides,
  };
}

async function save(token: string, body: unknown = planBody()) {
  const response = await server.request({ method: 'POST', url: '/api/save-test-plan', token, body });
  if (response.statusCode !== 201) throw new Error(`save failed: ${response.body}`);
  return response.json<{ id: string; plan: SavedPlan }>().plan;
}

async function get(token: string, id: string) {
  return server.request({ method: 'GET', url: `/api/get-test-plan/${id}`, token });
}

/** What the generators make of a plan body, for its own tool. */
function expectedScript(body: unknown) {
  const plan = migratePlan(body);
  return generateScript(plan, plan.tool);
}

describe('POST /api/save-test-plan', () => {
  it('answers 201 with the id under id, _id and plan_id, the message and the whole plan', async () => {
    const response = await server.request({
      method: 'POST',
      url: '/api/save-test-plan',
      token: alice.token,
      body: { ...planBody(), user_email: alice.email },
    });
    expect(response.statusCode).toBe(201);
    const body = response.json<{
      id: string;
      _id: string;
      plan_id: string;
      message: string;
      plan: SavedPlan;
    }>();
    expect(body.message).toBe('Test plan saved successfully');
    expect(body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body._id).toBe(body.id);
    expect(body.plan_id).toBe(body.id);
    expect(body.plan).toMatchObject({
      id: body.id,
      _id: body.id,
      name: 'Checkout flow',
      description: 'Sign in, then read the basket',
      tool: 'k6',
      concurrent_users: 5,
      duration: 2,
      source_page: 'url-input',
      test_type: 'performance',
      user_email: alice.email,
      script_edited: false,
      created_at: '2030-01-01T00:00:00.000Z',
      updated_at: '2030-01-01T00:00:00.000Z',
    });
    // The URL entries come back whole, with the model's defaults filled in.
    expect(body.plan.urls).toHaveLength(2);
    expect(body.plan.urls[0]).toMatchObject({
      method: 'POST',
      url: 'http://127.0.0.1:9/login',
      payload: '{"user":"ada"}',
      extractType: 'json',
      extractName: 'token',
      extractValue: '$.token',
      thinkTime: '5s',
      timeout: 30,
      validations: [
        { id: '1', name: 'Validation 1', type: 'status_code', expected_value: '200', description: '' },
      ],
    });
    expect(body.plan.urls[1]).toMatchObject({
      headers: [{ name: 'Accept', value: 'application/json' }],
      authorization: { type: 'bearer', token: '{{token}}' },
    });
  });

  it('generates the script for the plan’s tool when none is sent', async () => {
    const plan = await save(alice.token);
    const generated = expectedScript(planBody());
    expect(plan.script).toBe(generated.files[0]?.content);
    expect(plan.script).toContain("import http from 'k6/http'");
    expect(plan.script_edited).toBe(false);
  });

  it('keeps a script edited by hand, and marks it', async () => {
    const edited = '// my own k6 script\nexport default function () {}\n';
    const plan = await save(alice.token, planBody({ script: edited }));
    expect(plan.script).toBe(edited);
    expect(plan.script_edited).toBe(true);
  });

  it('does not mark a sent script that is the generator’s own (line endings aside)', async () => {
    const generated = expectedScript(planBody()).files[0]?.content ?? '';
    const plan = await save(alice.token, planBody({ script: generated.replaceAll('\n', '\r\n') }));
    expect(plan.script_edited).toBe(false);
    expect(plan.script).toBe(generated);
  });

  it('accepts the spec client’s looser shapes and stores them in the current model', async () => {
    const plan = await save(alice.token, {
      planName: 'Legacy client',
      tool: 'JMeter',
      concurrent_users: '7',
      duration: '3',
      urls: [
        {
          url: 'http://127.0.0.1:9/items',
          method: 'get',
          parameters: [{ name: 'page', value: 2 }],
          authorization: { type: 'apikey', keyName: 'X-Key', keyValue: 'k1' },
        },
      ],
    });
    expect(plan).toMatchObject({ name: 'Legacy client', tool: 'jmeter', concurrent_users: 7, duration: 3 });
    expect(plan.urls[0]).toMatchObject({
      method: 'GET',
      parameters: [{ key: 'page', value: '2' }],
      authorization: { type: 'api_key', keyName: 'X-Key', keyValue: 'k1' },
    });
  });

  it.each([
    ['a blank name', { name: '  ' }, 'name: Please enter a plan name'],
    ['no name', { name: undefined }, 'name: Please enter a plan name'],
    ['no URLs', { urls: [] }, 'urls: Please enter at least one valid URL'],
    ['a blank URL', { urls: [{ url: '' }] }, 'urls.0.url: Enter the URL'],
    [
      'an entry without a URL',
      { urls: [{ url: 'http://127.0.0.1:9/' }, { method: 'GET' }] },
      'urls.1.url: Enter the URL',
    ],
    [
      'a URL that is not one',
      { urls: [{ url: 'ftp://files' }] },
      'urls.0.url: Enter a full URL starting with http:// or https:// (or with a {{variable}})',
    ],
    [
      'too many users',
      { concurrent_users: 1001 },
      'concurrent_users: Concurrent users must be a whole number from 1 to 1000',
    ],
    ['an unknown tool', { tool: 'gatling' }, 'tool: Tool must be one of jmeter, k6, locust, taurus, soapui'],
    [
      'a bad method',
      { urls: [{ url: 'http://127.0.0.1:9/', method: 'FETCH' }] },
      'urls.0.method: Method must be one of GET, POST, PUT, DELETE, PATCH, HEAD, OPTIONS',
    ],
    [
      'a validation item with no expected value',
      {
        urls: [
          { url: 'http://127.0.0.1:9/', validations: [{ id: 1, type: 'status_code', expected_value: ' ' }] },
        ],
      },
      'urls.0.validations.0.expected_value: Enter the expected value',
    ],
    // docs/design.md §11: strict numbers, no control characters in names and URLs.
    [
      'a NUL in the name, instead of cutting the name at it',
      { name: 'Check\u0000out' },
      'name: Plan name cannot contain control characters or line breaks',
    ],
    [
      'a line separator in the name',
      { name: 'Check\u2028out' },
      'name: Plan name cannot contain control characters or line breaks',
    ],
    [
      'a NUL in the description',
      { description: 'one\ntwo\u0000' },
      'description: Description cannot contain control characters other than tabs and line breaks',
    ],
    [
      'a control character in a URL',
      { urls: [{ url: 'http://127.0.0.1:9/a\u0001b' }] },
      'urls.0.url: URL cannot contain control characters or line breaks',
    ],
    [
      'users as an exponent',
      { concurrent_users: '1e3' },
      'concurrent_users: Concurrent users must be a whole number from 1 to 1000',
    ],
    [
      'minutes in hex',
      { duration: '0x10' },
      'duration: Duration must be a whole number of minutes from 1 to 1440',
    ],
    [
      'null minutes',
      { duration: null },
      'duration: Duration must be a whole number of minutes from 1 to 1440',
    ],
  ])('refuses %s with 400 and a detail naming the field', async (_what, overrides, detail) => {
    const response = await server.request({
      method: 'POST',
      url: '/api/save-test-plan',
      token: alice.token,
      body: planBody(overrides),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ detail, code: 'VALIDATION_FAILED' });
  });

  it('reports every problem at once', async () => {
    const response = await server.request({
      method: 'POST',
      url: '/api/save-test-plan',
      token: alice.token,
      body: { name: '', duration: 0, urls: [{ url: '' }] },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ errors: { field: string }[] }>().errors.map((e) => e.field)).toEqual([
      'name',
      'duration',
      'urls.0.url',
    ]);
  });

  it('saves nothing when the body is refused', async () => {
    const user = await registerAndLogin(server);
    const refused = await server.request({
      method: 'POST',
      url: '/api/save-test-plan',
      token: user.token,
      body: planBody({ urls: [{ url: 'http://127.0.0.1:9/' }, { url: '' }] }),
    });
    expect(refused.statusCode).toBe(400);
    const list = await server.request({ method: 'GET', url: '/api/get-test-plans', token: user.token });
    expect(list.json()).toEqual([]);
    expect(list.headers['x-total-count']).toBe('0');
  });
});

describe('GET /api/get-test-plans', () => {
  it('lists only the signed-in user’s plans, newest first, with X-Total-Count and paging', async () => {
    const user = await registerAndLogin(server);
    const ids: string[] = [];
    for (const name of ['first', 'second', 'third']) {
      server.clock.advance(1000);
      ids.push((await save(user.token, planBody({ name }))).id);
    }
    const all = await server.request({
      method: 'GET',
      url: `/api/get-test-plans?user_email=${encodeURIComponent(user.registration.email)}`,
      token: user.token,
    });
    expect(all.statusCode).toBe(200);
    expect(all.headers['x-total-count']).toBe('3');
    const plans = all.json<SavedPlan[]>();
    expect(plans.map((p) => p.name)).toEqual(['third', 'second', 'first']);
    expect(plans.map((p) => p.id)).toEqual([...ids].reverse());
    for (const plan of plans) {
      for (const field of [
        'id',
        '_id',
        'name',
        'description',
        'tool',
        'concurrent_users',
        'duration',
        'urls',
        'script',
        'source_page',
        'created_at',
        'updated_at',
        'test_type',
      ]) {
        expect(plan).toHaveProperty(field);
      }
    }

    const page = await server.request({
      method: 'GET',
      url: '/api/get-test-plans?limit=1&offset=1',
      token: user.token,
    });
    expect(page.headers['x-total-count']).toBe('3');
    expect(page.json<SavedPlan[]>().map((p) => p.name)).toEqual(['second']);
  });

  it('refuses a bad page with 400 naming the parameter', async () => {
    const response = await server.request({
      method: 'GET',
      url: '/api/get-test-plans?limit=0',
      token: alice.token,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ detail: 'limit: Must be a whole number from 1 to 1000' });
  });
});

describe('GET /api/get-test-plan/{id}', () => {
  it('answers the plan in the shape the list uses', async () => {
    const saved = await save(alice.token);
    const response = await server.request({
      method: 'GET',
      url: `/api/get-test-plan/${saved.id}?user_email=${encodeURIComponent(alice.email.toUpperCase())}`,
      token: alice.token,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(saved);
  });

  it('answers 404 for an id that does not exist', async () => {
    const response = await get(alice.token, 'no-such-plan');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ detail: 'Test plan not found', code: 'PLAN_NOT_FOUND' });
  });

  it('loads a plan stored in an older shape through migratePlan', async () => {
    const saved = await save(alice.token);
    await withTestSql(server.database, async (sql) => {
      // A version-0 body as the spec's first client wrote it: {name,value} parameters, "apikey", headers as a map.
      await sql.run(
        'UPDATE plans SET schema_version = 0, body = ? WHERE id = ?',
        JSON.stringify({
          urls: [
            {
              url: 'http://127.0.0.1:9/old',
              method: 'post',
              body: '{"a":1}',
              parameters: [{ name: 'q', value: 1 }],
              headers: { 'X-Old': 'yes' },
              auth: { type: 'apikey', keyName: 'k', keyValue: 'v' },
            },
          ],
        }),
        saved.id,
      );
    });
    const response = await get(alice.token, saved.id);
    expect(response.statusCode).toBe(200);
    const plan = response.json<SavedPlan>();
    expect(plan.urls).toHaveLength(1);
    expect(plan.urls[0]).toMatchObject({
      url: 'http://127.0.0.1:9/old',
      method: 'POST',
      payload: '{"a":1}',
      parameters: [{ key: 'q', value: '1' }],
      headers: [{ name: 'X-Old', value: 'yes' }],
      authorization: { type: 'api_key', keyName: 'k', keyValue: 'v' },
    });
  });
});

describe('PUT /api/update-test-plan/{id}', () => {
  it('replaces the plan, keeps created_at and moves updated_at', async () => {
    const saved = await save(alice.token);
    server.clock.advance(60_000);
    const update = planBody({ name: 'Checkout flow v2', tool: 'locust', concurrent_users: 20 });
    const response = await server.request({
      method: 'PUT',
      url: `/api/update-test-plan/${saved.id}`,
      token: alice.token,
      body: { ...update, user_email: alice.email },
    });
    expect(response.statusCode).toBe(200);
    const body = response.json<{ id: string; message: string; plan: SavedPlan }>();
    expect(body.id).toBe(saved.id);
    expect(body.message).toBe('Test plan updated successfully');
    expect(body.plan).toMatchObject({
      id: saved.id,
      name: 'Checkout flow v2',
      tool: 'locust',
      concurrent_users: 20,
      created_at: saved.created_at,
    });
    expect(body.plan.updated_at > saved.updated_at).toBe(true);
    // The script follows the new tool.
    expect(body.plan.script).toBe(expectedScript(update).files[0]?.content);
    expect((await get(alice.token, saved.id)).json()).toEqual(body.plan);
  });

  it('leaves the stored plan unchanged when the update is refused', async () => {
    const saved = await save(alice.token);
    const response = await server.request({
      method: 'PUT',
      url: `/api/update-test-plan/${saved.id}`,
      token: alice.token,
      body: planBody({ name: 'Renamed', urls: [{ url: 'http://127.0.0.1:9/ok' }, { url: '' }] }),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ detail: 'urls.1.url: Enter the URL' });
    expect((await get(alice.token, saved.id)).json()).toEqual(saved);
  });

  it('answers 404 for an id that does not exist', async () => {
    const response = await server.request({
      method: 'PUT',
      url: '/api/update-test-plan/no-such-plan',
      token: alice.token,
      body: planBody(),
    });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ detail: 'Test plan not found' });
  });
});

describe('DELETE /api/delete-test-plan/{id}', () => {
  it('deletes the plan; a second delete is 404', async () => {
    const saved = await save(alice.token);
    const response = await server.request({
      method: 'DELETE',
      url: `/api/delete-test-plan/${saved.id}?user_email=${encodeURIComponent(alice.email)}`,
      token: alice.token,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: 'Test plan deleted' });
    expect((await get(alice.token, saved.id)).statusCode).toBe(404);
    const again = await server.request({
      method: 'DELETE',
      url: `/api/delete-test-plan/${saved.id}`,
      token: alice.token,
    });
    expect(again.statusCode).toBe(404);
  });
});

describe('GET /api/download-script/{id}', () => {
  it('generates the script afresh from the saved plan with its tool', async () => {
    const saved = await save(alice.token, planBody({ name: 'Nightly smoke', tool: 'jmeter' }));
    const response = await server.request({
      method: 'GET',
      url: `/api/download-script/${saved.id}`,
      token: alice.token,
    });
    expect(response.statusCode).toBe(200);
    const body = response.json<{ script: string; filename: string; warnings: unknown[] }>();
    const generated = expectedScript(planBody({ name: 'Nightly smoke', tool: 'jmeter' }));
    expect(body).toEqual({
      script: generated.files[0]?.content,
      filename: 'testplan_jmeter_Nightly_smoke.jmx',
      warnings: generated.warnings,
    });
    expect(body.script).toContain('<jmeterTestPlan');
  });

  it('returns a script edited by hand as it was saved, and says so', async () => {
    const edited = '<jmeterTestPlan><!-- tuned by hand --></jmeterTestPlan>';
    const saved = await save(alice.token, planBody({ name: 'Tuned', tool: 'jmeter', script: edited }));
    const response = await server.request({
      method: 'GET',
      url: `/api/download-script/${saved.id}`,
      token: alice.token,
    });
    expect(response.json()).toEqual({
      script: edited,
      filename: 'testplan_jmeter_Tuned.jmx',
      warnings: [
        {
          field: 'script',
          message: 'This script was edited by hand: it is returned as saved, not generated from the plan.',
        },
      ],
    });
  });
});

describe('POST /api/generate-script', () => {
  it.each([
    ['jmeter', 'testplan_jmeter_Shop.jmx', '<jmeterTestPlan'],
    ['k6', 'testplan_k6_Shop.js', "from 'k6/http'"],
    ['locust', 'testplan_locust_Shop.py', 'from locust import'],
    ['taurus', 'testplan_taurus_Shop.yml', 'execution:'],
    ['soapui', 'testplan_soapui_Shop.xml', 'soapui-project'],
  ])('writes the %s script with its file name', async (tool, filename, marker) => {
    const body = { urls: planBody().urls, concurrent_users: 3, duration: 1, tool, name: 'Shop' };
    const response = await server.request({
      method: 'POST',
      url: '/api/generate-script',
      token: alice.token,
      body,
    });
    expect(response.statusCode).toBe(200);
    const answer = response.json<{ script: string; filename: string; warnings: unknown[]; tool: string }>();
    const generated = expectedScript(body);
    expect(answer).toEqual({
      script: generated.files[0]?.content,
      filename,
      warnings: generated.warnings,
      tool,
    });
    expect(answer.script).toContain(marker);
  });

  it('names the file "current" when the plan has no name', async () => {
    const response = await server.request({
      method: 'POST',
      url: '/api/generate-script',
      token: alice.token,
      body: { urls: [{ url: 'http://127.0.0.1:9/' }], concurrent_users: 1, duration: 1, tool: 'k6' },
    });
    expect(response.json()).toMatchObject({ filename: 'testplan_k6_current.js' });
  });

  it('answers "No APIs to generate script for" when there are no URLs', async () => {
    for (const body of [{ urls: [], tool: 'k6' }, { tool: 'k6' }]) {
      const response = await server.request({
        method: 'POST',
        url: '/api/generate-script',
        token: alice.token,
        body,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ detail: 'No APIs to generate script for' });
    }
  });

  it('refuses a bad entry with its field path', async () => {
    const response = await server.request({
      method: 'POST',
      url: '/api/generate-script',
      token: alice.token,
      body: { urls: [{ url: 'http://127.0.0.1:9/', thinkTime: 'soon' }], tool: 'k6' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ detail: string }>().detail).toMatch(/^urls\.0\.thinkTime: Think time "soon"/);
  });
});

describe('scoping', () => {
  it('another user’s plan is 404 to read, update, delete or download, and stays as it was', async () => {
    const saved = await save(alice.token);
    const attempts = [
      { method: 'GET' as const, url: `/api/get-test-plan/${saved.id}` },
      {
        method: 'PUT' as const,
        url: `/api/update-test-plan/${saved.id}`,
        body: planBody({ name: 'Stolen' }),
      },
      { method: 'DELETE' as const, url: `/api/delete-test-plan/${saved.id}` },
      { method: 'GET' as const, url: `/api/download-script/${saved.id}` },
    ];
    for (const attempt of attempts) {
      const response = await server.request({ ...attempt, token: bob.token });
      expect(response.statusCode, `${attempt.method} ${attempt.url}`).toBe(404);
      expect(response.json()).toMatchObject({ detail: 'Test plan not found' });
    }
    expect((await get(alice.token, saved.id)).json()).toEqual(saved);
    const bobs = await server.request({ method: 'GET', url: '/api/get-test-plans', token: bob.token });
    expect(bobs.json<SavedPlan[]>().map((p) => p.id)).not.toContain(saved.id);
  });

  it('a user_email naming someone else is 403 on every call', async () => {
    const saved = await save(alice.token);
    const other = encodeURIComponent(bob.email);
    const scriptBody = { urls: [{ url: 'http://127.0.0.1:9/' }], tool: 'k6', user_email: bob.email };
    const attempts = [
      { method: 'POST' as const, url: '/api/save-test-plan', body: { ...planBody(), user_email: bob.email } },
      {
        method: 'PUT' as const,
        url: `/api/update-test-plan/${saved.id}`,
        body: { ...planBody(), user_email: bob.email },
      },
      { method: 'GET' as const, url: `/api/get-test-plans?user_email=${other}` },
      { method: 'GET' as const, url: `/api/get-test-plan/${saved.id}?user_email=${other}` },
      { method: 'DELETE' as const, url: `/api/delete-test-plan/${saved.id}?user_email=${other}` },
      { method: 'GET' as const, url: `/api/download-script/${saved.id}?user_email=${other}` },
      { method: 'POST' as const, url: '/api/generate-script', body: scriptBody },
      { method: 'POST' as const, url: '/api/validate-script', body: scriptBody },
    ];
    for (const attempt of attempts) {
      const response = await server.request({ ...attempt, token: alice.token });
      expect(response.statusCode, `${attempt.method} ${attempt.url}`).toBe(403);
      expect(response.json()).toMatchObject({ code: 'USER_MISMATCH' });
    }
    expect((await get(alice.token, saved.id)).json()).toEqual(saved);
  });

  it('every plan call needs a session (401)', async () => {
    const attempts = [
      { method: 'POST' as const, url: '/api/save-test-plan', body: planBody() },
      { method: 'PUT' as const, url: '/api/update-test-plan/x', body: planBody() },
      { method: 'GET' as const, url: '/api/get-test-plans' },
      { method: 'GET' as const, url: '/api/get-test-plan/x' },
      { method: 'DELETE' as const, url: '/api/delete-test-plan/x' },
      { method: 'GET' as const, url: '/api/download-script/x' },
      { method: 'POST' as const, url: '/api/generate-script', body: { urls: [] } },
      { method: 'POST' as const, url: '/api/validate-script', body: { urls: [] } },
    ];
    for (const attempt of attempts) {
      const response = await server.request(attempt);
      expect(response.statusCode, `${attempt.method} ${attempt.url}`).toBe(401);
    }
  });
});

describe('OpenAPI', () => {
  it('documents every plan call with its schemas', async () => {
    const doc = (await server.request({ method: 'GET', url: '/api/docs/json' })).json<{
      paths: Record<string, Record<string, { requestBody?: unknown; responses: Record<string, unknown> }>>;
      components: { schemas: Record<string, unknown> };
    }>();
    expect(doc.paths['/api/save-test-plan']?.post?.requestBody).toBeDefined();
    expect(doc.paths['/api/save-test-plan']?.post?.responses).toHaveProperty('201');
    expect(doc.paths['/api/validate-script']?.post?.responses).toHaveProperty('200');
    for (const path of [
      '/api/update-test-plan/{id}',
      '/api/get-test-plans',
      '/api/get-test-plan/{id}',
      '/api/delete-test-plan/{id}',
      '/api/download-script/{id}',
      '/api/generate-script',
    ]) {
      expect(doc.paths).toHaveProperty([path]);
    }
    expect(doc.components.schemas).toHaveProperty('SavedPlan');
    expect(doc.components.schemas).toHaveProperty('ValidationResponse');
  });
});
