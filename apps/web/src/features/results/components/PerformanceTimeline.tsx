import { formatSpan, type LoadProfile, profileLengthMs } from '@aqa/plan';
import { TriangleExclamationPoint } from 'lucide-react';
import { useMemo } from 'react';
import { Card, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { useI18n } from '@/i18n';
import type { MessageKey } from '@/i18n/en';
import { formatMs, formatPercent, isNumber } from '../model/format';
import { errorAxis, timelineStats } from '../model/timeline';
import type { SeriesPoint } from '../model/views';
import { PerformanceTimelineChart } from './charts/PerformanceTimelineChart';
import { timeAxisSeconds } from '../model/time-axis';

export interface PerformanceTimelineProps {
  /** The measured per-second series of the run (or of the seconds measured so far, while it runs). */
  series: readonly SeriesPoint[];
  /** The configured duration in seconds: the time axis spans at least this, unless `status` says the run ended early. */
  durationSeconds?: number | null;
  /** The run's status: a stopped or failed run's time axis ends at its last measured second. */
  status?: string | null;
  /** The run's own average response time (summary); else the series' request-weighted mean. */
  averageResponseTime?: number | null;
  /** The load profile the run followed (docs/adr/0027-load-profiles.md): drawn as the planned line. */
  profile?: LoadProfile | null;
  /** Live: the subtitle says so. */
  live?: boolean;
  className?: string;
}

function StatTile({
  label,
  value,
  hint,
  testId,
}: {
  label: string;
  value: string;
  hint: string;
  testId: string;
}) {
  return (
    <div className="min-w-0 rounded-lg border border-border bg-muted/40 px-3 py-2.5" data-testid={testId}>
      <p className="truncate text-xs font-medium text-muted-foreground">{label}</p>
      <p className="num mt-0.5 text-lg font-semibold tracking-tight">{value}</p>
      <p className="line-clamp-2 text-[11px] leading-4 text-muted-foreground">{hint}</p>
    </div>
  );
}

/**
 * The Performance Timeline card (docs/reference/02-running.md §2): four summary tiles (average response time, average 95th,
 * peak response time, peak 95th) over a five-series line chart, 400 / 500 / 600 px high on narrow
 * (< 768 px), medium (768–1023 px) and wide screens.
 */
export function PerformanceTimeline({
  series,
  durationSeconds,
  status,
  averageResponseTime,
  profile,
  live = false,
  className,
}: PerformanceTimelineProps) {
  const { t, locale } = useI18n();
  const stats = useMemo(() => timelineStats(series), [series]);
  const axis = useMemo(() => errorAxis(series), [series]);
  const peakError = useMemo(
    () => series.reduce((max, point) => Math.max(max, point.error_rate), 0),
    [series],
  );

  const tiles: { label: MessageKey; hint: MessageKey; value: number | null; id: string }[] = [
    {
      label: 'results.timeline.avgResponseTime',
      hint:
        isNumber(averageResponseTime) || stats.weighted
          ? 'results.timeline.avgHint'
          : 'results.timeline.avgHintSeconds',
      value: isNumber(averageResponseTime) ? averageResponseTime : stats.avgResponseTime,
      id: 'timeline-avg',
    },
    {
      label: 'results.timeline.avgP95',
      hint: 'results.timeline.avgP95Hint',
      value: stats.avgP95,
      id: 'timeline-avg-p95',
    },
    {
      label: 'results.timeline.peakResponseTime',
      hint: 'results.timeline.peakHint',
      value: stats.peakResponseTime,
      id: 'timeline-peak',
    },
    {
      label: 'results.timeline.peakP95',
      hint: 'results.timeline.peakP95Hint',
      value: stats.peakP95,
      id: 'timeline-peak-p95',
    },
  ];

  return (
    <Card className={className} data-testid="performance-timeline" data-points={series.length}>
      <CardHeader className="pb-4">
        <CardTitle as="h2">{t('results.timeline.title')}</CardTitle>
        <CardDescription>
          {t(live ? 'results.timeline.liveSubtitle' : 'results.timeline.subtitle')}
        </CardDescription>
      </CardHeader>
      <div className="space-y-4 px-4 pb-5 sm:px-6">
        <div className="grid grid-cols-2 gap-2 sm:gap-3 lg:grid-cols-4">
          {tiles.map((tile) => (
            <StatTile
              key={tile.id}
              testId={tile.id}
              label={t(tile.label)}
              hint={t(tile.hint)}
              value={formatMs(tile.value, locale)}
            />
          ))}
        </div>
        {axis.scaled && (
          <p
            className="flex items-start gap-2 rounded-lg bg-warning-soft px-3 py-2 text-[13px] text-warning-text"
            data-testid="timeline-error-axis-note"
          >
            <TriangleExclamationPoint aria-hidden className="mt-0.5 size-4 shrink-0" />
            {t('results.timeline.errorAxisScaled', {
              peak: formatPercent(peakError, locale),
              max: axis.max,
            })}
          </p>
        )}
        {series.length > 0 ? (
          <>
            <div
              role="img"
              aria-label={t('results.timeline.label')}
              className="relative h-[400px] w-full min-w-0 md:h-[500px] lg:h-[600px]"
              data-testid="timeline-chart"
            >
              <PerformanceTimelineChart
                series={series}
                durationSeconds={status ? timeAxisSeconds(status, series, durationSeconds) : durationSeconds}
                profile={profile}
              />
            </div>
            {profile && (
              <p className="text-[13px] text-muted-foreground" data-testid="timeline-planned-note">
                {t(
                  profile.model === 'users' ? 'loadProfile.plannedNoteUsers' : 'loadProfile.plannedNoteRate',
                  {
                    length: formatSpan(profileLengthMs(profile)),
                  },
                )}
              </p>
            )}
          </>
        ) : (
          <div className="flex h-40 items-center justify-center rounded-lg border border-dashed border-border text-sm text-muted-foreground">
            {t('results.timeline.empty')}
          </div>
        )}
      </div>
    </Card>
  );
}
