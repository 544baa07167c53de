import type { ChartData, ChartOptions } from 'chart.js';
import { Bar } from 'react-chartjs-2';
import { useI18n } from '@/i18n';
import { apiChartName, comparisonLabels } from '../../model/chart-labels';
import { formatMs, formatPercent, isNumber } from '../../model/format';
import type { ApiRow as ApiResult } from '../../model/views';
import { ChartCard } from './ChartCard';
import { alpha, useChartTheme } from './chart-setup';
import { apiDisplayName } from './api-names';

export interface ApiComparisonChartProps {
  apiResults: readonly ApiResult[];
  className?: string;
}

/**
 * API Performance Comparison (docs/reference/02-running.md §2): average response time (ms, left axis) and error rate (right
 * axis, 0–100 %) per API. An API is labelled by its name, else by method and path; labels are cut to
 * 15 characters plus … unless they start with API_ or the cut would make two of them alike.
 */
export function ApiComparisonChart({ apiResults, className }: ApiComparisonChartProps) {
  const { t, locale } = useI18n();
  const theme = useChartTheme();
  // Tooltips give the whole name ("GET http://host/users"); the axis its name or method and path.
  const names = apiResults.map((api, index) => apiDisplayName(api, index, t));
  const axisNames = apiResults.map((api, index) => apiChartName(api) ?? names[index]!);

  const data: ChartData<'bar', (number | null)[], string | string[]> = {
    labels: comparisonLabels(axisNames),
    datasets: [
      {
        label: t('results.charts.apiAvg'),
        data: apiResults.map((api) =>
          isNumber(api.average_response_time) ? api.average_response_time : null,
        ),
        backgroundColor: alpha(theme.avg, 0.75),
        borderRadius: 4,
        maxBarThickness: 40,
        yAxisID: 'yMs',
      },
      {
        label: t('results.charts.apiErrors'),
        data: apiResults.map((api) => (isNumber(api.error_rate) ? api.error_rate : null)),
        backgroundColor: alpha(theme.errors, 0.7),
        borderRadius: 4,
        maxBarThickness: 40,
        yAxisID: 'yErr',
      },
    ],
  };
  const options: ChartOptions<'bar'> = {
    responsive: true,
    maintainAspectRatio: false,
    interaction: { mode: 'index', intersect: false },
    plugins: {
      legend: { position: 'bottom', labels: { color: theme.text, usePointStyle: true, padding: 16 } },
      tooltip: {
        callbacks: {
          title: (items) => names[items[0]?.dataIndex ?? 0] ?? '',
          label: (item) =>
            `${item.dataset.label ?? ''}: ${
              item.dataset.yAxisID === 'yErr' ? formatPercent(item.raw, locale) : formatMs(item.raw, locale)
            }`,
        },
      },
    },
    scales: {
      x: { ticks: { color: theme.muted, maxRotation: 45, autoSkip: false }, grid: { display: false } },
      yMs: {
        type: 'linear',
        position: 'left',
        beginAtZero: true,
        ticks: { color: theme.muted },
        grid: { color: theme.grid },
        title: { display: true, text: t('results.charts.apiAvg'), color: theme.muted },
      },
      yErr: {
        type: 'linear',
        position: 'right',
        min: 0,
        max: 100,
        ticks: { color: theme.errors, callback: (value) => `${value}%` },
        grid: { drawOnChartArea: false },
        title: { display: true, text: t('results.charts.apiErrors'), color: theme.muted },
      },
    },
  };

  return (
    <ChartCard
      title={t('results.charts.apiComparison')}
      description={t('results.charts.apiComparisonText')}
      points={apiResults.length}
      emptyText={t('results.charts.noData')}
      label={t('results.charts.apiComparisonLabel')}
      className={className}
      bodyClassName="h-72"
      data-testid="chart-api-comparison"
    >
      <Bar data={data} options={options} />
    </ChartCard>
  );
}
