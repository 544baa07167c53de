import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAndLogin, startTestServer, type TestServer } from './helpers';
import { hasJmeter, hasLocust, TOOL_RUNS_ENV } from './installed-tools';
import { waitForRunEnd } from './wait-for';

/*
 * The installed tool's version decides what its script holds and which plans it can run
 * (docs/adr/0003-jmeter-scripts-are-real-jmx.md "JMeter versions"), and a failed request shows its HTTP
 * status, reason and the start of its body whatever ran it (docs/reference/02-running.md §3 "Errors by
 * kind"). Debian's JMeter 2.13 and Locust run for real against a local target that counts what it
 * receives.
 */
/** A shop API: /login answers a token per call, /profile answers 409 unless it carries the last token; /broken answers 500. */
class ShopTarget {
  readonly received = { login: 0, profile: 0, profileWithToken: 0, broken: 0 };
  private tokens = new Set<string>();
  private constructor(
    private readonly server: Server,
    readonly origin: string,
  ) {}

  static async start(): Promise<ShopTarget> {
    const holder: { target?: ShopTarget } = {};
    const server = createServer((req, res) => holder.target!.answer(req.url ?? '', req.headers, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    holder.target = new ShopTarget(server, `http://127.0.0.1:${port}`);
    return holder.target;
  }

  reset(): void {
    for (const key of Object.keys(this.received)) this.received[key as keyof typeof this.received] = 0;
    this.tokens.clear();
  }

  private answer(
    url: string,
    headers: Record<string, string | string[] | undefined>,
    res: ServerResponse,
  ): void {
    if (url.startsWith('/login')) {
      this.received.login++;
      const token = `t${this.received.login}x${Math.random().toString(36).slice(2, 8)}`;
      this.tokens.add(token);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ user: { name: 'ada' }, token, roles: ['a', 'b'] }));
    } else if (url.startsWith('/profile')) {
      this.received.profile++;
      const auth = String(headers.authorization ?? '');
      const ok = this.tokens.has(auth.replace(/^Bearer /, ''));
      if (ok) this.received.profileWithToken++;
      res.writeHead(ok ? 200 : 409, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok }));
    } else {
      this.received.broken++;
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('db timeout');
    }
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

let server: TestServer;
let target: ShopTarget;
let token: string;

beforeAll(async () => {
  target = await ShopTarget.start();
  server = await startTestServer(TOOL_RUNS_ENV);
  ({ token } = await registerAndLogin(server));
});

afterAll(async () => {
  await server?.close();
  await target?.close();
});

/** Login extracts $.token (or `tokenPath`); Profile sends it as a bearer token. */
function loginPlan(tool: string, tokenPath = '$.token') {
  return {
    name: `Shop in ${tool}`,
    tool,
    concurrent_users: 1,
    duration: 1,
    urls: [
      {
        name: 'Login',
        method: 'POST',
        url: `${target.origin}/login`,
        extractType: 'json',
        extractName: 'token',
        extractValue: tokenPath,
        thinkTime: '50ms',
      },
      {
        name: 'Profile',
        method: 'GET',
        url: `${target.origin}/profile`,
        authorization: { type: 'bearer', token: '{{token}}' },
        thinkTime: '50ms',
      },
    ],
  };
}

async function save(plan: object): Promise<string> {
  const saved = await server.request({ method: 'POST', url: '/api/save-test-plan', token, body: plan });
  expect(saved.statusCode, saved.body).toBe(201);
  return saved.json<{ id: string }>().id;
}

interface Result {
  status: string;
  engine: string;
  engine_note: string;
  error: string | null;
  errors: Record<string, { count: number; samples: string[] }>;
  summary: { total_requests: number } | null;
}

async function runToEnd(body: object): Promise<Result> {
  const started = await server.request({ method: 'POST', url: '/api/run-test', token, body });
  expect(started.statusCode, started.body).toBe(201);
  const { test_id: id } = started.json<{ test_id: string }>();
  return waitForRunEnd<Result>(server, token, 'load', id, 90_000, 250);
}

async function runCount(): Promise<number> {
  const list = await server.request({ method: 'GET', url: '/api/get-test-results', token });
  return Number(list.headers['x-total-count']);
}

