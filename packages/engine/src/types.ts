import type { EncodedHistogram } from './metrics/histogram';
import type { ErrorKind } from './metrics/types';

export type { EncodedHistogram } from './metrics/histogram';
export type { ErrorKind } from './metrics/types';

/** Latency figures in milliseconds (3 decimals), computed from an HDR histogram of every request. */
export interface LatencySummary {
  avg: number;
  p50: number;
  p90: number;
  p95: number;
  p99: number;
  p999: number;
  min: number;
  max: number;
}

/** Errors of one kind: how many, and up to 5 distinct example messages. */
export interface ErrorTally {
  count: number;
  samples: string[];
}

export type ErrorCounts = Partial<Record<ErrorKind, number>>;

/** Counters shared by a whole-run and a per-step snapshot, for one interval. */
export interface IntervalFigures {
  requests: number;
  successes: number;
  failures: number;
  /** Failed requests by kind (only kinds that occurred). */
  errors: ErrorCounts;
  bytesSent: number;
  bytesReceived: number;
  requestsPerSecond: number;
  /** Failed / requests × 100. */
  errorRate: number;
  /** Received KB/s over the interval. */
  bandwidthKBs: number;
  latency: LatencySummary;
  /** The interval's latency histogram (µs), mergeable exactly with others. */
  histogram: EncodedHistogram;
}

export interface StepSnapshot extends IntervalFigures {
  /** Index of the step in the plan's `urls`. */
  step: number;
  label: string;
}

/** One second of the run, merged over every shard. Emitted once per second while the run goes. */
export interface RunSnapshot extends IntervalFigures {
  /** 1-based number of the second this snapshot covers. */
  second: number;
  /** End of the covered interval, seconds since the run started. */
  elapsedS: number;
  /** Length of the covered interval, s (1 except for the run's last, partial one). */
  intervalS: number;
  /** Virtual users running at the end of the interval, over all shards. */
  activeUsers: number;
  /**
   * Busiest worker thread's event-loop utilisation in the interval (0..1). Close to 1 means the
   * load generator itself limits the figures (add workers or machines); low means the target does.
   */
  generatorBusy: number;
  steps: StepSnapshot[];
  /** Cumulative totals since the start of the run. */
  totals: { requests: number; successes: number; failures: number; bytesSent: number; bytesReceived: number };
}

/** The run's summary with the spec's field names (02-running §3), plus p50, p90 and p99.9. Times in ms. */
export interface RunSummary {
  total_requests: number;
  successful_requests: number;
  failed_requests: number;
  requests_per_second: number;
  average_response_time: number;
  percentile_50: number;
  percentile_90: number;
  percentile_95: number;
  percentile_99: number;
  percentile_999: number;
  min_response_time: number;
  max_response_time: number;
  /** Received KB/s (1 KB = 1024 bytes) averaged over test_duration. */
  avg_bandwidth: number;
  /** Percent of requests that failed. */
  error_rate: number;
  /** Seconds from the first request to the last response. */
  test_duration: number;
  concurrent_users: number;
  bytes_sent: number;
  bytes_received: number;
}

/** One row per step: the spec's API result row, plus a few more latency figures. */
export interface ApiResultRow {
  name: string;
  label: string;
  url: string;
  method: string;
  total_requests: number;
  successful_requests: number;
  failed_requests: number;
  average_response_time: number;
  percentile_50: number;
  percentile_95: number;
  percentile_99: number;
  min_response_time: number;
  max_response_time: number;
  error_rate: number;
  errors: Partial<Record<ErrorKind, ErrorTally>>;
}

/** A compact point of the time series kept in the result (no histograms). */
export interface SeriesPoint {
  second: number;
  elapsedS: number;
  activeUsers: number;
  generatorBusy: number;
  requests: number;
  failures: number;
  requestsPerSecond: number;
  errorRate: number;
  bandwidthKBs: number;
  latency: LatencySummary;
  steps: { step: number; requests: number; failures: number; latency: LatencySummary }[];
}

export interface RunResult {
  /** `completed`: ran for its duration; `stopped`: stop() or the signal ended it early. */
  status: 'completed' | 'stopped';
  started_at: string;
  ended_at: string;
  summary: RunSummary;
  api_results: ApiResultRow[];
  errors: Partial<Record<ErrorKind, ErrorTally>>;
  series: SeriesPoint[];
  /** The whole run's latency histogram (µs). */
  histogram: EncodedHistogram;
  /** Worker threads (shards) that ran the load. */
  workers: number;
}

/** Injected logger (pino-compatible subset). */
export interface EngineLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
  debug?(obj: object, msg?: string): void;
}
