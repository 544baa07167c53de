import { ArrowDownRight, ArrowUpRight, Minus } from 'lucide-react';
import { Card, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ApiHostLine, apiRowLabel, ApiUrlLine, MethodBadge, sharedOrigin } from '@/features/results';
import { useI18n } from '@/i18n';
import type { MessageKey } from '@/i18n/en';
import { cn } from '@/lib/utils';
import {
  changesInPoints,
  deltaTone,
  formatByUnit,
  formatDelta,
  formatDeltaPercent,
  formatPointsChange,
  type DeltaTone,
} from '../../model/deltas';
import type { CompareApi, CompareFigures, CompareMetric, DeltaFlag } from '../../queries/history-api';

const METRIC_LABELS: Record<string, MessageKey> = {
  requests_per_second: 'history.compare.metric.rps',
  average_response_time: 'history.compare.metric.avg',
  percentile_95: 'history.compare.metric.p95',
  percentile_99: 'history.compare.metric.p99',
  error_rate: 'history.compare.metric.errorRate',
};

const TONE_CLASSES: Record<DeltaTone, string> = {
  worse: 'text-destructive-text',
  better: 'text-success-text',
  same: 'text-muted-foreground',
  unknown: 'text-muted-foreground',
};

/** An error rate's change in percentage points ("+2.5 pp"), or null when unknown. */
function usePointsText(): (points: number | null | undefined) => string | null {
  const { t, locale } = useI18n();
  return (points) => {
    const value = formatPointsChange(points, locale);
    return value === null ? null : t('history.compare.points', { value });
  };
}

/**
 * A delta in % — or, for a rate, in percentage points (`points`) — red when worse and green when better,
 * with an arrow for the direction.
 */
export function DeltaBadge({
  percent,
  delta,
  points,
  tone,
  testId,
}: {
  percent: number | null | undefined;
  /** The absolute change, when known: no change from a base of 0 reads "0%", not a dash. */
  delta?: number | null;
  /** A rate's change in percentage points: shown instead of the percent. */
  points?: number | null;
  tone: DeltaTone;
  testId?: string;
}) {
  const { t, locale } = useI18n();
  const pointsText = usePointsText();
  const inPoints = points !== undefined;
  const shown = inPoints ? (points ?? null) : (percent ?? (delta === 0 ? 0 : null));
  const Icon = shown === null ? null : shown > 0 ? ArrowUpRight : shown < 0 ? ArrowDownRight : Minus;
  const label =
    tone === 'worse' ? t('history.compare.worse') : tone === 'better' ? t('history.compare.better') : null;
  return (
    <span
      className={cn('num inline-flex items-center gap-0.5 font-semibold', TONE_CLASSES[tone])}
      data-testid={testId}
      data-tone={tone}
      title={label ?? undefined}
    >
      {Icon && <Icon aria-hidden className="size-3.5" />}
      {inPoints ? (pointsText(shown) ?? '—') : formatDeltaPercent(shown, locale)}
      {label && <span className="sr-only"> ({label})</span>}
    </span>
  );
}

const head =
  'whitespace-nowrap px-2 py-2.5 text-xs font-medium text-muted-foreground first:pl-4 last:pr-4 sm:px-3 sm:first:pl-6 sm:last:pr-6';
const cell = 'whitespace-nowrap px-2 py-3 first:pl-4 last:pr-4 sm:px-3 sm:first:pl-6 sm:last:pr-6';

/**
 * Requests/sec, average, p95, p99 and error rate of both runs, with the change in % (spec: worse in red);
 * the error rate changes in percentage points, coloured the same way.
 */
