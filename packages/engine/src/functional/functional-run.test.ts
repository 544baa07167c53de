import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  EVIDENCE_BODY_LIMIT_BYTES,
  FunctionalPlanSchema,
  type CallResult,
  type FunctionalPlan,
  type FunctionalPlanInput,
  type FunctionalValidationType,
  type ValidationDetail,
} from '@aqa/plan';
import { TestTarget, type RecordedRequest } from '../testing/target';
import { startFunctionalRun } from './functional-run';
import { petstoreSchema } from '../call/petstore-fixture';
import type { FunctionalRunOptions } from './run-types';

/** Each request's arrival: which connection (a user's keep-alive socket) and when. */
const arrivals: { path: string; port: number; at: number }[] = [];
const target = new TestTarget();

function answer(req: RecordedRequest, res: ServerResponse): void {
  arrivals.push({ path: req.path, port: res.socket?.remotePort ?? 0, at: performance.now() });
  const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
    res.end(JSON.stringify(body));
  };
  switch (req.path) {
    case '/pet':
      return json(200, { id: 7, name: 'Rex', tag: 'dog' }, { 'x-trace': 'abc' });
    case '/pet-bad':
      return json(200, { id: 'seven', tag: 3 });
    case '/big':
      res.writeHead(500, { 'content-type': 'text/plain', 'set-cookie': 'sid=secret' });
      return void res.end('x'.repeat(100_000));
    case '/moved':
      res.writeHead(302, { location: '/pet' });
      return void res.end();
    case '/slow':
      return void setTimeout(() => json(200, { ok: true }), 60);
    case '/login': {
      const { user } = JSON.parse(req.body) as { user: string };
      return json(200, { token: `tok-${user}` }, { 'x-session': 's1' });
    }
    case '/me':
      return req.headers.authorization === 'Bearer tok-alice' && req.headers['x-session'] === 's1'
        ? json(200, { name: 'alice' })
        : json(401, { error: 'unauthorized' });
    case '/greet':
      return json(200, { greeting: `hello ${req.query.get('who') ?? ''}` });
    case '/stall':
      return; // never answers
    default:
      return json(404, { error: 'not found' });
  }
}

beforeAll(async () => {
  target.route = answer;
  await target.start();
});
afterAll(async () => {
  await target.close();
});
beforeEach(() => {
  target.reset();
  arrivals.length = 0;
});

function plan(over: Partial<FunctionalPlanInput>): FunctionalPlan {
  return FunctionalPlanSchema.parse({ test_name: 'runner test', think_time: 0, ...over });
}

async function run(p: FunctionalPlan, options: FunctionalRunOptions = {}) {
  const calls: CallResult[] = [];
  const outcome = await startFunctionalRun(p, { ...options, onCall: (c) => calls.push(c) }).result;
  return { outcome, calls };
}

const rules = (...pairs: [FunctionalValidationType, string][]) =>
  pairs.map(([type, expected_value]) => ({ type, expected_value }));
const brief = (d: ValidationDetail) => [d.type, d.passed, d.actual, d.message];

