import type { ChartData, ChartOptions } from 'chart.js';
import { useMemo } from 'react';
import { Bar } from 'react-chartjs-2';
import { useI18n } from '@/i18n';
import { distributionRows, formatCount, formatPercent } from '../../model/format';
import type { DistributionBucket } from '../../model/types';
import { ChartCard } from './ChartCard';
import { alpha, useChartTheme } from './chart-setup';

export interface ResponseTimeDistributionChartProps {
  /** The run's histogram counts per range (0-100ms ... 500ms+), as the server counted them. */
  distribution: readonly DistributionBucket[];
  className?: string;
}

/** Response Time Distribution (spec 02 §2): how many requests fell in each response-time range. */
export function ResponseTimeDistributionChart({
  distribution,
  className,
}: ResponseTimeDistributionChartProps) {
  const { t, locale } = useI18n();
  const theme = useChartTheme();
  const rows = useMemo(() => distributionRows(distribution), [distribution]);
  const counted = rows.reduce((sum, row) => sum + row.count, 0);

  const data: ChartData<'bar', number[], string> = {
    labels: rows.map((row) => row.label),
    datasets: [
      {
        label: t('results.charts.requests'),
        data: rows.map((row) => row.count),
        backgroundColor: alpha(theme.avg, 0.75),
        hoverBackgroundColor: theme.avg,
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
      tooltip: {
        callbacks: {
          label: (item) => {
            const row = rows[item.dataIndex];
            return row
              ? [
                  `${t('results.charts.requests')}: ${formatCount(row.count, locale)}`,
                  t('results.charts.share', { share: formatPercent(row.share, locale) }),
                ]
              : '';
          },
        },
      },
    },
    scales: {
      x: { ticks: { color: theme.muted }, grid: { display: false } },
      y: {
        beginAtZero: true,
        ticks: { color: theme.muted, precision: 0 },
        grid: { color: theme.grid },
        title: { display: true, text: t('results.charts.requests'), color: theme.muted },
      },
    },
  };

  return (
    <ChartCard
      title={t('results.charts.distribution')}
      description={t('results.charts.distributionText')}
      points={counted > 0 ? rows.length : 0}
      emptyText={t('results.charts.noData')}
      label={t('results.charts.distributionLabel')}
      className={className}
      data-testid="chart-distribution"
    >
      <Bar data={data} options={options} />
    </ChartCard>
  );
}
