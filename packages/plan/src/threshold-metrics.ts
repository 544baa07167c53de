/**
 * The metrics a threshold may name (docs/adr/0027-load-profiles.md, "Abort criteria"); thresholds.ts maps
 * each to the summary figure it reads. Apart from that map so that the run's abort shape
 * (results/run-abort.ts) can name them without importing the parser, which reads the result types.
 */
export const THRESHOLD_METRICS = [
  'avg',
  'p50',
  'p90',
  'p95',
  'p99',
  'p99.9',
  'p999',
  'min',
  'max',
  'error_rate',
  'rps',
  'requests',
  'failed',
] as const;
export type ThresholdMetric = (typeof THRESHOLD_METRICS)[number];
