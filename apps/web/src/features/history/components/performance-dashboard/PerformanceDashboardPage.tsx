import { ArrowLeft, FileUp, History, Link2, Search, SearchX, Gauge } from 'lucide-react';
import { contract } from '@aqa/contract';
import { keepPreviousData } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { ViewerNotice } from '@/components/viewer-notice';
import { ScreenButton } from '@/components/screen-button';
import { PageHeader } from '@/components/page-header';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { NativeSelect } from '@/components/ui/native-select';
import { useT } from '@/i18n';
import { useDebouncedValue } from '../../hooks/useDebouncedValue';
import { useRouteQuery, viewOf } from '@/lib/queries';
import { loadFailureDetail } from '../../model/load-failure';
import { dashboardInput, type PlanFilter } from '../../queries/history-api';
import { Pager } from '../shared/Pager';
import { EmptyBlock, ErrorBlock, LoadingBlock } from '@/components/state-blocks';
import { DashboardCounters } from './DashboardCounters';
import { PlanCard } from './PlanCard';

export const DASHBOARD_PAGE_SIZE = 12;
/** One search request per pause in typing. */
export const SEARCH_DEBOUNCE_MS = 300;

const FILTERS: {
  value: PlanFilter;
  label: 'history.filter.all' | 'history.filter.withResults' | 'history.filter.noResults';
}[] = [
  { value: 'all', label: 'history.filter.all' },
  { value: 'with_results', label: 'history.filter.withResults' },
  { value: 'no_results', label: 'history.filter.noResults' },
];

/** /performance-dashboard (docs/reference/02-running.md §2): counters, search and filter, the plan cards, paging. */
export default function PerformanceDashboardPage() {
  const t = useT();
  const [search, setSearch] = useState('');
  const [filter, setFilter] = useState<PlanFilter>('all');
  const [offset, setOffset] = useState(0);
  const q = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);

  // The page shown stays while the next one (another search, filter or page) loads.
  const query = useRouteQuery(
    contract.history.dashboard,
    dashboardInput({ q, filter, limit: DASHBOARD_PAGE_SIZE, offset }),
    { placeholderData: keepPreviousData },
  );
  const dashboard = viewOf(query);
  const { refetch } = query;
  const reload = useCallback(() => void refetch(), [refetch]);
  const data = dashboard.data;

  // A deleted plan can leave its page empty: step back to the last page that has plans.
  if (data && data.plans.length === 0 && offset > 0 && dashboard.status === 'success') {
    setOffset(Math.max(0, Math.floor((data.total - 1) / DASHBOARD_PAGE_SIZE) * DASHBOARD_PAGE_SIZE));
  }

  let body;
  if (dashboard.status === 'error') {
    body = (
      <ErrorBlock
        title={t('dashboard.loadFailed')}
        detail={loadFailureDetail(dashboard.error, 'history.dashboard.planLoadFailed', t)}
        onRetry={reload}
        data-testid="dashboard-error"
      />
    );
  } else if (!data) {
    body = <LoadingBlock text={t('history.dashboard.loading')} />;
  } else if (data.counters.total_plans === 0) {
    body = (
      <EmptyBlock
        icon={Gauge}
        title={t('history.dashboard.noPlans')}
        text={t('history.dashboard.noPlansText')}
        action={
          <ScreenButton creates screen="createTestUrl" size="sm">
            <Link2 />
            {t('history.dashboard.createUrl')}
          </ScreenButton>
        }
        data-testid="dashboard-no-plans"
      />
    );
  } else if (data.plans.length === 0) {
    body = (
      <EmptyBlock
        icon={SearchX}
        title={t('history.dashboard.noMatch')}
        text={t('history.dashboard.noMatchText')}
        data-testid="dashboard-no-match"
      />
    );
  } else {
    body = (
      <div className="space-y-4">
        <ul className="grid grid-cols-1 gap-4 lg:grid-cols-2 2xl:grid-cols-3" data-testid="plan-cards">
          {data.plans.map((plan) => (
            <li key={plan.id} className="flex min-w-0">
              <PlanCard plan={plan} onChanged={reload} />
            </li>
          ))}
        </ul>
        <Pager
          offset={offset}
          limit={DASHBOARD_PAGE_SIZE}
          total={data.total}
          shown={data.plans.length}
          onOffset={setOffset}
        />
      </div>
    );
  }

  return (
    <div className="space-y-6" data-testid="performance-dashboard">
      <PageHeader title={t('history.dashboard.title')} description={t('history.dashboard.subtitle')} />
      <ViewerNotice />
      <div className="flex flex-wrap gap-2" data-testid="dashboard-actions">
        <ScreenButton creates screen="createTestUrl" size="sm" data-testid="create-url-test">
          <Link2 />
          {t('history.dashboard.createUrl')}
        </ScreenButton>
        <ScreenButton
          creates
          screen="createTestScript"
          variant="outline"
          size="sm"
          data-testid="create-script-test"
        >
          <FileUp />
          {t('history.dashboard.createScript')}
        </ScreenButton>
        <ScreenButton screen="previousResults" variant="outline" size="sm" data-testid="view-all-results">
          <History />
          {t('dashboard.viewAll')}
        </ScreenButton>
        <ScreenButton screen="dashboard" variant="ghost" size="sm" data-testid="back-to-dashboard">
          <ArrowLeft />
          {t('history.dashboard.back')}
        </ScreenButton>
      </div>

      <DashboardCounters counters={data?.counters ?? null} />

      <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
        <div className="relative min-w-0 flex-1">
          <Search
            aria-hidden
            className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground"
          />
          <Input
            type="search"
            value={search}
            onChange={(event) => {
              setSearch(event.target.value);
              setOffset(0);
            }}
            placeholder={t('history.dashboard.searchPlaceholder')}
            aria-label={t('history.dashboard.searchLabel')}
            className="pl-9"
            data-testid="plan-search"
          />
        </div>
        <NativeSelect
          className="sm:w-48"
          value={filter}
          onChange={(event) => {
            setFilter(event.target.value as PlanFilter);
            setOffset(0);
          }}
          aria-label={t('history.filter.label')}
          data-testid="plan-filter"
        >
          {FILTERS.map((option) => (
            <option key={option.value} value={option.value}>
              {t(option.label)}
            </option>
          ))}
        </NativeSelect>
        {dashboard.status === 'loading' && data && (
          <Spinner className="hidden text-muted-foreground sm:block" />
        )}
      </div>

      {body}
    </div>
  );
}
