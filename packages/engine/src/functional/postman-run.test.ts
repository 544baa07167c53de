import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FunctionalPlanSchema } from '@aqa/plan';
import { TestTarget } from '../testing/target';
import { functionalRunProblems } from './plan-checks';
import { FunctionalRunner, type JudgedCall } from './runner';

/*
 * A plan from a Postman collection runs as Newman runs it (docs/adr/0029-postman-collections.md),
 * against a real local server that records what it receives.
 */

const target = new TestTarget();
beforeAll(async () => {
  await target.start();
  target.route = (req, res) => {
    const json = (status: number, body: unknown, headers: Record<string, string | string[]> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    if (req.path === '/login') {
      return json(200, { token: 'tok-123' });
    }
    if (req.path === '/login-cookie') {
      return json(
        200,
        { ok: true },
        {
          'set-cookie': [
            'sid=abc; Path=/',
            'adm=1; Path=/admin',
            'sec=1; Secure; Path=/',
            'old=1; Path=/; Max-Age=0',
          ],
        },
      );
    }
    if (req.path === '/me') {
      return /(^|; )sid=abc(;|$)/.test(req.headers.cookie ?? '')
        ? json(200, { me: 'ada' })
        : json(403, { cookie: req.headers.cookie ?? null });
    }
    if (req.path === '/moved') {
      res.writeHead(Number(req.query.get('status') ?? 302), { location: '/final' });
      res.end();
      return;
    }
    if (req.path === '/login-redirect') {
      res.writeHead(302, { location: '/me', 'set-cookie': 'sid=abc; Path=/; HttpOnly' });
      res.end();
      return;
    }
    if (req.path === '/loop') {
      res.writeHead(302, { location: '/loop' });
      res.end();
      return;
    }
    json(200, { method: req.method, path: req.path, query: Object.fromEntries(req.query), body: req.body });
  };
});
afterAll(async () => {
  await target.close();
});
beforeEach(() => target.reset());

/** A plan as JSON would hold it (the model reads and checks it). */
function plan(input: Record<string, unknown>) {
  return FunctionalPlanSchema.parse({ test_name: 'postman', think_time: 0, ...input });
}

async function run(input: Record<string, unknown>): Promise<JudgedCall[]> {
  const judged: JudgedCall[] = [];
  await new FunctionalRunner(plan(input), { insecureTls: false, onCall: (j) => judged.push(j) }).run();
  return judged;
}

const url = (path: string) => `${target.origin}${path}`;

describe('variables', () => {
  it('resolves a name local > data row > environment > collection > globals, and leaves an unknown one as written', async () => {
    const scope = (value: string, names: string[]) => names.map((name) => ({ name, value }));
    const calls = await run({
      globals: scope('global', ['a', 'b', 'c', 'd', 'e', 'base path']),
      variables: scope('collection', ['b', 'c', 'd', 'e']),
      environment: { name: 'dev', values: scope('environment', ['c', 'd', 'e']) },
      iteration_data: { name: 'rows.csv', format: 'csv', text: 'd,e\ndata,data\n' },
      apis: [
        {
          name: 'login',
          url: url('/login'),
          captures: [{ name: 'e', from: 'json_path', expression: '$.token' }],
        },
        {
          name: 'echo',
          url: url('/echo?a={{a}}&b={{b}}&c={{c}}&d={{d}}&e={{e}}&u={{nope}}'),
          headers: { 'x-base': '{{base path}}' },
        },
      ],
    });
    expect(calls.map((c) => c.call.success)).toEqual([true, true]);
    const echo = target.recorded[1]!;
    expect(Object.fromEntries(echo.query)).toEqual({
      a: 'global',
      b: 'collection',
      c: 'environment',
      d: 'data',
      e: 'tok-123',
      u: '{{nope}}',
    });
    expect(echo.headers['x-base']).toBe('global');
  });

  it('gives Postman dynamic variables a fresh value at each use, in their formats', async () => {
    await run({
      apis: [
        {
          name: 'dyn',
          method: 'POST',
          url: url('/echo'),
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            guid1: '{{$guid}}',
            guid2: '{{$guid}}',
            int: '{{$randomInt}}',
            ts: '{{$timestamp}}',
            iso: '{{$isoTimestamp}}',
            email: '{{$randomEmail}}',
            bool: '{{$randomBoolean}}',
            ip: '{{$randomIP}}',
            price: '{{$randomPrice}}',
            unknown: '{{$notAThing}}',
          }),
        },
      ],
    });
    const sent = JSON.parse(target.recorded[0]!.body) as Record<string, string>;
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    expect(sent.guid1).toMatch(uuid);
    expect(sent.guid2).toMatch(uuid);
    expect(sent.guid1).not.toBe(sent.guid2);
    expect(Number(sent.int)).toBeGreaterThanOrEqual(0);
    expect(Number(sent.int)).toBeLessThanOrEqual(1000);
    expect(Math.abs(Number(sent.ts) - Date.now() / 1000)).toBeLessThan(60);
    expect(new Date(sent.iso!).toISOString()).toBe(sent.iso);
    expect(sent.email).toMatch(/^[a-z]+\.[a-z]+\d+@example\.(com|net|org)$/);
    expect(['true', 'false']).toContain(sent.bool);
    expect(sent.ip).toMatch(/^\d{1,3}(\.\d{1,3}){3}$/);
    expect(sent.price).toMatch(/^\d+\.\d\d$/);
    expect(sent.unknown).toBe('{{$notAThing}}');
  });

  it("expands {{variables}} in every rule's expected value: a captured token is what is compared", async () => {
    const rules = [
      { type: 'status_code', expected_value: '{{ok}}' },
      { type: 'contains_text', expected_value: '{{token}}' },
      { type: 'json_path', expected_value: '$.query.t == {{token}}' },
      { type: 'header_value', expected_value: 'content-type: {{ctype}}' },
      { type: 'regex', expected_value: '"t":"{{token}}"' },
      { name: 'wrong token', type: 'contains_text', expected_value: '{{other}}' },
    ];
    const calls = await run({
      variables: [
        { name: 'ok', value: '200' },
        { name: 'ctype', value: 'application/json' },
        { name: 'other', value: 'tok-999' },
      ],
      apis: [
        {
          name: 'login',
          url: url('/login'),
          captures: [{ name: 'token', from: 'json_path', expression: '$.token' }],
        },
        { name: 'use', url: url('/echo?t={{token}}'), validations: rules },
      ],
    });
    const details = calls[1]!.call.validation_details;
    expect(details.map((d) => [d.expected, d.passed])).toEqual([
      ['200', true],
      ['tok-123', true],
      ['$.query.t == tok-123', true],
      ['content-type: application/json', true],
      ['"t":"tok-123"', true],
      ['tok-999', false],
    ]);
  });
});

