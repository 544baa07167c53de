import type { ChartData, ChartOptions } from 'chart.js';
import { Bar } from 'react-chartjs-2';
import { useI18n } from '@/i18n';
import type { MessageKey } from '@/i18n/en';
import { formatMs, isNumber } from '../../model/format';
import type { ResultSummary as TestSummary } from '@aqa/plan';
import { ChartCard } from './ChartCard';
import { alpha, useChartTheme } from './chart-setup';

export interface PerformanceMetricsChartProps {
  summary: TestSummary;
  className?: string;
}

// Typed by its own keys: the summary's optional figures (an open-model profile's iterations) are not times.
const METRICS = [
  { key: 'average_response_time', label: 'results.charts.metricAvg' },
  { key: 'percentile_95', label: 'results.charts.metricP95' },
  { key: 'percentile_99', label: 'results.charts.metricP99' },
  { key: 'min_response_time', label: 'results.charts.metricMin' },
  { key: 'max_response_time', label: 'results.charts.metricMax' },
] as const satisfies readonly { key: keyof TestSummary; label: MessageKey }[];

/**
 * Performance Metrics (docs/reference/02-running.md §2): average, 95th, 99th, min and max response time, each as the summary
 * measured it. A figure the server did not send has no bar (nothing is derived from the others).
 */
export function PerformanceMetricsChart({ summary, className }: PerformanceMetricsChartProps) {
  const { t, locale } = useI18n();
  const theme = useChartTheme();
  const present = METRICS.filter((metric) => isNumber(summary[metric.key]));
  const colors = [theme.avg, theme.p95, theme.p95, theme.success, theme.errors];

  const data: ChartData<'bar', number[], string> = {
    labels: present.map((metric) => t(metric.label)),
    datasets: [
      {
        label: t('results.timeline.axisMs'),
        data: present.map((metric) => summary[metric.key]),
        backgroundColor: present.map((metric) => alpha(colors[METRICS.indexOf(metric)] ?? theme.avg, 0.75)),
        borderRadius: 4,
        maxBarThickness: 56,
      },
    ],
  };
  const options: ChartOptions<'bar'> = {
    responsive: true,
    maintainAspectRatio: false,
    plugins: {
      legend: { display: false },
      tooltip: { callbacks: { label: (item) => formatMs(item.raw, locale) } },
    },
    scales: {
      x: { ticks: { color: theme.muted }, grid: { display: false } },
      y: {
        beginAtZero: true,
        ticks: { color: theme.muted },
        grid: { color: theme.grid },
        title: { display: true, text: t('results.timeline.axisMs'), color: theme.muted },
      },
    },
  };

  return (
    <ChartCard
      title={t('results.charts.metrics')}
      description={t('results.charts.metricsText')}
      points={present.length}
      emptyText={t('results.charts.noData')}
      label={t('results.charts.metricsLabel')}
      className={className}
      data-testid="chart-metrics"
    >
      <Bar data={data} options={options} />
    </ChartCard>
  );
}
