import { ArrowDownRight, ArrowUpRight, Minus } from 'lucide-react';
import { DataTable, type DataColumn } from '@/components/data-table';
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

/**
 * Requests/sec, average, p95, p99 and error rate of both runs, with the change in % (spec: worse in red);
 * the error rate changes in percentage points, coloured the same way.
 */
export function CompareMetricsTable({ metrics }: { metrics: readonly CompareMetric[] }) {
  const { t, locale } = useI18n();
  const pointsText = usePointsText();
  const rows = metrics.map((metric) => ({
    metric,
    tone: deltaTone(metric.delta_percent, metric.worse, metric.delta),
    inPoints: changesInPoints(metric.unit),
  }));
  const columns: DataColumn<(typeof rows)[number]>[] = [
    {
      key: 'metric',
      header: t('history.compare.metric'),
      rowHeader: true,
      cellClassName: 'whitespace-normal font-medium sm:whitespace-nowrap',
      cell: ({ metric }) => {
        const labelKey = METRIC_LABELS[metric.key];
        return labelKey ? t(labelKey) : metric.label;
      },
    },
    {
      key: 'base',
      header: t('history.compare.base'),
      numeric: true,
      cellClassName: 'num',
      cell: ({ metric }) => formatByUnit(metric.base, metric.unit, locale),
    },
    {
      key: 'candidate',
      header: t('history.compare.candidate'),
      numeric: true,
      cellClassName: 'num',
      cell: ({ metric }) => formatByUnit(metric.candidate, metric.unit, locale),
    },
    {
      key: 'change',
      header: t('history.compare.change'),
      numeric: true,
      className: 'hidden sm:table-cell',
      cellClassName: ({ tone, inPoints }) =>
        cn('num', inPoints ? cn('font-semibold', TONE_CLASSES[tone]) : 'text-muted-foreground'),
      cellAttributes: ({ tone, inPoints }) => ({
        'data-testid': 'compare-metric-change',
        'data-tone': inPoints ? tone : undefined,
      }),
      cell: ({ metric, inPoints }) =>
        inPoints ? (pointsText(metric.delta) ?? '—') : formatDelta(metric.delta, metric.unit, locale),
    },
    {
      key: 'changePercent',
      header: t('history.compare.changePercent'),
      numeric: true,
      cell: ({ metric, tone, inPoints }) => (
        <DeltaBadge
          percent={metric.delta_percent}
          delta={metric.delta}
          points={inPoints ? metric.delta : undefined}
          tone={tone}
          testId="compare-metric-delta"
        />
      ),
    },
  ];
  return (
    <Card data-testid="compare-metrics">
      <CardHeader className="pb-3">
        <CardTitle as="h2">{t('history.compare.metricsTitle')}</CardTitle>
        <CardDescription>{t('history.compare.metricsText')}</CardDescription>
      </CardHeader>
      <DataTable
        columns={columns}
        rows={rows}
        rowKey={({ metric }) => metric.key}
        rowAttributes={({ metric }) => ({ 'data-testid': 'compare-metric', 'data-key': metric.key })}
        minWidth="sm:min-w-[560px]"
        compact
      />
    </Card>
  );
}

/** Both runs' figure ("120 → 180") and its change: a cell of the per-API table. */
function PairFigures({
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
    <>
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
    </>
  );
}

/** Per API (matched by method and URL): average, p95 and error rate of both runs with their changes. */
export function CompareApisTable({ apis }: { apis: readonly CompareApi[] }) {
  const { t } = useI18n();
  if (apis.length === 0) return null;
  // The host once above; each row by its name, else its path, the whole URL on hover (issue 24).
  const origin = sharedOrigin(apis);
  const pair = (
    key: 'average_response_time' | 'percentile_95' | 'error_rate',
    header: MessageKey,
    unit: string,
    testId: string,
  ): DataColumn<CompareApi> => ({
    key,
    header: t(header),
    numeric: true,
    cell: (api) => (
      <PairFigures
        base={api.base}
        candidate={api.candidate}
        pick={key}
        unit={unit}
        flag={api.deltas[key]}
        testId={testId}
      />
    ),
  });
  const columns: DataColumn<CompareApi>[] = [
    {
      key: 'api',
      header: t('history.compare.api'),
      cellClassName: 'max-w-80',
      cell: (api) => (
        <>
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
        </>
      ),
    },
    pair('average_response_time', 'history.compare.metric.avg', 'ms', 'compare-api-avg'),
    pair('percentile_95', 'history.compare.metric.p95', 'ms', 'compare-api-p95'),
    pair('error_rate', 'history.compare.metric.errorRate', '%', 'compare-api-errors'),
  ];
  return (
    <Card data-testid="compare-apis">
      <CardHeader className="pb-3">
        <CardTitle as="h2">{t('history.compare.apisTitle')}</CardTitle>
        <CardDescription>{t('history.compare.apisText')}</CardDescription>
        <ApiHostLine origin={origin} />
      </CardHeader>
      <DataTable
        columns={columns}
        rows={apis}
        rowKey={(api) => api.key}
        rowAttributes={() => ({ 'data-testid': 'compare-api' })}
        minWidth="min-w-[720px]"
        compact
      />
    </Card>
  );
}
