import { describe, expect, it } from 'vitest';
import { PerfPlanSchema, thresholdScopeProblems } from './perf-plan';
import type { ResultSummary } from './results/run-result';
import {
  abortText,
  evaluateThresholds,
  formatRunClock,
  judgeThreshold,
  parseThreshold,
  thresholdProblem,
} from './thresholds';

const summary: ResultSummary = {
  concurrent_users: 10,
  requests_per_second: 120,
  average_response_time: 80,
  error_rate: 0.5,
  total_requests: 1200,
  successful_requests: 1194,
  failed_requests: 6,
  percentile_50: 70,
  percentile_90: 150,
  percentile_95: 180,
  percentile_99: 400,
  percentile_999: 900,
  min_response_time: 3,
  max_response_time: 1200,
  avg_bandwidth: 10,
  test_duration: 10,
};

const row = (name: string, p95: number, requests = 100) => ({
  name,
  label: `GET http://x/${name}`,
  total_requests: requests,
  failed_requests: 0,
  average_response_time: p95 / 2,
  percentile_95: p95,
  percentile_99: p95 * 2,
  error_rate: 0,
});

describe('the threshold language', () => {
  it('reads an expression, with units', () => {
    expect(parseThreshold(' p95 < 0.3s ')).toEqual({
      source: 'p95 < 0.3s',
      metric: 'p95',
      op: '<',
      value: 300,
    });
    expect(parseThreshold('error_rate<=1%')).toMatchObject({ metric: 'error_rate', op: '<=', value: 1 });
  });

  it('reads a scope before the last colon', () => {
    expect(parseThreshold('Login: p95<300')).toMatchObject({ scope: 'Login', metric: 'p95', value: 300 });
    expect(parseThreshold('GET http://a:8080/x: rps>=5')).toMatchObject({ scope: 'GET http://a:8080/x' });
  });

  it('says what is wrong, quoting the expression', () => {
    expect(thresholdProblem('latency<3')).toMatch(/"latency<3": unknown metric "latency"/);
    expect(thresholdProblem('rps<3%')).toMatch(/only error_rate is a percentage/);
    expect(thresholdProblem('rps<3ms')).toMatch(/rps is not a time/);
    expect(thresholdProblem(': p95<3')).toMatch(/name the API before the colon/);
    expect(thresholdProblem('Login: p90<3')).toMatch(/p90 is not kept per API/);
    expect(thresholdProblem('p95 under 3')).toMatch(/is not understood/);
    expect(thresholdProblem('Login: p95<3')).toBeUndefined();
  });

  it('judges a summary, and a scope on its APIs', () => {
    const results = evaluateThresholds(
      ['p95<200', 'error_rate<0.1%', 'Login: p95<300', 'Search: p95<300'].map(parseThreshold),
      summary,
      [row('Login', 250), row('Search', 320)],
    );
    expect(results.map((r) => [r.threshold, r.actual, r.passed])).toEqual([
      ['p95<200', 180, true],
      ['error_rate<0.1%', 0.5, false],
      ['Login: p95<300', 250, true],
      ['Search: p95<300', 320, false],
    ]);
  });

  it('holds every API of one name to a scoped threshold: the failing one counts', () => {
    const t = parseThreshold('Login: p95<300');
    const apis = [row('Login', 100), row('Login', 500)];
    const perApi = apis.map((a) => ({ p95: a.percentile_95 }));
    expect(judgeThreshold(t, {}, perApi, apis)).toMatchObject({ actual: 500, passed: false });
  });

  it('refuses a scope that names no API, naming those there are', () => {
    expect(() => evaluateThresholds([parseThreshold('Logout: p95<300')], summary, [row('Login', 1)])).toThrow(
      /no API named "Logout"; its APIs are "Login"/,
    );
  });

  it('words an abort as a run clock says it', () => {
    expect(formatRunClock(134_500)).toBe('2m14s');
    expect(formatRunClock(45_000)).toBe('45s');
    expect(formatRunClock(3_600_000)).toBe('1h');
    expect(abortText({ threshold: 'p95<500', metric: 'p95', actual: 812.4 }, 134_000)).toBe(
      'p95 812 ms broke p95<500 at 2m14s',
    );
    expect(
      abortText(
        { threshold: 'Login: error_rate<1%', metric: 'error_rate', scope: 'Login', actual: 5.25 },
        12_000,
      ),
    ).toBe('Login error_rate 5.25% broke Login: error_rate<1% at 12s');
  });
});

