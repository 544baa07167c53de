import { TriangleAlert } from 'lucide-react';
import { formatCount } from '@/features/results';
import { useI18n } from '@/i18n';
import type { MessageKey } from '@/i18n/en';
import { isPartialRun } from '../../model/comparable';
import type { PastRun } from '../../queries/history-api';

/** How a partial run is named where it is picked: stopped early, failed part-way, or interrupted by a restart. */
export function partialRunKey(status: string): MessageKey {
  if (status === 'failed') return 'history.partial.failed';
  if (status === 'interrupted') return 'history.partial.interrupted';
  return 'history.partial.stopped';
}

/**
 * The mark of a run that ended before its planned duration but measured requests: it can be compared
 * and made the baseline, and its figures cover only the seconds it ran. Nothing for any other run.
 */
export function PartialRunNote({ run }: { run: Pick<PastRun, 'status' | 'results_summary' | 'duration'> }) {
  const { t, locale } = useI18n();
  if (!isPartialRun(run)) return null;
  const seconds = run.results_summary?.test_duration ?? run.duration;
  return (
    <p
      className="flex items-start gap-1.5 text-[13px] text-warning-text"
      role="note"
      data-testid="partial-run"
      data-status={run.status}
    >
      <TriangleAlert aria-hidden className="mt-0.5 size-3.5 shrink-0" />
      <span>
        <span className="font-medium">{t(partialRunKey(run.status))}</span>
        {' — '}
        {t('history.partial.note', { seconds: formatCount(Math.round(seconds ?? 0), locale) })}
      </span>
    </p>
  );
}
