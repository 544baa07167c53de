import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PerfPlan } from '@aqa/plan';
import { startRun, type RunOptions } from './run';
import { TestTarget, testPlan, type TestEntry } from './testing/target';
import type { RunResult, RunSnapshot } from './types';
import { summaryText } from './cli/report';

// Flows with weights (docs/adr/0027-load-profiles.md "3. Flows"), counted where the load lands: at a
// local target. Each browse iteration logs in (a fresh token per answer) and then browses with the
// token it captured; each search iteration asks once.
const target = new TestTarget();
let issued = 0;
beforeAll(async () => {
  await target.start();
});
afterAll(async () => {
  await target.close();
});
beforeEach(() => {
  target.reset();
  issued = 0;
  target.route = (req, res) => {
    if (req.path === '/login') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ token: `t${++issued}` }));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('ok');
  };
});

const url = (path: string): string => `${target.origin}${path}`;

function shopPlan(extra: TestEntry[] = [], over: Partial<PerfPlan> = {}): PerfPlan {
  return testPlan(
    [
      {
        url: url('/login'),
        flow: 'browse',
        extractType: 'json',
        extractName: 'token',
        extractValue: '$.token',
      },
      { url: url('/search'), flow: 'search' },
      { url: url('/browse?t={{token}}'), flow: 'browse' },
      ...extra,
    ],
    {
      concurrent_users: 4,
      flows: [
        { name: 'browse', weight: 70 },
        { name: 'search', weight: 30 },
      ],
      ...over,
    },
  );
}

async function run(
  plan: PerfPlan,
  opts: RunOptions,
): Promise<{ result: RunResult; snapshots: RunSnapshot[] }> {
  const handle = startRun(plan, opts);
  const snapshots: RunSnapshot[] = [];
  for await (const s of handle.snapshots) snapshots.push(s);
  return { result: await handle.result, snapshots };
}

/** Iterations per flow as the target saw them: a browse iteration's first call, a search iteration's one. */
function atTarget(): { browse: number; search: number } {
  return { browse: target.byPath.get('/login') ?? 0, search: target.byPath.get('/search') ?? 0 };
}

