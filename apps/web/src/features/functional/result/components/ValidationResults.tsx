import { type CallResult, KEPT_CALLS_MAX_BYTES, MAX_KEPT_CALLS } from '@aqa/plan';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Button } from '@/components/ui/button';
import { formatCount } from '@/features/results';
import { useI18n } from '@/i18n';
import { cn } from '@/lib/utils';
import { pageOfCalls, type CallFilter } from '../model/call-pages';
import { CallCard } from './CallCard';

const FILTERS: {
  value: CallFilter;
  label: 'functional.result.filterAll' | 'functional.result.filterFailed';
}[] = [
  { value: 'all', label: 'functional.result.filterAll' },
  { value: 'failed', label: 'functional.result.filterFailed' },
];

/**
 * "Validation Results" (docs/reference/02-running.md §2): every judged call, a page at a time and
 * grouped by iteration and user, so a run of many iterations stays quick to read; calls the server did
 * not keep (calls_omitted) are said, not hidden.
 */
export function ValidationResults({
  testId,
  calls,
  omitted,
}: {
  /** The run's id, for its UI steps' screenshots. */
  testId: string;
  calls: readonly CallResult[];
  omitted: number | undefined;
}) {
  const { t, locale } = useI18n();
  const [filter, setFilter] = useState<CallFilter>('all');
  const [page, setPage] = useState(0);
  const view = useMemo(() => pageOfCalls(calls, filter, page), [calls, filter, page]);
  const failed = useMemo(() => calls.filter((call) => !call.success).length, [calls]);

  return (
    <section
      aria-labelledby="validation-results-title"
      className="space-y-3"
      data-testid="validation-results"
    >
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h2 id="validation-results-title" className="text-lg font-semibold tracking-tight">
          {t('functional.result.validationResults')}
        </h2>
        <div role="group" aria-label={t('functional.result.filterLabel')} className="flex gap-1">
          {FILTERS.map((option) => (
            <Button
              key={option.value}
              variant={filter === option.value ? 'secondary' : 'ghost'}
              size="sm"
              aria-pressed={filter === option.value}
              onClick={() => {
                setFilter(option.value);
                setPage(0);
              }}
              data-testid={`calls-filter-${option.value}`}
            >
              {t(option.label, {
                count: formatCount(option.value === 'failed' ? failed : calls.length, locale),
              })}
            </Button>
          ))}
        </div>
      </div>
      {omitted !== undefined && omitted > 0 && (
        <p className="text-[13px] text-muted-foreground" data-testid="calls-omitted">
          {t('functional.result.callsOmitted', {
            count: formatCount(omitted, locale),
            max: formatCount(MAX_KEPT_CALLS, locale),
            mb: String(KEPT_CALLS_MAX_BYTES / 1024 / 1024),
          })}
        </p>
      )}
      {view.matching === 0 ? (
        <p className="rounded-lg border border-dashed border-border px-4 py-6 text-center text-sm text-muted-foreground">
          {t(filter === 'failed' ? 'functional.result.noFailedCalls' : 'functional.result.noCalls')}
        </p>
      ) : (
        <div className="space-y-4">
          {view.groups.map((group, index) => (
            <div key={`${group.iteration}-${group.user}-${index}`} className="space-y-2">
              {group.iteration !== null && (
                <h3
                  className={cn('text-xs font-semibold uppercase tracking-wide text-muted-foreground')}
                  data-testid="call-group"
                >
                  {t('functional.result.groupHeading', {
                    iteration: formatCount(group.iteration, locale),
                    user: formatCount(group.user, locale),
                  })}
                </h3>
              )}
              <ul className="space-y-2">
                {group.calls.map(({ call, number }) => (
                  <li key={number}>
                    <CallCard call={call} number={number} testId={testId} />
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </div>
      )}
      {view.pages > 1 && (
        <nav
          aria-label={t('functional.result.pagerLabel')}
          className="flex flex-wrap items-center justify-between gap-3"
          data-testid="calls-pager"
        >
          <p className="num text-[13px] text-muted-foreground">
            {t('functional.result.pagerRange', {
              from: formatCount(view.from + 1, locale),
              to: formatCount(view.to, locale),
              total: formatCount(view.matching, locale),
            })}
          </p>
          <div className="flex gap-2">
            <Button
              variant="outline"
              size="sm"
              disabled={view.page === 0}
              onClick={() => setPage(view.page - 1)}
              data-testid="calls-previous"
            >
              <ChevronLeft />
              {t('functional.result.previous')}
            </Button>
            <Button
              variant="outline"
              size="sm"
              disabled={view.page >= view.pages - 1}
              onClick={() => setPage(view.page + 1)}
              data-testid="calls-next"
            >
              {t('functional.result.next')}
              <ChevronRight />
            </Button>
          </div>
        </nav>
      )}
    </section>
  );
}
