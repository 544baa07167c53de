import type { ChartData, ChartOptions } from 'chart.js';
import { useMemo } from 'react';
import { Line } from 'react-chartjs-2';
import { useI18n } from '@/i18n';
import { formatPercent, formatRps } from '../../model/format';
import { errorAxis } from '../../model/timeline';
import type { SeriesPoint } from '../../model/views';
import { ChartCard } from './ChartCard';
import { areaDataset, useChartTheme } from './chart-setup';

interface TimeSeriesChartProps {
  series: readonly SeriesPoint[];
  durationSeconds?: number | null;
  className?: string;
}

function useTimeSeries(
  series: readonly SeriesPoint[],
  durationSeconds: number | null | undefined,
  kind: 'throughput' | 'errors',
) {
  const { t, locale } = useI18n();
  const theme = useChartTheme();
  return useMemo(() => {
    const color = kind === 'throughput' ? theme.rps : theme.errors;
    const label =
      kind === 'throughput' ? t('results.timeline.seriesRps') : t('results.timeline.seriesErrors');
    const format = (value: unknown) =>
      kind === 'throughput' ? formatRps(value, locale) : formatPercent(value, locale);
    const lastSecond = series.length > 0 ? (series[series.length - 1]?.second ?? 0) : 0;
    const errorMax = errorAxis(series).max;

    const data: ChartData<'line', { x: number; y: number }[]> = {
      datasets: [
        areaDataset(
          label,
          series.map((point) => ({
            x: point.second,
            y: kind === 'throughput' ? point.requests_per_second : point.error_rate,
          })),
          color,
        ),
      ],
    };
    const options: ChartOptions<'line'> = {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      interaction: { mode: 'index', intersect: false },
      plugins: {
        legend: { display: false },
        tooltip: {
          callbacks: {
            title: (items) => t('results.timeline.atSecond', { second: String(items[0]?.parsed.x ?? '') }),
            label: (item) => `${label}: ${format(item.parsed.y)}`,
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
          // Error rates share the timeline's 0–10 % scale unless a measured rate is higher.
          ...(kind === 'errors' ? { max: errorMax } : {}),
          ticks: {
            color: theme.muted,
            callback: (value) => (kind === 'errors' ? `${value}%` : String(value)),
          },
          grid: { color: theme.grid },
          title: {
            display: true,
            text: kind === 'throughput' ? t('results.timeline.axisRps') : t('results.timeline.axisErrors'),
            color: theme.muted,
          },
        },
      },
    };
    return { data, options };
  }, [series, durationSeconds, kind, theme, t, locale]);
}

/** Throughput Over Time (docs/reference/02-running.md §2): requests completed in each second of the run. */
export function ThroughputChart({ series, durationSeconds, className }: TimeSeriesChartProps) {
  const { t } = useI18n();
  const { data, options } = useTimeSeries(series, durationSeconds, 'throughput');
  return (
    <ChartCard
      title={t('results.charts.throughput')}
      description={t('results.charts.throughputText')}
      points={series.length}
      emptyText={t('results.charts.noData')}
      label={t('results.charts.throughputLabel')}
      className={className}
      data-testid="chart-throughput"
    >
      <Line data={data} options={options} />
    </ChartCard>
  );
}

/** Error Rate Trend (docs/reference/02-running.md §2): the share of requests that failed in each second of the run. */
export function ErrorRateTrendChart({ series, durationSeconds, className }: TimeSeriesChartProps) {
  const { t } = useI18n();
  const { data, options } = useTimeSeries(series, durationSeconds, 'errors');
  return (
    <ChartCard
      title={t('results.charts.errorTrend')}
      description={t('results.charts.errorTrendText')}
      points={series.length}
      emptyText={t('results.charts.noData')}
      label={t('results.charts.errorTrendLabel')}
      className={className}
      data-testid="chart-error-trend"
    >
      <Line data={data} options={options} />
    </ChartCard>
  );
}