describe('cookies and redirects', () => {
  const cookieApis = () => [
    { name: 'login', url: url('/login-cookie') },
    { name: 'me', url: url('/me'), validations: [{ type: 'status_code', expected_value: '200' }] },
  ];

  it("keeps a cookie jar per user when cookie_jar is on: /me gets /login's session cookie, and only it", async () => {
    const withJar = await run({ cookie_jar: true, apis: cookieApis() });
    expect(withJar.map((c) => c.call.status_code)).toEqual([200, 200]);
    // Path=/admin and an expired cookie are not sent; a Secure one is, as 127.0.0.1 is a secure
    // context (tough-cookie, as browsers, treats loopback so).
    expect(target.recorded[1]!.headers.cookie).toBe('sid=abc; sec=1');
  });

  it('sends no cookie without the jar: /me answers 403', async () => {
    const withoutJar = await run({ apis: cookieApis() });
    expect(withoutJar.map((c) => c.call.status_code)).toEqual([200, 403]);
    expect(target.recorded[1]!.headers.cookie).toBeUndefined();
  });

  it('gives each user its own jar', async () => {
    const calls = await run({
      cookie_jar: true,
      concurrent_users: 2,
      apis: [{ name: 'me', url: url('/me') }],
    });
    expect(calls.map((c) => c.call.status_code)).toEqual([403, 403]);
  });

  it('follows redirects when follow_redirects is on: 302 continues as GET, 307 keeps the method and body', async () => {
    const post = (status: number) => ({
      name: `post ${status}`,
      method: 'POST' as const,
      url: url(`/moved?status=${status}`),
      body: 'payload',
      validations: [{ type: 'status_code', expected_value: '200' }],
    });
    const calls = await run({ follow_redirects: true, apis: [post(302), post(307)] });
    expect(calls.map((c) => [c.call.status_code, c.call.success])).toEqual([
      [200, true],
      [200, true],
    ]);
    expect(target.recorded.map((r) => `${r.method} ${r.path} ${r.body}`)).toEqual([
      'POST /moved payload',
      'GET /final ',
      'POST /moved payload',
      'POST /final payload',
    ]);
  });

  it('keeps a cookie set by a redirect and sends it on the next hop', async () => {
    const calls = await run({
      cookie_jar: true,
      follow_redirects: true,
      apis: [{ name: 'login', method: 'POST', url: url('/login-redirect'), body: 'user=ada' }],
    });
    expect(calls[0]!.call).toMatchObject({ status_code: 200, success: true });
    expect(target.recorded.map((r) => `${r.method} ${r.path} ${r.headers.cookie ?? '-'}`)).toEqual([
      'POST /login-redirect -',
      'GET /me sid=abc',
    ]);
  });

  it('judges the 3xx itself when follow_redirects is off', async () => {
    const calls = await run({
      apis: [
        {
          name: 'moved',
          url: url('/moved?status=302'),
          validations: [{ type: 'status_code', expected_value: '302' }],
        },
      ],
    });
    expect(calls[0]!.call).toMatchObject({ status_code: 302, success: true });
    expect(target.count).toBe(1);
  });

  it('stops after 10 redirects, naming the limit', async () => {
    const calls = await run({ follow_redirects: true, apis: [{ name: 'loop', url: url('/loop') }] });
    expect(calls[0]!.call.status_code).toBeNull();
    expect(calls[0]!.call.error).toMatch(/^More than 10 redirects from http:\/\/127\.0\.0\.1:\d+\/loop/);
    expect(target.count).toBe(11);
  });
});

