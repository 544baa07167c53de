import type { ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { ValidationResponse } from '@aqa/plan';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAndLogin, removeDir, startTestServer, type TestServer } from './helpers';
import { closedPort, type ReceivedRequest, sendJson, startTarget, type TargetServer } from './target-server';

let server: TestServer;
let token: string;
let target: TargetServer;
let tlsTarget: TargetServer;

const USER = {
  id: 1,
  name: 'Ada',
  active: true,
  roles: ['admin', 'qa'],
  score: 10,
  manager: null,
  friends: [{ id: 2, name: 'Grace' }],
};
const BIG_BODY_BYTES = 6 * 1024 * 1024;

function guard(request: ReceivedRequest, response: ServerResponse, allowed: boolean) {
  if (allowed) sendJson(response, 200, { ok: true, path: request.path });
  else sendJson(response, 401, { error: 'unauthorized' });
}

/** The target's routes: what each test calls, and what each one checks of the request it gets. */
function route(request: ReceivedRequest, response: ServerResponse): void {
  const auth = request.headers.authorization;
  switch (request.path) {
    case '/users/1':
      return sendJson(response, 200, USER, { 'x-request-id': 'req-42' });
    case '/delayed':
      setTimeout(() => sendJson(response, 200, USER), 60);
      return;
    case '/echo':
      return sendJson(response, 200, {
        method: request.method,
        query: Object.fromEntries(request.query),
        headers: request.headers,
        body: request.body,
      });
    case '/login':
      return sendJson(response, 200, { token: 'tok-123', user: { id: 7 } });
    case '/orders':
      return guard(request, response, auth === 'Bearer tok-123' && request.query.get('user') === '7');
    case '/bearer':
      return guard(request, response, auth === 'Bearer secret-token');
    case '/basic':
      return guard(
        request,
        response,
        auth === `Basic ${Buffer.from('ada:pw:with:colons').toString('base64')}`,
      );
    case '/apikey-header':
      return guard(request, response, request.headers['x-api-key'] === 'k-1');
    case '/apikey-query':
      return guard(request, response, request.query.get('api_key') === 'k-2');
    case '/oauth/token': {
      const form = new URLSearchParams(request.body);
      const valid =
        request.method === 'POST' &&
        form.get('grant_type') === 'client_credentials' &&
        form.get('client_id') === 'cid' &&
        form.get('client_secret') === 'c:secret' &&
        form.get('scope') === 'orders.read';
      if (!valid) return sendJson(response, 401, { error: 'invalid_client' });
      return sendJson(response, 200, { access_token: 'oauth-tok', token_type: 'Bearer', expires_in: 3600 });
    }
    case '/oauth/api':
      return guard(request, response, auth === 'Bearer oauth-tok');
    case '/status/500':
      response.writeHead(500, { 'content-type': 'text/plain' });
      return void response.end('boom');
    case '/xml':
      response.writeHead(200, { 'content-type': 'application/xml' });
      return void response.end('<user><id>1</id><name>Ada</name></user>');
    case '/big':
      response.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(BIG_BODY_BYTES) });
      return void response.end(Buffer.alloc(BIG_BODY_BYTES, 'a'));
    case '/never':
      // Never answers: the time-out tests.
      return;
    default:
      return sendJson(response, 404, { error: 'no such route' });
  }
}

beforeAll(async () => {
  server = await startTestServer({ LOGIN_RATE_LIMIT_PER_IP: '1000', REGISTER_RATE_LIMIT_PER_IP: '1000' });
  token = (await registerAndLogin(server)).token;
  target = await startTarget(route);
  tlsTarget = await startTarget(route, { tls: true });
});

afterAll(async () => {
  await target.close();
  await tlsTarget.close();
  await server.close();
  removeDir(server.dataDir);
});

async function validate(urls: unknown[], via = server) {
  const session = via === server ? token : (await registerAndLogin(via)).token;
  const response = await via.request({
    method: 'POST',
    url: '/api/validate-script',
    token: session,
    // What the URL screen sends (docs/reference/01-authoring.md §7).
    body: { urls, tool: 'jmeter', concurrent_users: 1, duration: 1, validation_mode: true },
  });
  if (response.statusCode !== 200)
    throw new Error(`validate answered ${response.statusCode}: ${response.body}`);
  return response.json<ValidationResponse>();
}