describe('flows with weights', () => {
  it('splits the closed model’s iterations 70/30 at the target, within 1.5 points, over two workers', async () => {
    const { result, snapshots } = await run(shopPlan(), { durationSeconds: 3, workers: 2 });
    const { browse, search } = atTarget();
    const iterations = browse + search;
    expect(iterations).toBeGreaterThanOrEqual(2000);
    expect(Math.abs((browse / iterations) * 100 - 70)).toBeLessThanOrEqual(1.5);
    // The result counts iterations begun: at most one per user more than the target received (an
    // iteration begun as the run ended sends nothing).
    const flows = result.flows!;
    expect(flows.map((f) => [f.name, f.weight])).toEqual([
      ['browse', 70],
      ['search', 30],
    ]);
    expect(flows[0]!.iterations - browse).toBeGreaterThanOrEqual(0);
    expect(flows[1]!.iterations - search).toBeGreaterThanOrEqual(0);
    expect(flows[0]!.iterations + flows[1]!.iterations - iterations).toBeLessThanOrEqual(4);
    expect(Math.abs(flows[0]!.share - 70)).toBeLessThanOrEqual(1.5);
    // A flow's requests are its calls' requests.
    const api = result.api_results;
    expect(flows[0]!.total_requests).toBe(api[0]!.total_requests + api[2]!.total_requests);
    expect(flows[1]!.total_requests).toBe(api[1]!.total_requests);
    expect(flows[1]!.latency.max).toBeGreaterThan(0);
    // Each second names its flows' iterations, and they add up to the result's.
    const perSecond = snapshots.map((s) => s.flows!.map((f) => f.iterations));
    expect(perSecond.reduce((a, s) => a + s[0]!, 0)).toBe(flows[0]!.iterations);
    expect(perSecond.reduce((a, s) => a + s[1]!, 0)).toBe(flows[1]!.iterations);
    // Each second carries its flows' requests and failures, merged over both workers from the flow's
    // calls: they add up to the second's requests, their totals so far to the run's so far (which, like
    // the snapshot's totals, count a later second a worker has already reported), and at the end to
    // the result's.
    let soFar = [0, 0];
    for (const s of snapshots) {
      const [b, q] = s.flows!;
      expect(b!.requests! + q!.requests!, `second ${s.second}`).toBe(s.requests);
      soFar = [soFar[0]! + b!.requests!, soFar[1]! + q!.requests!];
      expect(b!.totalRequests! + q!.totalRequests!).toBe(s.totals.requests);
      expect(b!.totalRequests).toBeGreaterThanOrEqual(soFar[0]!);
      expect(q!.totalRequests).toBeGreaterThanOrEqual(soFar[1]!);
      expect(b!.failures).toBe(0);
      if (q!.requests! > 0) expect(q!.latency!.max).toBeGreaterThanOrEqual(q!.latency!.p99);
    }
    expect(soFar).toEqual([flows[0]!.total_requests, flows[1]!.total_requests]);
    expect(snapshots.at(-1)!.flows!.map((f) => f.totalRequests)).toEqual(soFar);
    // The run's latency of a flow is the merge of its seconds': its max is the greatest second's.
    expect(flows[1]!.latency.max).toBe(Math.max(...snapshots.map((s) => s.flows![1]!.latency!.max)));
    // aqa run's summary lists them.
    expect(summaryText(result, [])).toMatch(/^browse +70 +[\d,]+ +\d+\.\d\d /m);
  }, 20_000);

  it('runs a flow’s calls in order: each browse uses the token its own iteration’s login captured', async () => {
    await run(shopPlan(), { durationSeconds: 1, workers: 1 });
    const browses = target.recorded.filter((r) => r.path === '/browse');
    expect(browses.length).toBeGreaterThan(100);
    const tokens = browses.map((r) => r.query.get('t'));
    // Every token was issued, and used once: no browse ran without its login, none reused another's.
    for (const t of tokens) expect(t).toMatch(/^t\d+$/);
    expect(new Set(tokens).size).toBe(tokens.length);
    // A search iteration never asks for a browse call.
    expect(target.byPath.get('/search')).toBeGreaterThan(0);
    expect(browses.length).toBeLessThanOrEqual(target.byPath.get('/login')!);
  }, 20_000);

  it('splits the open model’s iterations by the weights too, exactly over whole cycles', async () => {
    const { result } = await run(shopPlan(), {
      workers: 2,
      loadProfile: { model: 'arrival_rate', max_users: 50, stages: [{ duration: '2s', target: 500 }] },
    });
    const started = result.iterations!.started;
    const [browse, search] = result.flows!.map((f) => f.iterations);
    expect(browse! + search!).toBe(started);
    // Iterations take consecutive indexes from one counter: every whole cycle of 100 is 70/30 exactly.
    const cycles = Math.floor(started / 100);
    expect(browse! - cycles * 70).toBeGreaterThanOrEqual(0);
    expect(browse! - cycles * 70).toBeLessThanOrEqual(70);
    expect(atTarget().browse + atTarget().search).toBe(started);
  }, 20_000);

  it('keeps transactionRate: a call at 0 % of a flow is never sent while its flow still runs', async () => {
    const plan = shopPlan([{ url: url('/never'), flow: 'search', transactionRate: 0 }]);
    const { result } = await run(plan, { durationSeconds: 0.5, workers: 1 });
    expect(target.byPath.get('/never')).toBeUndefined();
    expect(target.byPath.get('/search')).toBeGreaterThan(0);
    expect(result.flows![1]!.iterations).toBeGreaterThan(0);
  }, 20_000);

  it('a plan without flows reports none', async () => {
    const plan = testPlan([{ url: url('/search') }], { concurrent_users: 1 });
    const { result, snapshots } = await run(plan, { durationSeconds: 0.3, workers: 1 });
    expect(result.flows).toBeUndefined();
    expect(snapshots.every((s) => s.flows === undefined)).toBe(true);
    expect(target.count).toBeGreaterThan(0);
  }, 20_000);
});
