import { flowShares, iterationFigures, type FlowIterations } from '@aqa/plan';
import { Ban, Hourglass, Repeat, Split } from 'lucide-react';
import { useI18n } from '@/i18n';
import { formatCount, formatMs, formatNumber, formatPercent } from '../model/format';
import { MetricTile } from './MetricTile';

export interface IterationCounts {
  /** Open-model load profile only: iterations started and dropped (0 included). */
  iterations_started?: number | null;
  iterations_dropped?: number | null;
  /** Plans with flows only: each flow's iterations, in the plan's order. */
  flows?: readonly FlowIterations[] | null;
  /**
   * Open-model load profile, built-in engine: how late the started iterations began after they were due
   * (ms) — over the run (stored), or in the last second (live).
   */
  schedule_lag?: { p95: number; p99: number } | null;
}

/**
 * The iteration tiles of the live and the result screens (docs/adr/0027-load-profiles.md "8. Live and
 * stored results"): the iterations started; for an arrival-rate run the dropped ones with their percent
 * of the iterations due — shown even when 0, never hidden — and beside them the schedule lag's p99 (how late
 * the started ones began, ADR 0027 "2. The schedule"); and one tile per flow with its iterations and share. Measured counts only: a run that counted no iteration (closed model without flows) shows none.
 */
export function IterationTiles({
  counts,
  hint,
  lagHint = hint,
}: {
  counts: IterationCounts | null | undefined;
  hint?: string;
  /** What the schedule lag covers (the last second live, the run once stored); the other tiles' hint by default. */
  lagHint?: string;
}) {
  const { t, locale } = useI18n();
  const figures = iterationFigures(counts);
  if (figures === null) return null;
  const flows = flowShares(counts?.flows);
  return (
    <div className="grid grid-cols-2 gap-3 lg:grid-cols-4" data-testid="iteration-tiles">
      <MetricTile
        icon={Repeat}
        tone="neutral"
        label={t('results.tile.iterations')}
        value={formatCount(figures.started, locale)}
        hint={hint}
        data-testid="tile-iterations"
      />
      {figures.dropped !== null && (
        <MetricTile
          icon={Ban}
          tone={figures.dropped > 0 ? 'warning' : 'neutral'}
          label={t('results.tile.droppedIterations')}
          value={formatCount(figures.dropped, locale)}
          hint={
            figures.droppedPercent === null
              ? t('results.tile.droppedNoneDue')
              : t('results.tile.droppedShare', { percent: formatPercent(figures.droppedPercent, locale) })
          }
          data-testid="tile-dropped-iterations"
        />
      )}
      {figures.dropped !== null && counts?.schedule_lag && (
        <MetricTile
          icon={Hourglass}
          tone="neutral"
          label={t('results.tile.scheduleLag')}
          value={formatMs(counts.schedule_lag.p99, locale)}
          hint={t('results.tile.scheduleLagHint', {
            p95: formatMs(counts.schedule_lag.p95, locale),
            when: lagHint ?? '',
          })}
          data-testid="tile-schedule-lag"
        />
      )}
      {flows.map((flow, index) => (
        <MetricTile
          key={`${index}-${flow.name}`}
          icon={Split}
          tone="info"
          label={t('results.tile.flow', { name: flow.name })}
          value={formatCount(flow.iterations, locale)}
          hint={t('flows.share', { share: formatNumber(flow.share, locale, 1, 1) })}
          data-testid={`tile-flow-${index}`}
        />
      ))}
    </div>
  );
}
