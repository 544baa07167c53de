import type { Feedback, FeedbackList, FunctionalResult, Message, MessageList, TestResult } from '@aqa/plan';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCountingTarget, type CountingTarget } from './counting-target';
import {
  closeTestServer,
  registerAndLogin,
  startServerWithTwoUsers,
  startTestServer,
  type SignedInUser,
  type TestServer,
} from './helpers';
import { withTestSql } from './test-database';
import { insertUnfinishedRun } from './unfinished-run';
import { waitFor } from './wait-for';

/*
 * Messages and Feedback (docs/reference/02-running.md §2 "Messages", "Feedback", §7): real runs of the
 * built-in engine and of the functional runner against a local target that counts what it receives,
 * each leaving exactly one message with the figures stored for the run; a real SQLite file.
 */

const ENV = { EXTERNAL_TOOLS: 'off' };

let server: TestServer;
let target: CountingTarget;
let alice: SignedInUser;
let bob: SignedInUser;

beforeAll(async () => {
  target = await startCountingTarget();
  ({ server, alice, bob } = await startServerWithTwoUsers(ENV));
});

afterAll(async () => {
  await closeTestServer(server);
  await target?.close();
});

function call(
  user: SignedInUser,
  method: 'GET' | 'POST',
  url: string,
  body?: unknown,
  on: TestServer = server,
) {
  return on.request({ method, url, token: user.token, ...(body === undefined ? {} : { body }) });
}

async function ok<T>(user: SignedInUser, method: 'GET' | 'POST', url: string, body?: unknown, status = 200) {
  const response = await call(user, method, url, body);
  if (response.statusCode !== status) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
  return response.json<T>();
}

async function savePlan(user: SignedInUser, name: string, urls: string[], thresholds?: string[]) {
  const saved = await ok<{ id: string }>(
    user,
    'POST',
    '/api/save-test-plan',
    {
      name,
      tool: 'k6',
      concurrent_users: 2,
      duration: 1,
      urls: urls.map((path) => ({ method: 'GET', url: `${target.origin}${path}`, thinkTime: '20ms' })),
      ...(thresholds === undefined ? {} : { thresholds }),
    },
    201,
  );
  return saved.id;
}

async function loadRunToEnd(user: SignedInUser, planId: string, seconds: number): Promise<TestResult> {
  const { test_id } = await ok<{ test_id: string }>(
    user,
    'POST',
    '/api/run-test',
    { plan_id: planId, duration_seconds: seconds },
    201,
  );
  return waitFor(
    'the load run to end',
    async () => {
      const r = await ok<TestResult>(user, 'GET', `/api/get-test-result/${test_id}`);
      return r.status === 'running' || r.status === 'processing' ? undefined : r;
    },
    30_000,
  );
}

const messagesOf = (user: SignedInUser, query = '') => ok<MessageList>(user, 'GET', `/api/messages${query}`);

/**
 * The user's messages once there are `n`: a run's result reads final as soon as the run has ended,
 * and its message is stored just after (docs/reference/02-running.md §2 "Messages").
 */
const messagesOnce = (user: SignedInUser, n: number) =>
  waitFor(`${n} messages`, async () => {
    const list = await messagesOf(user);
    return list.messages.length >= n ? list : undefined;
  });
const count = new Intl.NumberFormat('en-US');

