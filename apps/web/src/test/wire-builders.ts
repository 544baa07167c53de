import type { ApiResult, ChartPoint, LiveSnapshot, ResultSummary, TestResult } from '@aqa/plan';

/*
 * Whole answers of the server for tests, typed by @aqa/plan's schemas: a test names the figures it is
 * about and every other field is zero or empty, so a new answer field needs one change here, not a copy
 * of the shape in every test.
 */

export function summaryOf(figures: Partial<ResultSummary> = {}): ResultSummary {
  return {
    concurrent_users: 0,
    requests_per_second: 0,
    average_response_time: 0,
    error_rate: 0,
    total_requests: 0,
    successful_requests: 0,
    failed_requests: 0,
    percentile_50: 0,
    percentile_90: 0,
    percentile_95: 0,
    percentile_99: 0,
    percentile_999: 0,
    min_response_time: 0,
    max_response_time: 0,
    avg_bandwidth: 0,
    test_duration: 0,
    ...figures,
  };
}

export function apiResultOf(figures: Partial<ApiResult> = {}): ApiResult {
  return {
    name: '',
    label: '',
    url: '',
    method: 'GET',
    total_requests: 0,
    successful_requests: 0,
    failed_requests: 0,
    average_response_time: 0,
    percentile_95: 0,
    percentile_99: 0,
    error_rate: 0,
    errors_by_kind: {},
    ...figures,
  };
}

export function testResultOf(fields: Partial<TestResult> = {}): TestResult {
  return {
    test_id: 'run_1',
    plan_id: null,
    plan_name: '',
    status: 'running',
    progress: 0,
    elapsed_seconds: 0,
    duration_seconds: 60,
    intermediate: true,
    concurrent_users: 1,
    tool: 'k6',
    engine: 'builtin',
    engine_note: '',
    started_at: '2025-01-01T00:00:00.000Z',
    ended_at: null,
    error: null,
    error_details: null,
    summary: null,
    api_results: [],
    errors: {},
    agents: [],
    partial: false,
    ...fields,
  };
}

export function chartPointOf(second: number, figures: Partial<ChartPoint> = {}): ChartPoint {
  return {
    second,
    active_users: 0,
    requests: 0,
    requests_per_second: 0,
    errors: 0,
    error_rate: 0,
    avg: 0,
    p50: 0,
    p90: 0,
    p95: 0,
    p99: 0,
    max: 0,
    bandwidth_kbs: 0,
    ...figures,
  };
}

export function liveSnapshotOf(second: number, fields: Partial<LiveSnapshot> = {}): LiveSnapshot {
  return {
    second,
    elapsed_seconds: second,
    progress: 0,
    active_users: 0,
    requests_per_second: 0,
    error_rate: 0,
    latency: { avg: 0, p50: 0, p90: 0, p95: 0, p99: 0, p999: 0, min: 0, max: 0 },
    totals: { requests: 0, successes: 0, failures: 0, bytes_received: 0 },
    steps: [],
    agents: [],
    ...fields,
  };
}
