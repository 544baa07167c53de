import type { ChartData, ChartOptions } from 'chart.js';
import { useMemo } from 'react';
import { Line } from 'react-chartjs-2';
import { formatMs, formatPercent, formatRps, hasTraffic, type SeriesPoint } from '@/features/results';
import { alpha, ChartCard, niceMax, useChartTheme } from '@/features/results/charts';
import { useI18n } from '@/i18n';

export type OverlayMetric = 'p95' | 'rps' | 'errors';

type Point = { x: number; y: number | null };

function valueOf(point: SeriesPoint, metric: OverlayMetric): number | null {
  if (metric === 'rps') return point.requests_per_second;
  // A second without a completed request has no response time or error rate: a gap, not 0.
  if (!hasTraffic(point)) return null;
  return metric === 'p95' ? point.p95 : point.error_rate;
}

/**
 * Two runs' measured per-second series of one measure on one time axis (seconds since each run's start):
 * the candidate solid, the base dashed.
 */
export function CompareOverlayChart({
  metric,
  base,
  candidate,
  baseLabel,
  candidateLabel,
}: {
  metric: OverlayMetric;
  base: readonly SeriesPoint[];
  candidate: readonly SeriesPoint[];
  baseLabel: string;
  candidateLabel: string;
}) {
  const { t, locale } = useI18n();
  const theme = useChartTheme();

  const { data, options } = useMemo(() => {
    const color = metric === 'p95' ? theme.p95 : metric === 'rps' ? theme.rps : theme.errors;
    const format = (value: unknown) =>
      metric === 'p95'
        ? formatMs(value, locale)
        : metric === 'rps'
          ? formatRps(value, locale)
          : formatPercent(value, locale);
    const points = (series: readonly SeriesPoint[]): Point[] =>
      series.map((point) => ({ x: point.second, y: valueOf(point, metric) }));
    const basePoints = points(base);
    const candidatePoints = points(candidate);
    const peak = [...basePoints, ...candidatePoints].reduce((max, point) => Math.max(max, point.y ?? 0), 0);
    const lastSecond = Math.max(
      base[base.length - 1]?.second ?? 0,
      candidate[candidate.length - 1]?.second ?? 0,
      1,
    );
    const many = base.length + candidate.length > 120;

    const chartData: ChartData<'line', Point[]> = {
      datasets: [
        {
          label: candidateLabel,
          data: candidatePoints,
          borderColor: color,
          backgroundColor: alpha(color, 0.12),
          borderWidth: 2,
          pointRadius: many ? 0 : 2,
          tension: 0.2,
          spanGaps: false,
        },
        {
          label: baseLabel,
          data: basePoints,
          borderColor: alpha(color, 0.75),
          backgroundColor: alpha(color, 0.06),
          borderDash: [6, 4],
          borderWidth: 2,
          pointRadius: many ? 0 : 2,
          tension: 0.2,
          spanGaps: false,
        },
      ],
    };
    const chartOptions: ChartOptions<'line'> = {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      interaction: { mode: 'index', intersect: false },
      plugins: {
        legend: { position: 'bottom', labels: { color: theme.text, boxWidth: 24, usePointStyle: false } },
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
          max: lastSecond,
          ticks: { color: theme.muted, maxTicksLimit: 8, precision: 0 },
          grid: { color: theme.grid },
          title: { display: true, text: t('results.timeline.axisTime'), color: theme.muted },
        },
        y: {
          min: 0,
          // Error rates share the timeline's 0–10 % scale unless a measured rate is higher (at most 100 %).
          max: metric === 'errors' ? Math.min(100, Math.max(10, niceMax(peak * 1.05))) : niceMax(peak * 1.05),
          ticks: {
            color: theme.muted,
            callback: (value) => (metric === 'errors' ? `${value}%` : String(value)),
          },
          grid: { color: theme.grid },
        },
      },
    };
    return { data: chartData, options: chartOptions };
  }, [metric, base, candidate, baseLabel, candidateLabel, theme, t, locale]);

  const title =
    metric === 'p95'
      ? t('history.compare.chartP95')
      : metric === 'rps'
        ? t('history.compare.chartRps')
        : t('history.compare.chartErrors');
  return (
    <ChartCard
      title={title}
      description={t('history.compare.chartText')}
      points={base.length + candidate.length}
      emptyText={t('results.charts.noData')}
      label={title}
      data-testid={`compare-chart-${metric}`}
    >
      <Line data={data} options={options} />
    </ChartCard>
  );
}
