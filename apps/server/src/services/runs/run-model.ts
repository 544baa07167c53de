import { Histogram, type EncodedHistogram } from '@aqa/engine';
import { UNFINISHED_STATUSES, withPercentilesInRange } from '@aqa/plan';
import type {
  ApiResult,
  ApiSeries,
  BreakingPoint,
  ChartData,
  ChartPoint,
  DistributionBin,
  ErrorKind,
  ErrorsByKind,
  FlowIterations,
  LatencySummary,
  PastRun,
  PerfPlan,
  Phrase,
  ResultSummary,
  RunAbort,
  RunAgent,
  RunStatus,
  StoredStatus,
  TestResult,
} from '@aqa/plan';

/*
 * A performance run as the API shows it (docs/reference/02-running.md §3 "Live test results", "API
 * result row"). The answer shapes are @aqa/plan's schemas; here are the stored record and the view
 * functions. The same views serve a live run (from memory) and a finished one (from its row), so the
 * answer's shape never depends on where the run is.
 */

/** One step of the plan as run: its position in urls and what the result calls it. */
export interface StepInfo {
  index: number;
  name: string;
  label: string;
  method: string;
  url: string;
}

/** The configuration as run, stored with the run (runs.config). */
export interface RunConfig {
  /**
   * The plan after the request's overrides, without its script and its test data's files (up to 10 MB,
   * which the run reads once as it starts; the stored row and the replicas' live view need not carry them).
   */
  plan: Omit<PerfPlan, 'script' | 'data_files'>;
  duration_seconds: number;
  steps: StepInfo[];
}

/** A run with its JSON columns parsed: what both the live registry and the database hold. */
export interface RunRecord {
  id: string;
  user_id: string;
  /** Whose run it is (docs/adr/0035-workspaces-and-roles.md). */
  workspace_id: string;
  plan_id: string | null;
  plan_name: string;
  status: StoredStatus;
  tool: string;
  engine: string;
  engine_note: string;
  config: RunConfig;
  concurrent_users: number;
  duration_seconds: number;
  started_at: string;
  ended_at: string | null;
  error: string | null;
  /** `error` as a phrase for screens in another language (docs/adr/0025-phrases.md); else absent or null. */
  error_phrase?: Phrase | null | undefined;
  /** A run that failed in its tool: the tool's own output, for the result screen's Details. */
  error_details: string | null;
  summary: ResultSummary | null;
  api_results: ApiResult[];
  errors: ErrorsByKind;
  histogram: EncodedHistogram | null;
  /** The load agents the run is split over (docs/adr/0021-load-agents.md); absent or empty on the server. */
  agents?: RunAgent[] | undefined;
  /** The abort threshold that stopped the run (docs/adr/0027-load-profiles.md, "Abort criteria"); absent when none did. */
  aborted?: RunAbort | undefined;
  /** With `aborted` and a load profile: the highest load that held. */
  breaking_point?: BreakingPoint | undefined;
}

/** What the `abort` column holds (JSON). */
export type RunAbortColumns = Pick<RunRecord, 'aborted' | 'breaking_point'>;

/** What the views of a run read: the record without its configuration and histogram (lists skip those columns). */
export type RunState = Omit<RunRecord, 'config' | 'histogram'>;

const round1 = (x: number): number => Math.round(x * 10) / 10;

const UNFINISHED: readonly string[] = UNFINISHED_STATUSES;

/** Still going on its server: running, or its result being gathered and stored. */
export function isLive(status: string): boolean {
  return UNFINISHED.includes(status);
}

/** Seconds of the run so far (live) or until it ended, never more than its configured duration. */
export function elapsedSeconds(record: RunState, nowMs: number): number {
  if (record.status === 'completed') return record.duration_seconds;
  const endMs = record.ended_at === null || isLive(record.status) ? nowMs : Date.parse(record.ended_at);
  const elapsed = (endMs - Date.parse(record.started_at)) / 1000;
  return round1(Math.min(record.duration_seconds, Math.max(0, elapsed)));
}

export function progressOf(elapsedS: number, durationS: number): number {
  if (!(durationS > 0)) return 100;
  return round1(Math.min(100, (elapsedS / durationS) * 100));
}

/**
 * The run as get-test-result and the stream show it. Given the run's configuration (the one run, not the
 * lists), it carries the load profile the run followed, for the planned line (docs/adr/0027-load-profiles.md).
 */
