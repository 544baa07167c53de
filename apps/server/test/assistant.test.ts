import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AskAnswer, AssistantFigure, Conversation, Finding, ResultSummary, Review } from '@aqa/plan';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../src/db/database';
import { AssistantRepository } from '../src/repositories/assistant.repository';
import { RunRepository } from '../src/repositories/run.repository';
import { OpenAiCompatibleModel } from '../src/services/assistant/model-client';
import { startCountingTarget, type CountingTarget } from './counting-target';
import {
  closeTestServer,
  registerAndLogin,
  type SignedInUser,
  startTestServer,
  type TestServer,
} from './helpers';
import { waitFor, waitForRunEnd } from './wait-for';

/*
 * James's analyser and Ask James (docs/design.md §10) on a real server and SQLite: plans saved through
 * the API, a real functional run against a local target, and load runs with known figures written
 * through the run repository (a load run's figures cannot be chosen by running it).
 */

interface User extends SignedInUser {
  id: string;
}

/** A local OpenAI-compatible server: it counts what it is sent and answers as told. */
interface FakeModel {
  origin: string;
  requests: { url: string; authorization: string | undefined; body: ModelRequest }[];
  answer: { status: number; text: string };
  close(): Promise<void>;
}

interface ModelRequest {
  model: string;
  messages: { role: string; content: string }[];
}

