import { said, saidFlat, type Said, type SaidFlat } from './phrases/phrase';
import type { ResultSummary } from './results/run-result';
import { THRESHOLD_METRICS, type ThresholdMetric } from './threshold-metrics';

/*
 * The threshold language (docs/adr/0027-load-profiles.md, "Abort criteria"), one parser for the
 * engine, the aqa CLI, the server and the web: k6's expressions on a run's figures — `p95<300`,
 * `error_rate<1%`, `rps>=500` — optionally scoped to one API of the plan: `Login: p95<300`. Latency
 * metrics are in ms (a value may say `ms` or `s`); error_rate in percent (`%` optional).
 */

/** Each metric a threshold may name, and the summary figure it reads. */
const METRICS = {
  avg: 'average_response_time',
  p50: 'percentile_50',
  p90: 'percentile_90',
  p95: 'percentile_95',
  p99: 'percentile_99',
  'p99.9': 'percentile_999',
  p999: 'percentile_999',
  min: 'min_response_time',
  max: 'max_response_time',
  error_rate: 'error_rate',
  rps: 'requests_per_second',
  requests: 'total_requests',
  failed: 'failed_requests',
} as const satisfies Record<ThresholdMetric, keyof ResultSummary>;
export { THRESHOLD_METRICS, type ThresholdMetric };

/**
 * The metrics a scoped threshold may name: those every API's result row keeps (the ApiResult wire
 * shape), so a scoped threshold is judged the same at the end of a run as during it.
 */
export const SCOPED_METRICS: readonly ThresholdMetric[] = [
  'avg',
  'p95',
  'p99',
  'error_rate',
  'rps',
  'requests',
  'failed',
];

const LATENCY: ReadonlySet<ThresholdMetric> = new Set<ThresholdMetric>([
  'avg',
  'p50',
  'p90',
  'p95',
  'p99',
  'p99.9',
  'p999',
  'min',
  'max',
]);

/** True for a metric measured in milliseconds (a latency), which a threshold may write in ms or s. */
export function isLatencyMetric(metric: ThresholdMetric): boolean {
  return LATENCY.has(metric);
}

export type ThresholdOp = '<' | '<=' | '>' | '>=' | '==' | '!=';

/** A threshold as read: `scope` names an API of the plan (by its name, or `METHOD url` when unnamed). */
export interface Threshold {
  /** As written, trimmed: what messages quote. */
  source: string;
  scope?: string;
  metric: ThresholdMetric;
  op: ThresholdOp;
  value: number;
}

export interface ThresholdResult {
  threshold: string;
  metric: ThresholdMetric;
  scope?: string;
  actual: number;
  passed: boolean;
}

// The expression holds no colon, so a scope is everything before the last one (an API named "a: b" reads).
const SCOPED_RE = /^(.*):([^:]*)$/s;
const EXPRESSION_RE = /^\s*([a-z_][a-z0-9_.]*)\s*(<=|>=|==|!=|<|>)\s*(-?\d+(?:\.\d+)?)\s*(ms|s|%)?\s*$/i;

export class ThresholdSyntaxError extends Error {}

