import type { ChartData, ChartOptions } from 'chart.js';
import { useMemo, useState } from 'react';
import { Bar } from 'react-chartjs-2';
import { useI18n } from '@/i18n';
import { cn } from '@/lib/utils';
import { distributionRows, formatCount, formatPercent } from '../../model/format';
import type { DistributionBin as DistributionBucket } from '@aqa/plan';
import { ChartCard } from './ChartCard';
import { alpha, useChartTheme } from './chart-setup';

export interface ResponseTimeDistributionChartProps {
  /** The run's histogram counts per range (0-100ms ... 500ms+), as the server counted them. */
  distribution: readonly DistributionBucket[];
  /** The same requests in bars fitted to the measured range (chart data's distribution_fitted). */
  fitted?: readonly DistributionBucket[] | null;
  className?: string;
}

export type DistributionMode = 'fixed' | 'fitted';

/**
 * Response Time Distribution (docs/reference/02-running.md §2): how many requests fell in each response-time range — in the
 * spec's fixed 100 ms bars, or, at the user's choice, in bars fitted to the measured range (where every
 * request of a fast API would otherwise fall in the first bar).
 */
export function ResponseTimeDistributionChart({
  distribution,
  fitted,
  className,
}: ResponseTimeDistributionChartProps) {
  const { t, locale } = useI18n();
  const theme = useChartTheme();
  const [mode, setMode] = useState<DistributionMode>('fixed');
  const canFit = (fitted?.length ?? 0) > 0;
  const shown = mode === 'fitted' && canFit ? fitted! : distribution;
  const rows = useMemo(() => distributionRows(shown), [shown]);
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
      description={t(
        mode === 'fitted' && canFit
          ? 'results.charts.distributionFittedText'
          : 'results.charts.distributionText',
      )}
      points={counted > 0 ? rows.length : 0}
      emptyText={t('results.charts.noData')}
      label={t('results.charts.distributionLabel')}
      className={className}
      data-testid="chart-distribution"
      footer={canFit && <DistributionModeToggle mode={mode} onChange={setMode} />}
    >
      <Bar data={data} options={options} />
    </ChartCard>
  );
}

function DistributionModeToggle({
  mode,
  onChange,
}: {
  mode: DistributionMode;
  onChange: (mode: DistributionMode) => void;
}) {
  const { t } = useI18n();
  const choices: { value: DistributionMode; label: string }[] = [
    { value: 'fixed', label: t('results.charts.distributionFixed') },
    { value: 'fitted', label: t('results.charts.distributionFitted') },
  ];
  return (
    <div
      role="group"
      aria-label={t('results.charts.distributionBars')}
      className="mt-3 flex flex-wrap gap-1.5"
      data-testid="distribution-mode"
      data-mode={mode}
    >
      {choices.map((choice) => (
        <button
          key={choice.value}
          type="button"
          onClick={() => onChange(choice.value)}
          aria-pressed={mode === choice.value}
          data-testid={`distribution-mode-${choice.value}`}
          className={cn(
            'rounded-md border px-2.5 py-1 text-xs font-medium transition-colors',
            mode === choice.value
              ? 'border-primary bg-primary text-primary-foreground'
              : 'border-border text-muted-foreground hover:bg-muted',
          )}
        >
          {choice.label}
        </button>
      ))}
    </div>
  );
}
