import { ExternalLink, GitCompareArrows, Info, Pencil, Star, StarOff } from 'lucide-react';
import { flowRows } from '@aqa/plan';
import { contract } from '@aqa/contract';
import { useState } from 'react';
import { Link } from 'react-router';
import { isScreenAvailable, screenPath } from '@/lib/screens';
import { useConfirmDelete } from '@/components/confirm-dialog';
import { DeleteButton } from '@/components/delete-button';
import { StatusBadge } from '@/components/status-badge';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import type { ResultView as TestResult } from '@/features/results';
import {
  AbortBanner,
  ApiResultsList,
  chartDataKey,
  FlowResultsTable,
  fetchChartData,
  fetchTestResult,
  ReportDownloads,
  testResultKey,
} from '@/features/results';
import { PerformanceTimeline, ResultCharts } from '@/features/results/charts';
import { useI18n } from '@/i18n';
import { useWorkspace } from '@/lib/workspace';
import { errorDetailMessage } from '@/i18n/error-messages';
import { routeKey, routesKey, useRouteLoader, viewOf } from '@/lib/queries';
import { isComparable } from '../../model/comparable';
import { resultAsRun, runAsResult } from '../../model/past-run';
import { isFinished, runOwnName, runTitle } from '../../model/run-format';
import { deleteTestResult, findPastRun, setBaseline, type PastRun } from '../../queries/history-api';
import { ErrorBlock, LoadingBlock } from '@/components/state-blocks';
import { PerformanceSummary, RunInformation } from './RunInformation';
import { RunEditDialog } from './RunEditDialog';
import { PartialRunNote } from '../shared/PartialRunNote';

interface LoadedRun {
  /** The run's list item, looked up when it is not on the page shown. */
  found: PastRun | null;
  /** The full result: errors by kind and the engine that ran it, beyond the list item. */
  result: TestResult | null;
}

export interface RunDetailProps {
  testId: string;
  /** The run's list item when it is on the page shown; else it is looked up. */
  listed: PastRun | undefined;
  /** The run was renamed, re-noted or made the baseline: the list refreshes. */
  onChanged: () => void;
  onDeleted: () => void;
}

/**
 * The right side of Previous Test Results (docs/reference/02-running.md §2): Test Information, Performance Summary, the
 * Performance Charts of the run's stored series (the live screen's own chart components; omitted when
 * the chart data cannot be loaded, docs/reference/02-running.md §8) and API Results — with the run's actions.
 */
export function RunDetail({ testId, listed, onChanged, onDeleted }: RunDetailProps) {
  const { t } = useI18n();
  // Not on the page shown: the run is looked up among its plan's runs (GET /api/get-test-results).
  const lookUp = !listed;
  const loadedQuery = useRouteLoader(
    'run-detail',
    lookUp ? routesKey(testResultKey(testId), routeKey(contract.runs.list)) : testResultKey(testId),
    async (signal): Promise<LoadedRun> => {
      const result = await fetchTestResult(testId, undefined, signal).catch((error: unknown) => {
        if (!lookUp) return null;
        throw error;
      });
      const found = lookUp && result ? await findPastRun(testId, result.plan_id, signal) : null;
      return { found, result };
    },
  );
  // docs/reference/02-running.md §8: chart data failure is tolerated; the charts are omitted.
  const chartQuery = useRouteLoader('chart-or-none', chartDataKey(testId), (signal) =>
    fetchChartData(testId, signal).catch(() => null),
  );
  // The run stays shown while it reloads after an action (no flash back to "Loading").
  const loaded = viewOf(loadedQuery);
  const chart = viewOf(chartQuery);
  const retry = () => {
    void loadedQuery.refetch();
    void chartQuery.refetch();
  };

  if (loaded.status === 'error') {
    return (
      <ErrorBlock
        title={t('history.results.detailFailed')}
        detail={errorDetailMessage(loaded.error, t)}
        onRetry={retry}
        data-testid="run-detail-error"
      />
    );
  }
  if (!loaded.data) return <LoadingBlock text={t('common.loading')} />;

  const { found, result } = loaded.data;
  const run = listed ?? found ?? resultAsRun(result ?? {}, testId);
  const shown: TestResult = {
    ...runAsResult(run),
    errors: result?.errors ?? null,
    engine_note: result?.engine_note ?? null,
  };
  const chartData = chart.status === 'success' ? chart.data : null;
  const apiResults = shown.api_results ?? [];

  return (
    <div className="space-y-4" data-testid="run-detail" data-test-id={run.test_id}>
      <RunHeader run={run} onChanged={onChanged} onDeleted={onDeleted} />
      {/* What stopped the run (docs/adr/0027-load-profiles.md "Abort criteria"), as on the result screen. */}
      <AbortBanner
        result={{
          abort_reason: result?.abort_reason ?? run.abort_reason,
          breaking_point: result?.breaking_point ?? run.breaking_point,
        }}
      />
      <div className="grid grid-cols-1 gap-4 xl:grid-cols-2">
        <RunInformation run={run} />
        <PerformanceSummary run={run} />
      </div>
      {shown.summary && (
        <section className="space-y-4" aria-labelledby="run-charts-title" data-testid="run-charts-section">
          <h2 id="run-charts-title" className="text-lg font-semibold tracking-tight">
            {t('history.results.charts')}
          </h2>
          {chart.status === 'loading' && <LoadingBlock text={t('results.chartsLoading')} className="py-6" />}
          {chart.status === 'success' && !chartData && (
            <p className="flex items-center gap-2 text-sm text-muted-foreground" data-testid="charts-omitted">
              <Info aria-hidden className="size-4 shrink-0" />
              {t('results.chartsUnavailable')}
            </p>
          )}
          {chartData && (
            <>
              {chartData.series.length > 0 && (
                <PerformanceTimeline
                  series={chartData.series}
                  durationSeconds={run.duration}
                  status={run.status}
                  averageResponseTime={shown.summary.average_response_time}
                  profile={result?.load_profile}
                />
              )}
              <ResultCharts result={shown} chartData={chartData} />
            </>
          )}
        </section>
      )}
      {/* Per flow as per API (docs/adr/0027-load-profiles.md "Flows"). */}
      <FlowResultsTable
        rows={flowRows(run.results_summary?.flows)}
        title={t('flows.results.title')}
        description={t('flows.results.text')}
        data-testid="run-flow-results"
      />
      {apiResults.length > 0 && <ApiResultsList apiResults={apiResults} data-testid="run-api-results" />}
    </div>
  );
}