async function startFakeModel(): Promise<FakeModel> {
  const fake: Omit<FakeModel, 'origin' | 'close'> = { requests: [], answer: { status: 200, text: '' } };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      fake.requests.push({
        url: req.url ?? '',
        authorization: req.headers.authorization,
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as ModelRequest,
      });
      // Status 0: never answer (the client's time-out is tested).
      if (fake.answer.status === 0) return;
      res.writeHead(fake.answer.status, { 'content-type': 'application/json' });
      res.end(
        fake.answer.status === 200
          ? JSON.stringify({ choices: [{ message: { role: 'assistant', content: fake.answer.text } }] })
          : JSON.stringify({ error: { message: 'model overloaded' } }),
      );
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return Object.assign(fake, {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

let server: TestServer;
let modelServer: TestServer;
let target: CountingTarget;
let fakeModel: FakeModel;
let db: Db;
let alice: User;
let bob: User;
/** Alice's plans and runs, by role. */
const ids = {
  checkout: '',
  catalog: '',
  search: '',
  orders: '',
  ramp: '',
  bobPlan: '',
  checkoutRuns: [] as string[],
  catalogRuns: [] as string[],
  ordersRun: '',
};

async function ok<T>(s: TestServer, options: Parameters<TestServer['request']>[0], status = 200): Promise<T> {
  const response = await s.request(options);
  if (response.statusCode !== status) {
    throw new Error(`${options.method} ${options.url}: ${response.statusCode} ${response.body}`);
  }
  return response.json<T>();
}

async function signIn(s: TestServer, database: Db): Promise<User> {
  const { token, registration } = await registerAndLogin(s);
  // The API never shows a user's id; the repositories need it.
  const row = await database
    .selectFrom('users')
    .select('id')
    .where('email_normalized', '=', registration.email.toLowerCase())
    .executeTakeFirstOrThrow();
  return { token, email: registration.email, id: row.id };
}

async function savePlan(user: User, body: Record<string, unknown>): Promise<string> {
  return (
    await ok<{ id: string }>(
      server,
      { method: 'POST', url: '/api/save-test-plan', token: user.token, body },
      201,
    )
  ).id;
}

async function saveFunctionalPlan(user: User, body: Record<string, unknown>): Promise<string> {
  return (
    await ok<{ id: string }>(
      server,
      { method: 'POST', url: '/api/functional/save-config', token: user.token, body },
      201,
    )
  ).id;
}

function summary(
  figures: Partial<ResultSummary> & { users: number; rps: number; p95: number },
): ResultSummary {
  const total = figures.total_requests ?? 2000;
  const failed = figures.failed_requests ?? 0;
  return {
    concurrent_users: figures.users,
    requests_per_second: figures.rps,
    average_response_time: figures.average_response_time ?? figures.p95 / 2,
    error_rate: figures.error_rate ?? (failed / total) * 100,
    total_requests: total,
    successful_requests: total - failed,
    failed_requests: failed,
    percentile_50: figures.p95 / 3,
    percentile_90: figures.p95 * 0.9,
    percentile_95: figures.p95,
    percentile_99: figures.p95 * 1.5,
    percentile_999: figures.p95 * 2,
    min_response_time: 1,
    max_response_time: figures.p95 * 3,
    avg_bandwidth: 10,
    test_duration: 60,
  };
}

function api(name: string, method: string, path: string, avg: number, p95: number, failed = 0) {
  return {
    name,
    label: name,
    url: `${target.origin}${path}`,
    method,
    total_requests: 1000,
    successful_requests: 1000 - failed,
    failed_requests: failed,
    average_response_time: avg,
    percentile_95: p95,
    percentile_99: p95 * 1.5,
    error_rate: failed / 10,
    errors_by_kind: {},
  };
}

let runCounter = 0;

/** A completed load run of the plan with these figures, as the run manager stores one. */
async function insertRun(
  user: User,
  plan: { id: string; name: string },
  startedAt: string,
  s: ResultSummary,
  apis: ReturnType<typeof api>[],
): Promise<string> {
  runCounter += 1;
  const id = `run_assistant${runCounter}`;
  await new RunRepository(db).insert({
    id,
    user_id: user.id,
    workspace_id: user.id,
    plan_id: plan.id,
    plan_name: plan.name,
    status: 'completed',
    tool: 'k6',
    engine: 'builtin',
    engine_note: '',
    config: '{}',
    concurrent_users: s.concurrent_users,
    duration_seconds: 60,
    started_at: startedAt,
    ended_at: startedAt.replace('00.000Z', '59.000Z'),
    error: null,
    error_details: null,
    summary: JSON.stringify(s),
    api_results: JSON.stringify(apis),
    errors: '{}',
    histogram: null,
    total_requests: s.total_requests,
    error_rate: s.error_rate,
    requests_per_second: s.requests_per_second,
    average_response_time: s.average_response_time,
    percentile_95: s.percentile_95,
  });
  return id;
}

async function ask(user: User, body: Record<string, unknown>, s: TestServer = server): Promise<AskAnswer> {
  return ok<AskAnswer>(s, { method: 'POST', url: '/api/assistant/ask', token: user.token, body });
}

function figure(figures: AssistantFigure[], label: string): number | undefined {
  return figures.find((f) => f.label === label)?.value;
}

beforeAll(async () => {
  target = await startCountingTarget();
  fakeModel = await startFakeModel();
  const limits = {
    LOGIN_RATE_LIMIT_PER_IP: '1000',
    REGISTER_RATE_LIMIT_PER_IP: '1000',
    EXTERNAL_TOOLS: 'off',
  };
  server = await startTestServer(limits);
  modelServer = await startTestServer({
    ...limits,
    AQA_LLM_BASE_URL: `${fakeModel.origin}/v1/`,
    AQA_LLM_MODEL: 'fake-model',
    AQA_LLM_API_KEY: 'sk-test-key',
  });
  db = openDatabase(server.database);
  [alice, bob] = [await signIn(server, db), await signIn(server, db)];

  const assertion = { assertionType: 'status', assertionValue: '200' };
  ids.checkout = await savePlan(alice, {
    name: 'Checkout',
    concurrent_users: 10,
    urls: [
      { method: 'POST', url: `${target.origin}/login`, name: 'Login', thinkTime: '1s', ...assertion },
      { method: 'GET', url: `${target.origin}/cart`, name: 'Cart', thinkTime: '1s' },
    ],
  });
  ids.catalog = await savePlan(alice, {
    name: 'Catalog browse',
    concurrent_users: 10,
    urls: [{ method: 'GET', url: `${target.origin}/catalog`, name: 'Browse', thinkTime: '1s', ...assertion }],
  });
  ids.search = await savePlan(alice, {
    name: 'Search',
    concurrent_users: 1,
    urls: [{ method: 'GET', url: `${target.origin}/search`, name: 'Find', thinkTime: '0', ...assertion }],
  });
  ids.bobPlan = await savePlan(bob, {
    name: 'Bobs private plan',
    urls: [{ method: 'GET', url: `${target.origin}/bob`, name: 'Bob step', thinkTime: '0' }],
  });
  ids.orders = await saveFunctionalPlan(alice, {
    test_name: 'Orders API',
    iterations: 1,
    think_time: 0,
    apis: [{ name: 'Create order', method: 'POST', url: `${target.origin}/fail/orders` }],
  });
  ids.ramp = await saveFunctionalPlan(alice, {
    test_name: 'Slow ramp',
    ramp_up_time: 120,
    test_duration: 1,
    apis: [
      {
        name: 'Health',
        url: `${target.origin}/health`,
        validations: [{ type: 'status_code', expected_value: '200', enabled: true }],
      },
    ],
  });

  // Checkout: a baseline, then a run like it, then one whose p95 is 50 % higher (Login's most).
  const checkout = { id: ids.checkout, name: 'Checkout' };
  const apisBefore = [api('Login', 'POST', '/login', 60, 80), api('Cart', 'GET', '/cart', 100, 120)];
  ids.checkoutRuns.push(
    await insertRun(
      alice,
      checkout,
      '2029-12-01T10:00:00.000Z',
      summary({ users: 10, rps: 200, p95: 90, error_rate: 0.5 }),
      apisBefore,
    ),
    await insertRun(
      alice,
      checkout,
      '2029-12-02T10:00:00.000Z',
      summary({ users: 10, rps: 200, p95: 100, error_rate: 0.5 }),
      apisBefore,
    ),
    await insertRun(
      alice,
      checkout,
      '2029-12-05T10:00:00.000Z',
      summary({ users: 10, rps: 195, p95: 150, error_rate: 0.8 }),
      [api('Login', 'POST', '/login', 110, 140), api('Cart', 'GET', '/cart', 105, 125, 30)],
    ),
  );
  await ok(server, {
    method: 'POST',
    url: '/api/set-baseline',
    token: alice.token,
    body: { plan_id: ids.checkout, test_id: ids.checkoutRuns[0] },
  });
  // Catalog: 10 → 20 → 40 users; throughput grows, then stops (+2.6 %).
  const catalog = { id: ids.catalog, name: 'Catalog browse' };
  for (const [day, users, rps, p95] of [
    ['2029-11-01', 10, 100, 55],
    ['2029-11-02', 20, 190, 58],
    ['2029-11-03', 40, 195, 62],
  ] as const) {
    ids.catalogRuns.push(
      await insertRun(alice, catalog, `${day}T10:00:00.000Z`, summary({ users, rps, p95 }), [
        api('Browse', 'GET', '/catalog', 20, p95),
      ]),
    );
  }
  // A real functional run: /fail answers 500, so the default rule (status 200) fails.
  ids.ordersRun = (
    await ok<{ test_id: string }>(
      server,
      {
        method: 'POST',
        url: '/api/functional/run-test',
        token: alice.token,
        body: {
          plan_id: ids.orders,
          test_name: 'Orders API',
          iterations: 1,
          think_time: 0,
          apis: [{ name: 'Create order', method: 'POST', url: `${target.origin}/fail/orders` }],
        },
      },
      201,
    )
  ).test_id;
  await waitFor(
    'the functional run to end',
    async () => {
      const { status } = await ok<{ status: string }>(server, {
        method: 'GET',
        url: `/api/functional/get-test-status/${ids.ordersRun}`,
        token: alice.token,
      });
      return status !== 'running' ? status : undefined;
    },
    20_000,
  );
}, 60_000);

afterAll(async () => {
  await db?.destroy();
  await closeTestServer(server);
  await closeTestServer(modelServer);
  await target?.close();
  await fakeModel?.close();
});

describe('Review saved plans', () => {
  let findings: Finding[];
  const of = (kind: Finding['kind']) => findings.filter((f) => f.kind === kind);

  beforeAll(async () => {
    findings = (await ok<Review>(server, { method: 'GET', url: '/api/assistant/review', token: alice.token }))
      .findings;
  });

  it('finds the regression against the previous run and against the baseline, with its numbers', () => {
    const regressions = of('regression');
    expect(regressions.map((f) => f.title)).toEqual([
      'Checkout: the last run regressed against the run before it',
      "Checkout: the last run regressed against the plan's baseline",
    ]);
    const [previous, baseline] = regressions as [Finding, Finding];
    expect(previous.severity).toBe('problem');
    // Only p95 moved beyond its tolerance: throughput −2.5 % and the error rate +0.3 points did not.
    expect(previous.figures).toEqual([
      { label: 'p95 (previous run)', value: 100, unit: 'ms' },
      { label: 'p95 (last run)', value: 150, unit: 'ms' },
      { label: 'p95 change', value: 50, unit: '%' },
    ]);
    expect(previous.detail).toContain('p95 100 ms → 150 ms (+50 ms, +50 %)');
    expect(figure(baseline.figures, 'p95 (baseline)')).toBe(90);
    expect(figure(baseline.figures, 'p95 change')).toBe(66.67);
    expect(previous.links.map((l) => l.href)).toEqual([
      `/test-result/${ids.checkoutRuns[2]}`,
      `/test-result/${ids.checkoutRuns[1]}`,
      `/compare-results?base=${ids.checkoutRuns[1]}&candidate=${ids.checkoutRuns[2]}`,
      `/create-test/url-input?planId=${ids.checkout}`,
    ]);
  });

  it('finds saturation across the runs with growing users', () => {
    const [saturation, ...more] = of('saturation');
    expect(more).toEqual([]);
    expect(saturation!.title).toBe('Catalog browse: throughput stops growing at about 20 users');
    expect(saturation!.figures.map((f) => [f.label, f.value])).toEqual([
      ['Users (lower load)', 20],
      ['Users (higher load)', 40],
      ['Throughput (lower load)', 190],
      ['Throughput (higher load)', 195],
      ['Throughput change', 2.63],
      ['p95 (higher load)', 62],
    ]);
    expect(saturation!.links.map((l) => l.href)).toContain(`/test-result/${ids.catalogRuns[2]}`);
  });

  it('ranks the most failing and the slowest APIs across recent runs', () => {
    // The functional API failed every run (a problem); Cart 1 % of its requests (a warning).
    const failing = of('most_failing_api');
    expect(failing.map((f) => [f.severity, f.title])).toEqual([
      ['problem', `Most failing functional API: Create order (POST ${target.origin}/fail/orders)`],
      ['warning', `Most failing API: Cart (GET ${target.origin}/cart)`],
    ]);
    expect(failing[0]!.figures.map((f) => [f.label, f.value])).toEqual([
      ['Failed runs', 1],
      ['Runs', 1],
    ]);
    expect(failing[1]!.figures.map((f) => [f.label, f.value])).toEqual([
      ['Failed requests', 30],
      ['Requests', 3000],
      ['Error rate', 1],
      ['Runs', 3],
    ]);
    const [slowest] = of('slowest_api');
    expect(slowest!.title).toBe(`Slowest API: Cart (GET ${target.origin}/cart)`);
    // (100 + 100 + 105) / 3 requests-weighted; the worst p95 of its runs.
    expect(slowest!.figures.map((f) => [f.label, f.value])).toEqual([
      ['Average response time', 101.67],
      ['Highest p95', 125],
      ['Requests', 3000],
      ['Runs', 3],
    ]);
  });

  it('finds the failed last functional run, steps without assertions, meaningless settings and plans that never ran', () => {
    const [failed] = of('last_validation_failed');
    expect(failed!.title).toBe('Orders API: the last run failed');
    expect(failed!.figures.map((f) => [f.label, f.value])).toEqual([
      ['Calls', 1],
      ['Failed calls', 1],
      ['Validation failures', 1],
    ]);
    expect(failed!.links[0]!.href).toBe(`/functional-test-result/${ids.ordersRun}`);
    expect(failed!.links[1]!.href).toBe(`/functional-test/url-input?planId=${ids.orders}`);

    expect(of('no_assertions').map((f) => [f.title, f.figures.map((x) => x.value)])).toEqual([
      ['Checkout: 1 of 2 steps have no assertion', [1, 2]],
      ['Orders API: 1 of 1 APIs have no validation of their own', [1, 1]],
    ]);
    expect(of('meaningless_setting').map((f) => [f.title, f.figures.map((x) => x.value)])).toEqual([
      ['Search: one user and no think time', [1, 0]],
      ['Slow ramp: ramp-up longer than the test', [120, 60, 1]],
    ]);
    expect(of('never_ran').map((f) => f.title)).toEqual(['Search has never run', 'Slow ramp has never run']);
    // Problems first, notes last.
    const order = findings.map((f) => f.severity);
    expect(order).toEqual(
      [...order].sort(
        (a, b) => ['problem', 'warning', 'info'].indexOf(a) - ['problem', 'warning', 'info'].indexOf(b),
      ),
    );
  });

  it('writes the findings in Korean when asked', async () => {
    const korean = await ok<Review>(server, {
      method: 'GET',
      url: '/api/assistant/review?language=ko',
      token: alice.token,
    });
    const regression = korean.findings.find((f) => f.kind === 'regression')!;
    expect(regression.title).toBe('Checkout: 마지막 실행이 그 전 실행보다 나빠졌습니다');
    expect(regression.figures.map((f) => f.value)).toEqual([100, 150, 50]);
  });

  it("never shows another user's plans or runs", async () => {
    const bobs = await ok<Review>(server, { method: 'GET', url: '/api/assistant/review', token: bob.token });
    expect(bobs.findings.map((f) => f.title)).toEqual([
      'Bobs private plan: 1 of 1 steps have no assertion',
      'Bobs private plan has never run',
    ]);
    expect(JSON.stringify(findings)).not.toContain('Bobs private plan');
  });
});

describe('Ask James', () => {
  it('explains why the last run was slower from the last two runs, in English', async () => {
    const answer = await ask(alice, { question: 'Why was my last run slower?' });
    expect(answer).toMatchObject({ source: 'analyser', understood: true });
    expect(answer.answer).toContain(
      'Your last run of Checkout (2029-12-05 10:00:00 UTC) was slower than the one before',
    );
    expect(answer.answer).toContain('p95 100 ms → 150 ms (+50 ms, +50 %)');
    expect(answer.answer).toContain(
      'The APIs that got slower: Login p95 80 → 140 ms, +75 %; Cart p95 120 → 125 ms, +4.2 %.',
    );
    expect(figure(answer.figures, 'p95 (previous run)')).toBe(100);
    expect(figure(answer.figures, 'p95 (last run)')).toBe(150);
    expect(figure(answer.figures, 'throughput change')).toBe(-2.5);
    expect(figure(answer.figures, 'Login p95 (last run)')).toBe(140);
    expect(answer.links[0]!.href).toBe(`/test-result/${ids.checkoutRuns[2]}`);
  });

  it('answers the same question in Korean, and in Korean when asked for Korean', async () => {
    const answer = await ask(alice, { question: '내 마지막 실행은 왜 느려졌어?' });
    expect(answer.answer).toContain('Checkout의 마지막 실행(2029-12-05 10:00:00 UTC)은 그 전 실행');
    expect(answer.answer).toContain('느려진 API: Login p95 80 → 140 ms');
    expect(figure(answer.figures, 'p95 (이전 실행)')).toBe(100);
    const asked = await ask(alice, { question: 'Which API fails most?', language: 'ko' });
    expect(asked.answer).toContain('가장 많이 실패한 API: Cart');
  });

  it('names the most failing and the slowest API', async () => {
    const failing = await ask(alice, { question: 'Which API fails most?' });
    expect(failing.answer).toContain('Most failing API: Cart');
    expect(failing.answer).toContain('30 of 3000 requests failed (1 %)');
    expect(figure(failing.figures, 'Failed requests')).toBe(30);
    const korean = await ask(alice, { question: '어떤 API가 가장 많이 실패해?' });
    expect(figure(korean.figures, '실패한 요청')).toBe(30);
    // Named, a plan narrows the question to its own runs.
    const ofCatalog = await ask(alice, { question: 'Which API of Catalog browse is slowest?' });
    expect(ofCatalog.answer).toContain('Slowest API: Browse');
    expect(figure(ofCatalog.figures, 'Average response time')).toBe(20);
    const slowest = await ask(alice, { question: 'Which API is slowest?' });
    expect(slowest.answer).toContain('Slowest API: Cart');
    expect(slowest.answer).toContain('After it: Login 76.7 ms, Browse 20 ms.');
    expect(figure(slowest.figures, 'Average response time')).toBe(101.67);
  });

  it('compares the last two runs of a plan named loosely, and sums up a plan', async () => {
    const compared = await ask(alice, { question: 'compare my last two runs of chekout' });
    expect(compared.answer).toContain(
      'Your last two runs of Checkout, 2029-12-02 10:00:00 UTC and 2029-12-05 10:00:00 UTC:',
    );
    expect(compared.links.map((l) => l.href)).toContain(
      `/compare-results?base=${ids.checkoutRuns[1]}&candidate=${ids.checkoutRuns[2]}`,
    );
    const status = await ask(alice, { question: 'How is Catalog browse doing?' });
    expect(status.answer).toContain(
      'The last run of Catalog browse (2029-11-03 10:00:00 UTC) completed: 40 users',
    );
    expect(figure(status.figures, 'Throughput')).toBe(195);
    const functional = await ask(alice, { question: 'Orders API 마지막 실행 요약' });
    expect(functional.answer).toContain('Orders API의 마지막 실행');
    expect(functional.answer).toContain('실패: Create order');
    const byId = await ask(alice, { question: 'last run summary', plan_id: ids.catalog });
    expect(byId.answer).toContain('Catalog browse');
  });

  it('explains terms, and reviews the plans on request', async () => {
    const p95 = await ask(alice, { question: 'What does p95 mean?' });
    expect(p95.answer).toMatch(
      /^p95 \(the 95th percentile\) is the response time that 95 % of requests beat/,
    );
    expect(p95.figures).toEqual([]);
    const korean = await ask(alice, { question: '램프업이 무슨 뜻이야?' });
    expect(korean.answer).toMatch(/^램프업은/);
    const review = await ask(alice, { question: 'Review my plans' });
    expect(review.findings?.some((f) => f.kind === 'saturation')).toBe(true);
    expect(review.answer).toMatch(/^James found \d+: \d+ problems/);
  });

  it('says what it can answer instead of inventing one, and sends nothing anywhere without a model', async () => {
    const answer = await ask(alice, { question: 'Write me a poem about the sea' });
    expect(answer).toMatchObject({ source: 'analyser', understood: false, figures: [], links: [] });
    expect(answer.answer).toContain('no language model is set up');
    expect(answer.suggestions).toContain('Why was my last run slower?');
    expect(answer.suggestions).toContain('Compare my last two runs of Checkout');
    expect(fakeModel.requests).toEqual([]);
  });

  it("answers from the user's own runs only, and from functional runs when there is no load run", async () => {
    const none = await ask(bob, { question: 'Which API is slowest?' });
    expect(none.answer).toBe('None of your runs has per-API figures yet: run a test plan first.');
    const noFailures = await ask(bob, { question: 'Which API fails most?' });
    expect(noFailures.answer).toBe('You have no runs yet, so no API has failed.');
    const planId = await saveFunctionalPlan(bob, {
      test_name: 'Bob checks',
      apis: [{ name: 'Bob call', url: `${target.origin}/bob-call` }],
    });
    const { test_id: runId } = await ok<{ test_id: string }>(
      server,
      {
        method: 'POST',
        url: '/api/functional/run-test',
        token: bob.token,
        body: {
          plan_id: planId,
          test_name: 'Bob checks',
          iterations: 1,
          think_time: 0,
          apis: [{ name: 'Bob call', url: `${target.origin}/bob-call` }],
        },
      },
      201,
    );
    await waitFor('the functional run to end', async () => {
      const { status } = await ok<{ status: string }>(server, {
        method: 'GET',
        url: `/api/functional/get-test-status/${runId}`,
        token: bob.token,
      });
      return status !== 'running' ? status : undefined;
    });
    const slowest = await ask(bob, { question: 'Which API is slowest?' });
    expect(slowest.answer).toMatch(
      /^Slowest functional API: Bob call \(GET http:\/\/127\.0\.0\.1:\d+\/bob-call\)\. In Bob checks: [\d.]+ ms on average over 1 recent runs\.$/,
    );
    expect(slowest.links).toEqual([
      { label: 'Newest run with it', href: `/functional-test-result/${runId}` },
    ]);
    const status2 = await ask(bob, { question: 'How is my last run?' });
    expect(status2.answer).toContain('The last run of Bob checks');
    for (const answer of [slowest, status2])
      expect(JSON.stringify(answer)).not.toMatch(/Checkout|Cart|Catalog/);
  });

  it("refuses another user's plan as not found, and a blank question", async () => {
    const foreign = await server.request({
      method: 'POST',
      url: '/api/assistant/ask',
      token: alice.token,
      body: { question: 'How is it doing?', plan_id: ids.bobPlan },
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).not.toContain('Bobs private plan');
    const blank = await server.request({
      method: 'POST',
      url: '/api/assistant/ask',
      token: alice.token,
      body: { question: '   ' },
    });
    expect(blank.statusCode).toBe(400);
    expect(blank.json<{ detail: string }>().detail).toContain('Ask James a question');
  });

  it("keeps each user's conversation, newest last, and clears it", async () => {
    const conversation = await ok<Conversation>(server, {
      method: 'GET',
      url: '/api/assistant/conversation',
      token: alice.token,
    });
    const questions = conversation.turns.map((t) => t.question);
    expect(questions[0]).toBe('Why was my last run slower?');
    expect(questions.at(-1)).toBe('Write me a poem about the sea');
    expect(conversation.turns[0]!.answer.figures.length).toBeGreaterThan(0);
    const bobs = await ok<Conversation>(server, {
      method: 'GET',
      url: '/api/assistant/conversation',
      token: bob.token,
    });
    // Bob's are his own questions only.
    expect(bobs.turns.map((turn) => turn.question)).toEqual([
      'Which API is slowest?',
      'Which API fails most?',
      'Which API is slowest?',
      'How is my last run?',
    ]);
    const cleared = await ok<{ deleted: number }>(server, {
      method: 'DELETE',
      url: '/api/assistant/conversation',
      token: alice.token,
    });
    expect(cleared.deleted).toBe(questions.length);
    const after = await ok<Conversation>(server, {
      method: 'GET',
      url: '/api/assistant/conversation',
      token: alice.token,
    });
    expect(after.turns).toEqual([]);
  });

  it('keeps at most the cap of turns per user, dropping the oldest', async () => {
    const repo = new AssistantRepository(db);
    await repo.clearTurns(bob.id, bob.id);
    for (let i = 1; i <= 5; i += 1) {
      await repo.addTurn(
        {
          id: `turn-${i}`,
          user_id: bob.id,
          workspace_id: bob.id,
          question: `q${i}`,
          answer: '{}',
          asked_at: '2030-01-01T00:00:00.000Z',
        },
        3,
      );
    }
    expect((await repo.turns(bob.id, bob.id)).map((t) => t.question)).toEqual(['q3', 'q4', 'q5']);
    expect(await repo.turns(alice.id, alice.id)).toEqual([]);
    await repo.clearTurns(bob.id, bob.id);
  });
});

describe('Ask James with a model configured', () => {
  let carol: User;
  let carolPlanId = '';

  beforeAll(async () => {
    const modelDb = openDatabase(modelServer.database);
    carol = await signIn(modelServer, modelDb);
    await modelDb.destroy();
    ({ id: carolPlanId } = await ok<{ id: string }>(
      modelServer,
      {
        method: 'POST',
        url: '/api/save-test-plan',
        token: carol.token,
        body: {
          name: 'Carol checkout',
          urls: [{ method: 'GET', url: `${target.origin}/carol`, name: 'Carol step', thinkTime: '50ms' }],
        },
      },
      201,
    ));
  });

  it("sends the question with the analyser's findings to the model and shows its answer as the model's", async () => {
    fakeModel.requests.length = 0;
    fakeModel.answer = { status: 200, text: 'Carol checkout has no runs yet, so I cannot judge it.' };
    const answer = await ask(carol, { question: 'Is my setup good enough for Black Friday?' }, modelServer);
    expect(answer).toEqual({
      answer: 'Carol checkout has no runs yet, so I cannot judge it.',
      figures: [],
      links: [],
      source: 'model',
      understood: true,
      model: 'fake-model',
    });
    expect(fakeModel.requests).toHaveLength(1);
    const [sent] = fakeModel.requests;
    expect(sent!.url).toBe('/v1/chat/completions');
    expect(sent!.authorization).toBe('Bearer sk-test-key');
    expect(sent!.body.model).toBe('fake-model');
    expect(sent!.body.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(sent!.body.messages[0]!.content).toContain('You are James');
    const user = sent!.body.messages[1]!.content;
    expect(user).toContain('Question: Is my setup good enough for Black Friday?');
    expect(user).toContain('Carol checkout: 1 of 1 steps have no assertion');
    expect(user).toContain('Carol checkout has never run');
    // Only Carol's data: nothing of the other server's users, nothing of Alice's.
    expect(user).not.toContain('Checkout:');
  });

  it('answers questions it understands itself, without the model', async () => {
    fakeModel.requests.length = 0;
    const answer = await ask(carol, { question: 'What is think time?' }, modelServer);
    expect(answer.source).toBe('analyser');
    expect(fakeModel.requests).toEqual([]);
  });

  it('says in words when the model fails, and invents nothing', async () => {
    fakeModel.answer = { status: 500, text: '' };
    const answer = await ask(carol, { question: 'Tell me a joke' }, modelServer);
    expect(answer).toMatchObject({ source: 'analyser', understood: false });
    expect(answer.answer).toContain('the model (fake-model at');
    expect(answer.answer).toContain('it answered HTTP 500');
    expect(answer.suggestions?.length).toBeGreaterThan(0);
  });
  it('gives up on a model that does not answer in time, or cannot be reached, in words', async () => {
    fakeModel.answer = { status: 0, text: '' };
    const slow = new OpenAiCompatibleModel({ baseUrl: `${fakeModel.origin}/v1`, model: 'fake-model' }, 1000);
    expect(await slow.ask('system', 'question')).toEqual({
      ok: false,
      problem: 'it did not answer within 1 s',
    });
    const closed = await startFakeModel();
    await closed.close();
    const away = new OpenAiCompatibleModel({ baseUrl: `${closed.origin}/v1`, model: 'fake-model' });
    const reply = await away.ask('system', 'question');
    expect(reply).toMatchObject({ ok: false });
    expect(reply.ok ? '' : reply.problem).toMatch(/^it could not be reached \(.*ECONNREFUSED.*\)$/);
    fakeModel.answer = { status: 200, text: 'ok' };
  });

  it('reads a real run of the engine: the figures of its answer are those the run stored', async () => {
    const { test_id: runId } = await ok<{ test_id: string }>(
      modelServer,
      {
        method: 'POST',
        url: '/api/run-test',
        token: carol.token,
        body: { plan_id: carolPlanId, duration_seconds: 1 },
      },
      201,
    );
    const result = await waitForRunEnd<{ status: string; summary: ResultSummary | null }>(
      modelServer,
      carol.token,
      'load',
      runId,
      30_000,
      200,
    );
    expect(result.status).toBe('completed');
    const s = result.summary!;
    expect(s.total_requests).toBeGreaterThan(0);
    fakeModel.requests.length = 0;
    const answer = await ask(carol, { question: 'How is Carol checkout doing?' }, modelServer);
    expect(answer.source).toBe('analyser');
    expect(figure(answer.figures, 'Requests')).toBe(s.total_requests);
    expect(figure(answer.figures, 'p95')).toBe(Math.round(s.percentile_95 * 100) / 100);
    expect(figure(answer.figures, 'Throughput')).toBe(Math.round(s.requests_per_second * 100) / 100);
    expect(answer.links[0]!.href).toBe(`/test-result/${runId}`);
    expect(fakeModel.requests).toEqual([]);
  });
});
