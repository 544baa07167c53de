/**
 * A percentile is one of the measured values, so it lies between the run's minimum and maximum
 * (docs/adr/0006-hdr-histograms-merge-exactly.md "Percentiles within min and max"). An HDR bucket's
 * highest equivalent value, or a tool's rounded figure (Locust rounds to whole milliseconds under
 * 100 ms, then 2 significant digits), can lie past the exact maximum: 15 for a max of 14.56. Every
 * figure a run reports, shows or merges goes through these, so a p99 never exceeds the max.
 */

/** The value held within [min, max]; as is when the range is unknown (max 0: nothing measured). */
export function percentileWithin(value: number, min: number, max: number): number {
  if (!(max > 0) || !Number.isFinite(value)) return value;
  const low = min > 0 && min <= max ? min : 0;
  return Math.min(Math.max(value, low), max);
}

const SUMMARY_PERCENTILES = [
  'percentile_50',
  'percentile_90',
  'percentile_95',
  'percentile_99',
  'percentile_999',
] as const;

type SummaryFigures = Partial<Record<(typeof SUMMARY_PERCENTILES)[number], number>> & {
  min_response_time?: number;
  max_response_time?: number;
};

/** A result summary or API row whose percentiles are held within its min and max response times. */
export function withPercentilesInRange<T extends SummaryFigures>(figures: T): T {
  const max = figures.max_response_time;
  if (max === undefined) return figures;
  const min = figures.min_response_time ?? 0;
  const out = { ...figures };
  for (const key of SUMMARY_PERCENTILES) {
    const value = out[key];
    if (typeof value === 'number') out[key] = percentileWithin(value, min, max);
  }
  return out;
}

const LATENCY_PERCENTILES = ['p50', 'p90', 'p95', 'p99', 'p999'] as const;

type LatencyFigures = Partial<Record<(typeof LATENCY_PERCENTILES)[number], number>> & {
  min: number;
  max: number;
};

/** A latency summary (p50 … p999, min, max) whose percentiles are held within its min and max. */
export function latencyInRange<T extends LatencyFigures>(latency: T): T {
  const out = { ...latency };
  for (const key of LATENCY_PERCENTILES) {
    const value = out[key];
    if (typeof value === 'number') out[key] = percentileWithin(value, latency.min, latency.max);
  }
  return out;
}
