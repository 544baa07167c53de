import type { AssistantFigure, ResultSummary } from '@aqa/plan';
import { ERROR_RATE_TOLERANCE_POINTS, REGRESSION_TOLERANCE_PERCENT } from './rules';
import { type Lang, num, percentChange, round2, say, signed, signedPercent } from './text';

/* The whole-run figures James compares, and how a change in each is judged (docs/design.md §10). */

export type MetricKey =
  'percentile_95' | 'percentile_99' | 'average_response_time' | 'requests_per_second' | 'error_rate';

interface MetricDefinition {
  key: MetricKey;
  en: string;
  ko: string;
  unit: string;
  /** Whether a higher value is worse. */
  higherIsWorse: boolean;
  /** Judged for a regression (the others are shown for context). */
  judged: boolean;
}

export const METRICS: readonly MetricDefinition[] = [
  { key: 'percentile_95', en: 'p95', ko: 'p95', unit: 'ms', higherIsWorse: true, judged: true },
  { key: 'error_rate', en: 'error rate', ko: '오류율', unit: '%', higherIsWorse: true, judged: true },
  {
    key: 'requests_per_second',
    en: 'throughput',
    ko: '처리량',
    unit: 'req/s',
    higherIsWorse: false,
    judged: true,
  },
  { key: 'average_response_time', en: 'average', ko: '평균', unit: 'ms', higherIsWorse: true, judged: false },
  { key: 'percentile_99', en: 'p99', ko: 'p99', unit: 'ms', higherIsWorse: true, judged: false },
];

export interface MetricChange {
  metric: MetricDefinition;
  base: number;
  candidate: number;
  delta: number;
  /** Null when the base is 0. */
  deltaPercent: number | null;
  /** Worse than the base by more than the tolerance (judged metrics only). */
  regressed: boolean;
  /** Worse at all. */
  worse: boolean;
}

function isRegression(metric: MetricDefinition, base: number, candidate: number): boolean {
  if (!metric.judged) return false;
  if (metric.key === 'error_rate') return candidate - base > ERROR_RATE_TOLERANCE_POINTS;
  const change = percentChange(base, candidate);
  if (change === null) return false;
  return metric.higherIsWorse
    ? change > REGRESSION_TOLERANCE_PERCENT
    : change < -REGRESSION_TOLERANCE_PERCENT;
}

/** Every metric of `candidate` against `base`. */
export function compareSummaries(base: ResultSummary, candidate: ResultSummary): MetricChange[] {
  return METRICS.map((metric) => {
    const b = base[metric.key];
    const c = candidate[metric.key];
    return {
      metric,
      base: b,
      candidate: c,
      delta: c - b,
      deltaPercent: percentChange(b, c),
      regressed: isRegression(metric, b, c),
      worse: metric.higherIsWorse ? c > b : c < b,
    };
  });
}

export function metricName(metric: MetricDefinition, lang: Lang): string {
  return say(lang, metric.en, metric.ko);
}

/** "p95 100 ms → 150 ms (+50 ms, +50 %)". */
export function describeChange(change: MetricChange, lang: Lang): string {
  const { metric } = change;
  const parts = [signed(change.delta, metric.unit)];
  if (change.deltaPercent !== null && metric.unit !== '%') parts.push(signedPercent(change.deltaPercent));
  if (metric.key === 'error_rate') parts[0] = `${signed(change.delta, say(lang, 'points', '%p'))}`;
  return `${metricName(metric, lang)} ${num(change.base)} ${metric.unit} → ${num(change.candidate)} ${metric.unit} (${parts.join(', ')})`;
}

/** The before, after and change figures of one metric. */
export function changeFigures(
  change: MetricChange,
  lang: Lang,
  beforeLabel: string,
  afterLabel: string,
): AssistantFigure[] {
  const name = metricName(change.metric, lang);
  const unit = change.metric.unit;
  const figures: AssistantFigure[] = [
    { label: `${name} (${beforeLabel})`, value: round2(change.base), unit },
    { label: `${name} (${afterLabel})`, value: round2(change.candidate), unit },
  ];
  if (change.metric.key === 'error_rate') {
    figures.push({
      label: say(lang, `${name} change`, `${name} 변화`),
      value: round2(change.delta),
      unit: say(lang, 'points', '%p'),
    });
  } else if (change.deltaPercent !== null) {
    figures.push({
      label: say(lang, `${name} change`, `${name} 변화`),
      value: round2(change.deltaPercent),
      unit: '%',
    });
  }
  return figures;
}
