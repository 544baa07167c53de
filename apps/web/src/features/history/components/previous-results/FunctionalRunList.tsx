import { contract } from '@aqa/contract';
import { functionalStatusKind, type FunctionalResult } from '@aqa/plan';
import { History } from 'lucide-react';
import { useState } from 'react';
import { EmptyBlock, ErrorBlock, LoadingBlock } from '@/components/state-blocks';
import { StatusBadge } from '@/components/status-badge';
import { FunctionalSummaryCounts, ViewFunctionalResultButton } from '@/features/functional';
import { useI18n } from '@/i18n';
import { useRouteQuery, viewOf } from '@/lib/queries';
import { sessionUserEmail } from '@/lib/session';
import { loadFailureDetail } from '../../model/load-failure';
import { formatDateTime } from '../../model/run-format';
import { Pager } from '../shared/Pager';

const FUNCTIONAL_RUNS_PAGE_SIZE = 20;

function FunctionalRunItem({ run }: { run: FunctionalResult }) {
  const { t, locale } = useI18n();
  const kind = functionalStatusKind(run.status);
  const started = formatDateTime(run.start_time, locale);
  return (
    <div
      className="flex flex-wrap items-center gap-x-4 gap-y-2 rounded-lg border border-border bg-card px-3 py-3"
      data-testid="functional-run-item"
      data-test-id={run.test_id}
    >
      <div className="min-w-48 flex-1 space-y-1">
        <p className="truncate text-sm font-semibold">{run.test_name.trim() || t('dashboard.unnamedTest')}</p>
        <p className="truncate font-mono text-[11px] text-muted-foreground">{run.test_id}</p>
        <p className="num flex flex-wrap gap-x-3 gap-y-0.5 text-xs text-muted-foreground">
          {started && <span>{started}</span>}
          <FunctionalSummaryCounts summary={run.summary} withFailed={false} />
        </p>
      </div>
      <StatusBadge status={kind === 'unknown' ? '' : kind} />
      <ViewFunctionalResultButton run={run} data-testid="functional-run-view" />
    </div>
  );
}

/**
 * Previous Results' functional runs (docs/reference/02-running.md §2): each run with its status, start,
 * summary and a View Result that opens the functional result screen, a page at a time.
 */
export function FunctionalRunList() {
  const { t } = useI18n();
  const [offset, setOffset] = useState(0);
  // Refreshed with Previous Results' Refresh, which invalidates this route.
  const query = useRouteQuery(contract.functional.results, { query: { user_email: sessionUserEmail() } });
  const runs = viewOf(query);

  if (runs.status === 'error') {
    return (
      <ErrorBlock
        title={t('history.results.loadError')}
        detail={loadFailureDetail(runs.error, 'history.results.loadFailed', t)}
        onRetry={() => void query.refetch()}
        data-testid="functional-runs-error"
      />
    );
  }
  if (!runs.data) return <LoadingBlock text={t('history.results.loading')} />;
  if (runs.data.length === 0) {
    return (
      <EmptyBlock
        icon={History}
        title={t('history.results.empty')}
        text={t('functional.history.emptyText')}
        data-testid="functional-runs-empty"
      />
    );
  }
  const start = Math.min(
    offset,
    Math.floor((runs.data.length - 1) / FUNCTIONAL_RUNS_PAGE_SIZE) * FUNCTIONAL_RUNS_PAGE_SIZE,
  );
  const shown = runs.data.slice(start, start + FUNCTIONAL_RUNS_PAGE_SIZE);
  return (
    <div className="space-y-3">
      <ul className="space-y-2" data-testid="functional-run-list">
        {shown.map((run) => (
          <li key={run.test_id}>
            <FunctionalRunItem run={run} />
          </li>
        ))}
      </ul>
      <Pager
        offset={start}
        limit={FUNCTIONAL_RUNS_PAGE_SIZE}
        total={runs.data.length}
        shown={shown.length}
        onOffset={setOffset}
      />
    </div>
  );
}