function RunHeader({
  run,
  onChanged,
  onDeleted,
}: {
  run: PastRun;
  onChanged: () => void;
  onDeleted: () => void;
}) {
  const { t } = useI18n();
  const confirmDelete = useConfirmDelete();
  const { readOnly } = useWorkspace();
  const [editing, setEditing] = useState(false);
  const [busy, setBusy] = useState<'baseline' | 'delete' | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const finished = isFinished(run.status);
  // Completed runs, and runs stopped or failed part-way that measured requests (marked partial).
  const comparable = isComparable(run);

  async function toggleBaseline() {
    if (!run.plan_id) return;
    setBusy('baseline');
    setProblem(null);
    try {
      await setBaseline(run.plan_id, run.is_baseline ? null : run.test_id);
      onChanged();
    } catch (error) {
      setProblem(t('history.baseline.failed', { message: errorDetailMessage(error, t) }));
    } finally {
      setBusy(null);
    }
  }

  async function remove() {
    if (!(await confirmDelete())) return;
    setBusy('delete');
    setProblem(null);
    try {
      await deleteTestResult(run.test_id);
      onDeleted();
    } catch (error) {
      setProblem(t('history.results.deleteFailed', { message: errorDetailMessage(error, t) }));
      setBusy(null);
    }
  }

  return (
    <header className="space-y-3">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 space-y-1">
          <div className="flex flex-wrap items-center gap-2">
            <h2
              className="min-w-0 break-words text-xl font-semibold tracking-tight"
              data-testid="run-detail-title"
            >
              {runTitle(run) ?? t('history.results.testFallback', { id: run.test_id })}
            </h2>
            <StatusBadge status={run.status} />
            {run.is_baseline && (
              <span
                className="inline-flex items-center gap-1 text-xs font-medium text-warning-text"
                data-testid="baseline-mark"
              >
                <Star aria-hidden className="size-3.5 fill-warning text-warning" />
                {t('history.baseline.is')}
              </span>
            )}
          </div>
          {runOwnName(run) && (
            <p className="break-words text-sm font-medium" data-testid="run-detail-own-name">
              {runOwnName(run)}
            </p>
          )}
          <PartialRunNote run={run} />
          {run.notes?.trim() && (
            <p
              className="whitespace-pre-wrap break-words text-sm text-muted-foreground"
              data-testid="run-notes"
            >
              {run.notes}
            </p>
          )}
        </div>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button asChild variant="outline" size="sm">
          <Link
            to={screenPath('testResult', { testId: run.test_id })}
            state={{ testId: run.test_id, planId: run.plan_id ?? undefined }}
            data-testid="run-open-result"
          >
            <ExternalLink />
            {t('history.results.openResult')}
          </Link>
        </Button>
        {!readOnly && (
          <Button variant="outline" size="sm" onClick={() => setEditing(true)} data-testid="run-edit">
            <Pencil />
            {t('history.results.rename')}
          </Button>
        )}
        {comparable && run.plan_id && !readOnly && (
          <Button
            variant="outline"
            size="sm"
            onClick={() => void toggleBaseline()}
            disabled={busy !== null}
            data-testid="run-baseline"
          >
            {busy === 'baseline' ? <Spinner /> : run.is_baseline ? <StarOff /> : <Star />}
            {run.is_baseline ? t('history.baseline.clear') : t('history.baseline.set')}
          </Button>
        )}
        {comparable && isScreenAvailable('compareResults') && (
          <Button asChild variant="outline" size="sm">
            <Link
              to={`${screenPath('compareResults')}?candidate=${encodeURIComponent(run.test_id)}`}
              data-testid="run-compare"
            >
              <GitCompareArrows />
              {t('history.results.compareWith')}
            </Link>
          </Button>
        )}
        {!readOnly && (
          <DeleteButton
            busy={busy === 'delete'}
            disabled={busy !== null || !finished}
            onClick={() => void remove()}
            title={finished ? undefined : t('history.results.deleteRunning')}
            data-testid="run-delete"
          >
            {t('history.results.delete')}
          </DeleteButton>
        )}
      </div>
      {finished && <ReportDownloads testId={run.test_id} />}
      {problem && (
        <p role="alert" className="text-sm text-destructive-text" data-testid="run-action-error">
          {problem}
        </p>
      )}
      <RunEditDialog
        run={run}
        open={editing}
        onOpenChange={setEditing}
        onSaved={() => {
          setEditing(false);
          onChanged();
        }}
      />
    </header>
  );
}
