import { type LoadProfile, profilePoints } from '@aqa/plan';
import { isNumber } from './format';
import type { SeriesPoint } from './views';

/**
 * Figures of the Performance Timeline (docs/reference/02-running.md §2), from the run's measured per-second series only.
 */

/** A second in which no request completed has no latency: it is a gap in the line, not 0 ms. */
export function hasTraffic(point: SeriesPoint): boolean {
  if (isNumber(point.requests)) return point.requests > 0;
  return point.requests_per_second > 0;
}

export interface TimelineStats {
  /** Mean response time over the run (each second weighted by its requests when known), ms. */
  avgResponseTime: number | null;
  /** Mean of the per-second 95th percentiles, ms. */
  avgP95: number | null;
  /** Highest per-second average response time, ms. */
  peakResponseTime: number | null;
  /** Highest per-second 95th percentile, ms. */
  peakP95: number | null;
  /** avgResponseTime weighs each second by its requests (the mean of every request); else seconds count alike. */
  weighted: boolean;
}

export function timelineStats(series: readonly SeriesPoint[]): TimelineStats {
  const points = series.filter((point) => hasTraffic(point) && isNumber(point.avg) && isNumber(point.p95));
  if (points.length === 0) {
    return { avgResponseTime: null, avgP95: null, peakResponseTime: null, peakP95: null, weighted: false };
  }
  const weighted = points.every((point) => isNumber(point.requests));
  let weightSum = 0;
  let avgSum = 0;
  let p95Sum = 0;
  let peakAvg = Number.NEGATIVE_INFINITY;
  let peakP95 = Number.NEGATIVE_INFINITY;
  for (const point of points) {
    const weight = weighted ? (point.requests ?? 0) : 1;
    weightSum += weight;
    avgSum += point.avg * weight;
    p95Sum += point.p95;
    peakAvg = Math.max(peakAvg, point.avg);
    peakP95 = Math.max(peakP95, point.p95);
  }
  return {
    avgResponseTime: weightSum > 0 ? avgSum / weightSum : null,
    avgP95: p95Sum / points.length,
    peakResponseTime: peakAvg,
    peakP95,
    weighted,
  };
}

/** docs/reference/02-running.md §9: the timeline's error-rate axis is fixed at 0–10 %. */
export const ERROR_AXIS_MAX = 10;

export interface ErrorAxis {
  max: number;
  /** True when a measured rate is above 10 % and the axis was widened to show it. */
  scaled: boolean;
}

/**
 * The error-rate axis: 0–10 % as the spec fixes it, unless a measured rate exceeds 10 % — then the axis
 * grows to the next multiple of 10 (at most 100) so no point is cut off, and the screen says so.
 */
export function errorAxis(series: readonly SeriesPoint[]): ErrorAxis {
  const peak = series.reduce(
    (max, point) => (isNumber(point.error_rate) ? Math.max(max, point.error_rate) : max),
    0,
  );
  if (peak <= ERROR_AXIS_MAX) return { max: ERROR_AXIS_MAX, scaled: false };
  return { max: Math.min(100, Math.ceil(peak / 10) * 10), scaled: true };
}

/** The latest point of a series, if any. */
export function lastPoint(series: readonly SeriesPoint[]): SeriesPoint | undefined {
  return series.length > 0 ? series[series.length - 1] : undefined;
}

/**
 * The planned line of a run's load profile (docs/adr/0027-load-profiles.md, "8. Live and stored results"):
 * the corners of the plan in seconds from the start — users (closed model) or iterations per second
 * (open model) — drawn straight between them over the measured line. Empty without a profile.
 */
export function plannedLine(profile: LoadProfile | null | undefined): { x: number; y: number }[] {
  if (!profile) return [];
  return profilePoints(profile).map((point) => ({ x: point.atMs / 1000, y: point.target }));
}

/**
 * The flows whose iterations the seconds carry (plans with flows, docs/adr/0027-load-profiles.md "Flows"),
 * in the plan's order; empty for a run without flows or stored before seconds carried them.
 */
export function flowNames(series: readonly SeriesPoint[]): string[] {
  const names: string[] = [];
  for (const point of series) {
    for (const flow of point.flows ?? []) if (!names.includes(flow.name)) names.push(flow.name);
  }
  return names;
}

/** One flow's iterations in one second; null for a second that did not carry the flows (a gap, not 0). */
export function flowIterationsAt(point: SeriesPoint, name: string): number | null {
  if (!point.flows) return null;
  return point.flows.find((flow) => flow.name === name)?.iterations ?? 0;
}

/** An open-model run measures its iterations each second; a closed-model or older run does not. */
export function hasIterations(series: readonly SeriesPoint[]): boolean {
  return series.some((point) => isNumber(point.iterations));
}
