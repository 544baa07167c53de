import { Activity, Gauge, Timer, TriangleExclamationPoint } from 'lucide-react';
import { useI18n } from '@/i18n';
import { formatCount, formatMs, formatPercent, formatRps } from '../model/format';
import type { ResultSummary as TestSummary } from '@aqa/plan';
import { IterationTiles } from './IterationTiles';
import { errorRateTone, MetricTile } from './MetricTile';

/**
 * The result tiles (docs/reference/02-running.md §2 "Result charts"): Total Requests, Requests/sec, Avg Response Time, Error Rate,
 * then the run's iterations and flows when it counted them (IterationTiles).
 */
export function SummaryTiles({ summary }: { summary: TestSummary }) {
  const { t, locale } = useI18n();
  const hint = t('results.tile.overRun');
  return (
    <div className="space-y-3">
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4" data-testid="summary-tiles">
        <MetricTile
          icon={Activity}
          label={t('results.tile.totalRequests')}
          value={formatCount(summary.total_requests, locale)}
          hint={hint}
          data-testid="summary-total-requests"
        />
        <MetricTile
          icon={Gauge}
          tone="info"
          label={t('results.tile.requestsPerSecond')}
          value={formatRps(summary.requests_per_second, locale)}
          hint={hint}
          data-testid="summary-rps"
        />
        <MetricTile
          icon={Timer}
          label={t('results.tile.avgResponseTime')}
          value={formatMs(summary.average_response_time, locale)}
          hint={hint}
          data-testid="summary-avg"
        />
        <MetricTile
          icon={TriangleExclamationPoint}
          tone={errorRateTone(summary.error_rate)}
          label={t('results.tile.errorRate')}
          value={formatPercent(summary.error_rate, locale)}
          hint={hint}
          data-testid="summary-error-rate"
        />
      </div>
      <IterationTiles counts={summary} hint={hint} />
    </div>
  );
}
