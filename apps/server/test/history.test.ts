import type { ChartData, PastRun, PerformanceDashboard } from '@aqa/plan';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCountingTarget, type CountingTarget } from './counting-target';
import {
  registerAndLogin,
  removeDir,
  startTestServer,
  type RequestOptions,
  type TestServer,
} from './helpers';
import { openTestSql } from './test-database';
import { waitForRunEnd } from './wait-for';

type Dashboard = PerformanceDashboard;

interface User {
  token: string;
  email: string;
}

let server: TestServer;
let target: CountingTarget;
let alice: User;
let bob: User;

/** Plans of alice, by role in these tests. */
const plan = { shop: '', catalog: '', inventory: '', percent: '', tradeoff: '' };
/** Alice's finished runs: two of the shop plan, four of the catalog plan (all of whose requests fail). */
let shopRuns: string[] = [];
let catalogRuns: string[] = [];

beforeAll(async () => {
  target = await startCountingTarget();
  server = await startTestServer({
    LOGIN_RATE_LIMIT_PER_IP: '1000',
    REGISTER_RATE_LIMIT_PER_IP: '1000',
    MAX_RUNS_PER_USER: '4',
    MAX_RUNS_PER_SERVER: '8',
    EXTERNAL_TOOLS: 'off',
  });
  const users = await Promise.all([registerAndLogin(server), registerAndLogin(server)]);
  [alice, bob] = users.map((u) => ({ token: u.token, email: u.registration.email })) as [User, User];

  plan.shop = await savePlan(alice, {
    name: 'Shop <API> & "Co"',
    description: 'The checkout flow',
    urls: [
      { method: 'GET', url: `${target.origin}/items`, name: 'List items', thinkTime: '20ms' },
      { method: 'POST', url: `${target.origin}/orders`, payload: '{"item":1}', thinkTime: '20ms' },
    ],
  });
  plan.catalog = await savePlan(alice, {
    name: 'Catalog 100%_off',
    description: 'Discounts that fail',
    urls: [{ method: 'GET', url: `${target.origin}/fail/catalog`, thinkTime: '20ms' }],
  });
  plan.inventory = await savePlan(alice, { name: 'Inventory', description: 'Never run' });
  plan.percent = await savePlan(alice, { name: '100 percent', description: '' });
  plan.tradeoff = await savePlan(alice, { name: 'Trade off study', description: '' });
  await savePlan(bob, { name: "Bob's shop", description: 'checkout' });

  // Short real runs with the built-in engine against the local target, a few at a time.
  shopRuns = await Promise.all([runToEnd(alice, plan.shop), runToEnd(alice, plan.shop, 3)]);
  catalogRuns = [];
  for (let i = 0; i < 2; i += 1) {
    catalogRuns.push(...(await Promise.all([runToEnd(alice, plan.catalog), runToEnd(alice, plan.catalog)])));
  }
}, 60_000);

afterAll(async () => {
  await server.close();
  await target.close();
  removeDir(server.dataDir);
});

function planBody(overrides: Record<string, unknown>) {
  return {
    name: 'Plan',
    tool: 'k6',
    concurrent_users: 2,
    duration: 1,
    urls: [{ method: 'GET', url: `${target.origin}/items`, thinkTime: '20ms' }],
    ...overrides,
  };
}

async function savePlan(user: User, overrides: Record<string, unknown>): Promise<string> {
  // Plans are listed newest first: each is saved a second after the one before.
  server.clock.advance(1000);
  const response = await call(user, {
    method: 'POST',
    url: '/api/save-test-plan',
    body: planBody(overrides),
  });
  if (response.statusCode !== 201) throw new Error(`save failed: ${response.body}`);
  return response.json<{ id: string }>().id;
}

function call(user: User | undefined, options: Omit<RequestOptions, 'token'>) {
  return server.request({ ...options, ...(user === undefined ? {} : { token: user.token }) });
}

