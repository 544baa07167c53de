import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { testPlan } from '../testing/target';
import { parseK6Time } from './k6';
import { readK6Json, readLocustCsv, readTaurusKpi } from './readers';

const fixture = (name: string): string =>
  readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

/** The plan the fixtures were written for: "1. Alpha" and "2. POST http://127.0.0.1:8080/b". */
const plan = testPlan(
  [
    { url: 'http://127.0.0.1:8080/a', name: 'Alpha' },
    { url: 'http://127.0.0.1:8080/b', method: 'POST', payload: '{"x":1}' },
  ],
  { concurrent_users: 2 },
);

/** Within HDR's 3 significant digits of the true value (0.1 %). */
const near = (actual: number, expected: number): void => {
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(expected * 0.001 + 1e-9);
};

describe('k6 JSON output reader', () => {
  const { result, snapshots } = readK6Json(plan, fixture('k6-two-steps.ndjson'));

  it('counts every http_req_duration point once, per step, with verdicts from aqa_errors', () => {
    expect(result.tool).toBe('k6');
    expect(result.exact).toBe(true);
    expect(result.summary.total_requests).toBe(10);
    expect(result.summary.failed_requests).toBe(3);
    expect(result.summary.successful_requests).toBe(7);
    const [a, b] = result.api_results;
    expect([a!.total_requests, a!.failed_requests]).toEqual([5, 0]);
    expect([b!.total_requests, b!.failed_requests]).toEqual([5, 3]);
    // A 500, an assertion that failed on a 200, and k6's request time-out (error_code 1050).
    expect(b!.errors.http_status?.count).toBe(1);
    expect(b!.errors.assertion?.count).toBe(1);
    expect(b!.errors.timeout?.count).toBe(1);
    expect(b!.errors.timeout?.samples).toEqual(['request timeout']);
    expect(result.unmatched).toEqual({ 'OAuth2 token': 1 });
    expect(result.checks).toEqual({ passes: 2, fails: 2 });
  });

  it('computes exact latency figures from every sample (HDR: 3 significant digits, exact min, max, mean)', () => {
    const s = result.summary;
    expect(s.min_response_time).toBe(8);
    expect(s.max_response_time).toBe(100);
    expect(s.average_response_time).toBe(31.65);
    // Sorted: 8 9 12.5 14 20.25 22.75 30 40 60 100
    near(s.percentile_50, 20.25);
    near(s.percentile_90, 60);
    expect(s.percentile_95).toBe(100);
    expect(s.percentile_99).toBe(100);
    const [a, b] = result.api_results;
    expect(a!.average_response_time).toBe(28.7); // (12.5 + 14 + 8 + 9 + 100) / 5
    expect(b!.average_response_time).toBe(34.6); // (20.25 + 22.75 + 30 + 40 + 60) / 5
    near(a!.percentile_50, 12.5);
    expect(b!.max_response_time).toBe(60);
    expect(result.histogram.c.reduce((x, y) => x + y, 0)).toBe(10);
  });

  it('gives per-second snapshots from the first request on, with vus and the whole run bytes', () => {
    expect(snapshots.map((x) => [x.second, x.requests, x.failures])).toEqual([
      [1, 6, 2],
      [2, 4, 1],
    ]);
    expect(snapshots[0]!.steps.map((x) => x.requests)).toEqual([3, 3]);
    expect(snapshots[0]!.errors).toEqual({ http_status: 1, assertion: 1 });
    expect(snapshots[1]!.errors).toEqual({ timeout: 1 });
    expect(snapshots[0]!.activeUsers).toBe(2);
    // The last second ends with the last response (02.050 − 00.100).
    expect(snapshots[1]!.elapsedS).toBe(1.95);
    expect(snapshots[1]!.totals.requests).toBe(10);
    expect(result.summary.bytes_sent).toBe(312 * 5);
    expect(result.summary.bytes_received).toBe(402 + 398 + 401 + 400);
    expect(result.summary.test_duration).toBe(1.95);
    expect(result.started_at).toBe('2024-05-09T08:00:00.100Z');
  });

  it('reads RFC 3339 times with nanoseconds and offsets', () => {
    expect(parseK6Time('2017-05-09T14:34:45.625742514+02:00')).toBeCloseTo(
      Date.UTC(2017, 4, 9, 12, 34, 45, 625) + 0.742514,
      3,
    );
    expect(parseK6Time('2017-05-09T14:34:45Z')).toBe(Date.UTC(2017, 4, 9, 14, 34, 45));
  });

  it('without a verdict metric, judges requests by their status alone', () => {
    const { result: r } = readK6Json(plan, fixture('k6-two-steps.ndjson'), { errorMetric: '' });
    expect(r.summary.failed_requests).toBe(2);
    expect(r.api_results[1]!.errors.assertion).toBeUndefined();
  });
});

