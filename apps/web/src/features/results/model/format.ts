import {
  latencyDigits,
  ONE_DECIMAL,
  percentDigits,
  rateDigits,
  type DistributionBin as DistributionBucket,
} from '@aqa/plan';

/**
 * Formatting of measured figures: every number carries its unit, and a figure the server did not send is
 * shown as a dash — never filled in.
 */
export const MISSING = '—';

export function isNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function numberFormat(locale: string, digits: number, minDigits = 0): Intl.NumberFormat {
  return new Intl.NumberFormat(locale, { minimumFractionDigits: minDigits, maximumFractionDigits: digits });
}

/** A number without a unit (at most `digits` decimals, at least `minDigits`), or the dash. */
export function formatNumber(value: unknown, locale: string, digits = 2, minDigits = 0): string {
  return isNumber(value) ? numberFormat(locale, digits, minDigits).format(value) : MISSING;
}

/** A count: whole, grouped. */
export function formatCount(value: unknown, locale: string): string {
  return isNumber(value) ? numberFormat(locale, 0).format(Math.round(value)) : MISSING;
}

/** Milliseconds: "0.42 ms", "12.3 ms", "1,204 ms". */
export function formatMs(value: unknown, locale: string): string {
  return isNumber(value) ? `${numberFormat(locale, latencyDigits(value)).format(value)} ms` : MISSING;
}

/** Requests per second: "85.3 req/s". */
export function formatRps(value: unknown, locale: string): string {
  if (!isNumber(value)) return MISSING;
  return `${numberFormat(locale, rateDigits(value)).format(value)} req/s`;
}

/** Iterations per second: "12.5 it/s" (the precision of a request rate). */
export function formatIterationRate(value: unknown, locale: string): string {
  if (!isNumber(value)) return MISSING;
  return `${numberFormat(locale, rateDigits(value)).format(value)} it/s`;
}

/** A percentage given in percent (0–100): "0%", "0.05%", "12.5%". */
export function formatPercent(value: unknown, locale: string): string {
  if (!isNumber(value)) return MISSING;
  return `${numberFormat(locale, percentDigits(value)).format(value)}%`;
}

/** Kilobytes per second: "123.4 KB/s". */
export function formatKbs(value: unknown, locale: string): string {
  return isNumber(value) ? `${numberFormat(locale, ONE_DECIMAL).format(value)} KB/s` : MISSING;
}

/** Seconds: "4 s", "12.5 s". */
export function formatSeconds(value: unknown, locale: string): string {
  return isNumber(value) ? `${numberFormat(locale, 1).format(value)} s` : MISSING;
}

export type ErrorRateLevel = 'good' | 'warning' | 'bad';

/** docs/reference/02-running.md §2/§9: the error-rate badge is green under 5%, yellow under 10%, red otherwise. */
export const ERROR_RATE_WARNING = 5;
export const ERROR_RATE_BAD = 10;

export function errorRateLevel(errorRate: number): ErrorRateLevel {
  if (errorRate < ERROR_RATE_WARNING) return 'good';
  if (errorRate < ERROR_RATE_BAD) return 'warning';
  return 'bad';
}

/** The badge variant of an error rate; a missing rate gets the neutral badge. */
export function errorRateBadgeVariant(
  errorRate: unknown,
): 'success' | 'warning' | 'destructive' | 'secondary' {
  if (!isNumber(errorRate)) return 'secondary';
  const level = errorRateLevel(errorRate);
  return level === 'good' ? 'success' : level === 'warning' ? 'warning' : 'destructive';
}

/** docs/reference/02-running.md §9: comparison labels are cut to 15 characters plus an ellipsis unless they start with API_. */
export const COMPARISON_LABEL_LENGTH = 15;

export function comparisonLabel(label: string): string {
  if (label.startsWith('API_')) return label;
  const chars = Array.from(label);
  return chars.length > COMPARISON_LABEL_LENGTH
    ? `${chars.slice(0, COMPARISON_LABEL_LENGTH).join('')}…`
    : label;
}

export interface DistributionRow {
  label: string;
  count: number;
  /** Share of all counted requests, percent (0 when none were counted). */
  share: number;
}

/** The lower bound (ms) a bucket label starts with: "0-100ms" → 0, "500ms+" → 500; unknown → Infinity. */
export function bucketLowerBound(label: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)/.exec(label);
  return match?.[1] !== undefined ? Number(match[1]) : Number.POSITIVE_INFINITY;
}

/**
 * The histogram's buckets as bars: in order of their lower bound (the server's labels kept as written,
 * e.g. 0-100ms ... 500ms+), each with its share of the total. Counts are the server's, untouched.
 */
export function distributionRows(buckets: readonly DistributionBucket[]): DistributionRow[] {
  const valid = buckets.filter((bucket) => typeof bucket.label === 'string' && isNumber(bucket.count));
  const total = valid.reduce((sum, bucket) => sum + Math.max(0, bucket.count), 0);
  return valid
    .map((bucket, index) => ({ bucket, index }))
    .sort((a, b) => bucketLowerBound(a.bucket.label) - bucketLowerBound(b.bucket.label) || a.index - b.index)
    .map(({ bucket }) => ({
      label: bucket.label,
      count: bucket.count,
      share: total > 0 ? (Math.max(0, bucket.count) / total) * 100 : 0,
    }));
}

/** Display names of tools and engines. */
const TOOL_NAMES: Record<string, string> = {
  jmeter: 'JMeter',
  k6: 'k6',
  locust: 'Locust',
  taurus: 'Taurus',
  soapui: 'SoapUI',
  bzt: 'Taurus',
};

/** docs/reference/02-running.md §2: the Test Tool tile defaults to Taurus. */
export const DEFAULT_TOOL_NAME = 'Taurus';

export function toolName(tool: string | null | undefined): string {
  if (!tool?.trim()) return DEFAULT_TOOL_NAME;
  return TOOL_NAMES[tool.trim().toLowerCase()] ?? tool.trim();
}

export function isBuiltInEngine(engine: string | null | undefined): boolean {
  const value = engine?.trim().toLowerCase();
  return value === 'built-in' || value === 'builtin' || value === 'aqa';
}
