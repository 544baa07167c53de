import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { ValidationResponse } from '@aqa/plan';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, newRegistration, removeDir } from './helpers';
import { startServerProcess, stopServerProcesses, type ServerProcess } from './server-process';
import { startTarget, type ReceivedRequest, type TargetServer } from './target-server';
import { testDatabaseEnv } from './test-database';

/*
 * A user's pattern never holds the server (docs/adr/0022-linear-time-patterns.md): a real server
 * process judges `^(a+)+$` — exponential on a backtracking engine — against answers of thirty a's and
 * a `!`, on many URLs in one Validate request, while /api/health is probed; and a plan that uses a
 * construct RE2 cannot run is refused, naming the field, wherever it is validated.
 */

const EVIL = '^(a+)+$';
const ANSWER = `${'a'.repeat(30)}!`;
const URLS = 40;
/** Health must answer within this while the patterns are judged (issue #23). */
const HEALTH_BOUND_MS = 100;
/**
 * The slowest health probe with nothing else to do, measured before the tests: on a 2-core machine
 * shared by many processes, scheduling alone can take longer than the bound; the bound then holds over
 * that. Before the change a probe gets no answer for seconds (counted as 2 s), far over either.
 */
let idleSlowestMs = 0;
const bound = (): number => Math.max(HEALTH_BOUND_MS, idleSlowestMs + HEALTH_BOUND_MS / 2);

let dataDir: string;
let server: ServerProcess;
let target: TargetServer;
let token = '';

function route(request: ReceivedRequest, response: ServerResponse): void {
  if (request.path.startsWith('/aaa')) {
    response.writeHead(200, { 'content-type': 'text/plain' });
    return void response.end(ANSWER);
  }
  if (request.path === '/deep.xml') {
    // 400 nested-enough elements: an XPath with nested // steps costs n³ node visits on it.
    response.writeHead(200, { 'content-type': 'application/xml' });
    return void response.end(`<r>${'<i><j>x</j></i>'.repeat(400)}</r>`);
  }
  response.writeHead(404);
  response.end();
}