/** Reads a threshold, or throws ThresholdSyntaxError saying what is wrong with it, quoting it. */
export function parseThreshold(text: string): Threshold {
  const quoted = JSON.stringify(text.trim());
  const scoped = SCOPED_RE.exec(text);
  const scope = scoped?.[1]?.trim();
  if (scoped !== null && scope === '')
    throw new ThresholdSyntaxError(
      `threshold ${quoted}: name the API before the colon, as in "Login: p95<300"`,
    );
  const m = EXPRESSION_RE.exec(scoped?.[2] ?? text);
  if (!m)
    throw new ThresholdSyntaxError(
      `threshold ${quoted} is not understood: write e.g. "p95<300", "error_rate<1%" or "Login: p95<300"`,
    );
  const name = m[1]!.toLowerCase();
  if (!(name in METRICS)) {
    throw new ThresholdSyntaxError(
      `threshold ${quoted}: unknown metric "${name}"; use one of ${THRESHOLD_METRICS.join(', ')}`,
    );
  }
  const metric = name as ThresholdMetric;
  if (scope !== undefined && !SCOPED_METRICS.includes(metric))
    throw new ThresholdSyntaxError(
      `threshold ${quoted}: ${metric} is not kept per API; a scoped threshold uses one of ${SCOPED_METRICS.join(', ')}`,
    );
  const unit = m[4]?.toLowerCase();
  let value = Number(m[3]);
  if (unit === 's' || unit === 'ms') {
    if (!isLatencyMetric(metric))
      throw new ThresholdSyntaxError(`threshold ${quoted}: ${metric} is not a time`);
    if (unit === 's') value *= 1000;
  }
  if (unit === '%' && metric !== 'error_rate')
    throw new ThresholdSyntaxError(`threshold ${quoted}: only error_rate is a percentage`);
  return {
    source: text.trim(),
    ...(scope === undefined ? {} : { scope }),
    metric,
    op: m[2] as ThresholdOp,
    value,
  };
}

/** Why a written threshold cannot be read, or undefined when it reads. */
export function thresholdProblem(text: string): string | undefined {
  try {
    parseThreshold(text);
    return undefined;
  } catch (error) {
    if (error instanceof ThresholdSyntaxError) return error.message;
    throw error;
  }
}

/** The figures a threshold is judged on, by metric (a whole run's, one API's, or a window's). */
export type ThresholdFigures = Partial<Record<ThresholdMetric, number>>;

/** A summary's figures, by the metric names thresholds use. */
export function summaryFigures(summary: ResultSummary): ThresholdFigures {
  const figures: ThresholdFigures = {};
  for (const metric of THRESHOLD_METRICS) figures[metric] = summary[METRICS[metric]];
  return figures;
}

/** The figures of one API's result row (the ApiResult wire shape), over a run of `durationS` seconds. */
export interface ApiRowFigures {
  name: string;
  label: string;
  total_requests: number;
  failed_requests: number;
  average_response_time: number;
  percentile_95: number;
  percentile_99: number;
  error_rate: number;
}

export function apiRowFigures(row: ApiRowFigures, durationS: number): ThresholdFigures {
  return {
    avg: row.average_response_time,
    p95: row.percentile_95,
    p99: row.percentile_99,
    error_rate: row.error_rate,
    requests: row.total_requests,
    failed: row.failed_requests,
    rps: Math.round((row.total_requests / (durationS > 0 ? durationS : 1)) * 100) / 100,
  };
}

/** Whether `actual` meets the threshold's comparison. */
export function meetsThreshold(t: Pick<Threshold, 'op' | 'value'>, actual: number): boolean {
  switch (t.op) {
    case '<':
      return actual < t.value;
    case '<=':
      return actual <= t.value;
    case '>':
      return actual > t.value;
    case '>=':
      return actual >= t.value;
    case '==':
      return actual === t.value;
    case '!=':
      return actual !== t.value;
  }
}

/**
 * The APIs a threshold's scope names, by their index in the plan's `urls` (the order of the result
 * rows): every API whose name — its `name`, or `METHOD url` when it has none — or whose `METHOD url`
 * is the scope. A scope that is one of the plan's flows names the flow instead (`isFlowScope`), whose
 * calls are judged together (docs/adr/0027-load-profiles.md, "Abort criteria").
 */
export function scopedApis(scope: string, apis: readonly { name: string; label: string }[]): number[] {
  const indexes: number[] = [];
  apis.forEach((api, i) => {
    if (api.name === scope || api.label === scope) indexes.push(i);
  });
  return indexes;
}

/**
 * Whether a scope names one of the plan's flows: a flow's name is read before an API's, as k6 reads a
 * tag — `browse: p95<300` judges every request of the flow "browse" together, merged.
 */
export function isFlowScope(scope: string, flows: readonly string[] | undefined): boolean {
  return flows?.includes(scope) ?? false;
}