describe('an API with neither rules nor test scripts', () => {
  const me = () => ({ name: 'me', url: url('/me') });

  it('is judged by status 200 by default (the spec): a 403 fails', async () => {
    const [call] = await run({ apis: [me()] });
    expect(call!.call).toMatchObject({ status_code: 403, success: false });
    expect(call!.call.validation_details.map((d) => [d.type, d.expected, d.passed])).toEqual([
      ['status_code', '200', false],
    ]);
  });

  it('passes once answered when default_status_rule is off, as Newman: no assertion of its own', async () => {
    const [call] = await run({ default_status_rule: false, apis: [me()] });
    expect(call!.call).toMatchObject({ status_code: 403, success: true });
    expect(call!.call.validation_details).toEqual([]);
  });

  it('still fails without an answer when default_status_rule is off (Newman counts the request error)', async () => {
    const [call] = await run({
      default_status_rule: false,
      apis: [{ name: 'nobody', url: 'http://127.0.0.1:1/', timeout: 2 }],
    });
    expect(call!.call.success).toBe(false);
    expect(call!.call.error).toMatch(/ECONNREFUSED|refused/i);
  });

  it('keeps its own rules when it has some: the option only drops the default', async () => {
    const [call] = await run({
      default_status_rule: false,
      apis: [{ ...me(), validations: [{ type: 'status_code', expected_value: '200' }] }],
    });
    expect(call!.call).toMatchObject({ status_code: 403, success: false });
  });
});

describe('data-driven iterations', () => {
  it('runs one iteration per CSV row with the row values sent', async () => {
    const calls = await run({
      iterations: 1,
      iteration_data: {
        name: 'users.csv',
        format: 'csv',
        text: 'user,"note"\nada,"a, b"\nalan,x\ngrace,y\n',
      },
      apis: [{ name: 'echo', url: url('/echo?user={{user}}&note={{note}}') }],
    });
    expect(calls.map((c) => c.call.iteration)).toEqual([1, 2, 3]);
    expect(target.recorded.map((r) => [r.query.get('user'), r.query.get('note')])).toEqual([
      ['ada', 'a, b'],
      ['alan', 'x'],
      ['grace', 'y'],
    ]);
  });

  it('runs one iteration per object of a JSON array', async () => {
    await run({
      iteration_data: { name: 'rows.json', format: 'json', text: '[{"n":1},{"n":"two"}]' },
      apis: [{ name: 'echo', url: url('/echo?n={{n}}') }],
    });
    expect(target.recorded.map((r) => r.query.get('n'))).toEqual(['1', 'two']);
  });

  it('refuses a malformed data file before anything runs, naming its row and line', () => {
    const csv = plan({
      iteration_data: { name: 'bad.csv', format: 'csv', text: 'a,b\n1,2\n\n3\n' },
      apis: [{ name: 'x', url: url('/x') }],
    });
    expect(functionalRunProblems(csv)).toEqual([
      {
        path: ['iteration_data'],
        message: 'The data file bad.csv: row 2 (line 4) has 1 field(s) where the header row has 2',
      },
    ]);
    const json = plan({
      iteration_data: { name: 'bad.json', format: 'json', text: '[{"a":1}, 2]' },
      apis: [{ name: 'x', url: url('/x') }],
    });
    expect(functionalRunProblems(json)[0]?.message).toBe(
      'The data file bad.json: row 2 is not a JSON object',
    );
    expect(target.count).toBe(0);
  });
});
