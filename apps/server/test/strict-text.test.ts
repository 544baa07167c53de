import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCountingTarget, type CountingTarget } from './counting-target';
import {
  closeTestServer,
  newRegistration,
  startServerWithTwoUsers,
  type SignedInUser,
  type TestServer,
} from './helpers';

/*
 * Issue 23 point 8: request fields of the wrong type are refused rather than dropped (planName), and
 * text that is not well-formed Unicode (a lone UTF-16 surrogate) is refused in every user-written name
 * and text the server stores, with a 400 naming the field, leaving stored data as it was
 * (docs/design.md §11; docs/adr/0018-safe-defaults-and-lockout.md).
 */

let server: TestServer;
let alice: SignedInUser;
let target: CountingTarget;

beforeAll(async () => {
  target = await startCountingTarget();
  ({ server, alice } = await startServerWithTwoUsers({ EXTERNAL_TOOLS: 'off' }));
});

afterAll(async () => {
  await closeTestServer(server);
  await target.close();
});

interface ErrorAnswer {
  detail: string;
  errors?: { field: string; message: string }[];
}

async function savePlan(): Promise<string> {
  const response = await server.request({
    method: 'POST',
    url: '/api/save-test-plan',
    token: alice.token,
    body: {
      name: 'Typed plan',
      tool: 'k6',
      concurrent_users: 1,
      duration: 1,
      urls: [{ method: 'GET', url: `${target.origin}/typed`, thinkTime: '10ms' }],
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ id: string }>().id;
}

async function runCount(planId: string): Promise<number> {
  const runs = await server.request({
    method: 'GET',
    url: `/api/get-test-results?plan_id=${planId}`,
    token: alice.token,
  });
  return runs.json<unknown[]>().length;
}

describe('POST /api/run-test: fields of the wrong type', () => {
  it('refuses a planName (or plan_name, name) that is not text with 400 naming the field, and starts nothing', async () => {
    await target.reset();
    const planId = await savePlan();
    const cases: [Record<string, unknown>, string][] = [];
    for (const value of [123, true, { text: 'x' }, ['x']]) {
      cases.push(
        [{ planName: value }, 'planName'],
        [{ plan_name: value }, 'plan_name'],
        [{ name: value }, 'name'],
      );
    }
    for (const [fields, field] of cases) {
      const response = await server.request({
        method: 'POST',
        url: '/api/run-test',
        token: alice.token,
        body: { plan_id: planId, duration_seconds: 2, ...fields },
      });
      const label = JSON.stringify(fields);
      expect(response.statusCode, `${label}: ${response.body}`).toBe(400);
      const answer = response.json<ErrorAnswer>();
      expect(
        answer.errors?.map((e) => e.field),
        label,
      ).toEqual([field]);
      expect(answer.detail, label).toBe(`${field} must be text`);
    }
    expect(await runCount(planId)).toBe(0);
    expect((await target.counts()).total).toBe(0);
  });

  it('refuses a plan_id, tool, user_email or urls of the wrong type with 400 naming the field', async () => {
    const planId = await savePlan();
    const cases: [Record<string, unknown>, string][] = [
      [{ plan_id: 42 }, 'plan_id'],
      [{ plan_id: undefined, planId: 42 }, 'planId'],
      [{ plan_id: true }, 'plan_id'],
      [{ tool: 5 }, 'tool'],
      [{ user_email: 5 }, 'user_email'],
      [{ urls: 'x' }, 'urls'],
    ];
    for (const [fields, field] of cases) {
      const response = await server.request({
        method: 'POST',
        url: '/api/run-test',
        token: alice.token,
        body: { plan_id: planId, duration_seconds: 2, ...fields },
      });
      const label = JSON.stringify(fields);
      expect(response.statusCode, `${label}: ${response.body}`).toBe(400);
      const answer = response.json<ErrorAnswer>();
      expect(
        answer.errors?.map((e) => e.field),
        label,
      ).toEqual([field]);
      expect(answer.detail, label).toContain(field);
    }
    expect(await runCount(planId)).toBe(0);
  });

  it('still reads a null planName as absent, and a text one as the run name', async () => {
    const planId = await savePlan();
    const response = await server.request({
      method: 'POST',
      url: '/api/run-test',
      token: alice.token,
      body: { plan_id: planId, duration_seconds: 1, planName: null, plan_name: 'Named run' },
    });
    expect(response.statusCode, response.body).toBe(201);
    const id = response.json<{ test_id: string }>().test_id;
    await server.request({ method: 'POST', url: `/api/stop-test/${id}`, token: alice.token });
    const stored = await server.request({
      method: 'GET',
      url: `/api/get-test-result/${id}`,
      token: alice.token,
    });
    expect(stored.json<{ plan_name: string }>().plan_name).toBe('Named run');
  });
});

/** A lone high surrogate: half of a character, which no UTF-8 text can hold. */
const LONE = 'Half \ud83d here';
const WELL_FORMED_MESSAGE =
  /^[A-Za-z_ ]+ is not well-formed text: it holds half of a character \(a lone UTF-16 surrogate\)\. Type or paste it again\.$/;

describe('text that is not well-formed Unicode', () => {
  it('is refused in every stored name and text with 400 naming the field, and nothing is stored', async () => {
    const planId = await savePlan();
    const cases: { url: string; method: 'POST' | 'PUT'; body: Record<string, unknown>; field: string }[] = [
      { method: 'POST', url: '/api/tokens', body: { name: LONE }, field: 'name' },
      { method: 'POST', url: '/api/tokens', body: { name: '\udc00' }, field: 'name' },
      {
        method: 'POST',
        url: '/api/save-test-plan',
        body: { name: LONE, tool: 'k6', urls: [{ url: `${target.origin}/x` }] },
        field: 'name',
      },
      {
        method: 'POST',
        url: '/api/save-test-plan',
        body: { name: 'Fine', description: LONE, tool: 'k6', urls: [{ url: `${target.origin}/x` }] },
        field: 'description',
      },
      { method: 'PUT', url: '/api/me', body: { firstName: LONE, lastName: 'Lovelace' }, field: 'firstName' },
      {
        method: 'PUT',
        url: '/api/me',
        body: { firstName: 'Ada', lastName: 'Lovelace', company: LONE },
        field: 'company',
      },
      { method: 'POST', url: '/api/feedback', body: { kind: 'idea', message: LONE }, field: 'message' },
      {
        method: 'POST',
        url: '/api/functional/save-config',
        body: { test_name: LONE, apis: [] },
        field: 'test_name',
      },
      { method: 'POST', url: '/api/run-test', body: { plan_id: planId, planName: LONE }, field: 'planName' },
    ];
    for (const { method, url, body, field } of cases) {
      const response = await server.request({ method, url, token: alice.token, body });
      const label = `${method} ${url} ${field}`;
      expect(response.statusCode, `${label}: ${response.body}`).toBe(400);
      const answer = response.json<ErrorAnswer>();
      expect(
        answer.errors?.map((e) => e.field),
        label,
      ).toContain(field);
      const message = answer.errors?.find((e) => e.field === field)?.message ?? '';
      expect(message, label).toMatch(WELL_FORMED_MESSAGE);
    }
    const tokens = await server.request({ method: 'GET', url: '/api/tokens', token: alice.token });
    expect(tokens.json<{ tokens: unknown[] }>().tokens).toEqual([]);
    const me = await server.request({ method: 'GET', url: '/api/me', token: alice.token });
    expect(me.json<{ user: { firstName: string; company: string } }>().user).toMatchObject({
      firstName: 'Ada',
      company: 'Analytical Engines',
    });
    const feedback = await server.request({ method: 'GET', url: '/api/feedback', token: alice.token });
    expect(feedback.json<{ feedback: unknown[] }>().feedback).toEqual([]);
    const plans = await server.request({ method: 'GET', url: '/api/get-test-plans', token: alice.token });
    expect(JSON.stringify(plans.json())).not.toContain('\\ud83d');
    expect(await runCount(planId)).toBe(0);
  });

  it('is refused in the names and company of a registration, and no account is made', async () => {
    for (const [field, value] of [
      ['firstName', LONE],
      ['lastName', LONE],
      ['company', LONE],
      ['role', LONE],
    ] as const) {
      const registration = newRegistration({ [field]: value });
      const response = await server.request({ method: 'POST', url: '/api/register', body: registration });
      expect(response.statusCode, `${field}: ${response.body}`).toBe(400);
      const answer = response.json<ErrorAnswer>();
      expect(answer.errors?.map((e) => e.field)).toEqual([field]);
      const signIn = await server.request({
        method: 'POST',
        url: '/api/login',
        body: { username: registration.email, password: registration.password },
      });
      expect(signIn.statusCode).toBe(401);
    }
  });

  it('keeps well-formed text whole: a real emoji (a surrogate pair) in a token name is fine', async () => {
    const created = await server.request({
      method: 'POST',
      url: '/api/tokens',
      token: alice.token,
      body: { name: 'CI \ud83d\ude80 rocket' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const tokens = await server.request({ method: 'GET', url: '/api/tokens', token: alice.token });
    expect(tokens.json<{ tokens: { name: string }[] }>().tokens.map((t) => t.name)).toEqual(['CI 🚀 rocket']);
  });
});