export function CompareMetricsTable({ metrics }: { metrics: readonly CompareMetric[] }) {
  const { t, locale } = useI18n();
  const pointsText = usePointsText();
  return (
    <Card data-testid="compare-metrics">
      <CardHeader className="pb-3">
        <CardTitle as="h2">{t('history.compare.metricsTitle')}</CardTitle>
        <CardDescription>{t('history.compare.metricsText')}</CardDescription>
      </CardHeader>
      <div className="relative overflow-x-auto pb-2">
        <table className="w-full text-left text-sm sm:min-w-[560px]">
          <thead className="border-y border-border bg-muted/40">
            <tr>
              <th scope="col" className={head}>
                {t('history.compare.metric')}
              </th>
              <th scope="col" className={cn(head, 'text-right')}>
                {t('history.compare.base')}
              </th>
              <th scope="col" className={cn(head, 'text-right')}>
                {t('history.compare.candidate')}
              </th>
              <th scope="col" className={cn(head, 'hidden text-right sm:table-cell')}>
                {t('history.compare.change')}
              </th>
              <th scope="col" className={cn(head, 'text-right')}>
                {t('history.compare.changePercent')}
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-border">
            {metrics.map((metric) => {
              const labelKey = METRIC_LABELS[metric.key];
              const tone = deltaTone(metric.delta_percent, metric.worse, metric.delta);
              const inPoints = changesInPoints(metric.unit);
              return (
                <tr key={metric.key} data-testid="compare-metric" data-key={metric.key}>
                  <th scope="row" className={cn(cell, 'whitespace-normal font-medium sm:whitespace-nowrap')}>
                    {labelKey ? t(labelKey) : metric.label}
                  </th>
                  <td className={cn(cell, 'num text-right')}>
                    {formatByUnit(metric.base, metric.unit, locale)}
                  </td>
                  <td className={cn(cell, 'num text-right')}>
                    {formatByUnit(metric.candidate, metric.unit, locale)}
                  </td>
                  <td
                    className={cn(
                      cell,
                      'num hidden text-right sm:table-cell',
                      inPoints ? cn('font-semibold', TONE_CLASSES[tone]) : 'text-muted-foreground',
                    )}
                    data-testid="compare-metric-change"
                    data-tone={inPoints ? tone : undefined}
                  >
                    {inPoints
                      ? (pointsText(metric.delta) ?? '—')
                      : formatDelta(metric.delta, metric.unit, locale)}
                  </td>
                  <td className={cn(cell, 'text-right')}>
                    <DeltaBadge
                      percent={metric.delta_percent}
                      delta={metric.delta}
                      points={inPoints ? metric.delta : undefined}
                      tone={tone}
                      testId="compare-metric-delta"
                    />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </Card>
  );
}

function PairCell({
  base,
  candidate,
  pick,
  unit,
  flag,
  testId,
}: {
  base: CompareFigures | null;
  candidate: CompareFigures | null;
  pick: keyof CompareFigures;
  unit: string;
  flag: DeltaFlag;
  testId: string;
}) {
  const { locale } = useI18n();
  const before = base?.[pick];
  const after = candidate?.[pick];
  const points =
    changesInPoints(unit) && typeof before === 'number' && typeof after === 'number' ? after - before : null;
  return (
    <td className={cn(cell, 'text-right')}>
      <div className="num text-[13px]">
        <span className="text-muted-foreground">{formatByUnit(base?.[pick], unit, locale)}</span>
        <span aria-hidden className="px-1 text-muted-foreground">
          →
        </span>
        <span>{formatByUnit(candidate?.[pick], unit, locale)}</span>
      </div>
      <DeltaBadge
        percent={flag.delta_percent}
        points={changesInPoints(unit) ? points : undefined}
        tone={deltaTone(flag.delta_percent, flag.worse, points)}
        testId={testId}
      />
    </td>
  );
}

/** Per API (matched by method and URL): average, p95 and error rate of both runs with their changes. */
export function CompareApisTable({ apis }: { apis: readonly CompareApi[] }) {
  const { t } = useI18n();
  if (apis.length === 0) return null;
  // The host once above; each row by its name, else its path, the whole URL on hover (issue 24).
  const origin = sharedOrigin(apis);
  return (
    <Card data-testid="compare-apis">
      <CardHeader className="pb-3">
        <CardTitle as="h2">{t('history.compare.apisTitle')}</CardTitle>
        <CardDescription>{t('history.compare.apisText')}</CardDescription>
        <ApiHostLine origin={origin} />
      </CardHeader>
      <div className="relative overflow-x-auto pb-2">
        <table className="w-full min-w-[720px] text-left text-sm">
          <thead className="border-y border-border bg-muted/40">
            <tr>
              <th scope="col" className={head}>
                {t('history.compare.api')}
              </th>
              <th scope="col" className={cn(head, 'text-right')}>
                {t('history.compare.metric.avg')}
              </th>
              <th scope="col" className={cn(head, 'text-right')}>
                {t('history.compare.metric.p95')}
              </th>
              <th scope="col" className={cn(head, 'text-right')}>
                {t('history.compare.metric.errorRate')}
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-border">
            {apis.map((api) => (
              <tr key={api.key} data-testid="compare-api">
                <td className={cn(cell, 'max-w-80')}>
                  <div className="flex min-w-0 items-center gap-2">
                    <MethodBadge method={api.method} />
                    <span className="truncate font-medium" title={api.url} data-testid="api-row-label">
                      {apiRowLabel(api) ?? api.url}
                    </span>
                  </div>
                  <ApiUrlLine api={api} origin={origin} className="text-[11px]" />
                  {(!api.base || !api.candidate) && (
                    <p className="text-[11px] text-warning-text">
                      {api.base ? t('history.compare.onlyBase') : t('history.compare.onlyCandidate')}
                    </p>
                  )}
                </td>
                <PairCell
                  base={api.base}
                  candidate={api.candidate}
                  pick="average_response_time"
                  unit="ms"
                  flag={api.deltas.average_response_time}
                  testId="compare-api-avg"
                />
                <PairCell
                  base={api.base}
                  candidate={api.candidate}
                  pick="percentile_95"
                  unit="ms"
                  flag={api.deltas.percentile_95}
                  testId="compare-api-p95"
                />
                <PairCell
                  base={api.base}
                  candidate={api.candidate}
                  pick="error_rate"
                  unit="%"
                  flag={api.deltas.error_rate}
                  testId="compare-api-errors"
                />
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Card>
  );
}