const items = (...pairs: [string, string][]) =>
  pairs.map(([type, expected_value], i) => ({
    id: i + 1,
    name: `Validation ${i + 1}`,
    type,
    expected_value,
  }));

describe('POST /api/validate-script: validation items', () => {
  it('judges a passing item of every type PASS', async () => {
    const result = await validate([
      {
        url: `${target.origin}/users/1`,
        validations: items(
          ['status_code', '200'],
          ['status_code', '2xx'],
          ['status_code', '201, 200'],
          ['response_time', '5000'],
          ['json_path', '$.name'],
          ['json_path', '$.manager'],
          ['json_path', '$.name == Ada'],
          ['json_path', '$.name = "Ada"'],
          ['json_path', 'score == 10.0'],
          ['json_path', "roles[1] == 'qa'"],
          ['json_path', '$.friends[?(@.id==2)].name == Grace'],
          ['json_path', '$.name != Grace'],
          ['contains_text', '"name":"Ada"'],
          ['header_value', 'X-Request-Id: req-42'],
          ['header_value', 'content-type: APPLICATION/JSON'],
          ['header_value', 'x-request-id'],
          ['header_value', 'application/json'],
          ['response_size', '10000'],
        ),
      },
    ]);
    const [api] = result.api_results;
    for (const check of api?.validations ?? []) {
      expect(check.status, `${check.type} ${check.expected_value}: ${check.message}`).toBe('success');
    }
    expect(result).toMatchObject({ total_apis: 1, successful: 1, failed: 0 });
    expect(api).toMatchObject({
      status: 'success',
      method: 'GET',
      url: `${target.origin}/users/1`,
      response_status: 200,
      error: null,
    });
    expect(api?.response_time).toBeGreaterThanOrEqual(0);
    expect(api?.validations?.find((c) => c.expected_value === '$.name == Ada')).toMatchObject({
      actual_value: 'Ada',
    });
    expect(api?.validations?.find((c) => c.type === 'response_size')).toMatchObject({
      actual_value: String(Buffer.byteLength(JSON.stringify(USER))),
    });
  });

  it('judges a failing item of every type FAIL, with the actual value and why', async () => {
    const result = await validate([
      {
        url: `${target.origin}/delayed`,
        validations: items(
          ['status_code', '201'],
          ['response_time', '10'],
          ['json_path', '$.missing'],
          ['json_path', '$.name == Grace'],
          ['json_path', '$.roles[?(@=="ops")]'],
          ['contains_text', 'Hopper'],
          ['header_value', 'Content-Type: text/html'],
          ['header_value', 'X-Missing'],
          ['response_size', '11'],
        ),
      },
    ]);
    expect(result).toMatchObject({ total_apis: 1, successful: 0, failed: 1 });
    const [api] = result.api_results;
    expect(api?.status).toBe('error');
    expect(api?.error).toBe('9 of 9 validations failed');
    const byExpected = Object.fromEntries((api?.validations ?? []).map((c) => [c.expected_value, c]));
    expect(byExpected['201']).toMatchObject({
      status: 'error',
      actual_value: '200',
      message: 'Status 200 is not 201',
    });
    expect(byExpected['10']).toMatchObject({ status: 'error' });
    expect(Number(byExpected['10']?.actual_value)).toBeGreaterThanOrEqual(50);
    expect(byExpected['$.missing']).toMatchObject({
      status: 'error',
      actual_value: null,
      message: '$.missing matches nothing',
    });
    expect(byExpected['$.name == Grace']).toMatchObject({
      status: 'error',
      actual_value: 'Ada',
      message: '$.name is Ada, not Grace',
    });
    // A filter judges (docs/adr/0022-linear-time-patterns.md): no role "ops", so it matches nothing.
    expect(byExpected['$.roles[?(@=="ops")]']).toMatchObject({
      status: 'error',
      message: '$.roles[?(@=="ops")] matches nothing',
    });
    expect(byExpected.Hopper).toMatchObject({ status: 'error', actual_value: 'not found' });
    expect(byExpected['Content-Type: text/html']).toMatchObject({
      status: 'error',
      actual_value: 'application/json',
    });
    expect(byExpected['X-Missing']).toMatchObject({
      status: 'error',
      message: 'Header X-Missing is missing',
    });
    expect(byExpected['10']?.type).toBe('response_time');
    const size = api?.validations?.find((c) => c.type === 'response_size');
    expect(size).toMatchObject({
      status: 'error',
      actual_value: String(Buffer.byteLength(JSON.stringify(USER))),
    });
  });

  it('names the one failed item in the API’s error', async () => {
    const result = await validate([
      {
        url: `${target.origin}/users/1`,
        validations: items(['status_code', '200'], ['contains_text', 'Hopper']),
      },
    ]);
    expect(result.api_results[0]?.error).toBe(
      'Validation "Validation 2" failed: The body does not contain "Hopper"',
    );
  });

  it('a malformed expected value is a FAIL that says what is expected', async () => {
    const result = await validate([
      {
        url: `${target.origin}/users/1`,
        validations: items(['status_code', 'ok'], ['response_time', 'fast']),
      },
    ]);
    const [status, time] = result.api_results[0]?.validations ?? [];
    expect(status?.message).toBe('Expected value "ok" is not a status code such as 200, 2xx or 200, 201');
    expect(time?.message).toBe('Expected value "fast" is not a number of milliseconds');
  });
});