describe('messages', () => {
  let thresholdMessage: Message;
  let functionalMessage: Message;

  it('a completed load run that broke a threshold leaves one message naming it, with the measured figures', async () => {
    await target.reset();
    const planId = await savePlan(alice, 'Checkout', ['/items', '/fail-pay'], ['error_rate<1%', 'p95<60s']);
    const run = await loadRunToEnd(alice, planId, 1);
    expect(run.status).toBe('completed');
    const s = run.summary!;
    // What the run stored is what the target received.
    expect(s.total_requests).toBe((await target.counts()).total);
    expect(s.failed_requests).toBeGreaterThan(0);

    const { messages, unread } = await messagesOnce(alice, 1);
    expect(unread).toBe(1);
    expect(messages).toHaveLength(1);
    thresholdMessage = messages[0]!;
    expect(thresholdMessage).toMatchObject({
      kind: 'threshold_failed',
      test_type: 'load',
      name: 'Checkout',
      title: 'Checkout load test broke a threshold',
      link: `/test-result/${run.test_id}`,
      run_id: run.test_id,
      read_at: null,
    });
    const errorRate = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 }).format(s.error_rate);
    expect(thresholdMessage.body).toContain(`Broke error_rate<1% (was ${errorRate}%)`);
    expect(thresholdMessage.body).not.toContain('p95<60s');
    expect(thresholdMessage.body).toContain(`${count.format(s.total_requests)} requests`);
    expect(thresholdMessage.body).toContain(`error rate ${errorRate}%`);
    expect(thresholdMessage.body).toMatch(/p95 [\d.,]+ ms/);
  });

  it('a stopped load run leaves one "was stopped" message; bob sees none of alice\'s', async () => {
    const planId = await savePlan(alice, 'Search', ['/search']);
    const { test_id } = await ok<{ test_id: string }>(
      alice,
      'POST',
      '/api/run-test',
      { plan_id: planId, duration_seconds: 30 },
      201,
    );
    await waitFor(
      'the first second',
      async () => {
        const r = await ok<TestResult>(alice, 'GET', `/api/get-test-result/${test_id}`);
        return r.summary !== null && r.summary.total_requests > 0 ? true : undefined;
      },
      30_000,
    );
    await ok(alice, 'POST', `/api/stop-test/${test_id}`);
    const stopped = await ok<TestResult>(alice, 'GET', `/api/get-test-result/${test_id}`);

    const { messages, unread } = await messagesOnce(alice, 2);
    expect(unread).toBe(2);
    expect(messages.map((m) => m.run_id)).toEqual([test_id, thresholdMessage.run_id]);
    expect(messages[0]).toMatchObject({ kind: 'stopped', title: 'Search load test was stopped' });
    expect(messages[0]!.body).toContain(`${count.format(stopped.summary!.total_requests)} requests`);

    expect(await messagesOf(bob)).toEqual({ messages: [], unread: 0 });
  });

  it('a functional run leaves one message with its passed and failed calls', async () => {
    const { test_id } = await ok<{ test_id: string }>(
      alice,
      'POST',
      '/api/functional/run-test',
      {
        test_name: 'Login',
        iterations: 2,
        think_time: 0,
        apis: [
          { name: 'Good', url: `${target.origin}/fn/good` },
          { name: 'Bad', url: `${target.origin}/fail/fn` },
        ],
      },
      201,
    );
    const result = await waitFor(
      'the functional run to end',
      async () => {
        const r = await ok<{ status: string; summary: Record<string, number> }>(
          alice,
          'GET',
          `/api/functional/get-test-result/${test_id}`,
        );
        return r.status === 'running' ? undefined : r;
      },
      30_000,
    );
    expect(result.status).toBe('failed');
    expect(result.summary).toEqual({
      total_requests: 4,
      successful_requests: 2,
      failed_requests: 2,
      validation_failures: 2,
    });

    const { messages, unread } = await messagesOnce(alice, 3);
    expect(unread).toBe(3);
    functionalMessage = messages[0]!;
    expect(functionalMessage).toMatchObject({
      kind: 'failed',
      test_type: 'api',
      title: 'Login API test failed',
      // The default validation (a 2xx status) failed on each call to /fail.
      body: '4 calls: 2 passed, 2 failed · 2 validations failed',
      link: `/functional-test-result/${test_id}`,
    });
    // Exactly one message per run.
    expect(messages.filter((m) => m.run_id === test_id)).toHaveLength(1);
    // Its body travels as codes and parameters too, for screens in another language (docs/adr/0025-phrases.md).
    expect(functionalMessage.body_phrases).toEqual([
      { code: 'message.calls', params: { count: 4, total: '4', passed: '2', failed: '2' } },
      { code: 'message.validationsFailed', params: { count: 2, total: '2' } },
    ]);
    // And so does each rule's judgement of the result.
    const full = await ok<FunctionalResult>(alice, 'GET', `/api/functional/get-test-result/${test_id}`);
    const bad = full.validation_results.find((c) => c.api_name === 'Bad')!;
    expect(bad.validation_details[0]).toMatchObject({
      message: 'expected status 200, got 500',
      message_phrase: { code: 'judge.status.failed', params: { expected: '200', actual: '500' } },
    });
  });

  it("marks read the messages named (not another user's), then all; limit=0 is the count alone", async () => {
    expect(await messagesOf(alice, '?limit=0')).toEqual({ messages: [], unread: 3 });
    expect((await messagesOf(alice, '?limit=1')).messages).toHaveLength(1);

    // Bob naming alice's messages changes nothing of hers.
    expect(
      await ok(bob, 'POST', '/api/messages/read', { ids: [thresholdMessage.id, functionalMessage.id] }),
    ).toEqual({ unread: 0 });
    expect((await messagesOf(alice, '?limit=0')).unread).toBe(3);

    expect(await ok(alice, 'POST', '/api/messages/read', { ids: [thresholdMessage.id] })).toEqual({
      unread: 2,
    });
    const after = await messagesOf(alice);
    expect(after.messages.find((m) => m.id === thresholdMessage.id)!.read_at).not.toBeNull();
    expect(after.messages.filter((m) => m.read_at === null)).toHaveLength(2);

    expect(await ok(alice, 'POST', '/api/messages/read', {})).toEqual({ unread: 0 });
    // No body at all is "all" too.
    expect(
      (await server.request({ method: 'POST', url: '/api/messages/read', token: alice.token })).json(),
    ).toEqual({
      unread: 0,
    });
  });

  it('a message goes with its run when the run is deleted', async () => {
    const before = (await messagesOf(alice)).messages.length;
    const response = await server.request({
      method: 'DELETE',
      url: `/api/functional/delete-result/${functionalMessage.run_id}`,
      token: alice.token,
    });
    expect(response.statusCode).toBe(200);
    const after = await messagesOf(alice);
    expect(after.messages).toHaveLength(before - 1);
    expect(after.messages.map((m) => m.id)).not.toContain(functionalMessage.id);
  });

  it('refuses a user_email of another user and a bad limit', async () => {
    const foreign = await call(bob, 'GET', `/api/messages?user_email=${encodeURIComponent(alice.email)}`);
    expect(foreign.statusCode).toBe(403);
    const bad = await call(alice, 'GET', '/api/messages?limit=abc');
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ detail: string }>().detail).toContain('whole number from 0 to 200');
  });

  it('tells of a load run a restart found unfinished, as interrupted', async () => {
    const { server: first, alice: carol } = await startServerWithTwoUsers(ENV);
    const dataDir = first.dataDir;
    const planId = (
      await call(
        carol,
        'POST',
        '/api/save-test-plan',
        {
          name: 'Nightly',
          urls: [{ method: 'GET', url: `${target.origin}/nightly` }],
        },
        first,
      )
    ).json<{ id: string }>().id;
    await first.close();
    await insertUnfinishedRun(first.database, { id: 'run_crashed', planId, planName: 'Nightly' });
    const second = await startTestServer(ENV, dataDir);
    try {
      const answer = await call(carol, 'GET', '/api/messages', undefined, second);
      const { messages, unread } = answer.json<MessageList>();
      expect(unread).toBe(1);
      expect(messages[0]).toMatchObject({
        kind: 'interrupted',
        title: 'Nightly load test was interrupted',
        body: 'No requests were measured · interrupted by a server restart',
        body_phrases: [
          { code: 'message.noRequests', params: {} },
          { code: 'run.interrupted', params: {} },
        ],
        link: '/test-result/run_crashed',
      });
      const run = (
        await call(carol, 'GET', '/api/get-test-result/run_crashed', undefined, second)
      ).json<TestResult>();
      expect(run).toMatchObject({
        error: 'interrupted by a server restart',
        error_phrase: { code: 'run.interrupted', params: {} },
      });
      // A message stored before phrases (body_phrases null) keeps its English body and has no phrases.
      await withTestSql(second.database, (sql) =>
        sql.run("update messages set body_phrases = null where run_id = 'run_crashed'"),
      );
      const [older] = (await call(carol, 'GET', '/api/messages', undefined, second)).json<MessageList>()
        .messages;
      expect(older!.body).toBe('No requests were measured · interrupted by a server restart');
      expect(older).not.toHaveProperty('body_phrases');
    } finally {
      await closeTestServer(second);
    }
  });
});

