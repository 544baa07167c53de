import type { ChartData } from '@aqa/plan';
import { apiResultOf, chartPointOf, summaryOf } from '@/test/wire-builders';
import type { Comparison, DashboardPlan, PastRun, PerformanceDashboard } from '../queries/history-api';

export const SUMMARY = summaryOf({
  concurrent_users: 2,
  requests_per_second: 25,
  average_response_time: 12.5,
  error_rate: 1.25,
  total_requests: 100,
  successful_requests: 98,
  failed_requests: 2,
  percentile_95: 30,
  percentile_99: 45,
  min_response_time: 1.5,
  max_response_time: 80,
  avg_bandwidth: 12.3,
  test_duration: 125,
});

export const API_RESULTS = [
  apiResultOf({
    name: 'List users',
    label: 'List users',
    url: 'http://127.0.0.1:9/users',
    method: 'GET',
    total_requests: 60,
    successful_requests: 60,
    failed_requests: 0,
    average_response_time: 10,
    percentile_95: 20,
    error_rate: 0,
  }),
];

export function pastRun(id: string, extra: Partial<PastRun> = {}): PastRun {
  return {
    test_id: id,
    plan_id: 'p1',
    plan_name: 'Checkout flow',
    test_name: 'Checkout flow',
    status: 'completed',
    start_time: '2025-03-01T10:00:00.000Z',
    end_time: '2025-03-01T10:02:05.000Z',
    duration: 125,
    concurrent_users: 2,
    tool: 'k6',
    engine: 'built-in',
    created_at: '2025-03-01T10:00:00.000Z',
    notes: '',
    is_baseline: false,
    results_summary: { ...SUMMARY, api_results: API_RESULTS },
    ...extra,
  };
}

export const CHART_DATA: ChartData = {
  test_id: 'r1',
  series: [
    chartPointOf(1, {
      active_users: 2,
      requests: 20,
      requests_per_second: 20,
      errors: 0,
      error_rate: 0,
      avg: 10,
      p95: 20,
    }),
    chartPointOf(2, {
      active_users: 2,
      requests: 30,
      requests_per_second: 30,
      errors: 1,
      error_rate: 3.3,
      avg: 12,
      p95: 25,
    }),
  ],
  api_series: [],
  distribution: [{ label: '0-100ms', count: 50 }],
  distribution_fitted: [],
};

export function dashboardPlan(id: string, extra: Partial<DashboardPlan> = {}): DashboardPlan {
  return {
    _id: id,
    id,
    name: `Plan ${id}`,
    description: `Description of ${id}`,
    tool: 'jmeter',
    concurrent_users: 5,
    duration: 2,
    source_page: 'url-input',
    created_at: '2025-02-01T09:00:00.000Z',
    updated_at: '2025-02-01T09:00:00.000Z',
    test_type: 'performance',
    api_count: 2,
    urls: [
      { method: 'GET', url: 'http://127.0.0.1:9/users' },
      { method: 'POST', url: 'http://127.0.0.1:9/orders' },
    ],
    results_count: 0,
    recent_results: [],
    baseline_test_id: null,
    trend: [],
    ...extra,
  };
}

export function dashboardAnswer(plans: DashboardPlan[], extra: Partial<PerformanceDashboard> = {}) {
  return {
    counters: { total_plans: plans.length, completed_tests: 7, failed_tests: 2, running_tests: 1 },
    total: plans.length,
    plans,
    ...extra,
  };
}

export function comparison(): Comparison {
  return {
    base: pastRun('b1', { test_name: 'Before', start_time: '2025-03-01T09:00:00.000Z' }),
    candidate: pastRun('c1', { test_name: 'After' }),
    metrics: [
      {
        key: 'requests_per_second',
        label: 'Requests/sec',
        unit: 'req/s',
        base: 50,
        candidate: 40,
        delta: -10,
        delta_percent: -20,
        worse: true,
      },
      {
        key: 'average_response_time',
        label: 'Average',
        unit: 'ms',
        base: 20,
        candidate: 15,
        delta: -5,
        delta_percent: -25,
        worse: false,
      },
      {
        key: 'percentile_95',
        label: 'p95',
        unit: 'ms',
        base: 40,
        candidate: 60,
        delta: 20,
        delta_percent: 50,
        worse: true,
      },
      {
        key: 'percentile_99',
        label: 'p99',
        unit: 'ms',
        base: 80,
        candidate: 80,
        delta: 0,
        delta_percent: 0,
        worse: false,
      },
      {
        key: 'error_rate',
        label: 'Error rate',
        unit: '%',
        base: 0,
        candidate: 1,
        delta: 1,
        delta_percent: null,
        worse: true,
      },
    ],
    apis: [
      {
        key: 'GET http://127.0.0.1:9/users',
        name: 'List users',
        method: 'GET',
        url: 'http://127.0.0.1:9/users',
        base: {
          total_requests: 10,
          requests_per_second: 5,
          average_response_time: 10,
          percentile_95: 20,
          percentile_99: 30,
          error_rate: 0,
        },
        candidate: {
          total_requests: 10,
          requests_per_second: 5,
          average_response_time: 12,
          percentile_95: 30,
          percentile_99: 40,
          error_rate: 0,
        },
        deltas: {
          average_response_time: { delta_percent: 20, worse: true },
          percentile_95: { delta_percent: 50, worse: true },
          error_rate: { delta_percent: null, worse: false },
        },
      },
    ],
    series: { base: CHART_DATA.series, candidate: CHART_DATA.series },
  };
}
