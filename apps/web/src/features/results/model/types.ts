/**
 * The wire shapes of the run manager (spec 02 §3 "Live test results", "API result row", plus the live
 * stream, chart data and engines of our server). Field names stay as the server writes them. Every figure
 * is measured by the engine; the client never fills a missing one in.
 */

export type ServerTestStatus =
  'running' | 'processing' | 'completed' | 'failed' | 'stopped' | 'not_found' | (string & {});

export interface TestSummary {
  concurrent_users?: number | null;
  requests_per_second?: number | null;
  average_response_time?: number | null;
  /** Percent of requests that failed (0–100). */
  error_rate?: number | null;
  total_requests?: number | null;
  successful_requests?: number | null;
  failed_requests?: number | null;
  percentile_50?: number | null;
  percentile_90?: number | null;
  percentile_95?: number | null;
  percentile_99?: number | null;
  percentile_999?: number | null;
  min_response_time?: number | null;
  max_response_time?: number | null;
  /** Received KB/s over the run. */
  avg_bandwidth?: number | null;
  /** Seconds. */
  test_duration?: number | null;
}

export interface ApiResult {
  name?: string | null;
  label?: string | null;
  url?: string | null;
  method?: string | null;
  total_requests?: number | null;
  successful_requests?: number | null;
  failed_requests?: number | null;
  average_response_time?: number | null;
  percentile_95?: number | null;
  percentile_99?: number | null;
  error_rate?: number | null;
}

/** Failures of one kind (connect, timeout, http_status, assertion, …) with a few example messages. */
export interface ErrorTally {
  count: number;
  samples?: string[];
}

export interface TestResult {
  test_id?: string;
  plan_id?: string | null;
  plan_name?: string | null;
  status?: ServerTestStatus;
  /** 0–100, from the server's clock. */
  progress?: number | null;
  elapsed_seconds?: number | null;
  duration_seconds?: number | null;
  intermediate?: boolean;
  concurrent_users?: number | null;
  /** The plan's tool (the script format). */
  tool?: string | null;
  /** What really ran the load: the tool itself, or "built-in". */
  engine?: string | null;
  /** Why that engine ran, in words (e.g. "ran with the built-in engine: k6 is not installed on this server"). */
  engine_note?: string | null;
  started_at?: string | null;
  ended_at?: string | null;
  error?: string | null;
  /** A failed run's tool output (the last lines it printed and of its log), for the Details toggle. */
  error_details?: string | null;
  summary?: TestSummary | null;
  api_results?: ApiResult[] | null;
  errors?: Record<string, ErrorTally | number> | null;
}

export interface LatencyFigures {
  avg: number;
  p50?: number;
  p90?: number;
  p95: number;
  p99?: number;
  p999?: number;
  min?: number;
  max?: number;
}

export interface SnapshotStep {
  index: number;
  name?: string;
  method?: string;
  url?: string;
  requests_per_second: number;
  error_rate: number;
  latency: Pick<LatencyFigures, 'avg' | 'p95'>;
  totals: { requests: number; failures: number };
}

/** One second of a running test (`event: snapshot` of GET /api/test-stream/{id}). */
export interface LiveSnapshot {
  second: number;
  elapsed_seconds: number;
  progress: number;
  active_users: number;
  requests_per_second: number;
  error_rate: number;
  latency: LatencyFigures;
  totals: { requests: number; successes: number; failures: number; bytes_received: number };
  steps?: SnapshotStep[];
}

/** One second of a run's measured time series (GET /api/chart-data/{id}). Times in ms. */
export interface SeriesPoint {
  second: number;
  active_users: number;
  requests?: number;
  requests_per_second: number;
  errors?: number;
  /** Percent. */
  error_rate: number;
  avg: number;
  p50?: number;
  p90?: number;
  p95: number;
  p99?: number;
  max?: number;
  bandwidth_kbs?: number;
}

export interface ApiSeries {
  index: number;
  name?: string;
  method?: string;
  url?: string;
  points: { second: number; requests_per_second: number; error_rate: number; avg: number; p95: number }[];
}

/** One bar of the response-time histogram: how many requests took that long. */
export interface DistributionBucket {
  label: string;
  count: number;
}

export interface ChartData {
  test_id?: string;
  series: SeriesPoint[];
  api_series?: ApiSeries[];
  distribution?: DistributionBucket[];
}

export interface EngineInfo {
  tool: string;
  name: string;
  installed: boolean;
  version?: string | null;
  command?: string | null;
}

export interface RunTestAnswer {
  test_id?: string;
  status?: string;
  engine?: string;
  engine_note?: string;
}

/**
 * The test configuration of spec 02 §3, kept in browser storage as `currentTestConfig` by a screen that
 * asks this one to start a run (route /test-result/new).
 */
export interface TestConfig {
  tool?: string;
  concurrent_users?: number;
  /** Minutes. */
  duration?: number;
  /** Seconds; overrides `duration` (short runs). */
  duration_seconds?: number;
  urls?: unknown[];
  plan_name?: string;
  planName?: string;
  name?: string;
  plan_id?: string;
  planId?: string;
  testId?: string;
}