/** Whether a scope names nothing of the plan: neither a flow nor an API. */
export function scopeNamesNothing(
  scope: string,
  apis: readonly { name: string; label: string }[],
  flows?: readonly string[],
): boolean {
  return !isFlowScope(scope, flows) && scopedApis(scope, apis).length === 0;
}

/** Why a scope names nothing, in words naming the APIs (and flows) there are. */
export function unknownScopeMessage(
  t: Threshold,
  apis: readonly { name: string }[],
  flows: readonly string[] = [],
): string {
  const names = [...new Set(apis.map((a) => a.name))].slice(0, 10).map((n) => JSON.stringify(n));
  const flowNames = flows.slice(0, 10).map((n) => JSON.stringify(n));
  return flows.length === 0
    ? `threshold ${JSON.stringify(t.source)}: the plan has no API named ${JSON.stringify(t.scope)}; its APIs are ${names.join(', ')}`
    : `threshold ${JSON.stringify(t.source)}: the plan has no flow or API named ${JSON.stringify(t.scope)}; its flows are ${flowNames.join(', ')} and its APIs ${names.join(', ')}`;
}

/**
 * A threshold judged on figures: the whole figures; scoped to a flow, the flow's (`perFlow`, its calls'
 * requests merged); scoped to APIs, each of its APIs' (`perApi`, by the plan's API index), the worst of
 * them counting (several APIs of one name are each held to it). Undefined when a scope names nothing.
 */
export function judgeThreshold(
  t: Threshold,
  whole: ThresholdFigures,
  perApi: readonly ThresholdFigures[] = [],
  apis: readonly { name: string; label: string }[] = [],
  perFlow: ReadonlyMap<string, ThresholdFigures> = new Map(),
): ThresholdResult | undefined {
  const base = {
    threshold: t.source,
    metric: t.metric,
    ...(t.scope === undefined ? {} : { scope: t.scope }),
  };
  if (t.scope === undefined) {
    const actual = whole[t.metric] ?? 0;
    return { ...base, actual, passed: meetsThreshold(t, actual) };
  }
  const flow = perFlow.get(t.scope);
  if (flow !== undefined) {
    const actual = flow[t.metric] ?? 0;
    return { ...base, actual, passed: meetsThreshold(t, actual) };
  }
  const indexes = scopedApis(t.scope, apis);
  if (indexes.length === 0) return undefined;
  let worst: ThresholdResult | undefined;
  for (const i of indexes) {
    const actual = perApi[i]?.[t.metric] ?? 0;
    const passed = meetsThreshold(t, actual);
    // The first failing API's figure, else the first API's.
    if (worst === undefined || (worst.passed && !passed)) worst = { ...base, actual, passed };
  }
  return worst;
}

/**
 * A flow's figures at the end of a run, as a summary's `flows` rows carry them (the engine's merged
 * histograms of the flow's calls): absent on a run whose engine did not measure them per flow (a
 * tool's run, a run recovered after a restart).
 */
export interface FlowRowFigures {
  name: string;
  total_requests?: number | undefined;
  failed_requests?: number | undefined;
  error_rate?: number | undefined;
  average_response_time?: number | undefined;
  percentile_95?: number | undefined;
  percentile_99?: number | undefined;
}

/**
 * A run's thresholds judged on its final summary, its API rows (their figures over `test_duration`)
 * and its flows' rows; a scope that names nothing of the run, or a flow whose requests the run did not
 * measure, is thrown as a ThresholdSyntaxError saying so.
 */
