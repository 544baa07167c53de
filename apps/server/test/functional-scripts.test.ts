import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { closeTestServer, startServerWithTwoUsers, type SignedInUser, type TestServer } from './helpers';
import { waitForRunEnd } from './wait-for';

/*
 * Script plans through the calls of docs/reference/02-running.md §7 "Script calls": parse-script, and
 * run-test with source script_input, run by the engine's runner against a local target that records
 * every request it receives (in order, with its query and Authorization header), on real SQLite.
 */

interface Received {
  path: string;
  query: URLSearchParams;
  authorization: string | undefined;
  body: string;
}

/** /login answers a new token (tok-1, tok-2…) for the name posted; every other path {"ok":true}. */
class RecordingTarget {
  received: Received[] = [];
  private tokens = 0;
  private readonly server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://target');
      const body = Buffer.concat(chunks).toString('utf8');
      this.received.push({
        path: url.pathname,
        query: url.searchParams,
        authorization: req.headers.authorization,
        body,
      });
      res.writeHead(200, { 'content-type': 'application/json' });
      const answer = url.pathname.endsWith('/login')
        ? { ok: true, token: `tok-${++this.tokens}` }
        : { ok: true };
      res.end(JSON.stringify(answer));
    });
  });
  origin = '';

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  reset(): void {
    this.received = [];
    this.tokens = 0;
  }

  paths(): string[] {
    return this.received.map((r) => r.path);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

let server: TestServer;
let alice: SignedInUser;
let bob: SignedInUser;
const target = new RecordingTarget();

beforeAll(async () => {
  await target.start();
  ({ server, alice, bob } = await startServerWithTwoUsers());
});

beforeEach(() => target.reset());

afterAll(async () => {
  await closeTestServer(server);
  await target.close();
});

function call(method: 'GET' | 'POST' | 'PUT', url: string, token: string | undefined, body?: unknown) {
  return server.request({
    method,
    url,
    ...(token === undefined ? {} : { token }),
    ...(body === undefined ? {} : { body }),
  });
}

/** Login posts the name, extracts the token, and the next call sends it; a `loop` block is not read. */
const chainScript = (base: string, dataSource = '') => `execution:
- concurrency: 2
  iterations: 3
  scenario: chain
scenarios:
  chain:
    default-address: ${base}
    variables:
      name: nobody
${dataSource}
    requests:
    - url: /login
      label: Login
      method: POST
      headers: {Content-Type: application/json}
      body: '{"name": "\${name}"}'
      extract-jsonpath:
        token: $.token
      assert:
      - contains: ['"ok":true']
    - url: /me?u=\${name}
      label: Me
      headers:
        Authorization: Bearer \${token}
      assert-jsonpath:
      - jsonpath: $.ok
        expected-value: true
    - loop: 2
      do:
      - url: /never
`;

interface CallRow {
  api_name: string;
  url: string;
  user?: number;
  iteration?: number;
  success: boolean;
  validation_details: { name?: string; type: string; passed: boolean }[];
}
interface Result {
  status: string;
  error: string | null;
  summary: { total_requests: number; successful_requests: number };
  validation_results: CallRow[];
}

async function run(body: Record<string, unknown>, token = alice.token): Promise<Result> {
  const started = await call('POST', '/api/functional/run-test', token, {
    test_name: 'Script run',
    source: 'script_input',
    source_page: 'functional-script-input',
    think_time: 0,
    ...body,
  });
  if (started.statusCode !== 201) throw new Error(`run-test: ${started.statusCode} ${started.body}`);
  const id = started.json<{ test_id: string }>().test_id;
  return waitForRunEnd<Result>(server, token, 'functional', id, 30_000, 50);
}

describe('parse-script', () => {
  it('answers the calls, rules, captures, load settings, variables and warnings a script will run', async () => {
    const script = chainScript(target.origin);
    const lineOf = (text: string) => script.split('\n').findIndex((l) => l.includes(text)) + 1;
    const response = await call('POST', '/api/functional/parse-script', alice.token, {
      script_content: script,
    });
    expect(response.statusCode).toBe(200);
    const parsed = response.json<{
      apis: {
        name: string;
        url: string;
        method: string;
        headers: Record<string, string>;
        validations: { type: string; expected_value: string }[];
        body: string;
        captures?: { name: string; from: string; expression: string }[];
        source: { path: string; line?: number };
      }[];
      execution: Record<string, unknown>;
      variables: Record<string, string>;
      warnings: { path: string; line?: number; effect: string }[];
    }>();
    expect(parsed.apis.map((a) => [a.name, a.method, a.url])).toEqual([
      ['Login', 'POST', `${target.origin}/login`],
      ['Me', 'GET', `${target.origin}/me?u=nobody`], // set by nothing else: put in
    ]);
    expect(parsed.apis[0]?.captures).toMatchObject([
      { name: 'token', from: 'json_path', expression: '$.token' },
    ]);
    expect(parsed.apis[0]?.validations).toMatchObject([
      { type: 'contains_text', expected_value: '"ok":true' },
    ]);
    expect(parsed.apis[1]?.headers).toEqual({ Authorization: 'Bearer {{token}}' });
    expect(parsed.apis[1]?.source).toEqual({
      path: 'scenarios.chain.requests[1]',
      line: lineOf('- url: /me'),
    });
    expect(parsed.execution).toEqual({
      test_name: 'chain',
      concurrent_users: 2,
      iterations: 3,
      ramp_up_time: 0,
      test_duration: 1,
      think_time: 0,
    });
    expect(parsed.variables).toEqual({ name: 'nobody' });
    expect(parsed.apis[0]?.body).toBe('{"name": "nobody"}');
    // The loop block is named where it is written, and skipped.
    expect(parsed.warnings).toContainEqual(
      expect.objectContaining({
        path: 'scenarios.chain.requests[2]',
        line: lineOf('- loop: 2'),
        effect: 'skipped',
      }),
    );
  });

  it('refuses a script with nothing to run, naming every reason, and YAML that does not read, naming the line', async () => {
    const nothing = await call('POST', '/api/functional/parse-script', alice.token, {
      script_content:
        'execution:\n- executor: gatling\n  scenario: s\nscenarios:\n  s:\n    script: sim.scala\n',
    });
    expect(nothing.statusCode).toBe(400);
    const refusal = nothing.json<{
      code: string;
      detail: string;
      warnings: { path: string; effect: string }[];
    }>();
    expect(refusal.code).toBe('SCRIPT_NOT_RUNNABLE');
    expect(refusal.warnings.length).toBeGreaterThan(0);
    expect(refusal.warnings.every((w) => w.effect === 'refused')).toBe(true);
    expect(refusal.detail).toContain('gatling');

    const broken = await call('POST', '/api/functional/parse-script', alice.token, {
      script_content: 'execution:\n- scenario: s\nscenarios: a: b\n',
    });
    expect(broken.statusCode).toBe(400);
    const syntax = broken.json<{ code: string; line?: number; detail: string }>();
    expect(syntax.code).toBe('SCRIPT_NOT_RUNNABLE');
    expect(syntax.line).toBe(3);
    expect(syntax.detail).toContain('line 3');

    expect(
      (await call('POST', '/api/functional/parse-script', undefined, { script_content: 'a: 1' })).statusCode,
    ).toBe(401);
  });

  it('reads a script whose executions run selenium as the UI runner does, without test_framework', async () => {
    // docs/reference/02-running.md §3 "Selenium-style scripts": the executor says which reader.
    const selenium = (executor: string) =>
      [
        'execution:',
        ...executor.split('\n').map((line, i) => (i === 0 ? `- ${line}` : `  ${line}`)),
        '  scenario: form',
        'scenarios:',
        '  form:',
        '    requests:',
        `    - url: ${target.origin}/form`,
        '      label: Form',
        '      actions:',
        '      - clickByID(go)',
        '      - assertTextByID(out): Hello',
      ].join('\n');
    for (const executor of ['executor: selenium', 'executor: apiritif\ntest-mode: selenium']) {
      const script = selenium(executor);
      const lineOf = (text: string) => script.split('\n').findIndex((l) => l.includes(text)) + 1;
      const response = await call('POST', '/api/functional/parse-script', alice.token, {
        script_content: script,
      });
      expect(response.statusCode, executor).toBe(200);
      expect(response.json(), executor).toMatchObject({
        test_framework: 'selenium',
        apis: [
          {
            name: 'Form',
            url: `${target.origin}/form`,
            actions: [
              { kind: 'click', source: { action: 'clickByID', line: lineOf('clickByID') } },
              { kind: 'assertText', source: { action: 'assertTextByID', line: lineOf('assertTextByID') } },
            ],
          },
        ],
        execution: { concurrent_users: 1, iterations: 1 },
        warnings: [],
      });
    }
    // An HTTP script is read as one, and says so.
    const http = await call('POST', '/api/functional/parse-script', alice.token, {
      script_content: chainScript(target.origin),
    });
    expect(http.json<{ test_framework: string }>().test_framework).toBe('taurus');
  });
});

describe('script runs', () => {
  it("runs the script's chain with the plan's load settings and the Global Validation Rules on every call", async () => {
    const saved = await call('POST', '/api/functional/save-config', alice.token, {
      test_name: 'Chain',
      source: 'script_input',
      script_content: chainScript(target.origin),
    });
    expect(saved.statusCode).toBe(201);
    const planId = saved.json<{ id: string }>().id;
    // The plan's fields as sent win over the script's 2 users × 3 iterations.
    const result = await run({
      plan_id: planId,
      script_content: chainScript(target.origin),
      concurrent_users: 1,
      iterations: 2,
      validations: [{ id: '17', name: 'Global OK', type: 'status_code', expected_value: '200' }],
    });
    expect(result.error).toBeNull();
    expect(result.status).toBe('completed');
    expect(target.paths()).toEqual(['/login', '/me', '/login', '/me']);
    // Each authorised call carries the token its own iteration's login answered.
    expect(target.received.filter((r) => r.path === '/me').map((r) => r.authorization)).toEqual([
      'Bearer tok-1',
      'Bearer tok-2',
    ]);
    expect(target.received[0]?.body).toBe('{"name": "nobody"}');
    for (const row of result.validation_results) {
      expect(row.validation_details.map((d) => d.name ?? d.type)).toContain('Global OK');
    }
    // Another user cannot run it under the plan's id.
    const foreign = await call('POST', '/api/functional/run-test', bob.token, {
      test_name: 'x',
      source: 'script_input',
      script_content: chainScript(target.origin),
      plan_id: planId,
    });
    expect(foreign.statusCode).toBe(404);
  });

  it('hands CSV rows to 2 users × 3 iterations in order, ending at the last row or starting over', async () => {
    const csv = 'name,city\nr1,a\nr2,b\nr3,c\nr4,d\n';
    const rows = ['r1', 'r2', 'r3', 'r4'];
    const withData = (loop: boolean) => ({
      script_content: chainScript(
        target.origin,
        `    data-sources:\n    - path: users.csv\n      loop: ${loop}`,
      ),
      data_files: { 'users.csv': csv },
      concurrent_users: 2,
      iterations: 3,
    });
    /** The names the logins posted, and each user's names in its iterations' order, from the result. */
    const seen = (result: Result) => {
      const posted = target.received
        .filter((r) => r.path === '/login')
        .map((r) => (JSON.parse(r.body) as { name: string }).name);
      const byUser = [1, 2].map((user) =>
        result.validation_results
          .filter((c) => c.api_name === 'Me' && c.user === user)
          .sort((a, b) => (a.iteration ?? 0) - (b.iteration ?? 0))
          .map((c) => new URL(c.url).searchParams.get('u')),
      );
      return { posted, byUser };
    };

    // A saved script plan keeps its data files.
    const saved = await call('POST', '/api/functional/save-config', alice.token, {
      test_name: 'Data',
      source: 'script_input',
      ...withData(false),
    });
    const planId = saved.json<{ id: string }>().id;
    const stored = await call('GET', `/api/functional/get-test-plan/${planId}`, alice.token);
    expect(stored.json<{ data_files: unknown }>().data_files).toEqual({ 'users.csv': csv });

    const once = await run({ ...withData(false), plan_id: planId });
    expect(once.status).toBe('failed');
    expect(once.error).toBe(
      'The data source users.csv ran out after its 4 rows (loop: false), so 2 of 6 iterations did not run',
    );
    const first = seen(once);
    expect([...first.posted].sort()).toEqual(rows);
    // Each user's rows come in file order, and its authorised call sent the row its login posted.
    for (const names of first.byUser) expect(names).toEqual([...names].sort());
    expect(first.byUser.flat().sort()).toEqual(rows);
    expect(once.summary.total_requests).toBe(8);

    target.reset();
    const looping = await run(withData(true));
    expect(looping.error).toBeNull();
    expect(looping.status).toBe('completed');
    const again = seen(looping);
    expect(again.posted.slice(0, 4).sort()).toEqual(rows);
    expect([...again.posted].sort()).toEqual(['r1', 'r1', 'r2', 'r2', 'r3', 'r4']);
    expect(again.byUser.flat().sort()).toEqual(['r1', 'r1', 'r2', 'r2', 'r3', 'r4']);
    expect(looping.summary.total_requests).toBe(12);
  });

  it('refuses a script that cannot run, and one whose data file is missing, starting nothing', async () => {
    const missing = await call('POST', '/api/functional/run-test', alice.token, {
      test_name: 'x',
      source: 'script_input',
      script_content: chainScript(target.origin, '    data-sources:\n    - users.csv'),
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ code: 'SCRIPT_NOT_RUNNABLE' });
    expect(missing.json<{ detail: string }>().detail).toContain('users.csv');
    const nothing = await call('POST', '/api/functional/run-test', alice.token, {
      test_name: 'x',
      source: 'script_input',
      script_content: 'execution:\n- executor: locust\n',
    });
    expect(nothing.statusCode).toBe(400);
    expect(target.received).toEqual([]);
  });
});