async function startRun(user: User, planId: string, seconds: number, users = 2): Promise<string> {
  const response = await call(user, {
    method: 'POST',
    url: '/api/run-test',
    body: { plan_id: planId, duration_seconds: seconds, concurrent_users: users },
  });
  if (response.statusCode !== 201)
    throw new Error(`run-test failed: ${response.statusCode} ${response.body}`);
  return response.json<{ test_id: string }>().test_id;
}

async function waitUntilFinished(user: User, id: string): Promise<void> {
  await waitForRunEnd(server, user.token, 'load', id, 15_000);
}

async function runToEnd(user: User, planId: string, users = 2): Promise<string> {
  const id = await startRun(user, planId, 1, users);
  await waitUntilFinished(user, id);
  return id;
}

async function pastRuns(user: User, query = ''): Promise<{ runs: PastRun[]; total: number }> {
  const response = await call(user, { method: 'GET', url: `/api/get-test-results${query}` });
  expect(response.statusCode, response.body).toBe(200);
  return { runs: response.json<PastRun[]>(), total: Number(response.headers['x-total-count']) };
}

async function pastRun(user: User, id: string): Promise<PastRun> {
  const { runs } = await pastRuns(user, '?limit=1000');
  const run = runs.find((r) => r.test_id === id);
  if (run === undefined) throw new Error(`run ${id} not listed`);
  return run;
}