async function call(method: string, path: string, body?: unknown, timeoutMs = 60_000): Promise<Response> {
  return fetch(`${server.base}${path}`, {
    method,
    headers: {
      ...(token === '' ? {} : { authorization: `Bearer ${token}` }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(timeoutMs),
  });
}

beforeAll(async () => {
  dataDir = makeTempDir();
  target = await startTarget(route);
  server = await startServerProcess({
    DATA_DIR: dataDir,
    DEMO_ACCOUNT: 'off',
    LOG_LEVEL: 'info',
    WEB_DIST_DIR: join(dataDir, 'no-web-build'),
    ...(await testDatabaseEnv(dataDir)),
  });
  const account = newRegistration();
  expect((await call('POST', '/api/register', account)).status).toBe(201);
  const login = await call('POST', '/api/login', { username: account.email, password: account.password });
  token = ((await login.json()) as { token: string }).token;
  const idle = await probeHealthDuring(new Promise((resolve) => setTimeout(resolve, 2000)));
  idleSlowestMs = idle.slowestMs;
}, 60_000);

afterAll(async () => {
  await stopServerProcesses();
  await target?.close();
  if (dataDir !== undefined) removeDir(dataDir);
});

/**
 * Probes /api/health every 20 ms until `work` settles; answers the slowest probe's time (a probe that
 * gets no answer within 2 s counts as 2 s) and what `work` gave.
 */
async function probeHealthDuring<T>(work: Promise<T>): Promise<{ slowestMs: number; outcome: T | Error }> {
  let done = false;
  const settled = work.then(
    (value) => value,
    (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
  );
  void settled.then(() => (done = true));
  let slowestMs = 0;
  let probes = 0;
  while (!done) {
    const started = performance.now();
    try {
      const health = await fetch(`${server.base}/api/health`, { signal: AbortSignal.timeout(2000) });
      await health.arrayBuffer();
      const tookMs = performance.now() - started;
      slowestMs = Math.max(slowestMs, tookMs);
    } catch {
      slowestMs = Math.max(slowestMs, 2000);
      // No answer: the server is held. Stop waiting for work that may take minutes.
      break;
    }
    probes++;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  expect(probes).toBeGreaterThan(0);
  return { slowestMs, outcome: done ? await settled : new Error('the server did not answer /api/health') };
}

/**
 * A probe can be late for the machine's reasons alone (on a loaded 2-core box another process was
 * scheduled); a server held by a pattern is late on every try, by seconds. So the measurement is made
 * up to three times and the best try counts: one within the bound proves the server was not held.
 */
async function bestOfThree<T>(
  measure: () => Promise<{ slowestMs: number; outcome: T | Error }>,
): Promise<{ slowestMs: number; outcome: T | Error }> {
  let best = await measure();
  for (let again = 0; again < 2 && best.slowestMs >= bound(); again++) {
    const next = await measure();
    if (next.slowestMs < best.slowestMs) best = next;
  }
  return best;
}

describe('a pathological pattern in Validate (docs/adr/0022-linear-time-patterns.md)', () => {
  it(`keeps /api/health within ${HEALTH_BOUND_MS} ms while ${URLS} URLs are judged by ${EVIL}`, async () => {
    // A warm-up: the first Validate starts what it needs (connections, workers).
    await call('POST', '/api/validate-script', {
      urls: [{ url: `${target.origin}/aaa/warm`, method: 'GET' }],
    });
    const urls = Array.from({ length: URLS }, (_, i) => ({
      url: `${target.origin}/aaa/${i}`,
      method: 'GET',
      assertionType: 'text',
      assertionOperator: 'regex',
      assertionValue: EVIL,
      extractType: 'regex',
      extractName: 'v',
      extractValue: EVIL,
    }));
    const { slowestMs, outcome } = await bestOfThree(() =>
      probeHealthDuring(
        call('POST', '/api/validate-script', { urls }, 30_000).then(async (response) => {
          expect(response.status).toBe(200);
          return (await response.json()) as ValidationResponse;
        }),
      ),
    );
    expect(slowestMs).toBeLessThan(bound());
    if (outcome instanceof Error) throw outcome;
    expect(outcome).toMatchObject({ total_apis: URLS, successful: 0, failed: URLS });
    // Each answer was judged, and correctly: thirty a's and a ! do not match ^(a+)+$.
    for (const api of outcome.api_results) {
      expect(api.error).toContain(`Assertion failed: body "${ANSWER}" regex "${EVIL}" is false`);
      expect(api.error).toContain('Nothing was extracted into {{v}}');
    }
  }, 240_000);

  it('keeps /api/health answering while an XPath that visits n³ nodes is judged, and says it was cut', async () => {
    const xpath = 'count(//i[count(//j[count(//i) > 0]) > 0])';
    const { slowestMs, outcome } = await bestOfThree(() =>
      probeHealthDuring(
        call(
          'POST',
          '/api/validate-script',
          {
            urls: [
              {
                url: `${target.origin}/deep.xml`,
                method: 'GET',
                assertionType: 'xml',
                assertionPath: xpath,
                assertionOperator: 'equals',
                assertionValue: '400',
              },
            ],
          },
          60_000,
        ).then(async (response) => (await response.json()) as ValidationResponse),
      ),
    );
    expect(slowestMs).toBeLessThan(bound());
    if (outcome instanceof Error) throw outcome;
    expect(outcome.api_results[0]?.status).toBe('error');
    expect(outcome.api_results[0]?.error).toMatch(/^Not checked: judging the answer took longer than \d+ s/);
  }, 240_000);
});

describe('a pattern RE2 cannot run is refused where the plan is validated', () => {
  const lookahead = 'lookahead (?=…) is not supported — patterns run on a linear-time engine (RE2 syntax)';
  const backreference =
    'backreference \\1 is not supported — patterns run on a linear-time engine (RE2 syntax)';

  it('in Validate, naming the field and the construct, before anything is sent', async () => {
    const before = target.received.length;
    const response = await call('POST', '/api/validate-script', {
      urls: [
        { url: `${target.origin}/aaa/1`, method: 'GET' },
        {
          url: `${target.origin}/aaa/2`,
          method: 'GET',
          assertionType: 'text',
          assertionOperator: 'regex',
          assertionValue: '^(?=a)',
        },
      ],
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { detail: string };
    expect(body.detail).toContain(`urls.1.assertionValue: ${lookahead}`);
    expect(target.received.length).toBe(before);
  });

  it('on saving a performance plan and a functional plan', async () => {
    const plan = await call('POST', '/api/save-test-plan', {
      name: 'Backreference',
      tool: 'jmeter',
      concurrent_users: 1,
      duration: 1,
      urls: [
        {
          url: `${target.origin}/aaa`,
          method: 'GET',
          extractType: 'regex',
          extractName: 'v',
          extractValue: '(a)\\1',
        },
      ],
    });
    expect(plan.status).toBe(400);
    expect(((await plan.json()) as { detail: string }).detail).toContain(
      `urls.0.extractValue: ${backreference}`,
    );

    const functional = await call('POST', '/api/functional/save-config', {
      test_name: 'Lookahead',
      apis: [
        {
          name: 'A',
          method: 'GET',
          url: `${target.origin}/aaa`,
          validations: [{ type: 'json_path', expected_value: '$.a ~ ^(?=x)' }],
        },
      ],
    });
    expect(functional.status).toBe(400);
    expect(((await functional.json()) as { detail: string }).detail).toContain(
      `apis.0.validations.0.expected_value: ${lookahead}`,
    );
  });

  it('on saving a functional plan: a JSONPath that cannot be judged is refused with its reason; a filter that judges is kept (issue #27)', async () => {
    const save = (expected_value: string) =>
      call('POST', '/api/functional/save-config', {
        test_name: 'Filters',
        apis: [
          {
            name: 'Roles',
            method: 'GET',
            url: `${target.origin}/roles`,
            validations: [{ type: 'json_path', expected_value }],
          },
        ],
      });
    const broken = await save('$.roles[?(@==]');
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as { detail: string }).detail).toContain(
      'apis.0.validations.0.expected_value: $.roles[?(@==] does not close: ] at character 14 comes before its ( is closed',
    );
    const unknown = await save("$.a[?(@.x == 'y')] and more");
    expect(unknown.status).toBe(400);
    const kept = await save("$.a[?(@.x == 'y' && @.z > 0)].z == 1");
    expect(kept.status).toBeLessThan(300);
    const roles = await save("$.roles[?(@=='qa')]");
    expect(roles.status).toBeLessThan(300);
  });
});