export function evaluateThresholds(
  thresholds: readonly Threshold[],
  summary: ResultSummary,
  apiRows: readonly ApiRowFigures[] = [],
  flowRows: readonly FlowRowFigures[] = [],
): ThresholdResult[] {
  const whole = summaryFigures(summary);
  const perApi = apiRows.map((row) => apiRowFigures(row, summary.test_duration));
  const perFlow = new Map<string, ThresholdFigures>();
  for (const row of flowRows) {
    const measured = flowRowFigures(row, summary.test_duration);
    if (measured !== undefined) perFlow.set(row.name, measured);
  }
  const flowNames = flowRows.map((row) => row.name);
  return thresholds.map((t) => {
    if (t.scope !== undefined && isFlowScope(t.scope, flowNames) && !perFlow.has(t.scope))
      throw new ThresholdSyntaxError(
        `threshold ${JSON.stringify(t.source)}: this run did not measure the requests of flow ${JSON.stringify(t.scope)} (only its iterations), so it cannot be judged`,
      );
    const result = judgeThreshold(t, whole, perApi, apiRows, perFlow);
    if (result === undefined) throw new ThresholdSyntaxError(unknownScopeMessage(t, apiRows, flowNames));
    return result;
  });
}

/** A flow row's figures, or undefined when its requests were not measured. */
function flowRowFigures(row: FlowRowFigures, durationS: number): ThresholdFigures | undefined {
  if (row.total_requests === undefined) return undefined;
  return {
    avg: row.average_response_time ?? 0,
    p95: row.percentile_95 ?? 0,
    p99: row.percentile_99 ?? 0,
    error_rate: row.error_rate ?? 0,
    requests: row.total_requests,
    failed: row.failed_requests ?? 0,
    rps: Math.round((row.total_requests / (durationS > 0 ? durationS : 1)) * 100) / 100,
  };
}

const wholeNumber = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const twoDecimals = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/** Milliseconds as the result screen rounds them: whole from 100 ms, one decimal below. */
export function formatMs(ms: number): string {
  return `${ms >= 100 ? wholeNumber.format(ms) : twoDecimals.format(Math.round(ms * 10) / 10)} ms`;
}

/** A measured figure in its metric's unit: "812 ms", "5.2%", "130 req/s", "1,204". */
export function formatThresholdActual(metric: ThresholdMetric, actual: number): string {
  if (isLatencyMetric(metric)) return formatMs(actual);
  if (metric === 'error_rate') return `${twoDecimals.format(actual)}%`;
  if (metric === 'rps') return `${twoDecimals.format(actual)} req/s`;
  return wholeNumber.format(actual);
}

/** A time from the start as a run's clock says it: "2m14s", "45s", "1h2m". */
export function formatRunClock(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  if (h > 0) return `${h}h${m > 0 ? `${m}m` : ''}${s > 0 ? `${s}s` : ''}`;
  if (m > 0) return `${m}m${s > 0 ? `${s}s` : ''}`;
  return `${s}s`;
}

/**
 * Why a run was aborted, as a phrase and in English: "p95 812 ms broke p95<500 at 2m14s", "Login p95 …
 * broke Login: p95<300 at …" (docs/adr/0027-load-profiles.md, "Abort criteria").
 */
export function abortSaid(
  aborted: Pick<ThresholdResult, 'threshold' | 'metric' | 'scope' | 'actual'> & { at_ms: number },
): Said {
  return said('run.aborted', {
    what: aborted.scope === undefined ? aborted.metric : `${aborted.scope} ${aborted.metric}`,
    actual: formatThresholdActual(aborted.metric, aborted.actual),
    threshold: aborted.threshold,
    at: formatRunClock(aborted.at_ms),
  });
}

/** The abort's words in English (abortSaid's text). */
export function abortText(
  result: Pick<ThresholdResult, 'threshold' | 'metric' | 'scope' | 'actual'>,
  atMs: number,
): string {
  return abortSaid({ ...result, at_ms: atMs }).text;
}

/** The breaking point, as a phrase and in English: "the highest rate that held: 42 iterations/s at 1m3s". */
export function breakingPointSaid(point: {
  model: 'users' | 'arrival_rate';
  value: number;
  at_ms: number;
}): SaidFlat {
  return saidFlat(`run.breakingPoint.${point.model}`, {
    value: twoDecimals.format(point.value),
    at: formatRunClock(point.at_ms),
  });
}