describe('POST /api/validate-script: the entry’s assertion and status', () => {
  it('judges the assertion of each type; a failed one makes the API an error', async () => {
    const result = await validate([
      {
        url: `${target.origin}/users/1`,
        assertionType: 'json',
        assertionPath: '$.name',
        assertionValue: 'Ada',
      },
      {
        url: `${target.origin}/users/1`,
        assertionType: 'json',
        assertionPath: '$.name',
        assertionValue: 'Grace',
      },
      {
        url: `${target.origin}/xml`,
        assertionType: 'xml',
        assertionPath: '/user/name',
        assertionValue: 'Ad',
        assertionOperator: 'contains',
      },
      {
        url: `${target.origin}/users/1`,
        assertionType: 'text',
        assertionValue: '"score":\\d+',
        assertionOperator: 'regex',
      },
      {
        url: `${target.origin}/users/1`,
        assertionType: 'status',
        assertionValue: '200',
        assertionOperator: 'not_equals',
      },
    ]);
    expect(result.api_results.map((r) => r.status)).toEqual([
      'success',
      'error',
      'success',
      'success',
      'error',
    ]);
    expect(result.api_results[1]?.error).toBe('Assertion failed: $.name "Ada" equals "Grace" is false');
    expect(result.api_results[4]?.error).toBe('Assertion failed: status "200" not equals "200" is false');
  });

  it('reads an expected JSON literal as that value, in the assertion and the items (docs/design.md §4)', async () => {
    const json = (assertionPath: string, assertionValue: string, assertionOperator = 'equals') => ({
      url: `${target.origin}/users/1`,
      assertionType: 'json',
      assertionPath,
      assertionValue,
      assertionOperator,
    });
    const result = await validate([
      json('$.name', '"Ada"'),
      json('$.score', '10.0'),
      json('$.active', 'true'),
      json('$.manager', 'null'),
      json('$.name', '"Grace"', 'not_equals'),
      // A number is no string, and the string "1" is no number (Hurl's and chai's rule).
      json('$.id', '"1"'),
      {
        url: `${target.origin}/users/1`,
        validations: items(
          ['json_path', '$.name == "Ada"'],
          ['json_path', '$.manager == null'],
          ['json_path', '$.active == true'],
          ['json_path', '$.id == "1"'],
          ['json_path', '$.active == "true"'],
        ),
      },
    ]);
    expect(result.api_results.map((r) => r.status)).toEqual([
      'success',
      'success',
      'success',
      'success',
      'success',
      'error',
      'error',
    ]);
    expect(result.api_results[5]?.error).toBe('Assertion failed: $.id 1 equals "1" is false');
    expect(result.api_results[6]?.validations?.map((c) => c.status)).toEqual([
      'success',
      'success',
      'success',
      'error',
      'error',
    ]);
  });

  it('an answer of 400 or more is an error unless a status check expects it', async () => {
    const result = await validate([
      { url: `${target.origin}/status/500` },
      { url: `${target.origin}/status/500`, assertionType: 'status', assertionValue: '500' },
      { url: `${target.origin}/status/500`, validations: items(['status_code', '5xx']) },
    ]);
    expect(result.api_results.map((r) => r.status)).toEqual(['error', 'success', 'success']);
    expect(result.api_results[0]).toMatchObject({
      response_status: 500,
      error: 'The API answered 500 Internal Server Error',
    });
  });
});