describe('abort_thresholds on a plan', () => {
  const plan = {
    name: 'p',
    urls: [{ name: 'Login', url: 'http://x/login' }, { url: 'http://x/search' }],
  };

  it('is kept as written', () => {
    const parsed = PerfPlanSchema.parse({ ...plan, abort_thresholds: ['p95<500', 'Login: error_rate<5%'] });
    expect(parsed.abort_thresholds).toEqual(['p95<500', 'Login: error_rate<5%']);
  });

  it('refuses an expression that does not read, naming it', () => {
    const parsed = PerfPlanSchema.safeParse({ ...plan, abort_thresholds: ['p95<500', 'p95 < fast'] });
    expect(parsed.success).toBe(false);
    const issues = parsed.error?.issues ?? [];
    expect(issues.map((issue) => issue.path)).toEqual([['abort_thresholds', 1]]);
    expect(issues[0]?.message).toBe(
      'threshold "p95 < fast" is not understood: write e.g. "p95<300", "error_rate<1%" or "Login: p95<300"',
    );
  });

  it('has its scopes checked against the APIs, by name or METHOD url', () => {
    const parsed = PerfPlanSchema.parse({
      ...plan,
      thresholds: ['Logn: p95<1'],
      abort_thresholds: ['Login: p95<1', 'GET http://x/search: p95<1', 'Search: p95<1'],
    });
    const problems = thresholdScopeProblems(parsed);
    expect(problems.map((p) => p.field)).toEqual(['thresholds.0', 'abort_thresholds.2']);
    expect(problems[0]?.message).toMatch(
      /no API named "Logn"; its APIs are "Login", "GET http:\/\/x\/search"/,
    );
    expect(problems[1]?.message).toMatch(/no API named "Search"/);
  });
});

describe('thresholds scoped to a flow (docs/adr/0027-load-profiles.md "Abort criteria")', () => {
  const flowPlan = {
    urls: [
      { name: 'Login', method: 'POST', url: 'http://x/login', flow: 'buy' },
      { name: 'Search', method: 'GET', url: 'http://x/search', flow: 'browse' },
    ],
    flows: [
      { name: 'browse', weight: 70 },
      { name: 'buy', weight: 30 },
    ],
  };

  it("are a plan's when the scope names a flow, and refused naming the flows and APIs otherwise", () => {
    expect(thresholdScopeProblems({ ...flowPlan, thresholds: ['buy: p95<300', 'Login: p95<300'] })).toEqual(
      [],
    );
    const problems = thresholdScopeProblems({ ...flowPlan, abort_thresholds: ['pay: p95<300'] });
    expect(problems).toEqual([
      {
        field: 'abort_thresholds.0',
        message:
          'threshold "pay: p95<300": the plan has no flow or API named "pay"; its flows are "browse", "buy" and its APIs "Login", "Search"',
      },
    ]);
  });

  it("judge the flow's own row at the end of a run, and say when the run did not measure it", () => {
    const rows = [
      {
        name: 'browse',
        total_requests: 700,
        failed_requests: 0,
        error_rate: 0,
        average_response_time: 40,
        percentile_95: 90,
        percentile_99: 120,
      },
      {
        name: 'buy',
        total_requests: 300,
        failed_requests: 30,
        error_rate: 10,
        average_response_time: 200,
        percentile_95: 450,
        percentile_99: 800,
      },
    ];
    const [browse, buy] = evaluateThresholds(
      [parseThreshold('browse: p95<300'), parseThreshold('buy: error_rate<5%')],
      summary,
      [],
      rows,
    );
    expect(browse).toMatchObject({ scope: 'browse', actual: 90, passed: true });
    expect(buy).toMatchObject({ scope: 'buy', metric: 'error_rate', actual: 10, passed: false });
    // A tool's run counts a flow's iterations only.
    expect(() =>
      evaluateThresholds([parseThreshold('buy: p95<300')], summary, [], [{ name: 'buy' }]),
    ).toThrow(
      'threshold "buy: p95<300": this run did not measure the requests of flow "buy" (only its iterations), so it cannot be judged',
    );
  });
});
