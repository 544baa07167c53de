import type {
  ApiResult,
  BreakingPoint,
  ErrorKind,
  ErrorTally,
  LatencySummary,
  ResultSummary,
  RunAbort,
} from '@aqa/plan';
import type { EncodedHistogram } from './metrics/histogram';
import type { DataExhausted } from './executor/test-data';

export type { EncodedHistogram } from './metrics/histogram';
// The figures a run reports are wire shapes: their types come from @aqa/plan's schemas.
export type { ErrorKind, ErrorTally, LatencySummary } from '@aqa/plan';

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
  /**
   * Virtual users running at the end of the interval, over all shards. With a load profile: users
   * following the line, or (open model) users busy with an iteration.
   */
  activeUsers: number;
  /**
   * Load profile, open model only (docs/adr/0027-load-profiles.md, "The schedule"): iterations
   * started in the interval, and iterations dropped because no user of the pool was free when they
   * were due. Absent for runs without an open-model profile.
   */
  iterations?: number;
  droppedIterations?: number;
  /** With `iterations`: how late the interval's iterations started after they were due (start − due, ms). */
  scheduleLag?: LatencySummary;
  /**
   * Plans with flows only (docs/adr/0027-load-profiles.md "3. Flows"): iterations begun in the interval
   * per flow, in the plan's order of flows. The built-in engine (on one machine or merged from load
   * agents) adds the second's requests, failures and latency of the flow's calls, merged exactly from
   * their histograms (docs/adr/0006-hdr-histograms-merge-exactly.md), and the requests and failures so
   * far; a tool's run counts iterations only.
   */
  flows?: FlowSnapshot[];
  /**
   * Busiest worker thread's event-loop utilisation in the interval (0..1). Close to 1 means the
   * load generator itself limits the figures (add workers or machines); low means the target does.
   */
  generatorBusy: number;
  steps: StepSnapshot[];
  /** Cumulative totals since the start of the run (iterations: open-model profile only, as above). */
  totals: {
    requests: number;
    successes: number;
    failures: number;
    bytesSent: number;
    bytesReceived: number;
    iterations?: number;
    droppedIterations?: number;
  };
}

/**
 * The run's summary: @aqa/plan's ResultSummary (docs/reference/02-running.md §3, plus p50, p90 and
 * p99.9) with the bytes moved. Times in ms; avg_bandwidth in received KB/s (1 KB = 1024 bytes) over
 * test_duration, the seconds from the first request to the last response.
 */
export type RunSummary = ResultSummary & { bytes_sent: number; bytes_received: number };

/**
 * One row per step: @aqa/plan's API result row with a few more latency figures, and its failures by
 * kind as `errors` (the server answers them as `errors_by_kind`).
 */
export type ApiResultRow = Omit<ApiResult, 'errors_by_kind'> & {
  percentile_50: number;
  min_response_time: number;
  max_response_time: number;
  errors: Partial<Record<ErrorKind, ErrorTally>>;
};

/** A compact point of the time series kept in the result (no histograms). */
export interface SeriesPoint {
  second: number;
  elapsedS: number;
  activeUsers: number;
  /** Open-model profile only: iterations started and dropped in the second, and their lag (RunSnapshot). */
  iterations?: number;
  droppedIterations?: number;
  scheduleLag?: LatencySummary;
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
  /** `completed`: ran for its duration; `stopped`: stop(), the signal or an abort threshold ended it early. */
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
  /**
   * Open-model load profile only (docs/adr/0027-load-profiles.md, "The schedule"): iterations started
   * over the run and iterations dropped (due while no user of the pool was free). Their sum is the
   * plan's total. `schedule_lag`: how late the started ones began after they were due (start − due,
   * ms), the generator's own delay (the target's shows in the latency, timed from the due time).
   */
  iterations?: { started: number; dropped: number; schedule_lag: LatencySummary };
  /**
   * Plans with flows only (docs/adr/0027-load-profiles.md "3. Flows"): one row per flow, in the plan's
   * order — its iterations and their share, and its calls' requests and latency merged.
   */
  flows?: FlowResultRow[];
  /**
   * Set when worker threads were still running past the planned end (or a stop) plus their grace and
   * were terminated (docs/adr/0022-linear-time-patterns.md): why, in words. The figures are what
   * was measured until then.
   */
  cut_short?: string;
  /**
   * Test data (docs/adr/0027-load-profiles.md "Test data"): the non-looping sources that ran out, with the users
   * that ended (open model: the iterations not started) for want of a row, and the run's words for it.
   */
  data_exhausted?: DataExhausted[];
  /**
   * Set when an abort threshold broke and stopped the run (docs/adr/0027-load-profiles.md, "Abort
   * criteria"): which, its value over the window, when, and the reason in words.
   */
  aborted?: RunAbort;
  /** With `aborted` and a load profile: the highest load that held (the breaking point, same section). */
  breaking_point?: BreakingPoint;
}

/** A flow's second in a snapshot (docs/adr/0027-load-profiles.md "Flows"). */
export interface FlowSnapshot {
  name: string;
  iterations: number;
  /** The requests and failures of the flow's calls in the second. */
  requests?: number;
  failures?: number;
  /** The second's latency of the flow's calls, merged from their histograms. */
  latency?: LatencySummary;
  /** The flow's calls' requests and failures since the start of the run. */
  totalRequests?: number;
  totalFailures?: number;
}

/** One flow of a run's result: its iterations (begun) and share of all, and its calls' figures together. */
export interface FlowResultRow {
  name: string;
  weight: number;
  iterations: number;
  /** Percent of the run's iterations (2 decimals). */
  share: number;
  total_requests: number;
  successful_requests: number;
  failed_requests: number;
  /** Percent. */
  error_rate: number;
  latency: LatencySummary;
}

/** Injected logger (pino-compatible subset). */
export interface EngineLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
  debug?(obj: object, msg?: string): void;
}
