import {
  FileCode,
  FlaskConical,
  History,
  ListChecks,
  MousePointerClick,
  Plus,
  RefreshCw,
  Webhook,
  type LucideIcon,
} from 'lucide-react';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { PageHeader } from '@/components/page-header';
import { ScreenButton } from '@/components/screen-button';
import { EmptyBlock, ErrorBlock, LoadingBlock } from '@/components/state-blocks';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { useT } from '@/i18n';
import { takeSavedPlanId } from '../../result/model/back-navigation';
import { useFunctionalBoard } from '../hooks/useFunctionalBoard';
import { countResults } from '../model/counters';
import { BackendStatus } from './BackendStatus';
import { BoardCounters } from './BoardCounters';
import { PlanItem } from './PlanItem';
import { ShownList, useShownItems } from './ShowMore';
import { ResultItem } from './ResultItem';
import { TestingGuide } from './TestingGuide';

const NONE: never[] = [];

/** docs/reference/02-running.md §9: the plan Back came from is highlighted for 2 s, after 500 ms. */
const HIGHLIGHT_DELAY_MS = 500;
const HIGHLIGHT_MS = 2000;

/** The plan Back left in storage: scrolled into view and highlighted once the plans are shown. */
function usePlanHighlight(ready: boolean) {
  const [planId] = useState(takeSavedPlanId);
  const [highlighted, setHighlighted] = useState<string | null>(null);
  const target = useRef<HTMLElement | null>(null);
  useEffect(() => {
    if (!ready || !planId) return;
    const start = setTimeout(() => {
      target.current?.scrollIntoView?.({ behavior: 'smooth', block: 'center' });
      setHighlighted(planId);
    }, HIGHLIGHT_DELAY_MS);
    const end = setTimeout(() => setHighlighted(null), HIGHLIGHT_DELAY_MS + HIGHLIGHT_MS);
    return () => {
      clearTimeout(start);
      clearTimeout(end);
    };
  }, [ready, planId]);
  return { planId, highlighted, target };
}

/** One of the board's two lists: a card with its icon and title, the buttons beside it, the list below. */
function BoardSection({
  icon: Icon,
  title,
  actions,
  children,
  'data-testid': testId,
}: {
  icon: LucideIcon;
  title: string;
  actions?: ReactNode;
  children: ReactNode;
  'data-testid': string;
}) {
  return (
    <Card className="min-w-0" data-testid={testId}>
      <CardHeader className="flex-row flex-wrap items-center justify-between gap-3 border-b border-border pb-4">
        <CardTitle as="h2" className="flex items-center gap-2">
          <Icon aria-hidden className="size-4 text-muted-foreground" />
          {title}
        </CardTitle>
        {actions}
      </CardHeader>
      <CardContent className="p-0">{children}</CardContent>
    </Card>
  );
}

/**
 * /functional-dashboard (docs/reference/02-running.md §2 "Functional dashboard"): the Backend Status
 * badge, the counters, the runs and the plans, the create buttons and the guide. The error rules are §8's.
 */
export default function FunctionalDashboardPage() {
  const t = useT();
  const board = useFunctionalBoard();
  const { data } = board;
  const highlight = usePlanHighlight(data !== null);
  const shownResults = useShownItems(data?.results ?? NONE);
  const shownPlans = useShownItems(
    data?.plans ?? NONE,
    data?.plans.findIndex((plan) => plan.id === highlight.planId) ?? -1,
  );

  let results;
  let plans;
  if (!data) {
    results = <LoadingBlock text={t('functional.board.loading')} />;
    plans = <LoadingBlock text={t('functional.board.loading')} />;
  } else {
    results = (
      <ShownList
        items={shownResults}
        itemKey={(result) => result.test_id}
        empty={
          <EmptyBlock
            icon={ListChecks}
            title={t('functional.board.noResults')}
            text={t('functional.board.noResultsText')}
            data-testid="results-empty"
          />
        }
        data-testid="functional-results"
        moreTestId="more-results"
      >
        {(result) => <ResultItem result={result} onDeleted={board.reload} />}
      </ShownList>
    );
    plans = (
      <ShownList
        items={shownPlans}
        itemKey={(plan) => plan.id}
        empty={
          <EmptyBlock
            icon={FlaskConical}
            title={t('functional.board.noPlans')}
            text={t('functional.board.noPlansText')}
            data-testid="plans-empty"
          />
        }
        data-testid="functional-plans"
        moreTestId="more-plans"
      >
        {(plan) => (
          <PlanItem
            ref={plan.id === highlight.planId ? highlight.target : undefined}
            plan={plan}
            highlighted={plan.id === highlight.highlighted}
            onDeleted={board.reload}
          />
        )}
      </ShownList>
    );
  }

  return (
    <div className="space-y-6" data-testid="functional-dashboard">
      <PageHeader
        title={t('functional.board.title')}
        description={<BackendStatus state={board.backend} />}
        actions={
          <Button variant="outline" size="sm" onClick={board.reload} data-testid="refresh-board">
            <RefreshCw className={board.loading && data ? 'animate-spin' : undefined} />
            {t('functional.board.refresh')}
          </Button>
        }
      />
      <div className="flex flex-wrap gap-2" data-testid="functional-actions">
        <ScreenButton creates screen="functionalUrl" size="sm" data-testid="create-api-test">
          <Webhook />
          {t('functional.board.createApiTest')}
        </ScreenButton>
        <ScreenButton creates screen="functionalUi" variant="outline" size="sm" data-testid="create-ui-test">
          <MousePointerClick />
          {t('functional.board.uiTest')}
        </ScreenButton>
        <ScreenButton
          creates
          screen="functionalScript"
          variant="outline"
          size="sm"
          data-testid="create-script-test"
        >
          <FileCode />
          {t('functional.board.scriptTest')}
        </ScreenButton>
      </div>

      <BoardCounters counters={data ? countResults(data.results) : null} />

      {board.failed ? (
        <ErrorBlock
          title={t('functional.board.loadFailed')}
          onRetry={board.reload}
          data-testid="board-error"
        />
      ) : (
        <div className="grid grid-cols-1 gap-6 xl:grid-cols-2">
          <BoardSection
            icon={History}
            title={t('functional.board.resultsTitle')}
            data-testid="results-section"
          >
            {results}
          </BoardSection>
          <BoardSection
            icon={FlaskConical}
            title={t('functional.board.plansTitle')}
            actions={
              <div className="flex flex-wrap gap-2">
                <ScreenButton
                  creates
                  screen="functionalUrl"
                  variant="outline"
                  size="sm"
                  data-testid="create-api-plan"
                >
                  <Plus />
                  {t('functional.board.createApiPlan')}
                </ScreenButton>
                <ScreenButton
                  creates
                  screen="functionalUi"
                  variant="outline"
                  size="sm"
                  data-testid="create-ui-plan"
                >
                  <Plus />
                  {t('functional.board.uiPlan')}
                </ScreenButton>
              </div>
            }
            data-testid="plans-section"
          >
            {plans}
          </BoardSection>
        </div>
      )}

      <TestingGuide />
    </div>
  );
}
