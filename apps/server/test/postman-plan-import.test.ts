import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeTestServer, registerAndLogin, startTestServer, type TestServer } from './helpers';
import { multipartBody as multipart, type Part } from './multipart-body';

/*
 * A Postman collection uploaded with its environment and a CSV (docs/adr/0029-postman-collections.md):
 * /api/functional/parse-file answers a plan that save-config takes as it is and that reads back intact,
 * and says how the collection's tests were carried.
 */

const V21 = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';
const COLLECTION = {
  info: { name: 'Orders API', schema: V21 },
  variable: [{ key: 'baseUrl', value: 'http://127.0.0.1:8080' }],
  item: [
    {
      name: 'Auth',
      item: [
        {
          name: 'Login',
          event: [
            {
              listen: 'test',
              script: {
                exec: [
                  'var jsonData = pm.response.json();',
                  'pm.test("Status code is 200", function () {',
                  '    pm.response.to.have.status(200);',
                  '});',
                  'pm.environment.set("token", jsonData.token);',
                ],
              },
            },
          ],
          request: {
            method: 'POST',
            header: [{ key: 'Content-Type', value: 'application/json' }],
            body: { mode: 'raw', raw: '{"user":"{{username}}"}' },
            url: { raw: '{{baseUrl}}/login', host: ['{{baseUrl}}'], path: ['login'] },
          },
        },
      ],
    },
    {
      name: 'Get order',
      event: [
        {
          listen: 'test',
          script: {
            exec: [
              'tests["order is echoed"] = pm.response.json().id === pm.iterationData.get("order_id");',
              'pm.test("Has lines", () => pm.expect(pm.response.json().lines).to.exist);',
            ],
          },
        },
      ],
      request: {
        method: 'GET',
        header: [{ key: 'Authorization', value: 'Bearer {{token}}' }],
        url: {
          raw: '{{baseUrl}}/orders/:id',
          host: ['{{baseUrl}}'],
          path: ['orders', ':id'],
          variable: [{ key: 'id', value: '{{order_id}}' }],
        },
      },
    },
  ],
};
const ENVIRONMENT = {
  name: 'Local',
  values: [
    { key: 'username', value: 'ada', enabled: true },
    { key: 'unused', value: 'x', enabled: false },
  ],
  _postman_variable_scope: 'environment',
};
const CSV = 'order_id,note\n7,first\n8,"second, with a comma"\n9,third\n';

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startTestServer({ LOGIN_RATE_LIMIT_PER_IP: '1000', REGISTER_RATE_LIMIT_PER_IP: '1000' });
  ({ token } = await registerAndLogin(server));
});

afterAll(() => closeTestServer(server));

async function parseFile(parts: Part[]) {
  const { payload, headers } = multipart(parts);
  return server.app.inject({
    method: 'POST',
    url: '/api/functional/parse-file',
    payload,
    headers: { ...headers, authorization: `Bearer ${token}` },
  });
}

const upload = (extra: Part[] = []): Part[] => [
  {
    name: 'file',
    filename: 'orders.postman_collection.json',
    content: Buffer.from(JSON.stringify(COLLECTION)),
  },
  { name: 'test_type', content: 'api' },
  ...extra,
];

describe('POST /api/functional/parse-file with a Postman collection', () => {
  it('answers a plan that save-config saves and that reads back intact', async () => {
    const parsed = await parseFile(
      upload([
        {
          name: 'environment',
          filename: 'local.postman_environment.json',
          content: Buffer.from(JSON.stringify(ENVIRONMENT)),
        },
        { name: 'data', filename: 'orders.csv', content: Buffer.from(CSV) },
      ]),
    );
    expect(parsed.statusCode, parsed.body).toBe(200);
    const answer = parsed.json<{
      apis: { url: string }[];
      plan: Record<string, unknown> & { apis: Record<string, unknown>[] };
      postman: unknown;
      warnings: { message: string }[];
    }>();
    expect(answer.postman).toEqual({ tests: 3, rules: 1, scripts: 2, left_out: [] });
    // The old answer is unchanged: the environment's and collection's values filled in.
    expect(answer.apis.map((a) => a.url)).toEqual([
      'http://127.0.0.1:8080/login',
      'http://127.0.0.1:8080/orders/{{order_id}}',
    ]);
    expect(answer.warnings.filter((w) => /script/.test(w.message))).toEqual([]);
    const { plan } = answer;
    expect(plan).toMatchObject({
      test_name: 'Orders API',
      iterations: 3,
      cookie_jar: true,
      follow_redirects: true,
      default_status_rule: false,
      variables: [{ name: 'baseUrl', value: 'http://127.0.0.1:8080' }],
      environment: { name: 'Local', values: [{ name: 'username', value: 'ada' }] },
      iteration_data: { name: 'orders.csv', format: 'csv', text: CSV },
    });
    expect(plan.apis[0]).toMatchObject({
      url: '{{baseUrl}}/login',
      group: 'Auth',
      body: '{"user":"{{username}}"}',
      validations: [{ name: 'Status code is 200', type: 'status_code', expected_value: '200' }],
      captures: [{ name: 'token', from: 'json_path', expression: '$.token' }],
    });
    expect(plan.apis[1]).toMatchObject({
      url: '{{baseUrl}}/orders/{{order_id}}',
      headers: { Authorization: 'Bearer {{token}}' },
      scripts: { prerequest: [], test: [{ origin: 'request' }] },
    });

    const saved = await server.request({
      method: 'POST',
      url: '/api/functional/save-config',
      token,
      body: plan,
    });
    expect(saved.statusCode, saved.body).toBe(201);
    const id = saved.json<{ test_id: string }>().test_id;
    const list = await server.request({ method: 'GET', url: '/api/functional/get-test-configs', token });
    expect(list.statusCode, list.body).toBe(200);
    const body = list.json<unknown>();
    const configs = (Array.isArray(body) ? body : ((body as { configs?: unknown[] }).configs ?? [])) as {
      id: string;
    }[];
    const back = configs.find((c) => c.id === id);
    expect(back).toMatchObject({
      ...plan,
      apis: plan.apis.map((api) => expect.objectContaining(api) as unknown),
    });
  });

  it('refuses a malformed data file, naming the file and the line', async () => {
    const parsed = await parseFile(
      upload([{ name: 'data', filename: 'orders.csv', content: Buffer.from('a,b\n1,2\n3\n') }]),
    );
    expect(parsed.statusCode).toBe(400);
    expect(parsed.json<{ detail: string }>().detail).toMatch(
      /^orders\.csv: row 2 \(line 3\) has 1 field\(s\) where the header row has 2$/,
    );
  });

  it('refuses an environment that is no environment', async () => {
    const parsed = await parseFile(
      upload([{ name: 'environment', filename: 'env.json', content: Buffer.from('{"name":"x"}') }]),
    );
    expect(parsed.statusCode).toBe(400);
    expect(parsed.json<{ detail: string }>().detail).toMatch(/env\.json: this is not a Postman environment/);
  });
});