describe('Taurus kpi.jtl reader', () => {
  const { result, snapshots } = readTaurusKpi(plan, fixture('taurus-kpi.jtl'));

  it('counts every sample once, per step, exactly', () => {
    expect(result.tool).toBe('taurus');
    expect(result.source).toBe('taurus kpi.jtl');
    expect(result.summary.total_requests).toBe(10);
    expect(result.summary.failed_requests).toBe(3);
    const [a, b] = result.api_results;
    expect([a!.total_requests, a!.failed_requests]).toEqual([5, 0]);
    expect([b!.total_requests, b!.failed_requests]).toEqual([5, 3]);
    expect(b!.errors.http_status).toEqual({
      count: 1,
      samples: ['HTTP 500 Internal Server Error, retry later'],
    });
    expect(b!.errors.assertion?.count).toBe(1);
    expect(b!.errors.timeout?.count).toBe(1);
    expect(result.unmatched).toEqual({ 'OAuth2 token': 1 });
    expect(result.summary.bytes_received).toBe(143 * 5 + 160 * 3 + 180 + 2193);
    expect(result.notes.join(' ')).toMatch(/sentBytes/);
  });

  it('gives exact percentiles in whole milliseconds, as JMeter records them', () => {
    const s = result.summary;
    // Sorted: 8 9 12 15 21 23 30 40 100 1001
    expect([
      s.min_response_time,
      s.percentile_50,
      s.percentile_90,
      s.percentile_95,
      s.max_response_time,
    ]).toEqual([8, 21, 100, 1001, 1001]);
    expect(s.average_response_time).toBe(125.9);
    expect(result.api_results[0]!.percentile_50).toBe(12);
    expect(s.test_duration).toBe(2.806);
  });

  it('gives per-second snapshots by response end, the last one partial', () => {
    expect(snapshots.map((x) => [x.second, x.requests, x.failures, x.intervalS])).toEqual([
      [1, 6, 2, 1],
      [2, 3, 0, 1],
      [3, 1, 1, 0.806],
    ]);
    expect(snapshots[0]!.steps.map((x) => [x.requests, x.failures])).toEqual([
      [3, 0],
      [3, 2],
    ]);
    expect(snapshots[2]!.activeUsers).toBe(1);
    expect(snapshots[0]!.latency.max).toBe(30);
  });
});