describe('a JSON extraction in the installed JMeter 2.13', () => {
  it.skipIf(!hasJmeter)(
    'runs in JMeter 2.13 and sends the extracted token to the next step',
    async () => {
      target.reset();
      const planId = await save(loginPlan('jmeter'));
      const result = await runToEnd({ plan_id: planId, duration_seconds: 6 });
      expect(result.error).toBeNull();
      expect(result.engine).toBe('jmeter');
      expect(result.engine_note).toBe('ran in Apache JMeter 2.13');
      expect(result.status).toBe('completed');
      expect(target.received.login).toBeGreaterThan(1);
      // Every profile request carried a token /login answered: the extraction's value was used.
      expect(target.received.profile).toBeGreaterThan(1);
      expect(target.received.profileWithToken).toBe(target.received.profile);
      expect(result.summary?.total_requests).toBe(target.received.login + target.received.profile);
    },
    120_000,
  );

  it.skipIf(!hasJmeter)(
    'refuses at Validate and at Run, with the reason, a path 2.13 cannot read; runs it in the built-in engine when asked',
    async () => {
      target.reset();
      const plan = loginPlan('jmeter', '$..token');
      // The tool's check has to have passed for its version to count (a failed check runs the built-in engine).
      await server.request({ method: 'GET', url: '/api/engines', token });
      const validated = await server.request({
        method: 'POST',
        url: '/api/validate-script',
        token,
        body: plan,
      });
      expect(validated.statusCode, validated.body).toBe(400);
      const refusal = validated.json<{ code: string; detail: string; hint: string; errors: unknown[] }>();
      expect(refusal.code).toBe('TOOL_CANNOT_RUN_PLAN');
      expect(refusal.detail).toMatch(/Apache JMeter 2\.13 on this server cannot run this plan/);
      expect(refusal.detail).toMatch(/\$\.\.token/);
      expect(refusal.hint).toMatch(/built-in engine or with Locust/);
      expect(target.received.login).toBe(0);

      const planId = await save(plan);
      const before = await runCount();
      const refused = await server.request({
        method: 'POST',
        url: '/api/run-test',
        token,
        body: { plan_id: planId, duration_seconds: 2 },
      });
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json<{ code: string; errors: { field: string }[] }>()).toMatchObject({
        code: 'TOOL_CANNOT_RUN_PLAN',
        errors: [{ field: 'urls[0].extractValue' }],
      });
      expect(await runCount()).toBe(before);
      expect(target.received.login).toBe(0);

      const builtin = await runToEnd({ plan_id: planId, duration_seconds: 2, engine: 'builtin' });
      expect(builtin.engine).toBe('builtin');
      expect(builtin.engine_note).toBe('ran with the built-in engine, as the run asked');
      expect(builtin.status).toBe('completed');
      expect(target.received.profileWithToken).toBe(target.received.profile);
      expect(target.received.profile).toBeGreaterThan(0);
    },
    120_000,
  );

  it('refuses an engine other than the built-in one by name', async () => {
    const planId = await save(loginPlan('jmeter'));
    const refused = await server.request({
      method: 'POST',
      url: '/api/run-test',
      token,
      body: { plan_id: planId, engine: 'gatling' },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ detail: string }>().detail).toMatch(/engine must be 'builtin'/);
  });
});

/** A step against /broken with a JSON assertion: the target answers 500 "db timeout". */
function brokenPlan(tool: string) {
  return {
    name: `Broken in ${tool}`,
    tool,
    concurrent_users: 1,
    duration: 1,
    urls: [
      {
        name: 'Orders',
        method: 'GET',
        url: `${target.origin}/broken/orders`,
        assertionType: 'json',
        assertionPath: '$.orders[0].id',
        assertionOperator: 'equals',
        assertionValue: '7',
        thinkTime: '100ms',
      },
    ],
  };
}

describe('errors by kind show the HTTP status, its reason and the start of the body', () => {
  const cases = [
    { tool: 'locust', engine: 'locust', skip: !hasLocust, body: {} },
    { tool: 'jmeter', engine: 'jmeter', skip: !hasJmeter, body: {} },
    { tool: 'jmeter', engine: 'builtin', skip: false, body: { engine: 'builtin' } },
  ] as const;
  for (const c of cases) {
    it.skipIf(c.skip)(
      `in ${c.engine}`,
      async () => {
        target.reset();
        const planId = await save(brokenPlan(c.tool));
        const result = await runToEnd({ plan_id: planId, duration_seconds: 4, ...c.body });
        expect(result.engine).toBe(c.engine);
        expect(target.received.broken).toBeGreaterThan(0);
        expect(Object.keys(result.errors)).toEqual(['http_status']);
        expect(result.errors.http_status?.count).toBe(target.received.broken);
        const samples = result.errors.http_status?.samples ?? [];
        expect(samples.length).toBeGreaterThan(0);
        for (const sample of samples) {
          expect(sample).toMatch(/^HTTP 500 Internal Server Error/i);
          expect(sample).toContain('db timeout');
          expect(sample).not.toMatch(/CatchResponseError|Assertion failed|got ''/);
        }
      },
      120_000,
    );
  }
});
