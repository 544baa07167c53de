import type { FunctionalResult } from '@aqa/plan';
import type { ChartData, ChartOptions } from 'chart.js';
import { useMemo } from 'react';
import { Line } from 'react-chartjs-2';
import { formatMs } from '@/features/results';
import { areaDataset, ChartCard, useChartTheme } from '@/features/results/charts';
import { useI18n } from '@/i18n';

/**
 * The timeline of a functional run whose test type is not `functional` (docs/reference/02-running.md §2):
 * the measured response time at each point the runner recorded, over seconds since the start. Loaded on
 * its own, since it brings Chart.js.
 */
export default function FunctionalTimelineChart({ points }: { points: FunctionalResult['timeline_data'] }) {
  const { t, locale } = useI18n();
  const theme = useChartTheme();
  const { data, options } = useMemo(() => {
    const label = t('functional.result.timelineSeries');
    const data: ChartData<'line', { x: number; y: number }[]> = {
      datasets: [
        areaDataset(
          label,
          points.map((point) => ({ x: point.time, y: point.response_time })),
          theme.avg,
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
        tooltip: { callbacks: { label: (item) => `${label}: ${formatMs(item.parsed.y, locale)}` } },
      },
      scales: {
        x: {
          type: 'linear',
          min: 0,
          ticks: { color: theme.muted, maxTicksLimit: 8 },
          grid: { color: theme.grid },
          title: { display: true, text: t('functional.result.timelineAxisTime'), color: theme.muted },
        },
        y: {
          min: 0,
          ticks: { color: theme.muted },
          grid: { color: theme.grid },
          title: { display: true, text: t('functional.result.timelineAxisMs'), color: theme.muted },
        },
      },
    };
    return { data, options };
  }, [points, theme, t, locale]);

  return (
    <ChartCard
      title={t('functional.result.timelineTitle')}
      points={points.length}
      emptyText={t('functional.result.timelineEmpty')}
      label={t('functional.result.timelineLabel')}
      bodyClassName="h-64"
      data-testid="functional-timeline"
    >
      <Line data={data} options={options} />
    </ChartCard>
  );
}
