import { formatMs, formatNumber, formatPercent, formatRps, isNumber } from '@/features/results';

export type DeltaTone = 'worse' | 'better' | 'same' | 'unknown';

/** Red when the server calls the change worse, green for any other change, neutral for none. */
export function deltaTone(
  deltaPercent: number | null | undefined,
  worse: boolean,
  delta?: number | null,
): DeltaTone {
  if (worse) return 'worse';
  const change = isNumber(delta) ? delta : deltaPercent;
  if (!isNumber(change)) return 'unknown';
  return change === 0 ? 'same' : 'better';
}

/** "+12.5%", "−3.1%", "0%"; the dash when there is no percentage (a base of 0). */
export function formatDeltaPercent(value: number | null | undefined, locale: string): string {
  if (!isNumber(value)) return '—';
  if (value === 0) return '0%';
  const text = formatPercent(Math.abs(value), locale);
  return `${value > 0 ? '+' : '−'}${text}`;
}

/**
 * An error rate's change in percentage points, signed: "+2.5", "−1", "0". A rate's change relative to
 * itself (a percent of a percent) misleads, and from a base of 0% has no value at all.
 */
export function formatPointsChange(value: number | null | undefined, locale: string): string | null {
  if (!isNumber(value)) return null;
  const size = Math.abs(value);
  const text = formatNumber(size, locale, size < 10 ? 2 : 1);
  return value === 0 ? text : `${value > 0 ? '+' : '−'}${text}`;
}

/** Rates (unit %) change in percentage points, everything else in % of the base. */
export function changesInPoints(unit: string): boolean {
  return unit === '%';
}

/** A metric value by its unit as the comparison call names it (ms, req/s, %). */
export function formatByUnit(value: number | null | undefined, unit: string, locale: string): string {
  if (unit === 'ms') return formatMs(value, locale);
  if (unit === 'req/s') return formatRps(value, locale);
  if (unit === '%') return formatPercent(value, locale);
  return isNumber(value) ? `${formatNumber(value, locale)}${unit ? ` ${unit}` : ''}` : '—';
}

/** A signed absolute change in the metric's unit: "+4.2 ms", "−10 req/s". */
export function formatDelta(value: number | null | undefined, unit: string, locale: string): string {
  if (!isNumber(value)) return '—';
  const text = formatByUnit(Math.abs(value), unit, locale);
  return value === 0 ? text : `${value > 0 ? '+' : '−'}${text}`;
}
