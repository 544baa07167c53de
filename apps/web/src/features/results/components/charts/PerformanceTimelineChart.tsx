import type { LoadProfile } from '@aqa/plan';
import type { ChartData, ChartDataset, ChartOptions, TooltipItem } from 'chart.js';
import { useMemo } from 'react';
import { Line } from 'react-chartjs-2';
import { useI18n } from '@/i18n';
import { formatIterationRate, formatMs, formatNumber, formatPercent, formatRps } from '../../model/format';
import {
  errorAxis,
  flowIterationsAt,
  flowNames,
  hasIterations,
  hasTraffic,
  plannedLine,
} from '../../model/timeline';
import type { SeriesPoint } from '../../model/views';
import { alpha, niceMax, useBreakpoint, useChartTheme } from './chart-setup';

type Point = { x: number; y: number | null };

export interface PerformanceTimelineChartProps {
  /** The measured per-second series (chart data, or stream snapshots while running). */
  series: readonly SeriesPoint[];
  /** The configured duration, seconds: the time axis spans at least this (docs/reference/02-running.md §9). */
  durationSeconds?: number | null;
  /** The load profile the run followed: its planned line is drawn over the measured users or iterations. */
  profile?: LoadProfile | null;
}

/**
 * The Performance Timeline's line chart (docs/reference/02-running.md §2): average response time (solid) and 95th percentile
 * (dashed) on two response-time axes of the same scale, requests per second, error rate (0–10 %, wider
 * only when a measured rate exceeds it) and active users, each on its own axis. Seconds without a
 * completed request are gaps, not 0 ms. Fills its parent's height.
 */
