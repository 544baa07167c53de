import type { ChartData, ChartOptions } from 'chart.js';
import { useMemo, useState } from 'react';
import { Line } from 'react-chartjs-2';
import { useI18n, type Translate } from '@/i18n';
import { cn } from '@/lib/utils';
import { apiChartName } from '../../model/chart-labels';
import { formatMs, formatPercent, formatRps } from '../../model/format';
import type { ApiSeries } from '@aqa/plan';
import { ChartCard } from './ChartCard';
import { useChartTheme } from './chart-setup';

/** Which measured per-second figure of each API the chart draws. */
export type ApiTimelineMetric = 'avg' | 'p95' | 'requests_per_second' | 'error_rate';

const METRICS: readonly ApiTimelineMetric[] = ['avg', 'p95', 'requests_per_second', 'error_rate'];

type ApiPoint = ApiSeries['points'][number];

/**
 * The y value of one API's second. Response times exist only in seconds in which the API completed a
 * request: a quiet second is a gap in that API's line, not 0 ms.
 */
export function apiPointValue(point: ApiPoint, metric: ApiTimelineMetric): number | null {
  if ((metric === 'avg' || metric === 'p95') && point.requests_per_second <= 0) return null;
  return point[metric];
}

/** An API's own name, else its method and path (apiChartName), else "API {n}". */
function seriesName(api: ApiSeries, t: Translate): string {
  return apiChartName(api) ?? t('results.apiList.unnamed', { number: api.index + 1 });
}

function metricLabel(metric: ApiTimelineMetric, t: Translate): string {
  switch (metric) {
    case 'avg':
      return t('results.charts.apiTimeline.avg');
    case 'p95':
      return t('results.charts.apiTimeline.p95');
    case 'requests_per_second':
      return t('results.charts.apiTimeline.rps');
    case 'error_rate':
      return t('results.charts.apiTimeline.errors');
  }
}

export interface ApiTimelineChartProps {
  apiSeries: readonly ApiSeries[];
  durationSeconds?: number | null;
  className?: string;
}

/**
 * Per-API figures over time (beyond the spec's charts): each API's measured per-second average or 95th
 * percentile response time, throughput or error rate, one line per API, from the run's stored series.
 */
export function ApiTimelineChart({ apiSeries, durationSeconds, className }: ApiTimelineChartProps) {
  const { t, locale } = useI18n();
  const theme = useChartTheme();
  const [metric, setMetric] = useState<ApiTimelineMetric>('avg');
  const points = apiSeries.reduce((sum, api) => sum + api.points.length, 0);

  const { data, options } = useMemo(() => {
    const format = (value: unknown) =>
      metric === 'requests_per_second'
        ? formatRps(value, locale)
        : metric === 'error_rate'
          ? formatPercent(value, locale)
          : formatMs(value, locale);
    const lastSecond = apiSeries.reduce(
      (max, api) => Math.max(max, api.points[api.points.length - 1]?.second ?? 0),
      0,
    );
    const chartData: ChartData<'line', { x: number; y: number | null }[]> = {
      datasets: apiSeries.map((api, index) => {
        const color = theme.lines[index % theme.lines.length] ?? theme.avg;
        return {
          label: seriesName(api, t),
          data: api.points.map((point) => ({ x: point.second, y: apiPointValue(point, metric) })),
          borderColor: color,
          backgroundColor: color,
          borderWidth: 2,
          // Dash every other colour cycle so more APIs than colours stay apart.
          borderDash: Math.floor(index / theme.lines.length) % 2 === 1 ? [6, 4] : [],
          tension: 0.2,
          spanGaps: false,
          pointRadius: api.points.length > 60 ? 0 : 2,
        };
      }),
    };
    const chartOptions: ChartOptions<'line'> = {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      interaction: { mode: 'nearest', axis: 'x', intersect: false },
      plugins: {
        legend: { position: 'bottom', labels: { color: theme.text, usePointStyle: true, padding: 12 } },
        tooltip: {
          callbacks: {
            title: (items) => t('results.timeline.atSecond', { second: String(items[0]?.parsed.x ?? '') }),
            label: (item) => `${item.dataset.label ?? ''}: ${format(item.parsed.y)}`,
          },
        },
      },
      scales: {
        x: {
          type: 'linear',
          min: 0,
          max: Math.ceil(Math.max(lastSecond, durationSeconds ?? 0, 1)),
          ticks: { color: theme.muted, maxTicksLimit: 8, precision: 0 },
          grid: { color: theme.grid },
          title: { display: true, text: t('results.timeline.axisTime'), color: theme.muted },
        },
        y: {
          min: 0,
          ...(metric === 'error_rate' ? { suggestedMax: 10 } : {}),
          ticks: {
            color: theme.muted,
            callback: (value) => (metric === 'error_rate' ? `${value}%` : String(value)),
          },
          grid: { color: theme.grid },
          title: { display: true, text: metricLabel(metric, t), color: theme.muted },
        },
      },
    };
    return { data: chartData, options: chartOptions };
  }, [apiSeries, durationSeconds, metric, theme, t, locale]);

  return (
    <ChartCard
      title={t('results.charts.apiTimeline')}
      description={t('results.charts.apiTimelineText')}
      points={points}
      emptyText={t('results.charts.noData')}
      label={t('results.charts.apiTimelineLabel', { metric: metricLabel(metric, t) })}
      className={className}
      bodyClassName="h-72"
      data-testid="chart-api-timeline"
      footer={
        <div
          className="mt-3 flex flex-wrap gap-1.5"
          role="group"
          aria-label={t('results.charts.apiTimeline.choose')}
        >
          {METRICS.map((option) => (
            <button
              key={option}
              type="button"
              onClick={() => setMetric(option)}
              aria-pressed={metric === option}
              data-testid={`api-timeline-${option}`}
              className={cn(
                'rounded-md border px-2.5 py-1 text-xs font-medium transition-colors',
                metric === option
                  ? 'border-primary bg-primary text-primary-foreground'
                  : 'border-border text-muted-foreground hover:bg-muted',
              )}
            >
              {metricLabel(option, t)}
            </button>
          ))}
        </div>
      }
    >
      <Line data={data} options={options} />
    </ChartCard>
  );
}
