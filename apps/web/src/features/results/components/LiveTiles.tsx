import { Gauge, Timer, TriangleExclamationPoint, Users } from 'lucide-react';
import { useI18n } from '@/i18n';
import { formatCount, formatMs, formatPercent, formatRps, isNumber } from '../model/format';
import type { LiveSnapshot, ResultSummary as TestSummary } from '@aqa/plan';
import type { SeriesPoint } from '../model/views';
import { IterationTiles } from './IterationTiles';
import { errorRateTone, MetricTile } from './MetricTile';

/** Seconds of history drawn under each live tile. */
const TREND_SECONDS = 60;

export interface LiveTilesProps {
  /** The last second the stream measured. */
  snapshot: LiveSnapshot | null;
  /** The server's figures so far (polling without the stream). */
  summary: TestSummary | null | undefined;
  /** The seconds measured so far, for the small trend lines. */
  series: readonly SeriesPoint[];
}

/**
 * The four live tiles of a running test (docs/reference/02-running.md §2): Active Users, Requests/sec, Avg Response Time and
 * Error Rate — the last second from the stream, or the server's figures so far when polling — and, for a
 * run that counts them, the iterations so far (IterationTiles).
 */
export function LiveTiles({ snapshot, summary, series }: LiveTilesProps) {
  const { t, locale } = useI18n();
  const recent = series.slice(-TREND_SECONDS);
  const fromStream = snapshot !== null;
  const hint = fromStream ? t('results.tile.lastSecond') : summary ? t('results.tile.soFar') : undefined;
  const users = snapshot?.active_users ?? summary?.concurrent_users;
  const rps = snapshot?.requests_per_second ?? summary?.requests_per_second;
  const avg = snapshot
    ? snapshot.requests_per_second > 0
      ? snapshot.latency.avg
      : null
    : summary?.average_response_time;
  const errorRate = snapshot?.error_rate ?? summary?.error_rate;

  return (
    <div className="space-y-2">
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4" data-testid="live-tiles">
        <MetricTile
          icon={Users}
          tone="neutral"
          label={t('results.tile.activeUsers')}
          value={formatCount(users, locale)}
          hint={hint}
          trend={fromStream ? recent.map((point) => point.active_users) : undefined}
          data-testid="tile-active-users"
        />
        <MetricTile
          icon={Gauge}
          tone="info"
          label={t('results.tile.requestsPerSecond')}
          value={formatRps(rps, locale)}
          hint={hint}
          trend={fromStream ? recent.map((point) => point.requests_per_second) : undefined}
          data-testid="tile-rps"
        />
        <MetricTile
          icon={Timer}
          label={t('results.tile.avgResponseTime')}
          value={formatMs(avg, locale)}
          hint={hint}
          trend={
            fromStream ? recent.map((point) => (point.requests_per_second > 0 ? point.avg : null)) : undefined
          }
          data-testid="tile-avg"
        />
        <MetricTile
          icon={TriangleExclamationPoint}
          tone={errorRateTone(errorRate)}
          label={t('results.tile.errorRate')}
          value={formatPercent(errorRate, locale)}
          hint={hint}
          trend={fromStream ? recent.map((point) => point.error_rate) : undefined}
          data-testid="tile-error-rate"
        />
      </div>
      {snapshot && isNumber(snapshot.totals?.requests) && (
        <p className="num text-[13px] text-muted-foreground" data-testid="live-totals">
          {t('results.liveTotals', {
            requests: formatCount(snapshot.totals.requests, locale),
            failures: formatCount(snapshot.totals.failures, locale),
          })}
        </p>
      )}
      {/* Iterations so far: the stream's totals, or the server's figures when polling. */}
      <IterationTiles
        counts={
          snapshot
            ? {
                iterations_started: snapshot.totals?.iterations,
                iterations_dropped: snapshot.totals?.dropped_iterations,
                flows: snapshot.totals?.flows,
                schedule_lag: snapshot.schedule_lag,
              }
            : summary
        }
        hint={t('results.tile.soFar')}
        lagHint={snapshot ? t('results.tile.lastSecond') : undefined}
      />
    </div>
  );
}
