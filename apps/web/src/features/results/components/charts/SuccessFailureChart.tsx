import type { ChartData, ChartOptions } from 'chart.js';
import { Doughnut } from 'react-chartjs-2';
import { useI18n } from '@/i18n';
import { formatCount, formatPercent, isNumber } from '../../model/format';
import { ChartCard } from './ChartCard';
import { useChartTheme } from './chart-setup';

export interface SuccessFailureChartProps {
  successful: number | null | undefined;
  failed: number | null | undefined;
  className?: string;
}

/** Success vs Failure (docs/reference/02-running.md §2): a doughnut of the run's successful and failed requests. */
export function SuccessFailureChart({ successful, failed, className }: SuccessFailureChartProps) {
  const { t, locale } = useI18n();
  const theme = useChartTheme();
  const ok = isNumber(successful) ? successful : 0;
  const bad = isNumber(failed) ? failed : 0;
  const total = ok + bad;

  const data: ChartData<'doughnut', number[], string> = {
    labels: [t('results.charts.successful'), t('results.charts.failed')],
    datasets: [
      {
        data: [ok, bad],
        backgroundColor: [theme.success, theme.failure],
        borderColor: theme.card,
        borderWidth: 2,
        hoverOffset: 4,
      },
    ],
  };
  const options: ChartOptions<'doughnut'> = {
    responsive: true,
    maintainAspectRatio: false,
    cutout: '62%',
    plugins: {
      legend: { position: 'bottom', labels: { color: theme.text, usePointStyle: true, padding: 16 } },
      tooltip: {
        callbacks: {
          label: (item) => {
            const value = typeof item.raw === 'number' ? item.raw : 0;
            return `${item.label}: ${formatCount(value, locale)} (${formatPercent(total > 0 ? (value / total) * 100 : 0, locale)})`;
          },
        },
      },
    },
  };

  return (
    <ChartCard
      title={t('results.charts.successFailure')}
      description={t('results.charts.successFailureText')}
      points={total > 0 ? 2 : 0}
      emptyText={t('results.charts.noData')}
      label={t('results.charts.successFailureLabel')}
      className={className}
      data-testid="chart-success-failure"
      footer={
        total > 0 && (
          <dl className="mt-3 grid grid-cols-2 gap-2 text-center text-sm">
            <div>
              <dt className="text-muted-foreground">{t('results.charts.successful')}</dt>
              <dd className="num font-semibold text-success-text">{formatCount(ok, locale)}</dd>
            </div>
            <div>
              <dt className="text-muted-foreground">{t('results.charts.failed')}</dt>
              <dd className="num font-semibold text-destructive-text">{formatCount(bad, locale)}</dd>
            </div>
          </dl>
        )
      }
    >
      <Doughnut data={data} options={options} />
    </ChartCard>
  );
}
