import type { ResultSummary } from '@aqa/plan';

/**
 * Pass/fail criteria on the final summary, as in k6: `p95<300`, `error_rate<1%`, `rps>=500`.
 * Latency metrics are in ms (a value may say `ms` or `s`); error_rate in percent (`%` optional).
 */
export interface Threshold {
  source: string;
  metric: ThresholdMetric;
  op: '<' | '<=' | '>' | '>=' | '==' | '!=';
  value: number;
}

export interface ThresholdResult {
  threshold: string;
  metric: ThresholdMetric;
  actual: number;
  passed: boolean;
}

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
} as const satisfies Record<string, keyof ResultSummary>;
export type ThresholdMetric = keyof typeof METRICS;

const LATENCY: ReadonlySet<string> = new Set([
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
const THRESHOLD_RE = /^\s*([a-z_][a-z0-9_.]*)\s*(<=|>=|==|!=|<|>)\s*(-?\d+(?:\.\d+)?)\s*(ms|s|%)?\s*$/i;

export class ThresholdSyntaxError extends Error {}

export function parseThreshold(text: string): Threshold {
  const m = THRESHOLD_RE.exec(text);
  if (!m)
    throw new ThresholdSyntaxError(
      `threshold ${JSON.stringify(text)} is not understood: write e.g. "p95<300" or "error_rate<1%"`,
    );
  const name = m[1]!.toLowerCase();
  if (!(name in METRICS)) {
    throw new ThresholdSyntaxError(
      `threshold ${JSON.stringify(text)}: unknown metric "${name}"; use one of ${Object.keys(METRICS).join(', ')}`,
    );
  }
  const metric = name as ThresholdMetric;
  const unit = m[4]?.toLowerCase();
  let value = Number(m[3]);
  if (unit === 's' || unit === 'ms') {
    if (!isLatencyMetric(metric))
      throw new ThresholdSyntaxError(`threshold ${JSON.stringify(text)}: ${metric} is not a time`);
    if (unit === 's') value *= 1000;
  }
  if (unit === '%' && metric !== 'error_rate')
    throw new ThresholdSyntaxError(`threshold ${JSON.stringify(text)}: only error_rate is a percentage`);
  return { source: text.trim(), metric, op: m[2] as Threshold['op'], value };
}

export function evaluateThresholds(thresholds: Threshold[], summary: ResultSummary): ThresholdResult[] {
  return thresholds.map((t) => {
    const actual = summary[METRICS[t.metric]];
    const passed =
      t.op === '<'
        ? actual < t.value
        : t.op === '<='
          ? actual <= t.value
          : t.op === '>'
            ? actual > t.value
            : t.op === '>='
              ? actual >= t.value
              : t.op === '=='
                ? actual === t.value
                : actual !== t.value;
    return { threshold: t.source, metric: t.metric, actual, passed };
  });
}
