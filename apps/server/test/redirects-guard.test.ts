import { existsSync } from 'node:fs';
import type { TestResult, ValidationResponse } from '@aqa/plan';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeTestServer, registerAndLogin, startTestServer, type TestServer } from './helpers';
import { hasJmeter, hasLocust, LOCUST_CMD } from './installed-tools';
import {
  DENIED_HOST,
  PLATFORM_PATH,
  RedirectWatch,
  countPlatform,
  redirectSteps,
  startCanary,
  startRedirectingTarget,
  type Canary,
  type RedirectingTarget,
} from './redirect-canary';
import { waitFor } from './wait-for';

/*
 * Redirects never walk around the target guard (docs/adr/0015-target-guard.md "Redirects"): through
 * every runner of this server — Validate, the built-in engine, JMeter, Locust, the functional API runner
 * and the UI runner — a target on 127.0.0.1 answers 302 to a canary on a denied address and to the
 * platform's own port. The canary must receive no connection and the platform no request, the run must
 * record the 302 as the answer (its "status equals 302" assertion passes), and what the run extracted
 * after the redirect must not hold the secret behind it. The runs on load agents are
 * agents-redirects.test.ts's.
 */

const hasChromium = existsSync('/usr/bin/chromium');

let server: TestServer;
let token: string;
let canary: Canary;
let platform: { origin: string; requests: () => number };
let target: RedirectingTarget;
let watch: RedirectWatch;

beforeAll(async () => {
  if (!hasJmeter) console.warn('JMeter redirects are not tested: Debian jmeter or the JDK (javac) is absent');
  if (!hasLocust) console.warn('Locust redirects are not tested: /usr/bin/python3 cannot import locust');
  if (!hasChromium) console.warn('UI-run redirects are not tested: /usr/bin/chromium is absent');
  canary = await startCanary();
  server = await startTestServer({
    AQA_TARGETS_DENY: DENIED_HOST,
    // The platform's own page behind the redirect then holds a secret, as a deployed demo server's does.
    DEMO_ACCOUNT: 'on',
    EXTERNAL_TOOLS: 'on',
    LOCUST_CMD,
    AQA_BROWSER_PATH: '/usr/bin/chromium',
    AQA_UI_BROWSERS: '1',
    AQA_UI_STEP_TIMEOUT_MS: '10000',
  });
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  platform = countPlatform(server);
  target = await startRedirectingTarget({ denied: canary.origin, platform: platform.origin });
  watch = new RedirectWatch(canary, platform, target);
  ({ token } = await registerAndLogin(server));
});

afterAll(async () => {
  await closeTestServer(server);
  await target?.close();
  await canary?.close();
});

function call(method: 'GET' | 'POST', url: string, body?: unknown) {
  return server.request({ method, url, token, ...(body === undefined ? {} : { body }) });
}

/** Saves a load plan of the redirect steps for `tool`, runs it for a few seconds and returns its final result. */
async function loadRun(tool: 'soapui' | 'jmeter' | 'locust'): Promise<TestResult> {
  const saved = await call('POST', '/api/save-test-plan', {
    name: `Redirects in ${tool}`,
    tool,
    concurrent_users: 1,
    duration: 1,
    urls: redirectSteps(target.origin),
  });
  expect(saved.statusCode, saved.body).toBe(201);
  const started = await call('POST', '/api/run-test', {
    plan_id: saved.json<{ id: string }>().id,
    // A tool's start-up (a JVM, Python) eats into a short run on a busy machine: 5 s leaves it time.
    duration_seconds: tool === 'soapui' ? 3 : 5,
  });
  expect(started.statusCode, started.body).toBe(201);
  const { test_id: id, engine } = started.json<{ test_id: string; engine: string }>();
  expect(engine).toBe(tool === 'soapui' ? 'builtin' : tool);
  return waitFor(
    `the ${tool} run to end`,
    async () => {
      const result = (await call('GET', `/api/get-test-result/${id}`)).json<TestResult>();
      return result.intermediate ? undefined : result;
    },
    90_000,
  );
}