describe('a functional run', () => {
  it('judges every validation type, passing and failing, with expected, actual and message; keeps masked evidence of failed calls', async () => {
    const { outcome, calls } = await run(
      plan({
        apis: [
          {
            name: 'pet',
            url: `${target.origin}/pet`,
            validations: rules(
              ['status_code', '200'],
              ['response_time', '5000'],
              ['json_path', '$.name == Rex'],
              ['json_path', '$.id'],
              ['json_path', '$.tag ~ ^d'],
              ['json_path', '$.name != Max'],
              ['contains_text', 'Rex'],
              ['header_value', 'Content-Type: application/json'],
              ['response_size', '1000'],
              ['schema', petstoreSchema('/pets/{petId}', '200')],
            ),
          },
          {
            name: 'big',
            url: `${target.origin}/big`,
            headers: { 'X-Api-Key': 'k1', Accept: 'text/plain' },
            authorization: { type: 'bearer', token: 'sekret-token' },
            validations: rules(
              ['status_code', '200'],
              ['json_path', '$.id'],
              ['contains_text', 'Rex'],
              ['header_value', 'X-Trace: abc'],
              ['response_size', '1000'],
              ['schema', petstoreSchema('/pets/{petId}', '200')],
            ),
          },
          {
            name: 'pet-bad',
            url: `${target.origin}/pet-bad`,
            validations: rules(
              ['json_path', '$.name == Rex'],
              ['json_path', '$.id == 7'],
              ['header_value', 'Content-Type: text/html'],
              ['schema', petstoreSchema('/pets/{petId}', '200')],
            ),
          },
          { name: 'moved', url: `${target.origin}/moved`, validations: rules(['status_code', '302']) },
          { name: 'slow', url: `${target.origin}/slow`, validations: rules(['response_time', '10']) },
          { name: 'pet again', url: `${target.origin}/pet` },
        ],
        validations: [
          { type: 'contains_text', expected_value: 'Rex', api_name: 'pet again' },
          { type: 'status_code', expected_value: '404', api_name: 'nobody' },
        ],
      }),
    );
    expect(calls).toEqual(outcome.validation_results);
    const [pet, big, bad, moved, slow, again] = calls as [
      CallResult,
      CallResult,
      CallResult,
      CallResult,
      CallResult,
      CallResult,
    ];

    expect(pet.success).toBe(true);
    expect(pet.validation_details.every((d) => d.passed)).toBe(true);
    expect(pet.validation_details.map((d) => d.message)).toEqual([
      'status 200 as expected',
      expect.stringMatching(/^took [\d.]+ ms, within 5000 ms$/),
      '$.name is Rex as expected',
      '$.id is 7',
      '$.tag is dog, matching /^d/',
      '$.name is Rex, not Max',
      'the body contains "Rex"',
      'header Content-Type is application/json; charset=utf-8',
      '33 bytes, within 1000 bytes',
      'the body conforms to the schema',
    ]);
    expect(pet.evidence).toBeUndefined();

    expect(big.status_code).toBe(500);
    expect(big.validation_details.map(brief)).toEqual([
      ['status_code', false, '500', 'expected status 200, got 500'],
      ['json_path', false, 'x'.repeat(200) + '…', 'expected JSON to read $.id, but the body is not JSON'],
      ['contains_text', false, 'x'.repeat(200) + '…', 'expected the body to contain "Rex"; it does not'],
      ['header_value', false, null, 'expected header X-Trace: abc, but the response has no X-Trace header'],
      ['response_size', false, '100000 bytes', 'expected at most 1000 bytes, got 100000 bytes'],
      [
        'schema',
        false,
        'x'.repeat(200) + '…',
        'expected a JSON body matching the schema, but the body is not JSON',
      ],
    ]);
    // The secrets went to the target, and are masked in what is kept.
    expect(target.recorded.find((r) => r.path === '/big')?.headers).toMatchObject({
      authorization: 'Bearer sekret-token',
      'x-api-key': 'k1',
    });
    expect(big.evidence?.request).toEqual({
      method: 'GET',
      url: `${target.origin}/big`,
      headers: { 'X-Api-Key': '***', Accept: 'text/plain', Authorization: '***' },
      body: '',
    });
    expect(big.evidence?.response).toMatchObject({
      status: 500,
      headers: { 'content-type': 'text/plain', 'set-cookie': '***' },
      truncated: true,
    });
    expect(big.evidence?.response?.body).toBe('x'.repeat(EVIDENCE_BODY_LIMIT_BYTES));

    expect(bad.validation_details.map(brief)).toEqual([
      ['json_path', false, null, 'expected $.name in the body; it is not there'],
      ['json_path', false, '"seven"', 'expected $.id == 7, got "seven"'],
      [
        'header_value',
        false,
        'application/json; charset=utf-8',
        'expected header Content-Type: text/html, got application/json; charset=utf-8',
      ],
      [
        'schema',
        false,
        '3 violations',
        '3 schema violations: / is missing required property name; /id must be integer, not string; /tag must be string, not integer',
      ],
    ]);
    expect(bad.validation_details[3]?.violations?.map((v) => v.path)).toEqual(['/', '/id', '/tag']);
    expect(bad.evidence?.response?.body).toBe('{"id":"seven","tag":3}');

    // A redirect is judged as it came: the 302, not the page it points to.
    expect(moved).toMatchObject({ success: true, status_code: 302 });
    expect(target.byPath.get('/pet')).toBe(2);

    expect(slow.validation_details[0]).toMatchObject({ passed: false });
    expect(slow.validation_details[0]?.message).toMatch(/^expected at most 10 ms, took (\d+(\.\d+)?) ms$/);
    expect(slow.response_time).toBeGreaterThanOrEqual(55);

    // No rules of its own: status 200 by default, then the plan-level rule that names it.
    expect(again.validation_details.map(brief)).toEqual([
      ['status_code', true, '200', 'status 200 as expected'],
      ['contains_text', true, '{"id":7,"name":"Rex","tag":"dog"}', 'the body contains "Rex"'],
    ]);

    // Timing phases: a fresh connection connects; the same user's next call reuses it.
    const first = pet.timings!;
    expect(first.connect).toBeGreaterThan(0);
    expect(first.ttfb).toBeGreaterThan(0);
    expect(first.dns).toBe(0); // an IP address is not looked up
    expect(first.tls).toBe(0);
    const sum = first.dns + first.connect + first.tls + first.ttfb + first.download;
    expect(Math.abs(sum - pet.response_time)).toBeLessThan(1);
    expect(again.timings).toMatchObject({ dns: 0, connect: 0, tls: 0 });
    expect(again.timings!.ttfb).toBeGreaterThan(0);

    expect(outcome.status).toBe('failed');
    expect(outcome.error).toBeNull();
    expect(outcome.summary).toEqual({
      total_requests: 6,
      successful_requests: 3,
      failed_requests: 3,
      validation_failures: 11,
    });
    expect(target.count).toBe(6);
    expect(outcome.calls_omitted).toBe(0);
    expect(outcome.api_results.map((r) => [r.name, r.status, r.status_code])).toEqual([
      ['pet', 'success', 200],
      ['big', 'failed', 500],
      ['pet-bad', 'failed', 200],
      ['moved', 'success', 302],
      ['slow', 'failed', 200],
      ['pet again', 'success', 200],
    ]);
    expect(outcome.api_results[2]?.validation_results).toEqual([
      { name: 'json_path $.name == Rex', passed: false },
      { name: 'json_path $.id == 7', passed: false },
      { name: 'header_value Content-Type: text/html', passed: false },
      { name: 'schema', passed: false },
    ]);
    expect(outcome.api_results[0]?.url).toBe(`${target.origin}/pet`);
    expect(outcome.timeline_data.reduce((n, p) => n + p.requests, 0)).toBe(6);
    expect(outcome.timeline_data.reduce((n, p) => n + p.failures, 0)).toBe(3);
  });

  it('makes a refused connection, a time-out and a URL that is no URL results in words, with every rule failed', async () => {
    const { outcome, calls } = await run(
      plan({
        apis: [
          { name: 'refused', url: 'http://127.0.0.1:1/x' },
          {
            name: 'stall',
            url: `${target.origin}/stall`,
            timeout: 1,
            validations: rules(['status_code', '200'], ['schema', petstoreSchema('/pets/{petId}', '200')]),
          },
          { name: 'unset', url: '{{base}}/x' },
        ],
      }),
    );
    const [refused, stall, unset] = calls as [CallResult, CallResult, CallResult];
    expect(refused).toMatchObject({
      status_code: null,
      success: false,
      error: 'Connection refused by 127.0.0.1:1',
    });
    expect(refused.validation_details.map(brief)).toEqual([
      ['status_code', false, null, 'expected status 200, but connection refused by 127.0.0.1:1'],
    ]);
    expect(refused.evidence).toEqual({
      request: { method: 'GET', url: 'http://127.0.0.1:1/x', headers: {}, body: '' },
      response: null,
    });
    expect(stall.error).toBe("No response within 1 s (the API's timeout)");
    expect(stall.response_time).toBeGreaterThanOrEqual(990);
    expect(stall.response_time).toBeLessThan(3000);
    expect(stall.validation_details.map((d) => d.message)).toEqual([
      "expected status 200, but no response within 1 s (the API's timeout)",
      "expected a body matching the schema, but no response within 1 s (the API's timeout)",
    ]);
    expect(unset.error).toBe('The URL "{{base}}/x" is not a full http:// or https:// URL');
    expect(outcome).toMatchObject({
      status: 'failed',
      summary: { total_requests: 3, successful_requests: 0, failed_requests: 3, validation_failures: 4 },
    });
  });

  it('chains values captured from one response into the next calls, and fails a call whose capture finds nothing', async () => {
    const { outcome, calls } = await run(
      plan({
        apis: [
          {
            name: 'login',
            method: 'POST',
            url: `${target.origin}/login`,
            body: '{"user":"alice"}',
            captures: [
              { name: 'token', from: 'json_path', expression: '$.token' },
              { name: 'session', from: 'header', expression: 'X-Session' },
            ],
          },
          {
            name: 'me',
            url: `${target.origin}/me`,
            headers: { 'X-Session': '{{session}}' },
            authorization: { type: 'bearer', token: '{{token}}' },
            captures: [{ name: 'who', from: 'regex', expression: '"name":"(\\w+)"' }],
          },
          {
            name: 'greet',
            url: `${target.origin}/greet`,
            params: [{ name: 'who', value: '{{who}}' }],
            validations: rules(['json_path', '$.greeting == hello alice']),
          },
          {
            name: 'nothing there',
            url: `${target.origin}/pet`,
            captures: [{ name: 'owner', from: 'json_path', expression: '$.owner' }],
          },
        ],
      }),
    );
    const [login, me, greet, nothing] = calls as [CallResult, CallResult, CallResult, CallResult];
    expect(login.captures).toEqual([
      { name: 'token', value: 'tok-alice' },
      { name: 'session', value: 's1' },
    ]);
    expect(target.recorded.find((r) => r.path === '/login')?.headers['content-type']).toBe(
      'application/json',
    );
    expect(me).toMatchObject({
      success: true,
      status_code: 200,
      captures: [{ name: 'who', value: 'alice' }],
    });
    expect(greet).toMatchObject({ success: true, url: `${target.origin}/greet?who=alice` });
    expect(nothing).toMatchObject({
      success: false,
      status_code: 200,
      error: 'Capture owner found nothing: $.owner is not in the body',
      captures: [{ name: 'owner', value: null }],
    });
    expect(nothing.validation_details.every((d) => d.passed)).toBe(true);
    expect(nothing.evidence?.response?.status).toBe(200);
    expect(outcome.summary).toMatchObject({
      successful_requests: 3,
      failed_requests: 1,
      validation_failures: 0,
    });
  });

  it('runs every API once per iteration per user, as many calls as the target counts, over the ramp-up and with think time', async () => {
    const started = performance.now();
    const { outcome, calls } = await run(
      plan({
        concurrent_users: 2,
        iterations: 2,
        ramp_up_time: 2,
        think_time: 1,
        apis: [
          { name: 'a', url: `${target.origin}/pet` },
          { name: 'b', url: `${target.origin}/pet?b` },
        ],
      }),
    );
    const elapsed = performance.now() - started;
    expect(outcome.status).toBe('completed');
    expect(outcome.summary.total_requests).toBe(8);
    expect(target.count).toBe(8);
    expect(calls.map((c) => `${c.user}.${c.iteration}.${c.api_name}`).sort()).toEqual([
      '1.1.a',
      '1.1.b',
      '1.2.a',
      '1.2.b',
      '2.1.a',
      '2.1.b',
      '2.2.a',
      '2.2.b',
    ]);
    // One keep-alive connection per user: its arrivals are that user's calls, a think time apart.
    const byUser = new Map<number, typeof arrivals>();
    for (const a of arrivals) byUser.set(a.port, [...(byUser.get(a.port) ?? []), a]);
    expect(byUser.size).toBe(2);
    const [one, two] = [...byUser.values()] as [typeof arrivals, typeof arrivals];
    for (const user of [one, two]) {
      expect(user).toHaveLength(4);
      for (let i = 1; i < user.length; i++) expect(user[i]!.at - user[i - 1]!.at).toBeGreaterThan(950);
    }
    // Two users over 2 s: the second starts a second after the first.
    expect(Math.abs(two[0]!.at - one[0]!.at)).toBeGreaterThan(900);
    // The last user starts at 1 s and pauses three times; no pause after the last call.
    expect(elapsed).toBeGreaterThan(3900);
  });

  it('stops within a second, abandoning calls in flight and keeping the ones measured', async () => {
    const calls: CallResult[] = [];
    const handle = startFunctionalRun(
      plan({
        concurrent_users: 2,
        apis: [
          { name: 'quick', url: `${target.origin}/pet` },
          { name: 'stall', url: `${target.origin}/stall`, timeout: 30 },
        ],
      }),
      { onCall: (c) => calls.push(c) },
    );
    const deadline = Date.now() + 10_000;
    while ((target.byPath.get('/stall') ?? 0) < 2 || calls.length < 2) {
      if (Date.now() > deadline) throw new Error('the stalling calls never arrived');
      await new Promise((r) => setTimeout(r, 20));
    }
    const asked = performance.now();
    await handle.stop();
    expect(performance.now() - asked).toBeLessThan(1000);
    const outcome = await handle.result;
    expect(outcome.status).toBe('stopped');
    expect(outcome.error).toBeNull();
    expect(outcome.summary).toEqual({
      total_requests: 2,
      successful_requests: 2,
      failed_requests: 0,
      validation_failures: 0,
    });
    expect(outcome.validation_results.map((c) => c.api_name)).toEqual(['quick', 'quick']);
    expect(outcome.api_results.map((r) => r.status)).toEqual(['success', 'not_run']);
  });

  it('asks the target guard before every connection and makes a refusal a failed call naming the host and the setting', async () => {
    const { outcome, calls } = await run(
      plan({
        apis: [
          { name: 'by address', url: `${target.origin}/pet` },
          { name: 'by name', url: `http://localhost:${target.port}/pet` },
        ],
      }),
      { guard: { allow: [], deny: ['127.0.0.1', '::1'], ownPorts: [] } },
    );
    expect(target.count).toBe(0);
    expect(target.connections).toBe(0);
    expect(calls[0]?.error).toBe('Requests to 127.0.0.1 are refused: it is in AQA_TARGETS_DENY (127.0.0.1).');
    expect(calls[1]?.error).toMatch(
      /^Requests to localhost \((127\.0\.0\.1|::1)\) are refused: it is in AQA_TARGETS_DENY \((127\.0\.0\.1|::1)\)\.$/,
    );
    expect(calls[0]?.validation_details[0]?.message).toBe(
      'expected status 200, but requests to 127.0.0.1 are refused: it is in AQA_TARGETS_DENY (127.0.0.1).',
    );
    expect(outcome.status).toBe('failed');
  });

  it('ends as failed, with the reason, when its worker cannot start', async () => {
    const { outcome } = await run(plan({ apis: [{ name: 'a', url: `${target.origin}/pet` }] }), {
      workerEntry: new URL('./no-such-worker.mjs', import.meta.url),
    });
    expect(outcome.status).toBe('failed');
    expect(outcome.error).toMatch(/^The functional runner failed: /);
    expect(outcome.summary.total_requests).toBe(0);
    expect(target.count).toBe(0);
  });
});