export function testResultView(record: RunState & { config?: RunConfig }, nowMs: number): TestResult {
  const elapsed = elapsedSeconds(record, nowMs);
  // The last second's in-flight requests finish after the duration: "processing" until stored.
  const status: RunStatus =
    record.status === 'running' && elapsed >= record.duration_seconds ? 'processing' : record.status;
  return {
    test_id: record.id,
    plan_id: record.plan_id,
    plan_name: record.plan_name,
    status,
    progress: record.status === 'completed' ? 100 : progressOf(elapsed, record.duration_seconds),
    elapsed_seconds: elapsed,
    duration_seconds: record.duration_seconds,
    intermediate: isLive(record.status),
    concurrent_users: record.concurrent_users,
    tool: record.tool,
    engine: record.engine,
    engine_note: record.engine_note,
    started_at: record.started_at,
    ended_at: record.ended_at,
    error: record.error,
    error_phrase: record.error_phrase ?? null,
    error_details: record.error_details,
    // Percentiles within min and max (docs/adr/0006-hdr-histograms-merge-exactly.md), also for live figures.
    summary: record.summary === null ? null : withPercentilesInRange(record.summary),
    api_results: record.api_results,
    errors: record.errors,
    agents: record.agents ?? [],
    partial: isPartial(record.agents),
    ...(record.config?.plan.load_profile === undefined
      ? {}
      : { load_profile: record.config.plan.load_profile }),
    abort_reason: record.aborted ?? null,
    breaking_point: record.breaking_point ?? null,
  };
}

/** A run on agents is partial once one of them was lost or failed: the others' figures went on. */
export function isPartial(agents: readonly RunAgent[] | undefined): boolean {
  return (agents ?? []).some((agent) => agent.status === 'lost' || agent.status === 'failed');
}

/** What the user added to a run: a name (null: the plan's), notes, and whether it is the baseline. */
export interface RunAnnotations {
  test_name: string | null;
  notes: string;
  is_baseline: boolean;
}

export function pastRunView(record: RunState, nowMs: number, annotations: RunAnnotations): PastRun {
  const view = testResultView(record, nowMs);
  return {
    test_id: view.test_id,
    plan_id: view.plan_id,
    plan_name: view.plan_name,
    test_name: annotations.test_name ?? view.plan_name,
    status: view.status,
    start_time: view.started_at,
    end_time: view.ended_at,
    // Measured: the figures' test duration, else (a run that ended before any) the time it ran; the
    // configured duration only while it runs (docs/reference/02-running.md "Past run list item").
    duration:
      view.summary?.test_duration ?? (isLive(record.status) ? view.duration_seconds : view.elapsed_seconds),
    concurrent_users: view.concurrent_users,
    tool: view.tool,
    engine: view.engine,
    created_at: view.started_at,
    results_summary: view.summary === null ? null : { ...view.summary, api_results: view.api_results },
    notes: annotations.notes,
    is_baseline: annotations.is_baseline,
    // What stopped the run, for the history, the comparison and the reports (docs/adr/0027-load-profiles.md "Abort criteria").
    abort_reason: view.abort_reason ?? null,
    breaking_point: view.breaking_point ?? null,
  };
}

/** runs_points.data of the whole run (step_index -1) for one second. */
export interface RunPointData {
  elapsed_s: number;
  active_users: number;
  requests: number;
  successes: number;
  failures: number;
  errors: Partial<Record<ErrorKind, number>>;
  requests_per_second: number;
  error_rate: number;
  bandwidth_kbs: number;
  bytes_sent: number;
  bytes_received: number;
  /** Busiest engine worker's event-loop utilisation, 0..1: near 1 the load generator limited the figures. */
  generator_busy: number;
  latency: LatencySummary;
  /** The second's latency histogram (µs); absent in points stored before docs/adr/0016-crash-recovery.md. */
  histogram?: EncodedHistogram;
  /** Open-model load profile only (docs/adr/0027-load-profiles.md): iterations started and dropped in the second. */
  iterations?: number;
  dropped_iterations?: number;
  /** Plans with flows only (docs/adr/0027-load-profiles.md "Flows"): iterations per flow in the second. */
  flows?: FlowIterations[];
}

/** run_points.data of one step for one second. */
export interface StepPointData {
  requests: number;
  failures: number;
  errors: Partial<Record<ErrorKind, number>>;
  requests_per_second: number;
  error_rate: number;
  latency: LatencySummary;
  /** The second's latency histogram (µs); absent in points stored before docs/adr/0016-crash-recovery.md. */
  histogram?: EncodedHistogram;
}

export interface RunPoint {
  step_index: number;
  second: number;
  data: RunPointData | StepPointData;
}

const DISTRIBUTION_EDGES_MS = [100, 200, 300, 400, 500];

/**
 * Requests by response time in the spec's bins (0-100ms … 500ms+), counted from the run's merged
 * HDR histogram: exact counts at the histogram's resolution (3 significant digits, so a bin edge is
 * sharp to within 0.1 %). Only requests that got a response have a time; the bins sum to those.
 */
export function latencyDistribution(encoded: EncodedHistogram | null): DistributionBin[] {
  const h = encoded === null ? new Histogram() : Histogram.decode(encoded);
  const below = DISTRIBUTION_EDGES_MS.map((ms) => h.countAtOrBelow(ms * 1000 - 1));
  const bins: DistributionBin[] = [];
  let previous = 0;
  DISTRIBUTION_EDGES_MS.forEach((ms, i) => {
    const count = below[i]!;
    bins.push({ label: `${ms - 100}-${ms}ms`, count: count - previous });
    previous = count;
  });
  bins.push({ label: `${DISTRIBUTION_EDGES_MS.at(-1)!}ms+`, count: h.totalCount - previous });
  return bins;
}