describe('Locust CSV reader', () => {
  const history = [
    'Timestamp,User Count,Type,Name,Requests/s,Failures/s,50%,66%,75%,80%,90%,95%,98%,99%,99.9%,99.99%,100%,Total Request Count,Total Failure Count,Total Median Response Time,Total Average Response Time,Total Min Response Time,Total Max Response Time,Total Average Content Size',
    '1715241600,0,,Aggregated,0.000000,0.000000,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,0,0,0,0.0,0,0,0',
    '1715241601,2,GET,1. Alpha,0.000000,0.000000,4,5,5,6,8,9,10,10,10,10,10,40,0,4,4.5,1.2,10.3,2.0',
    '1715241601,2,POST,2. POST http://127.0.0.1:8080/b,0.000000,0.000000,5,6,6,7,9,9,11,11,11,11,11,40,10,5,5.5,1.5,11.2,2.0',
    '1715241601,2,,Aggregated,0.000000,0.000000,5,5,6,6,8,9,10,11,11,11,11,80,10,5,5.0,1.2,11.2,2.0',
    '1715241602,2,GET,1. Alpha,0.000000,0.000000,4,5,5,6,8,9,10,10,12,12,12,90,0,4,4.0,1.2,12.1,2.0',
    '1715241602,2,POST,2. POST http://127.0.0.1:8080/b,0.000000,0.000000,5,6,6,7,9,9,11,11,13,13,13,90,20,5,6.0,1.5,13.4,2.0',
    '1715241602,2,,Aggregated,0.000000,0.000000,5,5,6,6,8,9,10,11,13,13,13,180,20,5,5.0,1.2,13.4,2.0',
    '',
  ].join('\r\n');
  const stats = [
    'Type,Name,Request Count,Failure Count,Median Response Time,Average Response Time,Min Response Time,Max Response Time,Average Content Size,Requests/s,Failures/s,50%,66%,75%,80%,90%,95%,98%,99%,99.9%,99.99%,100%',
    'GET,1. Alpha,90,0,4,4.0,1.2,12.1,2.0,45.0,0.0,4,5,5,6,8,9,10,10,12,12,12',
    'POST,2. POST http://127.0.0.1:8080/b,90,20,5,6.0,1.5,13.4,2.0,45.0,10.0,5,6,6,7,9,9,11,11,13,13,13',
    ',Aggregated,180,20,5,5.0,1.2,13.4,2.0,90.0,10.0,5,5,6,6,8,9,10,11,13,13,13',
  ].join('\r\n');
  const failures = [
    'Method,Name,Error,Occurrences',
    `POST,2. POST http://127.0.0.1:8080/b,"HTTPError('500 Server Error: Internal Server Error for url: http://127.0.0.1:8080/b')",15`,
    `POST,2. POST http://127.0.0.1:8080/b,"CatchResponseError(""Assertion failed: json $.ok equals true; got 'false'"")",5`,
  ].join('\r\n');
  const { result, snapshots } = readLocustCsv(plan, { history, stats, failures });

  it('gives per-second counts from the cumulative history and totals from the stats', () => {
    expect(result.exact).toBe(false);
    expect(
      snapshots.map((s) => [s.second, s.requests, s.failures, s.steps[0]!.requests, s.steps[1]!.requests]),
    ).toEqual([
      [1, 80, 10, 40, 40],
      [2, 100, 10, 50, 50],
    ]);
    // Second 2 of step 2: (90 × 6.0 − 40 × 5.5) / 50 ms on average; Locust's current percentiles.
    expect(snapshots[1]!.steps[1]!.latency.avg).toBe(6.4);
    expect(snapshots[1]!.steps[1]!.latency.p95).toBe(9);
    expect(result.summary.total_requests).toBe(180);
    expect(result.summary.failed_requests).toBe(20);
    expect(result.summary.percentile_95).toBe(9);
    expect(result.api_results[1]!.errors.http_status?.count).toBe(15);
    expect(result.api_results[1]!.errors.assertion?.count).toBe(5);
    expect(result.summary.bytes_received).toBe(360);
  });

  it("words Locust's failures as the engine does: status, reason and body, without CatchResponseError", () => {
    expect(result.api_results[1]!.errors.http_status?.samples).toEqual([
      'HTTP 500 Internal Server Error from http://127.0.0.1:8080/b',
    ]);
    expect(result.api_results[1]!.errors.assertion?.samples).toEqual([
      "Assertion failed: json $.ok equals true; got 'false'",
    ]);
    const withBody = readLocustCsv(plan, {
      history,
      stats,
      failures: [
        'Method,Name,Error,Occurrences',
        `POST,2. POST http://127.0.0.1:8080/b,"CatchResponseError('HTTP 503 Service Unavailable: {""error"": ""db timeout\\u2026""}')",20`,
      ].join('\r\n'),
    }).result;
    expect(withBody.api_results[1]!.errors).toEqual({
      http_status: { count: 20, samples: ['HTTP 503 Service Unavailable: {"error": "db timeout\u2026"}'] },
    });
  });
});

describe('Locust CSV reader: percentiles within min and max', () => {
  // Locust rounds response times to whole ms under 100 ms: a max of 14.56 ms has a p99 of 15, a min of
  // 1.2 ms a p50 of 1 (docs/adr/0006-hdr-histograms-merge-exactly.md "Percentiles within min and max").
  const header =
    'Type,Name,Request Count,Failure Count,Median Response Time,Average Response Time,Min Response Time,Max Response Time,Average Content Size,Requests/s,Failures/s,50%,66%,75%,80%,90%,95%,98%,99%,99.9%,99.99%,100%';
  const stats = [
    header,
    'GET,1. Alpha,100,0,1,3.0,1.2,14.56,2.0,50.0,0.0,1,2,3,4,9,12,14,15,15,15,15',
    'POST,2. POST http://127.0.0.1:8080/b,100,0,1,3.0,1.3,9.7,2.0,50.0,0.0,1,2,3,4,8,9,10,10,10,10,10',
    ',Aggregated,200,0,1,3.0,1.2,14.56,2.0,100.0,0.0,1,2,3,4,9,10,14,15,15,15,15',
  ].join('\r\n');
  const { result } = readLocustCsv(plan, { history: '', stats });

  it('never gives a percentile above the max or below the min', () => {
    const s = result.summary;
    expect([s.percentile_50, s.percentile_90, s.percentile_99, s.percentile_999]).toEqual([
      1.2, 9, 14.56, 14.56,
    ]);
    expect(s.max_response_time).toBe(14.56);
    const [alpha, b] = result.api_results;
    expect([alpha!.percentile_50, alpha!.percentile_95, alpha!.percentile_99]).toEqual([1.2, 12, 14.56]);
    expect([b!.percentile_50, b!.percentile_95, b!.percentile_99]).toEqual([1.3, 9, 9.7]);
  });
});