export function PerformanceTimelineChart({
  series,
  durationSeconds,
  profile,
}: PerformanceTimelineChartProps) {
  const { t, locale } = useI18n();
  const theme = useChartTheme();
  const breakpoint = useBreakpoint();

  const { data, options } = useMemo(() => {
    const latency = (pick: (point: SeriesPoint) => number): Point[] =>
      series.map((point) => ({ x: point.second, y: hasTraffic(point) ? pick(point) : null }));
    const peakLatency = series.reduce(
      (max, point) => (hasTraffic(point) ? Math.max(max, point.avg, point.p95) : max),
      0,
    );
    const latencyMax = niceMax(peakLatency * 1.05);
    const errors = errorAxis(series);
    const lastSecond = series.length > 0 ? (series[series.length - 1]?.second ?? 0) : 0;
    const planned = plannedLine(profile);
    const plannedEnd = planned.length > 0 ? (planned[planned.length - 1]?.x ?? 0) : 0;
    const xMax = Math.ceil(Math.max(lastSecond, durationSeconds ?? 0, plannedEnd, 1));
    // docs/adr/0027-load-profiles.md, "8. Live and stored results": the plan against the truth. Users are
    // planned in users (the users axis); an arrival rate in iterations per second, beside the measured
    // iterations per second on their own axis (requests per second are iterations × calls).
    const rateModel = profile?.model === 'arrival_rate';
    // Plans with flows: each flow's iterations per second beside the run's (docs/adr/0027-load-profiles.md "Flows").
    const flows = flowNames(series);
    const countsIterations = rateModel || hasIterations(series);
    const showIterations = countsIterations || flows.length > 0;
    // A planned line is dashed in the colour of what it is measured against.
    const iterationColor = theme.iterations;
    const plannedColor = rateModel ? iterationColor : theme.users;
    // Narrow screens keep the response-time and throughput axes; the legend and tooltips carry the rest.
    const showSide = breakpoint !== 'narrow';
    const showUsers = breakpoint === 'wide';

    const chartData: ChartData<'line', Point[]> = {
      datasets: [
        {
          label: t('results.timeline.seriesAvg'),
          data: latency((point) => point.avg),
          yAxisID: 'yAvg',
          borderColor: theme.avg,
          backgroundColor: alpha(theme.avg, 0.12),
          borderWidth: 2,
        },
        {
          label: t('results.timeline.seriesP95'),
          data: latency((point) => point.p95),
          yAxisID: 'yP95',
          borderColor: theme.p95,
          backgroundColor: alpha(theme.p95, 0.12),
          borderDash: [6, 4],
          borderWidth: 2,
        },
        {
          label: t('results.timeline.seriesRps'),
          data: series.map((point) => ({ x: point.second, y: point.requests_per_second })),
          yAxisID: 'yRps',
          borderColor: theme.rps,
          backgroundColor: alpha(theme.rps, 0.12),
          borderWidth: 1.5,
        },
        {
          label: t('results.timeline.seriesErrors'),
          data: series.map((point) => ({ x: point.second, y: point.error_rate })),
          yAxisID: 'yErr',
          borderColor: theme.errors,
          backgroundColor: alpha(theme.errors, 0.12),
          borderWidth: 1.5,
        },
        {
          label: t('results.timeline.seriesUsers'),
          data: series.map((point) => ({ x: point.second, y: point.active_users })),
          yAxisID: 'yUsers',
          borderColor: theme.users,
          backgroundColor: alpha(theme.users, 0.12),
          borderWidth: 1.5,
          stepped: true,
        },
        ...(countsIterations
          ? [
              {
                label: t('loadProfile.seriesIterations'),
                data: series.map((point) => ({ x: point.second, y: point.iterations ?? null })),
                yAxisID: 'yIter',
                borderColor: iterationColor,
                backgroundColor: alpha(iterationColor, 0.12),
                borderWidth: 1.5,
              } satisfies ChartDataset<'line', Point[]>,
            ]
          : []),
        ...flows.map((name, index): ChartDataset<'line', Point[]> => {
          const color = theme.flows[index % theme.flows.length] ?? iterationColor;
          return {
            label: t('loadProfile.seriesFlow', { name }),
            data: series.map((point) => ({ x: point.second, y: flowIterationsAt(point, name) })),
            yAxisID: 'yIter',
            borderColor: color,
            backgroundColor: alpha(color, 0.12),
            borderWidth: 1.5,
          };
        }),
        ...(planned.length > 0
          ? [
              {
                label: rateModel ? t('loadProfile.seriesPlannedRate') : t('loadProfile.seriesPlannedUsers'),
                data: planned,
                yAxisID: rateModel ? 'yIter' : 'yUsers',
                borderColor: plannedColor,
                backgroundColor: alpha(plannedColor, 0.12),
                borderDash: [4, 4],
                borderWidth: 2,
                // The plan is straight between its corners (packages/plan/src/load-profile.ts targetAt).
                tension: 0,
                pointRadius: 0,
              } satisfies ChartDataset<'line', Point[]>,
            ]
          : []),
      ],
    };

    const tick = { color: theme.muted, font: { size: 11 } };
    const grid = { color: theme.grid };
    const title = (text: string, display: boolean) => ({
      display,
      text,
      color: theme.muted,
      font: { size: 11 },
    });

    const chartOptions: ChartOptions<'line'> = {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      normalized: true,
      spanGaps: false,
      interaction: { mode: 'index', intersect: false, axis: 'x' },
      elements: { point: { radius: series.length > 60 ? 0 : 2, hoverRadius: 4 }, line: { tension: 0.2 } },
      plugins: {
        legend: {
          position: 'bottom',
          labels: { color: theme.text, boxWidth: 24, boxHeight: 0, padding: 14 },
        },
        tooltip: {
          callbacks: {
            title: (items) => t('results.timeline.atSecond', { second: String(items[0]?.parsed.x ?? '') }),
            label: (item: TooltipItem<'line'>) => {
              const value = item.parsed.y;
              const label = item.dataset.label ?? '';
              switch (item.dataset.yAxisID) {
                case 'yIter':
                  return `${label}: ${formatIterationRate(value, locale)}`;
                case 'yAvg':
                case 'yP95':
                  return `${label}: ${formatMs(value, locale)}`;
                case 'yRps':
                  return `${label}: ${formatRps(value, locale)}`;
                case 'yErr':
                  return `${label}: ${formatPercent(value, locale)}`;
                default:
                  return `${label}: ${formatNumber(value, locale, 0)}`;
              }
            },
          },
        },
      },
      scales: {
        x: {
          type: 'linear',
          min: 0,
          max: xMax,
          ticks: { ...tick, maxTicksLimit: breakpoint === 'narrow' ? 6 : 12, precision: 0 },
          grid,
          title: title(t('results.timeline.axisTime'), true),
        },
        yAvg: {
          type: 'linear',
          position: 'left',
          min: 0,
          max: latencyMax,
          ticks: tick,
          grid,
          title: title(t('results.timeline.axisMs'), true),
        },
        // Same scale as yAvg, so the dashed 95th line is never drawn below the average.
        yP95: { type: 'linear', display: false, min: 0, max: latencyMax },
        yRps: {
          type: 'linear',
          position: 'right',
          min: 0,
          grace: '10%',
          ticks: { ...tick, color: theme.rps },
          grid: { drawOnChartArea: false },
          title: title(t('results.timeline.axisRps'), true),
        },
        yErr: {
          type: 'linear',
          position: 'right',
          min: 0,
          max: errors.max,
          display: showSide,
          ticks: { ...tick, color: theme.errors, callback: (value) => `${value}%` },
          grid: { drawOnChartArea: false },
          title: title(t('results.timeline.axisErrors'), showSide),
        },
        yUsers: {
          type: 'linear',
          position: 'right',
          min: 0,
          grace: '10%',
          display: showUsers,
          ticks: { ...tick, color: theme.users, precision: 0 },
          grid: { drawOnChartArea: false },
          title: title(t('results.timeline.axisUsers'), showUsers),
        },
        ...(showIterations
          ? {
              yIter: {
                type: 'linear' as const,
                position: 'right' as const,
                min: 0,
                grace: '10%',
                display: showUsers,
                ticks: { ...tick, color: iterationColor },
                grid: { drawOnChartArea: false },
                title: title(t('loadProfile.axisIterations'), showUsers),
              },
            }
          : {}),
      },
    };
    return { data: chartData, options: chartOptions };
  }, [series, durationSeconds, profile, breakpoint, theme, t, locale]);

  return <Line data={data} options={options} />;
}