/** The bar count the fitted distribution aims at: at most this many, at least half as many. */
const FITTED_BINS = 20;
/** The narrowest fitted bar, µs: finer than the histogram's resolution would not be exact. */
const FITTED_MIN_WIDTH_US = 10;

/** The smallest width of 1, 2, 2.5 or 5 × 10^n µs (n ≥ 1) that is at least `raw`. */
function niceWidthUs(raw: number): number {
  let power = FITTED_MIN_WIDTH_US;
  for (;;) {
    for (const step of [1, 2, 2.5, 5]) {
      if (step * power >= raw) return step * power;
    }
    power *= 10;
  }
}

/** A bar edge in ms with as many decimals as the width needs ("2.05", "120", "1.5"). */
function edgeLabel(us: number, widthUs: number): string {
  const decimals =
    widthUs >= 1000 ? (widthUs % 1000 === 0 ? 0 : 1) : widthUs >= 100 ? (widthUs % 100 === 0 ? 1 : 2) : 2;
  return (us / 1000).toFixed(decimals);
}

/**
 * Requests by response time in bars fitted to what was measured (beside the fixed 100 ms bars of
 * latencyDistribution, where every request of a 2 ms API falls in one bar): 10–20 bars of a round width
 * (1, 2, 2.5 or 5 × 10^n, at least 0.01 ms, so fewer bars when all times lie within 0.1 ms) from the
 * fastest response to the slowest. When the slowest
 * 0.1 % would stretch the range to more than twice the rest, the bars span up to the 99.9th percentile
 * and one last bar "…ms+" holds the slower ones. Counted from the merged HDR histogram, exact at its
 * resolution; the bars sum to every timed request. Empty before anything was measured.
 */
export function fittedLatencyDistribution(encoded: EncodedHistogram | null): DistributionBin[] {
  if (encoded === null) return [];
  const h = Histogram.decode(encoded);
  if (h.totalCount === 0) return [];
  const p999 = h.valueAtPercentile(99.9);
  const tail = h.max - h.min > 2 * Math.max(p999 - h.min, FITTED_MIN_WIDTH_US);
  const top = tail ? p999 : h.max;
  let width = niceWidthUs((top - h.min) / FITTED_BINS);
  let start = Math.floor(h.min / width) * width;
  // Whole bars from the first edge at or below the fastest to the first edge above the top.
  while (Math.floor(top / width) * width + width - start > FITTED_BINS * width) {
    width = niceWidthUs(width * 1.01);
    start = Math.floor(h.min / width) * width;
  }
  const end = Math.floor(top / width) * width + width;
  const bins: DistributionBin[] = [];
  // Nothing was measured below `start` (at most the fastest response).
  let previous = 0;
  for (let from = start; from < end; from += width) {
    const below = h.countAtOrBelow(from + width - 1);
    bins.push({
      label: `${edgeLabel(from, width)}-${edgeLabel(from + width, width)}ms`,
      count: below - previous,
    });
    previous = below;
  }
  if (tail) bins.push({ label: `${edgeLabel(end, width)}ms+`, count: h.totalCount - previous });
  else bins[bins.length - 1]!.count += h.totalCount - previous;
  return bins;
}

/** One second of the whole run as the charts read it. */
export function chartPointOf(second: number, d: RunPointData): ChartPoint {
  return {
    second,
    active_users: d.active_users,
    requests: d.requests,
    requests_per_second: d.requests_per_second,
    errors: d.failures,
    error_rate: d.error_rate,
    avg: d.latency.avg,
    p50: d.latency.p50,
    p90: d.latency.p90,
    p95: d.latency.p95,
    p99: d.latency.p99,
    max: d.latency.max,
    bandwidth_kbs: d.bandwidth_kbs,
    ...(d.iterations === undefined
      ? {}
      : { iterations: d.iterations, dropped_iterations: d.dropped_iterations ?? 0 }),
    ...(d.flows === undefined ? {} : { flows: d.flows }),
  };
}

export function chartDataView(
  record: Pick<RunRecord, 'id' | 'config'>,
  points: RunPoint[],
  histogram: EncodedHistogram | null,
): ChartData {
  const series: ChartPoint[] = [];
  const bySteps = new Map<number, ApiSeries['points']>();
  for (const point of points) {
    if (point.step_index < 0) {
      series.push(chartPointOf(point.second, point.data as RunPointData));
    } else {
      const d: StepPointData = point.data;
      let list = bySteps.get(point.step_index);
      if (list === undefined) bySteps.set(point.step_index, (list = []));
      list.push({
        second: point.second,
        requests_per_second: d.requests_per_second,
        error_rate: d.error_rate,
        avg: d.latency.avg,
        p95: d.latency.p95,
      });
    }
  }
  const bySecond = (a: { second: number }, b: { second: number }) => a.second - b.second;
  return {
    test_id: record.id,
    series: series.sort(bySecond),
    api_series: record.config.steps.map((step) => ({
      index: step.index,
      name: step.name,
      method: step.method,
      url: step.url,
      points: (bySteps.get(step.index) ?? []).sort(bySecond),
    })),
    distribution: latencyDistribution(histogram),
    distribution_fitted: fittedLatencyDistribution(histogram),
  };
}
