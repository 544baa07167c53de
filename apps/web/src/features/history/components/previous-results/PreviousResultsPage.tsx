import { ArrowLeft, History, MousePointerClick, RefreshCw, X } from 'lucide-react';
import { contract } from '@aqa/contract';
import { keepPreviousData, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ScreenButton } from '@/components/screen-button';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { useT } from '@/i18n';
import { invalidateRoutes, useRouteLoader, viewOf } from '@/lib/queries';
import { loadFailureDetail } from '../../model/load-failure';
import { fetchPastRuns, pastRunsKey } from '../../queries/history-api';
import { Pager } from '../shared/Pager';
import { FunctionalRunList } from './FunctionalRunList';
import { EmptyBlock, ErrorBlock, LoadingBlock } from '@/components/state-blocks';
import { RunDetail } from './RunDetail';
import { RunListItem } from './RunListItem';

export const RUNS_PAGE_SIZE = 20;

/**
 * /previous-results (docs/reference/02-running.md §2): the user's past runs, newest first and paged, and the selected run's
 * full measured result. `?testId=` preselects a run (links from other screens); `?planId=` lists one
 * plan's runs.
 */
export default function PreviousResultsPage() {
  const t = useT();
  const [params, setParams] = useSearchParams();
  const selectedId = params.get('testId');
  const planId = params.get('planId');
  // Functional runs have a list of their own, each opening the functional result screen.
  const functional = params.get('kind') === 'functional';
  const [offset, setOffset] = useState(0);
  const detailRef = useRef<HTMLDivElement>(null);

  const request = { planId, limit: RUNS_PAGE_SIZE, offset };
  // The page shown stays while the next one loads, and while the list refreshes after an action.
  const runs = viewOf(
    useRouteLoader('past-runs', pastRunsKey(request), (signal) => fetchPastRuns(request, signal), {
      placeholderData: keepPreviousData,
    }),
  );
  const queryClient = useQueryClient();
  // Refresh, and what a run's action changed: both lists and the run shown (docs/adr/0026-server-state-through-tanstack-query.md).
  const reload = useCallback(
    () =>
      void invalidateRoutes(
        queryClient,
        contract.runs.list,
        contract.runs.result,
        contract.functional.results,
      ),
    [queryClient],
  );
  const page = runs.data;
  const planName = page?.items.find((run) => run.plan_id === planId)?.plan_name;

  // A deleted run can leave its page empty: step back to the last page that has runs.
  if (page && page.items.length === 0 && offset > 0 && runs.status === 'success') {
    setOffset(Math.max(0, Math.floor((page.total - 1) / RUNS_PAGE_SIZE) * RUNS_PAGE_SIZE));
  }

  const setParam = (name: 'testId' | 'planId' | 'kind', value: string | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set(name, value);
        else next.delete(name);
        return next;
      },
      { replace: name === 'testId' },
    );

  // Below 1536 px the detail is under the list: bring it into view when a run is chosen.
  const scrollPending = useRef(false);
  useEffect(() => {
    if (!scrollPending.current || !selectedId) return;
    scrollPending.current = false;
    detailRef.current?.scrollIntoView?.({ behavior: 'smooth', block: 'start' });
  }, [selectedId]);

  let list;
  if (runs.status === 'error') {
    list = (
      <ErrorBlock
        title={t('history.results.loadError')}
        detail={loadFailureDetail(runs.error, 'history.results.loadFailed', t)}
        onRetry={reload}
        data-testid="results-error"
      />
    );
  } else if (!page) {
    list = <LoadingBlock text={t('history.results.loading')} />;
  } else if (page.items.length === 0) {
    list = (
      <EmptyBlock
        icon={History}
        title={t('history.results.empty')}
        text={t('history.results.emptyText')}
        data-testid="results-empty"
      />
    );
  } else {
    list = (
      <div className="space-y-3">
        <ul
          className="max-h-[26rem] space-y-2 overflow-y-auto rounded-lg 2xl:max-h-none 2xl:overflow-visible"
          data-testid="run-list"
        >
          {page.items.map((run) => (
            <li key={run.test_id}>
              <RunListItem
                run={run}
                selected={run.test_id === selectedId}
                onSelect={(id) => {
                  setParam('testId', id);
                  scrollPending.current = window.matchMedia?.('(max-width: 1535px)').matches ?? false;
                }}
              />
            </li>
          ))}
        </ul>
        <Pager
          offset={offset}
          limit={RUNS_PAGE_SIZE}
          total={page.total}
          shown={page.items.length}
          onOffset={setOffset}
        />
      </div>
    );
  }

  return (
    <div className="space-y-6" data-testid="previous-results">
      <PageHeader
        title={t('history.results.title')}
        description={t('history.results.subtitle')}
        actions={
          <>
            <ScreenButton screen="dashboard" variant="ghost" size="sm" data-testid="back-to-dashboard">
              <ArrowLeft />
              {t('history.results.back')}
            </ScreenButton>
            <Button variant="outline" size="sm" onClick={reload} data-testid="refresh-results">
              <RefreshCw className={runs.status === 'loading' && page ? 'animate-spin' : undefined} />
              {t('history.results.refresh')}
            </Button>
          </>
        }
      />
      <div
        role="group"
        aria-label={t('functional.history.kindLabel')}
        className="inline-flex gap-1 rounded-lg bg-muted p-1"
        data-testid="results-kind"
      >
        {(['performance', 'functional'] as const).map((kind) => {
          const active = (kind === 'functional') === functional;
          return (
            <Button
              key={kind}
              variant={active ? 'outline' : 'ghost'}
              size="sm"
              aria-pressed={active}
              onClick={() => setParam('kind', kind === 'functional' ? 'functional' : null)}
              data-testid={`results-kind-${kind}`}
            >
              {t(kind === 'functional' ? 'functional.recent.functional' : 'functional.recent.performance')}
            </Button>
          );
        })}
      </div>
      {functional ? (
        <section aria-label={t('history.results.listLabel')} className="min-w-0">
          <FunctionalRunList />
        </section>
      ) : (
        <>
          {planId && (
            <div className="flex flex-wrap items-center gap-2 text-sm" data-testid="plan-filter-chip">
              <span className="text-muted-foreground">{t('history.results.planFilter')}</span>
              <span className="rounded-full bg-accent px-2.5 py-0.5 font-medium text-accent-foreground">
                {planName ?? planId}
              </span>
              <Button
                variant="ghost"
                size="sm"
                onClick={() => {
                  setOffset(0);
                  setParam('planId', null);
                }}
                data-testid="clear-plan-filter"
              >
                <X />
                {t('history.results.allRuns')}
              </Button>
            </div>
          )}
          <div className="grid grid-cols-1 gap-6 2xl:grid-cols-[minmax(300px,380px)_minmax(0,1fr)]">
            <section aria-label={t('history.results.listLabel')} className="min-w-0">
              {list}
            </section>
            <section
              ref={detailRef}
              aria-label={t('history.results.detailLabel')}
              className="min-w-0 scroll-mt-20"
            >
              {selectedId && !page && runs.status === 'loading' ? (
                <LoadingBlock text={t('common.loading')} />
              ) : selectedId ? (
                <RunDetail
                  key={selectedId}
                  testId={selectedId}
                  listed={page?.items.find((run) => run.test_id === selectedId)}
                  onChanged={reload}
                  onDeleted={() => {
                    setParam('testId', null);
                    reload();
                  }}
                />
              ) : (
                <Card>
                  <EmptyBlock
                    icon={MousePointerClick}
                    title={t('history.results.select')}
                    text={t('history.results.selectText')}
                    data-testid="results-select"
                  />
                </Card>
              )}
            </section>
          </div>
        </>
      )}
    </div>
  );
}
