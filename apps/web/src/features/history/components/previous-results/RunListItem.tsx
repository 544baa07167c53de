import { Star } from 'lucide-react';
import { StatusBadge } from '@/components/status-badge';
import { formatCount, formatPercent, toolName } from '@/features/results';
import { useI18n } from '@/i18n';
import { cn } from '@/lib/utils';
import { formatDateTime, formatMinutesSeconds, runOwnName, runTitle } from '../../model/run-format';
import type { PastRun } from '../../queries/history-api';

/**
 * One past run in the list (docs/reference/02-running.md §2): plan name (or 'Test {id}') and the run's own name when it has
 * one, id, status badge, start time,
 * duration as 'Nm Ns', concurrent users, tool, and total, successful and error rate.
 */
export function RunListItem({
  run,
  selected,
  onSelect,
}: {
  run: PastRun;
  selected: boolean;
  onSelect: (testId: string) => void;
}) {
  const { t, locale } = useI18n();
  const summary = run.results_summary;
  const started = formatDateTime(run.start_time || run.created_at, locale);
  const ownName = runOwnName(run);
  return (
    <button
      type="button"
      onClick={() => onSelect(run.test_id)}
      aria-current={selected ? 'true' : undefined}
      className={cn(
        'w-full space-y-2 rounded-lg border px-3 py-3 text-left transition-colors',
        'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
        selected ? 'border-primary/50 bg-accent/60' : 'border-border bg-card hover:bg-muted/50',
      )}
      data-testid="run-item"
      data-test-id={run.test_id}
    >
      <div className="flex items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="flex items-center gap-1.5 truncate text-sm font-semibold" data-testid="run-item-name">
            {run.is_baseline && (
              <Star
                aria-label={t('history.baseline.is')}
                className="size-3.5 shrink-0 fill-warning text-warning"
              />
            )}
            <span className="truncate">
              {runTitle(run) ?? t('history.results.testFallback', { id: run.test_id })}
            </span>
          </p>
          {ownName && (
            <p className="truncate text-[13px] text-foreground/80" data-testid="run-item-own-name">
              {ownName}
            </p>
          )}
          <p className="truncate font-mono text-[11px] text-muted-foreground">{run.test_id}</p>
        </div>
        <StatusBadge status={run.status} />
      </div>
      <p className="num flex flex-wrap gap-x-3 gap-y-0.5 text-xs text-muted-foreground">
        {started && <span>{started}</span>}
        <span data-testid="run-item-duration">{formatMinutesSeconds(run.duration)}</span>
        <span data-testid="run-item-users">
          {t(run.concurrent_users === 1 ? 'history.results.usersCountOne' : 'history.results.usersCount', {
            count: formatCount(run.concurrent_users, locale),
          })}
        </span>
        <span>{toolName(run.tool)}</span>
      </p>
      {summary && (
        <p className="num flex flex-wrap gap-x-3 text-xs" data-testid="run-item-summary">
          <span>
            {t('history.results.itemTotal', { count: formatCount(summary.total_requests, locale) })}
          </span>
          <span className="text-success-text">
            {t('history.results.itemSuccess', { count: formatCount(summary.successful_requests, locale) })}
          </span>
          <span className={cn((summary.error_rate ?? 0) > 0 && 'text-destructive-text')}>
            {t('history.results.itemErrors', { rate: formatPercent(summary.error_rate, locale) })}
          </span>
        </p>
      )}
    </button>
  );
}