describe('POST /api/validate-script: the requests', () => {
  it('sends each request once, in order, with its method, parameters, headers and payload', async () => {
    const before = target.received.length;
    const result = await validate([
      {
        method: 'GET',
        url: `${target.origin}/echo?fixed=1`,
        parameters: [
          { key: 'page', value: '{{sequence_number,100}}' },
          { key: '', value: 'dropped' },
          { key: 'blank', value: ' ' },
        ],
        headers: [
          { name: 'X-Trace', value: 'run-{{sequence_number,5}}' },
          { name: 'X-Blank', value: '' },
        ],
        payload: '{"ignored":true}',
      },
      { method: 'POST', url: `${target.origin}/echo`, payload: '{"n":{{sequence_number,10}}}' },
      {
        method: 'PUT',
        url: `${target.origin}/echo`,
        payload: '<a/>',
        headers: [{ name: 'Content-Type', value: 'text/xml' }],
      },
      { method: 'PATCH', url: `${target.origin}/echo`, payload: 'plain text' },
      { method: 'DELETE', url: `${target.origin}/echo`, payload: 'not sent' },
    ]);
    expect(result).toMatchObject({ total_apis: 5, successful: 5, failed: 0 });
    const sent = target.received.slice(before);
    expect(sent.map((r) => `${r.method} ${r.url}`)).toEqual([
      'GET /echo?fixed=1&page=1',
      'POST /echo',
      'PUT /echo',
      'PATCH /echo',
      'DELETE /echo',
    ]);
    expect(sent[0]?.headers['x-trace']).toBe('run-1');
    expect(sent[0]?.headers).not.toHaveProperty('x-blank');
    expect(sent[0]?.body).toBe('');
    expect(sent[1]).toMatchObject({ body: '{"n":1}' });
    expect(sent[1]?.headers['content-type']).toBe('application/json');
    expect(sent[2]).toMatchObject({ body: '<a/>' });
    expect(sent[2]?.headers['content-type']).toBe('text/xml');
    expect(sent[3]).toMatchObject({ body: 'plain text' });
    expect(sent[4]?.body).toBe('');
    expect(result.api_results[0]?.url).toBe(`${target.origin}/echo?fixed=1&page=1`);
  });

  it('sends what a load run sends: a space in a parameter as %20, a header written twice with its later row', async () => {
    const before = target.received.length;
    const result = await validate([
      {
        url: `${target.origin}/echo`,
        parameters: [{ key: 'q', value: 'two words' }],
        headers: [
          { name: 'X-Tag', value: 'first' },
          { name: 'x-tag', value: 'second' },
        ],
      },
    ]);
    const [sent] = target.received.slice(before);
    expect(sent?.url).toBe('/echo?q=two%20words');
    expect(sent?.headers['x-tag']).toBe('second');
    // docs/call-core.md "What a call sends": the URL Validate shows is the one sent.
    expect(result.api_results[0]?.url).toBe(`${target.origin}/echo?q=two%20words`);
  });

  it('applies bearer, basic and API-key (header and query) authorization', async () => {
    const result = await validate([
      { url: `${target.origin}/bearer`, authorization: { type: 'bearer', token: 'secret-token' } },
      {
        url: `${target.origin}/basic`,
        authorization: { type: 'basic', username: 'ada', password: 'pw:with:colons' },
      },
      {
        url: `${target.origin}/apikey-header`,
        authorization: { type: 'api_key', keyName: 'X-Api-Key', keyValue: 'k-1', in: 'header' },
      },
      {
        url: `${target.origin}/apikey-query`,
        authorization: { type: 'apikey', keyName: 'api_key', keyValue: 'k-2', in: 'query' },
      },
      // The Authorization field wins over an Authorization header typed in the list.
      {
        url: `${target.origin}/bearer`,
        headers: [{ name: 'authorization', value: 'Bearer wrong' }],
        authorization: { type: 'bearer', token: 'secret-token' },
      },
      { url: `${target.origin}/bearer`, authorization: { type: 'bearer', token: 'wrong' } },
    ]);
    expect(result.api_results.map((r) => r.status)).toEqual([
      'success',
      'success',
      'success',
      'success',
      'success',
      'error',
    ]);
    expect(result.api_results[5]).toMatchObject({
      response_status: 401,
      error: 'The API answered 401 Unauthorized',
    });
  });

  it('fetches an OAuth2 client-credentials token once and sends it as a bearer token', async () => {
    const tokenCalls = target.count('/oauth/token');
    const apiCalls = target.count('/oauth/api');
    const oauth = {
      type: 'oauth2',
      token: 'cid:c:secret',
      tokenUrl: `${target.origin}/oauth/token`,
      scope: 'orders.read',
    };
    const result = await validate([
      { url: `${target.origin}/oauth/api`, authorization: oauth },
      { url: `${target.origin}/oauth/api?second=1`, authorization: oauth },
    ]);
    expect(result.api_results.map((r) => r.status)).toEqual(['success', 'success']);
    expect(target.count('/oauth/token') - tokenCalls).toBe(1);
    expect(target.count('/oauth/api') - apiCalls).toBe(2);
  });

  it('reports a refused token request as the API’s error, without calling the API', async () => {
    const apiCalls = target.count('/oauth/api');
    const result = await validate([
      {
        url: `${target.origin}/oauth/api`,
        authorization: { type: 'oauth2', token: 'cid:wrong', tokenUrl: `${target.origin}/oauth/token` },
      },
    ]);
    expect(result.api_results[0]).toMatchObject({
      status: 'error',
      error: `OAuth2 token request to ${target.origin}/oauth/token failed: the token endpoint answered 401 Unauthorized`,
    });
    expect(target.count('/oauth/api')).toBe(apiCalls);
  });

  it('uses what step 1 extracted in step 2', async () => {
    const before = target.received.length;
    const result = await validate([
      {
        method: 'POST',
        url: `${target.origin}/login`,
        extractType: 'json',
        extractName: 'token',
        extractValue: '$.token',
      },
      {
        url: `${target.origin}/login`,
        extractType: 'regex',
        extractName: 'userId',
        extractValue: '"id":(\\d+)',
      },
      {
        url: `${target.origin}/orders`,
        parameters: [{ key: 'user', value: '{{userId}}' }],
        authorization: { type: 'bearer', token: '{{token}}' },
      },
    ]);
    expect(result.api_results.map((r) => r.status)).toEqual(['success', 'success', 'success']);
    const orders = target.received.slice(before).find((r) => r.path === '/orders');
    expect(orders?.headers.authorization).toBe('Bearer tok-123');
    expect(orders?.query.get('user')).toBe('7');
  });

  it('warns when an extraction finds nothing, and later steps get the variable as written', async () => {
    const before = target.received.length;
    const result = await validate([
      { url: `${target.origin}/login`, extractType: 'json', extractName: 'token', extractValue: '$.missing' },
      { url: `${target.origin}/echo`, headers: [{ name: 'X-Token', value: '{{token}}' }] },
    ]);
    expect(result.api_results[0]).toMatchObject({
      status: 'warning',
      error: 'Nothing was extracted into {{token}}: the json extraction found no match',
    });
    expect(target.received.slice(before)[1]?.headers['x-token']).toBe('{{token}}');
  });

  it('reports a URL that is not one after templating, without sending it', async () => {
    const result = await validate([{ url: '{{base}}/users' }]);
    expect(result.api_results[0]).toMatchObject({ status: 'error', error: 'Invalid URL: {{base}}/users' });
  });
});

