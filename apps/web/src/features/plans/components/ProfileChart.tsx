import type { LoadModel } from '@aqa/plan';
import type { ChartData, ChartOptions } from 'chart.js';
import { useMemo } from 'react';
import { Line } from 'react-chartjs-2';
import { areaDataset, ChartCard, useChartTheme } from '@/features/results/charts';
import { useI18n } from '@/i18n';

/**
 * The planned load of a load profile before anything runs (docs/adr/0027-load-profiles.md "6. Presets"): users or
 * iterations per second over seconds from the start, the straight lines between the stages' corners.
 * Loaded on its own, since it brings Chart.js.
 */
export default function ProfileChart({
  points,
  model,
}: {
  /** From `profileChartPoints`; empty while the profile has a problem. */
  points: readonly { x: number; y: number }[];
  model: LoadModel;
}) {
  const { t, locale } = useI18n();
  const theme = useChartTheme();
  const { data, options } = useMemo(() => {
    const label = model === 'users' ? t('loadProfile.axisUsers') : t('loadProfile.axisRate');
    const data: ChartData<'line', { x: number; y: number }[]> = {
      // Straight lines: the load moves linearly within a stage (packages/plan/src/load-profile.ts targetAt).
      datasets: [{ ...areaDataset(label, [...points], theme.avg), tension: 0, pointRadius: 3 }],
    };
    const format = (value: number) => value.toLocaleString(locale);
    const options: ChartOptions<'line'> = {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      plugins: {
        legend: { display: false },
        tooltip: { callbacks: { label: (item) => `${label}: ${format(item.parsed.y ?? 0)}` } },
      },
      scales: {
        x: {
          type: 'linear',
          min: 0,
          ticks: { color: theme.muted, maxTicksLimit: 8 },
          grid: { color: theme.grid },
          title: { display: true, text: t('loadProfile.axisTime'), color: theme.muted },
        },
        y: {
          min: 0,
          ticks: { color: theme.muted, ...(model === 'users' ? { precision: 0 } : {}) },
          grid: { color: theme.grid },
          title: { display: true, text: label, color: theme.muted },
        },
      },
    };
    return { data, options };
  }, [points, model, theme, t, locale]);

  return (
    <ChartCard
      title={t('loadProfile.chartTitle')}
      description={t('loadProfile.chartText')}
      points={points.length}
      emptyText={t('loadProfile.chartEmpty')}
      label={t('loadProfile.chartLabel')}
      bodyClassName="h-56"
      data-testid="profile-chart"
    >
      <Line data={data} options={options} />
    </ChartCard>
  );
}
