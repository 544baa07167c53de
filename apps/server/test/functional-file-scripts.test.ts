import { readFileSync } from 'node:fs';
import { sampleCsv, sampleXlsx } from '@aqa/converters';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES } from './fixtures';
import { closeTestServer, registerAndLogin, startTestServer, type TestServer } from './helpers';
import { multipartBody as multipart, type Part } from './multipart-body';

/*
 * The file parse's script reads back (docs/reference/02-running.md §7 "Script calls"): for each format
 * the functional screen uploads, the Taurus script /api/functional/parse-file answers, read by
 * /api/functional/parse-script, calls the same APIs the file parse lists — method, URL with its query,
 * headers, body and the rules a script can express.
 */

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startTestServer({ LOGIN_RATE_LIMIT_PER_IP: '1000', REGISTER_RATE_LIMIT_PER_IP: '1000' });
  ({ token } = await registerAndLogin(server));
});

afterAll(() => closeTestServer(server));

interface Api {
  name: string;
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string;
  params: Record<string, string> | { name: string; value: string }[];
  validations: { type: string; expected_value: string }[];
}

/** What a call sends and is judged by, in one comparable shape. */
function sent(api: Api) {
  const url = new URL(api.url.replace(/\{\{/g, '%7B%7B').replace(/\}\}/g, '%7D%7D'));
  const params = Array.isArray(api.params)
    ? api.params.map((p) => [p.name, p.value])
    : Object.entries(api.params);
  for (const [name, value] of params) url.searchParams.append(name!, value!);
  return {
    method: api.method,
    url: decodeURIComponent(url.toString()),
    headers: Object.fromEntries(Object.entries(api.headers).map(([k, v]) => [k.toLowerCase(), v])),
    body: api.body,
    validations: api.validations
      .filter((v) => v.type !== 'schema')
      .map((v) => `${v.type} ${v.expected_value}`),
  };
}

const FILES: [string, string, () => Buffer][] = [
  [
    'postman',
    'collection.json',
    () => readFileSync(`${FIXTURES}postman/newman/examples/sample-collection.json`),
  ],
  ['swagger', 'openapi.yaml', () => readFileSync(`${FIXTURES}openapi/swagger-petstore/v3-openapi.yaml`)],
  ['csv', 'apis.csv', () => Buffer.from(sampleCsv())],
  ['excel', 'apis.xlsx', () => Buffer.from(sampleXlsx())],
  ['har', 'full.har', () => readFileSync(`${FIXTURES}har/har-to-k6/example/full.har`)],
  [
    'curl',
    'calls.sh',
    () =>
      Buffer.from(
        'curl -X POST https://api.test/users -H \'Content-Type: application/json\' -d \'{"name":"Ada"}\'\ncurl https://api.test/users?page=2 -H "Authorization: Bearer abc"\n',
      ),
  ],
];

describe('the file parse script reads back', () => {
  it.each(FILES)('%s: the script calls the APIs the file parse lists', async (format, filename, content) => {
    const { payload, headers } = multipart([
      { name: 'file', filename, content: content() },
      { name: 'format', content: format },
      { name: 'test_type', content: 'api' },
    ] satisfies Part[]);
    const parsedFile = await server.app.inject({
      method: 'POST',
      url: '/api/functional/parse-file',
      payload,
      headers: { ...headers, authorization: `Bearer ${token}` },
    });
    expect(parsedFile.statusCode, parsedFile.body).toBe(200);
    const file = parsedFile.json<{ script: string; apis: Api[] }>();
    expect(file.apis.length).toBeGreaterThan(0);

    const read = await server.request({
      method: 'POST',
      url: '/api/functional/parse-script',
      token,
      body: { script_content: file.script },
    });
    expect(read.statusCode, read.body).toBe(200);
    const script = read.json<{ apis: Api[]; warnings: unknown[] }>();
    expect(script.apis.map(sent)).toEqual(file.apis.map(sent));
  });
});