describe('feedback', () => {
  it('stores what a user sends, with the page and one of their runs, and lists it to them only', async () => {
    const { messages } = await messagesOf(alice);
    const runId = messages[0]!.run_id;
    const first = await ok<Feedback>(
      alice,
      'POST',
      '/api/feedback',
      { kind: 'idea', message: '  Dark charts  ' },
      201,
    );
    expect(first).toMatchObject({ kind: 'idea', message: 'Dark charts', page: null, run_id: null });
    server.clock.advance(1000);
    const second = await ok<Feedback>(
      alice,
      'POST',
      '/api/feedback',
      { kind: 'bug', message: 'The chart is empty\nafter a stop', page: '/test-result/x', run_id: runId },
      201,
    );
    expect(second).toMatchObject({ kind: 'bug', page: '/test-result/x', run_id: runId });
    expect(Date.parse(second.created_at)).toBe(server.clock.nowMs);

    const list = await ok<FeedbackList>(alice, 'GET', '/api/feedback');
    expect(list.feedback.map((f) => f.id)).toEqual([second.id, first.id]);
    expect(await ok<FeedbackList>(bob, 'GET', '/api/feedback')).toEqual({ feedback: [] });

    // Another user's run is not found, and nothing is stored.
    const foreign = await call(bob, 'POST', '/api/feedback', { kind: 'bug', message: 'x', run_id: runId });
    expect(foreign.statusCode).toBe(404);
    expect(await ok<FeedbackList>(bob, 'GET', '/api/feedback')).toEqual({ feedback: [] });
  });

  it('refuses bad input with clear messages', async () => {
    const cases: [unknown, string][] = [
      [{ kind: 'bug', message: '   ' }, 'Write your feedback'],
      [{ kind: 'bug' }, 'Write your feedback'],
      [{ kind: 'rant', message: 'x' }, 'Choose what this is: bug, idea or question'],
      [{ kind: 'idea', message: 'x'.repeat(5001) }, 'Feedback can be at most 5000 characters'],
      [{ kind: 'idea', message: 'x', page: 'a\nb' }, 'Page cannot contain control characters or line breaks'],
    ];
    for (const [body, message] of cases) {
      const response = await call(alice, 'POST', '/api/feedback', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json<{ detail: string }>().detail).toContain(message);
    }
    const dave = await registerAndLogin(server);
    const asOther = await server.request({
      method: 'POST',
      url: `/api/feedback?user_email=${encodeURIComponent(alice.email)}`,
      token: dave.token,
      body: { kind: 'bug', message: 'x' },
    });
    expect(asOther.statusCode).toBe(403);
  });
});