describe('a target that redirects to a denied address and to the platform itself', () => {
  it('the canary and the platform counter count what reaches them', async () => {
    // Without this, a canary that could not count would let every test below pass.
    await fetch(`${canary.origin}/secret`).then((r) => r.text());
    await fetch(`${platform.origin}${PLATFORM_PATH}`).then((r) => r.text());
    expect(watch.counts()).toMatchObject({ connections: 1, requests: 1, platform: 1 });
  });

  it('Validate answers the 302 itself and follows neither', async () => {
    const before = watch.counts();
    const response = await call('POST', '/api/validate-script', {
      urls: redirectSteps(target.origin),
      tool: 'jmeter',
      concurrent_users: 1,
      duration: 1,
      validation_mode: true,
    });
    expect(response.statusCode, response.body).toBe(200);
    const [toDenied, toPlatform, echo] = response.json<ValidationResponse>().api_results;
    expect([toDenied?.response_status, toPlatform?.response_status]).toEqual([302, 302]);
    // The extraction found nothing in the 302's body: a warning, not the secret behind the redirect.
    expect([toDenied?.status, toPlatform?.status, echo?.status]).toEqual(['warning', 'warning', 'success']);
    expect(watch.counts().tokens - before.tokens).toBeGreaterThan(0);
    watch.expectNothingPastTheRedirects(before);
  });

  it('the built-in engine records each 302 as the answer and follows neither', async () => {
    const before = watch.counts();
    const result = await loadRun('soapui');
    watch.expectEveryAnswerThe302(result, before);
    watch.expectNothingPastTheRedirects(before);
  }, 30_000);

  it.skipIf(!hasJmeter)(
    'JMeter records each 302 as the answer and follows neither',
    async () => {
      const before = watch.counts();
      const result = await loadRun('jmeter');
      expect(result.engine_note).toBe('ran in Apache JMeter 2.13');
      watch.expectEveryAnswerThe302(result, before);
      watch.expectNothingPastTheRedirects(before);
    },
    120_000,
  );

  it.skipIf(!hasLocust)(
    'Locust records each 302 as the answer and follows neither',
    async () => {
      const before = watch.counts();
      const result = await loadRun('locust');
      expect(result.engine_note).toMatch(/^ran in Locust/);
      watch.expectEveryAnswerThe302(result, before);
      watch.expectNothingPastTheRedirects(before);
    },
    90_000,
  );

  it('a functional API run judges each 302 and follows neither', async () => {
    const before = watch.counts();
    const response = await call('POST', '/api/functional/run-test', {
      test_name: 'Redirects',
      concurrent_users: 1,
      iterations: 2,
      think_time: 0,
      apis: ['/to-denied', '/to-platform'].map((path) => ({
        name: path,
        url: `${target.origin}${path}`,
        validations: [{ type: 'status_code', expected_value: '302' }],
      })),
    });
    expect(response.statusCode, response.body).toBe(201);
    const id = response.json<{ test_id: string }>().test_id;
    const result = await waitFor('the functional run to end', async () => {
      const r = (await call('GET', `/api/functional/get-test-result/${id}`)).json<{
        status: string;
        summary: { total_requests: number; successful_requests: number };
        validation_results: { status_code: number | null; success: boolean }[];
      }>();
      return r.status === 'running' ? undefined : r;
    });
    expect(result.status).toBe('completed');
    expect(result.summary).toMatchObject({ total_requests: 4, successful_requests: 4 });
    expect(result.validation_results.map((call) => call.status_code)).toEqual([302, 302, 302, 302]);
    watch.expectNothingPastTheRedirects(before);
  });

  it.skipIf(!hasChromium)(
    "a UI run's browser follows, and the guard's proxy refuses each hop before it connects",
    async () => {
      const before = watch.counts();
      const response = await call('POST', '/api/functional/run-test', {
        test_name: 'Redirects in a browser',
        source: 'ui_url_input',
        test_type: 'ui',
        iterations: 1,
        apis: [
          { name: 'To denied', url: `${target.origin}/to-denied` },
          { name: 'To platform', url: `${target.origin}/to-platform` },
        ],
      });
      expect(response.statusCode, response.body).toBe(201);
      const id = response.json<{ test_id: string }>().test_id;
      const result = await waitFor(
        'the UI run to end',
        async () => {
          const r = (await call('GET', `/api/functional/get-test-result/${id}`)).json<{
            status: string;
            validation_results: { success: boolean; error?: string | null }[];
          }>();
          return r.status === 'running' ? undefined : r;
        },
        60_000,
      );
      const [toDenied, toPlatform] = result.validation_results;
      expect(toDenied?.success).toBe(false);
      expect(toDenied?.error).toBe(
        `The page did not load: Requests to ${DENIED_HOST} are refused: it is in AQA_TARGETS_DENY (${DENIED_HOST}).`,
      );
      expect(toPlatform?.success).toBe(false);
      expect(toPlatform?.error).toBe(
        `The page did not load: Requests to ${platform.origin.slice('http://'.length)} are refused: that is this AnybodyQA server itself.`,
      );
      expect(target.count('/to-denied')).toBeGreaterThan(0);
      watch.expectNothingPastTheRedirects(before);
    },
    90_000,
  );
});