async function dashboard(user: User, query = ''): Promise<Dashboard> {
  const response = await call(user, { method: 'GET', url: `/api/performance-dashboard${query}` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<Dashboard>();
}

const names = (d: Dashboard) => d.plans.map((p) => p.name);

describe('get-test-results', () => {
  it('filters by status and lists notes and the baseline mark', async () => {
    const completed = await pastRuns(alice, '?status=completed');
    expect(completed.total).toBe(6);
    expect(completed.runs.every((r) => r.status === 'completed')).toBe(true);
    expect(completed.runs[0]).toMatchObject({ notes: '', is_baseline: false });
    const failed = await pastRuns(alice, '?status=failed');
    expect(failed).toEqual({ runs: [], total: 0 });
    const ofPlan = await pastRuns(alice, `?plan_id=${plan.catalog}&status=completed&limit=3`);
    expect(ofPlan.total).toBe(4);
    expect(ofPlan.runs).toHaveLength(3);

    const bad = await call(alice, { method: 'GET', url: '/api/get-test-results?status=done' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ detail: string }>().detail).toContain(
      'status must be one of running, processing, completed, failed, stopped, interrupted',
    );
  });
});

describe('save-test-result', () => {
  it('names a run and keeps notes; a blank name goes back to the plan name', async () => {
    const id = shopRuns[0]!;
    const saved = await call(alice, {
      method: 'POST',
      url: '/api/save-test-result',
      body: { test_id: id, test_name: '  Before the cache  ', notes: 'p95 was high\nsee ticket 12' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json<PastRun>()).toMatchObject({
      test_id: id,
      test_name: 'Before the cache',
      plan_name: 'Shop <API> & "Co"',
      notes: 'p95 was high\nsee ticket 12',
      status: 'completed',
    });
    expect(await pastRun(alice, id)).toMatchObject({ test_name: 'Before the cache' });

    // Only what is sent changes.
    const renamed = await call(alice, {
      method: 'POST',
      url: '/api/save-test-result',
      body: { test_id: id, test_name: '   ' },
    });
    expect(renamed.json<PastRun>()).toMatchObject({
      test_name: 'Shop <API> & "Co"',
      notes: 'p95 was high\nsee ticket 12',
    });
  });

  it('refuses bad bodies, naming the field, and runs of other users', async () => {
    const id = shopRuns[0]!;
    const cases: [unknown, string][] = [
      [{}, 'test_id is required'],
      [{ test_id: '  ' }, 'test_id is required'],
      [{ test_id: id, test_name: 'x'.repeat(201) }, 'test_name is at most 200 characters'],
      [{ test_id: id, notes: 'x'.repeat(2001) }, 'notes are at most 2000 characters'],
      [{ test_id: id, notes: 5 }, 'notes must be text'],
    ];
    for (const [body, detail] of cases) {
      const response = await call(alice, { method: 'POST', url: '/api/save-test-result', body });
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json<{ detail: string }>().detail).toContain(detail);
    }
    const notMine = await call(bob, { method: 'POST', url: '/api/save-test-result', body: { test_id: id } });
    expect(notMine.statusCode).toBe(404);
    const withNotes = await call(bob, {
      method: 'POST',
      url: '/api/save-test-result',
      body: { test_id: id, notes: 'mine now' },
    });
    expect(withNotes.statusCode).toBe(404);
    expect((await pastRun(alice, id)).notes).toBe('p95 was high\nsee ticket 12');
    const someoneElse = await call(alice, {
      method: 'POST',
      url: '/api/save-test-result',
      body: { test_id: id, user_email: bob.email },
    });
    expect(someoneElse.statusCode).toBe(403);
  });
});

describe('performance-dashboard', () => {
  it('counts all the user’s plans and runs, and lists plans newest first with their runs', async () => {
    const all = await dashboard(alice);
    expect(all.counters).toEqual({ total_plans: 5, completed_tests: 6, failed_tests: 0, running_tests: 0 });
    expect(all.total).toBe(5);
    expect(names(all)).toEqual([
      'Trade off study',
      '100 percent',
      'Inventory',
      'Catalog 100%_off',
      'Shop <API> & "Co"',
    ]);

    const shop = all.plans.find((p) => p.id === plan.shop)!;
    expect(shop).toMatchObject({
      _id: plan.shop,
      description: 'The checkout flow',
      api_count: 2,
      results_count: 2,
    });
    // The URL entries without bodies, headers or checks.
    expect(shop.urls).toEqual([
      { method: 'GET', url: `${target.origin}/items`, name: 'List items' },
      { method: 'POST', url: `${target.origin}/orders` },
    ]);

    // Three newest results and the count for "+N more results".
    const catalog = all.plans.find((p) => p.id === plan.catalog)!;
    expect(catalog.results_count).toBe(4);
    const newestFirst = (await pastRuns(alice, `?plan_id=${plan.catalog}`)).runs;
    expect(catalog.recent_results).toEqual(
      newestFirst.slice(0, 3).map((r) => ({
        test_id: r.test_id,
        status: 'completed',
        created_at: r.start_time,
        start_time: r.start_time,
      })),
    );

    // The trend: every completed run, oldest first, with p95 and error rate as stored.
    expect(catalog.trend).toEqual(
      [...newestFirst].reverse().map((r) => ({
        test_id: r.test_id,
        start_time: r.start_time,
        percentile_95: r.results_summary!.percentile_95,
        error_rate: r.results_summary!.error_rate,
      })),
    );
    expect(catalog.trend.every((t) => t.error_rate === 100)).toBe(true);
    const inventory = all.plans.find((p) => p.id === plan.inventory)!;
    expect(inventory).toMatchObject({
      results_count: 0,
      recent_results: [],
      trend: [],
      baseline_test_id: null,
    });
  });

  it('searches name and description case-insensitively, with % and _ as plain characters', async () => {
    expect(names(await dashboard(alice, '?q=SHOP'))).toEqual(['Shop <API> & "Co"']);
    expect(names(await dashboard(alice, '?q=CHECKOUT'))).toEqual(['Shop <API> & "Co"']);
    expect(names(await dashboard(alice, '?q=never%20RUN'))).toEqual(['Inventory']);
    // "100%" would match "100 percent" if % were a wildcard; "%_off" would match "Trade off".
    expect(names(await dashboard(alice, `?q=${encodeURIComponent('100%')}`))).toEqual(['Catalog 100%_off']);
    expect(names(await dashboard(alice, `?q=${encodeURIComponent('%_off')}`))).toEqual(['Catalog 100%_off']);
    expect(names(await dashboard(alice, `?q=${encodeURIComponent('_')}`))).toEqual(['Catalog 100%_off']);
    const none = await dashboard(alice, '?q=nothing-like-this');
    expect(none).toMatchObject({ total: 0, plans: [] });
    // The counters stay the user's totals whatever the search.
    expect(none.counters.total_plans).toBe(5);
  });

  it('folds case beyond ASCII: école finds ÉCOLE, and an update is searched by its new text', async () => {
    const id = await savePlan(bob, { name: 'Lycée ÉCOLE', description: 'Prüfung der ΣΕΛΙΔΑ' });
    expect(names(await dashboard(bob, `?q=${encodeURIComponent('école')}`))).toEqual(['Lycée ÉCOLE']);
    expect(names(await dashboard(bob, `?q=${encodeURIComponent('PRÜFUNG')}`))).toEqual(['Lycée ÉCOLE']);
    expect(names(await dashboard(bob, `?q=${encodeURIComponent('σελιδα')}`))).toEqual(['Lycée ÉCOLE']);
    // The same accent written decomposed (e + U+0301) finds the composed one.
    expect(names(await dashboard(bob, `?q=${encodeURIComponent('Lyce\u0301e')}`))).toEqual(['Lycée ÉCOLE']);
    const updated = await call(bob, {
      method: 'PUT',
      url: `/api/update-test-plan/${id}`,
      body: planBody({ name: 'Gymnasium', description: '' }),
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(names(await dashboard(bob, `?q=${encodeURIComponent('école')}`))).toEqual([]);
    expect(names(await dashboard(bob, '?q=GYMNASIUM'))).toEqual(['Gymnasium']);
    const gone = await call(bob, { method: 'DELETE', url: `/api/delete-test-plan/${id}` });
    expect(gone.statusCode).toBe(200);
  });

  it('filters by results and pages', async () => {
    expect(names(await dashboard(alice, '?filter=with_results'))).toEqual([
      'Catalog 100%_off',
      'Shop <API> & "Co"',
    ]);
    const without = await dashboard(alice, '?filter=no_results');
    expect(without.total).toBe(3);
    expect(names(without)).toEqual(['Trade off study', '100 percent', 'Inventory']);
    const page2 = await dashboard(alice, '?limit=2&offset=2');
    expect(page2.total).toBe(5);
    expect(names(page2)).toEqual(['Inventory', 'Catalog 100%_off']);
    const searchedPage = await dashboard(alice, '?filter=no_results&q=PERCENT&limit=1');
    expect(searchedPage).toMatchObject({ total: 1 });
    expect(names(searchedPage)).toEqual(['100 percent']);
  });

  it("shows only the user's own plans, and refuses bad query values with a clear detail", async () => {
    const bobs = await dashboard(bob);
    expect(names(bobs)).toEqual(["Bob's shop"]);
    expect(bobs.counters).toEqual({ total_plans: 1, completed_tests: 0, failed_tests: 0, running_tests: 0 });
    const cases: [string, string][] = [
      ['?filter=some', 'filter must be one of all, with_results, no_results'],
      ['?limit=0', 'limit must be a whole number from 1 to 100'],
      ['?limit=101', 'limit must be a whole number from 1 to 100'],
      ['?limit=abc', 'limit must be a whole number from 1 to 100'],
      ['?offset=-1', 'offset must be a whole number, 0 or more'],
    ];
    for (const [query, detail] of cases) {
      const response = await call(alice, { method: 'GET', url: `/api/performance-dashboard${query}` });
      expect(response.statusCode, query).toBe(400);
      expect(response.json<{ detail: string }>().detail, query).toContain(detail);
    }
    const other = await call(alice, {
      method: 'GET',
      url: `/api/performance-dashboard?user_email=${encodeURIComponent(bob.email)}`,
    });
    expect(other.statusCode).toBe(403);
  });
});

describe('chart-data-summary', () => {
  it("gives the user's totals and runs by day", async () => {
    const response = await call(alice, { method: 'GET', url: '/api/chart-data-summary' });
    expect(response.statusCode).toBe(200);
    const summary = response.json<{
      total_plans: number;
      total_tests: number;
      completed_tests: number;
      last_run_at: string | null;
      by_day: { date: string; total: number; completed: number; failed: number }[];
    }>();
    const { runs } = await pastRuns(alice);
    expect(summary).toMatchObject({
      total_plans: 5,
      total_tests: 6,
      completed_tests: 6,
      failed_tests: 0,
      running_tests: 0,
      stopped_tests: 0,
      last_run_at: runs[0]!.start_time,
    });
    const days = [...new Set(runs.map((r) => r.start_time.slice(0, 10)))].sort();
    expect(summary.by_day.map((d) => d.date)).toEqual(days);
    expect(summary.by_day.reduce((n, d) => n + d.total, 0)).toBe(6);

    const bobs = (await call(bob, { method: 'GET', url: '/api/chart-data-summary' })).json<object>();
    expect(bobs).toMatchObject({ total_plans: 1, total_tests: 0, last_run_at: null, by_day: [] });
  });
});

describe('set-baseline', () => {
  it('marks a completed run of the plan as its baseline, and clears it', async () => {
    const set = await call(alice, {
      method: 'POST',
      url: '/api/set-baseline',
      body: { plan_id: plan.shop, test_id: shopRuns[0] },
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toEqual({ plan_id: plan.shop, baseline_test_id: shopRuns[0] });
    expect((await pastRun(alice, shopRuns[0]!)).is_baseline).toBe(true);
    expect((await pastRun(alice, shopRuns[1]!)).is_baseline).toBe(false);
    const card = (await dashboard(alice, '?q=shop')).plans[0]!;
    expect(card.baseline_test_id).toBe(shopRuns[0]);

    const cleared = await call(alice, {
      method: 'POST',
      url: '/api/set-baseline',
      body: { plan_id: plan.shop, test_id: null },
    });
    expect(cleared.json()).toEqual({ plan_id: plan.shop, baseline_test_id: null });
    expect((await pastRun(alice, shopRuns[0]!)).is_baseline).toBe(false);
  });

  it('refuses a run of another plan, and plans or runs of other users', async () => {
    const otherPlan = await call(alice, {
      method: 'POST',
      url: '/api/set-baseline',
      body: { plan_id: plan.shop, test_id: catalogRuns[0] },
    });
    expect(otherPlan.statusCode).toBe(400);
    expect(otherPlan.json<{ detail: string }>().detail).toContain('This run is of another plan');
    const bobsPlan = await call(bob, {
      method: 'POST',
      url: '/api/set-baseline',
      body: { plan_id: plan.shop, test_id: null },
    });
    expect(bobsPlan.statusCode).toBe(404);
    const missing = await call(alice, {
      method: 'POST',
      url: '/api/set-baseline',
      body: { plan_id: plan.shop },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json<{ detail: string }>().detail).toContain('test_id must be a run id or null');
  });
});

describe('compare-test-results', () => {
  it("compares two runs' figures with deltas against their stored summaries", async () => {
    const [baseId, candidateId] = shopRuns as [string, string];
    const response = await call(alice, {
      method: 'GET',
      url: `/api/compare-test-results?base=${baseId}&candidate=${candidateId}`,
    });
    expect(response.statusCode, response.body).toBe(200);
    const comparison = response.json<{
      base: PastRun;
      candidate: PastRun;
      metrics: {
        key: string;
        unit: string;
        base: number;
        candidate: number;
        delta: number;
        delta_percent: number | null;
        worse: boolean;
      }[];
      apis: {
        key: string;
        name: string;
        base: { total_requests: number; requests_per_second: number; percentile_95: number } | null;
        candidate: { total_requests: number; percentile_95: number } | null;
        deltas: Record<string, { delta_percent: number | null; worse: boolean }>;
      }[];
      series: { base: ChartData['series']; candidate: ChartData['series'] };
    }>();
    const base = (await pastRun(alice, baseId)).results_summary!;
    const candidate = (await pastRun(alice, candidateId)).results_summary!;
    expect(comparison.base.test_id).toBe(baseId);
    expect(comparison.candidate.test_id).toBe(candidateId);

    const keys = [
      'requests_per_second',
      'average_response_time',
      'percentile_95',
      'percentile_99',
      'error_rate',
    ] as const;
    expect(comparison.metrics.map((m) => m.key)).toEqual(keys);
    comparison.metrics.forEach((metric, i) => {
      const key = keys[i]!;
      const b = base[key];
      const c = candidate[key];
      expect(metric.base).toBe(b);
      expect(metric.candidate).toBe(c);
      expect(metric.delta).toBeCloseTo(c - b, 3);
      if (b === 0) expect(metric.delta_percent).toBeNull();
      else expect(metric.delta_percent).toBeCloseTo(((c - b) / b) * 100, 2);
      expect(metric.worse).toBe(key === 'requests_per_second' ? c < b : c > b);
    });
    expect(comparison.metrics[0]!.unit).toBe('req/s');

    expect(comparison.apis.map((a) => a.name)).toEqual(['List items', `POST ${target.origin}/orders`]);
    comparison.apis.forEach((api, i) => {
      const b = base.api_results[i]!;
      const c = candidate.api_results[i]!;
      expect(api.base!.total_requests).toBe(b.total_requests);
      expect(api.base!.requests_per_second).toBeCloseTo(b.total_requests / base.test_duration, 2);
      expect(api.candidate!.percentile_95).toBe(c.percentile_95);
      const p95 = api.deltas.percentile_95!;
      if (b.percentile_95 === 0) expect(p95.delta_percent).toBeNull();
      else
        expect(p95.delta_percent).toBeCloseTo(
          ((c.percentile_95 - b.percentile_95) / b.percentile_95) * 100,
          2,
        );
      expect(p95.worse).toBe(c.percentile_95 > b.percentile_95);
    });

    for (const [side, id] of [
      ['base', baseId],
      ['candidate', candidateId],
    ] as const) {
      const chart = (await call(alice, { method: 'GET', url: `/api/chart-data/${id}` })).json<ChartData>();
      expect(comparison.series[side]).toEqual(chart.series);
      expect(comparison.series[side].length).toBeGreaterThan(0);
    }
  });

  it('matches APIs across plans by method, url and name, listing the base-only ones last', async () => {
    const response = await call(alice, {
      method: 'GET',
      url: `/api/compare-test-results?base=${shopRuns[0]}&candidate=${catalogRuns[0]}`,
    });
    expect(response.statusCode).toBe(200);
    const apis = response.json<{ apis: { name: string; base: unknown; candidate: unknown }[] }>().apis;
    expect(apis.map((a) => [a.name, a.base === null, a.candidate === null])).toEqual([
      [`GET ${target.origin}/fail/catalog`, true, false],
      ['List items', false, true],
      [`POST ${target.origin}/orders`, false, true],
    ]);
  });

  it("refuses other users' runs (404) and missing ids (400)", async () => {
    const bobs = await call(bob, {
      method: 'GET',
      url: `/api/compare-test-results?base=${shopRuns[0]}&candidate=${shopRuns[1]}`,
    });
    expect(bobs.statusCode).toBe(404);
    const missing = await call(alice, {
      method: 'GET',
      url: `/api/compare-test-results?base=${shopRuns[0]}`,
    });
    expect(missing.statusCode).toBe(400);
  });
});

describe('test-report', () => {
  const report = (user: User, id: string, format?: string) =>
    call(user, {
      method: 'GET',
      url: `/api/test-report/${id}${format === undefined ? '' : `?format=${format}`}`,
    });

  it('downloads a self-contained HTML report with the plan name escaped and inline SVG charts', async () => {
    const id = shopRuns[1]!;
    const response = await report(alice, id, 'html');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="report_shop-api-co_${id}.html"`,
    );
    const html = response.body;
    expect(html).toContain('Shop &lt;API&gt; &amp; &quot;Co&quot;');
    expect(html).not.toContain('<API>');
    expect((html.match(/<svg/g) ?? []).length).toBe(5);
    expect(html).toMatch(/<polyline|<circle/);
    expect(html).not.toMatch(/\b(src|href)\s*=\s*["']?\s*(https?:)?\/\//i);
    expect(html).not.toMatch(/<script|<link|@import|url\(/i);
    expect(html).toContain('List items');
    expect((await report(alice, id)).headers['content-type']).toMatch(/^text\/html/);
  });

  it('downloads the run as JSON matching the other calls', async () => {
    const id = shopRuns[0]!;
    const response = await report(alice, id, 'json');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="report_shop-api-co_${id}.json"`,
    );
    const body = JSON.parse(response.body) as { run: unknown; result: unknown; chart_data: unknown };
    expect(body.run).toEqual(await pastRun(alice, id));
    expect(body.result).toEqual(
      (await call(alice, { method: 'GET', url: `/api/get-test-result/${id}` })).json(),
    );
    expect(body.chart_data).toEqual(
      (await call(alice, { method: 'GET', url: `/api/chart-data/${id}` })).json(),
    );
  });

  it('downloads the per-second series as CSV, one row a second', async () => {
    const id = shopRuns[0]!;
    const response = await report(alice, id, 'csv');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/csv/);
    const chart = (await call(alice, { method: 'GET', url: `/api/chart-data/${id}` })).json<ChartData>();
    const [whole, perApi] = response.body.trimEnd().split('\r\n\r\n') as [string, string];
    const rows = whole.split('\r\n');
    expect(rows[0]).toBe(
      'second,active_users,requests,requests_per_second,errors,error_rate,avg_ms,p50_ms,p90_ms,p95_ms,p99_ms,max_ms,bandwidth_kbs',
    );
    expect(rows.slice(1).map((r) => Number(r.split(',')[0]))).toEqual(chart.series.map((p) => p.second));
    expect(rows.slice(1).map((r) => Number(r.split(',')[2]))).toEqual(chart.series.map((p) => p.requests));
    const apiRows = perApi.split('\r\n');
    expect(apiRows[0]).toBe(
      'api_index,api_name,method,url,second,requests_per_second,error_rate,avg_ms,p95_ms',
    );
    expect(apiRows).toHaveLength(1 + chart.api_series.reduce((n, s) => n + s.points.length, 0));
    expect(apiRows[1]).toMatch(new RegExp(`^0,List items,GET,${target.origin}/items,1,`));
  });

  it("refuses another user's run and an unknown format", async () => {
    expect((await report(bob, shopRuns[0]!, 'html')).statusCode).toBe(404);
    const bad = await report(alice, shopRuns[0]!, 'pdf');
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ detail: string }>().detail).toContain('format must be one of html, json, csv');
  });
});

describe('delete-test-result', () => {
  it('refuses to delete a run that is still going, then deletes it once finished', async () => {
    const id = await startRun(alice, plan.inventory, 2, 1);
    const refused = await call(alice, { method: 'DELETE', url: `/api/delete-test-result/${id}` });
    expect(refused.statusCode).toBe(409);
    expect(refused.json<{ detail: string }>().detail).toBe('Stop the test before deleting its result');
    const compared = await call(alice, {
      method: 'GET',
      url: `/api/compare-test-results?base=${shopRuns[0]}&candidate=${id}`,
    });
    expect(compared.statusCode).toBe(400);
    expect(compared.json<{ detail: string }>().detail).toContain('compare it once it has finished');
    await waitUntilFinished(alice, id);
    const deleted = await call(alice, { method: 'DELETE', url: `/api/delete-test-result/${id}` });
    expect(deleted.statusCode).toBe(200);
  });

  it('deletes a run with its series and its baseline mark; other users get 404', async () => {
    const id = shopRuns[0]!;
    await call(alice, {
      method: 'POST',
      url: '/api/set-baseline',
      body: { plan_id: plan.shop, test_id: id },
    });
    const sql = openTestSql(server.database);
    const pointsOf = async (runId: string) =>
      Number(
        (await sql.get<{ n: number }>('select count(*) as n from run_points where run_id = ?', runId))!.n,
      );
    try {
      expect(await pointsOf(id)).toBeGreaterThan(0);

      const bobs = await call(bob, { method: 'DELETE', url: `/api/delete-test-result/${id}` });
      expect(bobs.statusCode).toBe(404);
      expect(await pointsOf(id)).toBeGreaterThan(0);

      const deleted = await call(alice, { method: 'DELETE', url: `/api/delete-test-result/${id}` });
      expect(deleted.statusCode).toBe(200);
      expect(deleted.json()).toEqual({ test_id: id, deleted: true });
      expect(await pointsOf(id)).toBe(0);
      expect(await pointsOf(shopRuns[1]!)).toBeGreaterThan(0);
    } finally {
      await sql.close();
    }
    expect((await call(alice, { method: 'GET', url: `/api/get-test-result/${id}` })).statusCode).toBe(404);
    const card = (await dashboard(alice, '?q=shop')).plans[0]!;
    expect(card).toMatchObject({ baseline_test_id: null, results_count: 1 });
    expect(card.recent_results.map((r) => r.test_id)).toEqual([shopRuns[1]]);
    const again = await call(alice, { method: 'DELETE', url: `/api/delete-test-result/${id}` });
    expect(again.statusCode).toBe(404);
    const forbidden = await call(alice, {
      method: 'DELETE',
      url: `/api/delete-test-result/${shopRuns[1]}?user_email=${encodeURIComponent(bob.email)}`,
    });
    expect(forbidden.statusCode).toBe(403);
  });

  it('a deleted plan keeps its runs, which leave the dashboard', async () => {
    const gone = await call(alice, { method: 'DELETE', url: `/api/delete-test-plan/${plan.catalog}` });
    expect(gone.statusCode).toBe(200);
    const kept = await pastRun(alice, catalogRuns[0]!);
    expect(kept).toMatchObject({ plan_id: null, plan_name: 'Catalog 100%_off' });
    const after = await dashboard(alice);
    expect(after.counters.total_plans).toBe(4);
    expect(names(after)).not.toContain('Catalog 100%_off');
  });
});

describe('the history calls', () => {
  it('are documented and need a token', async () => {
    const doc = (await call(undefined, { method: 'GET', url: '/api/docs/json' })).json<{
      paths: Record<string, unknown>;
    }>();
    const paths = [
      '/api/delete-test-result/{id}',
      '/api/save-test-result',
      '/api/chart-data-summary',
      '/api/performance-dashboard',
      '/api/set-baseline',
      '/api/compare-test-results',
      '/api/test-report/{id}',
    ];
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(paths));
    for (const [method, url] of [
      ['DELETE', '/api/delete-test-result/x'],
      ['POST', '/api/save-test-result'],
      ['GET', '/api/chart-data-summary'],
      ['GET', '/api/performance-dashboard'],
      ['POST', '/api/set-baseline'],
      ['GET', '/api/compare-test-results?base=a&candidate=b'],
      ['GET', '/api/test-report/x'],
    ] as const) {
      expect((await call(undefined, { method, url })).statusCode, url).toBe(401);
    }
  });
});