describe('POST /api/validate-script: failures are per-API errors, never a crash', () => {
  it('a refused connection', async () => {
    const port = await closedPort();
    const result = await validate([
      { url: `http://127.0.0.1:${port}/x`, validations: items(['status_code', '200']) },
    ]);
    expect(result).toMatchObject({ total_apis: 1, successful: 0, failed: 1 });
    expect(result.api_results[0]).toMatchObject({
      status: 'error',
      response_status: null,
      response_time: null,
      error: `Connection refused by 127.0.0.1:${port}`,
      validations: [{ status: 'error', message: 'Not checked: the request got no answer' }],
    });
  });

  it('a host that does not exist', async () => {
    const result = await validate([{ url: 'http://nope.invalid/x' }]);
    expect(result.api_results[0]?.status).toBe('error');
    expect(result.api_results[0]?.error).toMatch(/^Host not found: nope\.invalid/);
  });

  it('a time-out, after which the next API is still validated', async () => {
    const started = performance.now();
    const result = await validate([
      { url: `${target.origin}/never`, timeout: 1 },
      { url: `${target.origin}/users/1` },
    ]);
    expect(performance.now() - started).toBeLessThan(3000);
    expect(result.api_results[0]).toMatchObject({ status: 'error', error: 'Timed out after 1 s' });
    expect(result.api_results[1]?.status).toBe('success');
  });

  it('a self-signed certificate', async () => {
    const result = await validate([{ url: `${tlsTarget.origin}/users/1` }]);
    expect(result.api_results[0]).toMatchObject({
      status: 'error',
      error: 'TLS error: self-signed certificate',
    });
  });

  it('TLS spoken to a plain HTTP port', async () => {
    const result = await validate([{ url: `https://127.0.0.1:${target.port}/users/1` }]);
    expect(result.api_results[0]?.status).toBe('error');
    expect(result.api_results[0]?.error).toMatch(/^TLS error: wrong version number/);
  });

  it('an answer over 5 MB is read only up to 5 MB, and says so', async () => {
    const result = await validate([
      { url: `${target.origin}/big`, validations: items(['response_size', String(BIG_BODY_BYTES)]) },
    ]);
    expect(result.api_results[0]).toMatchObject({
      status: 'warning',
      response_status: 200,
      error: 'The answer is larger than 5 MB: only its first 5 MB were read and checked',
      validations: [{ status: 'success', actual_value: String(BIG_BODY_BYTES) }],
    });
  });

  it('the whole validation is bounded: a step is cut short and later ones are not sent', async () => {
    const limited = await startTestServer({ LOGIN_RATE_LIMIT_PER_IP: '1000' }, undefined, {
      validationLimits: { totalMs: 1500 },
    });
    try {
      const started = performance.now();
      const result = await validate(
        [
          { url: `${target.origin}/never`, timeout: 1 },
          { url: `${target.origin}/never`, timeout: 1 },
          { url: `${target.origin}/users/1` },
        ],
        limited,
      );
      expect(performance.now() - started).toBeLessThan(3000);
      expect(result.api_results.map((r) => r.status)).toEqual(['error', 'error', 'skipped']);
      expect(result.api_results[0]?.error).toBe('Timed out after 1 s');
      expect(result.api_results[1]?.error).toMatch(
        /^Timed out after 0\.\d s \(the whole validation is limited to 1\.5 s\)$/,
      );
      expect(result.api_results[2]?.error).toBe('Not sent: the whole validation is limited to 1.5 s');
      expect(result).toMatchObject({ total_apis: 3, successful: 0, failed: 3 });
    } finally {
      await limited.close();
      removeDir(limited.dataDir);
    }
  });
});

describe('POST /api/validate-script: bad input', () => {
  it('answers "No APIs to validate" when there are no URLs', async () => {
    for (const body of [{ urls: [] }, {}, { urls: null }]) {
      const response = await server.request({ method: 'POST', url: '/api/validate-script', token, body });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ detail: 'No APIs to validate', code: 'NO_APIS' });
    }
  });

  it('refuses a bad entry with its field path, sending nothing', async () => {
    const before = target.received.length;
    const response = await server.request({
      method: 'POST',
      url: '/api/validate-script',
      token,
      body: { urls: [{ url: `${target.origin}/users/1` }, { url: '' }] },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ detail: 'urls.1.url: Enter the URL' });
    expect(target.received.length).toBe(before);
  });
});
