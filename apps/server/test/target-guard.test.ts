import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { compilePlan } from '@aqa/engine';
import { migratePlan, type ValidationResponse } from '@aqa/plan';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../src/config';
import { refuseUncheckableTargets } from '../src/services/runs/target-check';
import { registerAndLogin, removeDir, startTestServer, type TestServer } from './helpers';
import { sendJson, startTarget, type TargetServer } from './target-server';

/** docs/adr/0015-target-guard.md: the target guard, through the API, against real local targets. */

/** A target on another loopback address that counts every request it gets. */
async function countingTargetOn(
  host: string,
): Promise<{ origin: string; count: () => number; server: Server }> {
  let received = 0;
  const server = createServer((req, res) => {
    received++;
    req.resume();
    res.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://${host}:${port}`, count: () => received, server };
}

const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

async function session(env: Record<string, string>): Promise<{ server: TestServer; token: string }> {
  const server = await startTestServer(env);
  const { token } = await registerAndLogin(server);
  return { server, token };
}

function validate(s: { server: TestServer; token: string }, urls: Record<string, unknown>[]) {
  return s.server.request({
    method: 'POST',
    url: '/api/validate-script',
    token: s.token,
    body: { urls, tool: 'jmeter', concurrent_users: 1, duration: 1, validation_mode: true },
  });
}

function expectRefused(response: { statusCode: number; json: <T>() => T }, ...words: string[]) {
  expect(response.statusCode).toBe(403);
  const body = response.json<{ code: string; detail: string }>();
  expect(body.code).toBe('TARGET_REFUSED');
  for (const word of words) expect(body.detail).toContain(word);
}

describe('AQA_TARGETS_DENY=127.0.0.2', () => {
  let s: { server: TestServer; token: string };
  let denied: Awaited<ReturnType<typeof countingTargetOn>>;
  let relay: TargetServer;
  beforeAll(async () => {
    denied = await countingTargetOn('127.0.0.2');
    // An allowed target whose answer names the denied one, for a host that comes from a template.
    relay = await startTarget((_req, res) => sendJson(res, 200, { host: '127.0.0.2' }));
    s = await session({ AQA_TARGETS_DENY: '127.0.0.2' });
  });
  afterAll(async () => {
    await s.server.close();
    removeDir(s.server.dataDir);
    await close(denied.server);
    await relay.close();
  });

  it('validate is refused with 403 naming the host and the setting, and sends nothing', async () => {
    const response = await validate(s, [{ url: `${relay.origin}/ok` }, { url: `${denied.origin}/x` }]);
    expectRefused(response, 'Requests to 127.0.0.2 are refused: it is in AQA_TARGETS_DENY (127.0.0.2).');
    expect(denied.count()).toBe(0);
    expect(relay.received).toHaveLength(0);
  });

  it('a host that comes from a template is refused when the connection opens', async () => {
    const port = new URL(denied.origin).port;
    const response = await validate(s, [
      { url: `${relay.origin}/where`, extractType: 'json', extractName: 'h', extractValue: '$.host' },
      { url: `http://{{h}}:${port}/x` },
    ]);
    expect(response.statusCode).toBe(200);
    const [first, second] = response.json<ValidationResponse>().api_results;
    expect(first?.status).toBe('success');
    expect(second?.status).toBe('error');
    expect(second?.error).toBe('Requests to 127.0.0.2 are refused: it is in AQA_TARGETS_DENY (127.0.0.2).');
    expect(denied.count()).toBe(0);
  });

  it('run-test is refused with 403 and creates no run', async () => {
    const saved = await s.server.request({
      method: 'POST',
      url: '/api/save-test-plan',
      token: s.token,
      body: {
        name: 'Denied',
        tool: 'k6',
        concurrent_users: 1,
        duration: 1,
        urls: [{ url: `${denied.origin}/x` }],
      },
    });
    expect(saved.statusCode).toBe(201);
    const run = await s.server.request({
      method: 'POST',
      url: '/api/run-test',
      token: s.token,
      body: { plan_id: saved.json<{ id: string }>().id },
    });
    expectRefused(run, '127.0.0.2', 'AQA_TARGETS_DENY');
    const runs = await s.server.request({ method: 'GET', url: '/api/get-test-results', token: s.token });
    expect(runs.json<unknown[]>()).toEqual([]);
    expect(denied.count()).toBe(0);
  });

  it("refuses the server's own address and port", async () => {
    await s.server.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = s.server.app.server.address() as AddressInfo;
    for (const origin of [`http://127.0.0.1:${port}`, `http://localhost:${port}`]) {
      const response = await validate(s, [{ url: `${origin}/api/health` }]);
      expectRefused(response, `:${port} are refused: that is this AnybodyQA server itself.`);
    }
  });
});

describe('a host name is decided on the address it resolves to', () => {
  let s: { server: TestServer; token: string };
  let target: TargetServer;
  beforeAll(async () => {
    target = await startTarget((_req, res) => sendJson(res, 200, {}));
    s = await session({ AQA_TARGETS_DENY: '127.0.0.1, ::1' });
  });
  afterAll(async () => {
    await s.server.close();
    removeDir(s.server.dataDir);
    await target.close();
  });

  it('localhost, denied as 127.0.0.1 and ::1, is refused', async () => {
    const response = await validate(s, [{ url: `http://localhost:${target.port}/` }]);
    expectRefused(response, 'Requests to localhost (', 'AQA_TARGETS_DENY');
    expect(target.received).toHaveLength(0);
  });
});

describe('AQA_TARGETS_ALLOW=127.0.0.3', () => {
  let s: { server: TestServer; token: string };
  let target: TargetServer;
  beforeAll(async () => {
    target = await startTarget((_req, res) => sendJson(res, 200, {}));
    s = await session({ AQA_TARGETS_ALLOW: '127.0.0.3' });
  });
  afterAll(async () => {
    await s.server.close();
    removeDir(s.server.dataDir);
    await target.close();
  });

  it('refuses a target on 127.0.0.1, and OAuth2 token URLs too', async () => {
    expectRefused(
      await validate(s, [{ url: `${target.origin}/` }]),
      'Requests to 127.0.0.1 are refused: it is not in AQA_TARGETS_ALLOW.',
    );
    const oauth = {
      url: 'http://127.0.0.3:47101/api',
      authorization: { type: 'oauth2', token: 'cid:sec', tokenUrl: `${target.origin}/token`, scope: '' },
    };
    expectRefused(await validate(s, [oauth]), 'it is not in AQA_TARGETS_ALLOW');
    expect(target.received).toHaveLength(0);
  });
});

describe('settings and plans the guard cannot check', () => {
  it('a bad list entry stops the server with a line naming the setting and the entry', () => {
    const problems = (() => {
      try {
        parseConfig({
          AQA_TARGETS_ALLOW: 'api.test.example, 10.0.0.0/33',
          AQA_TARGETS_DENY: 'http://x.example',
        });
      } catch (error) {
        if (error instanceof ConfigError) return error.problems;
      }
      return [];
    })();
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^AQA_TARGETS_ALLOW: "10\.0\.0\.0\/33"/);
    expect(problems[1]).toMatch(/^AQA_TARGETS_DENY: "http:\/\/x\.example" is a URL/);
  });

  it('an external tool may not run a plan whose host is a template; the built-in engine may', () => {
    const plan = migratePlan({
      name: 'templated',
      concurrent_users: 1,
      duration: 1,
      urls: [
        {
          url: 'http://127.0.0.1:47102/login',
          extractType: 'json',
          extractName: 'base',
          extractValue: '$.base',
        },
        { url: '{{base}}/items' },
      ],
    });
    const compiled = compilePlan(plan, 1);
    expect(() => refuseUncheckableTargets(compiled, 'builtin')).not.toThrow();
    expect(() => refuseUncheckableTargets(compiled, 'locust')).toThrow(
      'The host of {{base}}/items is a template: this server cannot check it against its target rules before a run in Locust.',
    );
  });
});
