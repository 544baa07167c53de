import { Info, LoaderCircle, Square } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Navigate, useLocation, useNavigate, useParams } from 'react-router';
import { screenPath } from '@/lib/screens';
import { Alert } from '@/components/ui/alert';
import { runChoicesAfter, type RunChoice } from '@/components/run-elsewhere';
import { ApiError } from '@/lib/api';
import { BackButton } from '@/components/back-button';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { useConfirmStop } from '@/components/confirm-dialog';
import { FinishedRunReports } from './ReportDownloads';
import { useI18n, type Language, type Translate } from '@/i18n';
import { useWorkspace } from '@/lib/workspace';
import { phraseIn } from '@/i18n/phrases';
import { cn } from '@/lib/utils';
import { useLiveTest, type LiveTest } from '../hooks/useLiveTest';
import { configPlanName, NEW_TEST_ROUTE_ID, readTestConfig } from '../model/current-test';
import { formatCount, isBuiltInEngine, isNumber, toolName } from '../model/format';
import { runElsewhere } from '../queries/results-api';
import { timeAxisSeconds } from '../model/time-axis';
import type { LiveProblem, StartFailure } from '../model/status-machine';
import { flowRows, liveFlowRows, type LiveSnapshot } from '@aqa/plan';
import type { ApiRow as ApiResult, ChartView as ChartData } from '../model/views';
import { ApiResultsList, ApiResultsTable } from './ApiResults';
import { FlowResultsTable } from './FlowResults';
import { engineName, engineNoteText } from './DetailedStatistics';
import { LiveProgress } from './LiveProgress';
import { LiveTiles } from './LiveTiles';
import { AbortBanner } from './AbortBanner';
import { RunAgentsCard } from './RunAgentsCard';
import { PerformanceTimeline } from './PerformanceTimeline';
import { ResultCharts } from './ResultCharts';
import {
  ErrorPanel,
  LoadingPanel,
  NoKpiPanel,
  NoResultsPanel,
  NotFoundPanel,
  StartingPanel,
  TimeoutPanel,
  WaitingPanel,
} from './StatePanels';
import { StatusIndicator } from './StatusIndicator';
import { ResultTestId } from './ResultTestId';

interface ResultLocationState {
  testId?: string;
  planId?: string;
}

/**
 * /test-result/{testId} — the live performance result screen (docs/reference/02-running.md §2, §4). /test-result/new starts
 * the run of the stored `currentTestConfig` first. Retry and Refresh Page start the screen afresh.
 */
export default function TestResultPage() {
  const { testId = '' } = useParams();
  const location = useLocation();
  const routeState = location.state as ResultLocationState | null;
  const [attempt, setAttempt] = useState(0);

  if (testId === NEW_TEST_ROUTE_ID) {
    // A configuration that already started its run: show that run (docs/reference/02-running.md §4 "an existing test is viewed").
    const startedId = readTestConfig()?.testId;
    if (startedId) return <Navigate replace to={screenPath('testResult', { testId: startedId })} />;
  }
  return (
    <LiveResult
      key={`${testId}:${attempt}`}
      routeTestId={testId}
      planId={routeState?.planId}
      onRetry={() => setAttempt((n) => n + 1)}
    />
  );
}

function startFailureText(reason: StartFailure, t: Translate): string {
  switch (reason.code) {
    case 'noUrls':
      return t('results.start.noUrls');
    case 'noTool':
      return t('results.start.noTool');
    case 'noTestId':
      return t('results.start.noTestId');
    case 'request':
      return reason.message ?? t('results.unknownError');
  }
}

function problemText(problem: LiveProblem | null, t: Translate, language: Language): string {
  if (problem?.kind === 'start')
    return t('results.startFailed', { message: startFailureText(problem.reason, t) });
  // The server's sentence in the screen's language when it came as a phrase (docs/adr/0025-phrases.md).
  if (problem?.kind === 'server' && problem.message)
    return t('results.error.server', { message: phraseIn(language, problem.message, problem.phrase) });
  return t('results.error.serverUnknown');
}

/** The live per-API figures of the last snapshot, as API result rows. */
function liveApiRows(snapshot: LiveSnapshot | null): ApiResult[] {
  return (snapshot?.steps ?? []).map((step) => ({
    name: step.name ?? null,
    url: step.url ?? null,
    method: step.method ?? null,
    total_requests: step.totals.requests,
    failed_requests: step.totals.failures,
    successful_requests: step.totals.requests - step.totals.failures,
    average_response_time: step.requests_per_second > 0 ? step.latency.avg : null,
    percentile_95: step.requests_per_second > 0 ? step.latency.p95 : null,
    error_rate: step.error_rate,
  }));
}

function formatStarted(value: string | null | undefined, locale: string): string | null {
  if (!value) return null;
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) return null;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'medium' }).format(at);
}

function ResultHeader({ live }: { live: LiveTest }) {
  const { t, locale } = useI18n();
  const { readOnly } = useWorkspace();
  const { state } = live;
  const result = state.result;
  const title = result?.plan_name?.trim() || configPlanName(live.config) || t('results.title');
  const users =
    result?.concurrent_users ?? result?.summary?.concurrent_users ?? live.config?.concurrent_users;
  const started = formatStarted(result?.started_at, locale);
  const engine = engineName(result?.engine, t);
  const tool = result?.tool ?? live.config?.tool;
  const meta = [
    tool ? t('results.meta.tool', { tool: toolName(tool) }) : null,
    engine ? t('results.meta.engine', { engine }) : null,
    isNumber(users) ? t('results.meta.users', { count: formatCount(users, locale) }) : null,
    live.durationKnown
      ? t('results.meta.duration', { seconds: formatCount(live.totalSeconds, locale) })
      : null,
    started ? t('results.meta.started', { time: started }) : null,
  ].filter((item): item is string => item !== null);
  const running = state.phase === 'running';
  const following = state.phase === 'running' || state.phase === 'processing';
  const confirmStop = useConfirmStop();

  return (
    <header className="space-y-3">
      <BackButton onClick={() => void live.back()} disabled={live.stopping} />
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0 space-y-2">
          <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
            <h1
              className="min-w-0 break-words text-2xl font-semibold tracking-tight sm:text-[28px] sm:leading-9"
              data-testid="result-title"
            >
              {title}
            </h1>
            <StatusIndicator phase={state.phase} interrupted={state.result?.status === 'interrupted'} />
          </div>
          <ResultTestId testId={live.testId ?? '—'} />
          {meta.length > 0 && (
            <p
              className="num flex flex-wrap gap-x-3 gap-y-1 text-[13px] text-muted-foreground"
              data-testid="result-meta"
            >
              {meta.map((item, index) => (
                <span key={item} className="inline-flex items-center gap-3">
                  {item}
                  {index < meta.length - 1 && <span aria-hidden className="size-1 rounded-full bg-border" />}
                </span>
              ))}
            </p>
          )}
          {following && (
            <p
              className="flex items-center gap-2 text-[13px] text-muted-foreground"
              data-testid="update-mode"
              data-mode={live.mode}
            >
              <span
                aria-hidden
                className={cn(
                  'size-2 rounded-full',
                  live.mode === 'stream' ? 'bg-success animate-pulse' : 'bg-warning',
                )}
              />
              {t(live.mode === 'stream' ? 'results.mode.stream' : 'results.mode.polling')}
            </p>
          )}
        </div>
        {running && !readOnly && (
          <Button
            variant="destructive"
            className="self-start"
            // Stopping ends the run for good: asked first (docs/reference/02-running.md §4).
            onClick={() => void confirmStop().then((stop) => stop && live.stop())}
            disabled={live.stopping}
            data-testid="stop-test"
          >
            {live.stopping ? <LoaderCircle className="animate-spin" /> : <Square className="fill-current" />}
            {live.stopping ? t('results.stopping') : t('results.stopTest')}
          </Button>
        )}
      </div>
    </header>
  );
}

function LiveResult({
  routeTestId,
  planId,
  onRetry,
}: {
  routeTestId: string;
  planId: string | undefined;
  onRetry: () => void;
}) {
  const { t, language } = useI18n();
  const live = useLiveTest(routeTestId, planId);
  const { state, view } = live;
  const result = state.result;
  const onBack = () => void live.back();
  const liveRows = useMemo(() => liveApiRows(state.snapshot), [state.snapshot]);
  // Per flow as per API (docs/adr/0027-load-profiles.md "Flows"): live from the stream, stored from the summary.
  // Polling without the stream: the server's figures so far (each flow's iterations).
  const liveFlows = useMemo(
    () =>
      state.snapshot
        ? liveFlowRows({ second: state.snapshot.flows, totals: state.snapshot.totals.flows })
        : flowRows(result?.summary?.flows),
    [state.snapshot, result?.summary?.flows],
  );
  const storedFlows = useMemo(() => flowRows(result?.summary?.flows), [result?.summary?.flows]);

  // The run's stored series; when they cannot be loaded, the seconds this screen measured live stand in.
  const chartData: ChartData | null =
    live.chartData ??
    (live.chartStatus === 'failed' && state.liveSeries.length > 0 ? { series: state.liveSeries } : null);
  const engineNote = result ? engineNoteText(result.engine_note, result.engine, result.tool, t) : null;

  const navigate = useNavigate();
  // A run that failed in an external tool: the same saved plan in the built-in engine or Locust, one click
  // each (docs/adr/0003-jmeter-scripts-are-real-jmx.md "JMeter versions").
  const failedTool = result?.status === 'failed' && result.engine && !isBuiltInEngine(result.engine);
  const elsewhere =
    failedTool && result.plan_id
      ? {
          toolName: toolName(result.engine),
          choices: runChoicesAfter(result.engine),
          onChoose: async (choice: RunChoice) => {
            const planId = result.plan_id!;
            let started;
            try {
              started = await runElsewhere(planId, choice, result.duration_seconds ?? undefined);
            } catch (error) {
              throw new Error(error instanceof ApiError ? error.detail : String(error), { cause: error });
            }
            void navigate(screenPath('testResult', { testId: started.test_id }), {
              state: { testId: started.test_id, planId },
            });
          },
        }
      : undefined;

  const running = state.phase === 'running';
  const results = view === 'results' || (view === 'error' && result?.summary);

  return (
    <div className="space-y-6" data-testid="test-result-page" data-view={view}>
      <ResultHeader live={live} />
      <FinishedRunReports testId={live.testId} phase={state.phase} />

      {live.stopError && (
        <Alert variant="destructive" data-testid="stop-error">
          {t('results.stopFailed', { message: live.stopError })}
        </Alert>
      )}
      {engineNote && (
        <Alert variant="info" data-testid="engine-alert">
          {engineNote}
        </Alert>
      )}

      {running && (
        <Card className="space-y-5 p-4 sm:p-6" data-testid="live-panel">
          <LiveProgress
            progress={live.progress}
            elapsedSeconds={live.elapsedSeconds}
            totalSeconds={live.totalSeconds}
          />
          <LiveTiles snapshot={state.snapshot} summary={result?.summary} series={state.liveSeries} />
        </Card>
      )}
      {running && <RunAgentsCard agents={state.snapshot?.agents ?? result?.agents ?? []} live />}

      {state.phase === 'starting' && <StartingPanel />}
      {view === 'loading' && <LoadingPanel />}
      {view === 'startError' && (
        <ErrorPanel message={problemText(state.problem, t, language)} onBack={onBack} onRetry={onRetry} />
      )}
      {view === 'error' && (
        <ErrorPanel
          message={problemText(state.problem, t, language)}
          details={result?.error_details}
          onBack={onBack}
          onRetry={onRetry}
          elsewhere={elsewhere}
        />
      )}
      {view === 'timeout' && state.problem?.kind === 'timeout' && (
        <TimeoutPanel
          seconds={state.problem.seconds}
          notFound={state.notFound}
          onBack={onBack}
          onRefresh={onRetry}
        />
      )}
      {view === 'waiting' && state.phase !== 'starting' && (
        <WaitingPanel
          kind={state.phase === 'processing' ? 'processing' : 'preparing'}
          elapsedSeconds={live.elapsedSeconds}
          totalSeconds={live.totalSeconds}
          progress={live.progress}
          notFound={state.notFound}
        />
      )}
      {view === 'notFound' && <NotFoundPanel testId={routeTestId} />}
      {view === 'noKpi' && <NoKpiPanel onBack={onBack} />}
      {view === 'noResults' && <NoResultsPanel onBack={onBack} />}
      {view === 'stoppedEmpty' && (
        <NoResultsPanel
          onBack={onBack}
          text={t(
            state.result?.status === 'interrupted' ? 'results.interrupted.empty' : 'results.stopped.empty',
          )}
        />
      )}

      {view === 'live' && (
        <>
          {state.phase === 'stopped' && (
            <Alert variant="warning" data-testid="stopped-notice">
              {t('results.stopped.collecting')}
            </Alert>
          )}
          <PerformanceTimeline
            series={state.liveSeries}
            durationSeconds={timeAxisSeconds(state.phase, state.liveSeries, live.totalSeconds)}
            profile={state.result?.load_profile}
            live
          />
          <FlowResultsTable
            rows={liveFlows}
            title={t('flows.results.liveTitle')}
            description={t('flows.results.liveText')}
            data-testid="live-flow-table"
          />
          {liveRows.length > 0 && (
            <ApiResultsTable
              apiResults={liveRows}
              title={t('results.apiList.liveTitle')}
              description={t('results.apiList.liveText')}
              data-testid="live-api-table"
            />
          )}
        </>
      )}

      {results && result?.summary && (
        <>
          {state.phase === 'stopped' && (
            <Alert variant="warning" data-testid="stopped-notice">
              {t(
                state.result?.status === 'interrupted'
                  ? 'results.interrupted.notice'
                  : 'results.stopped.notice',
              )}
            </Alert>
          )}
          <AbortBanner result={result} />
          {view === 'error' && (
            <Alert variant="info" icon>
              {t('results.errorWithResults')}
            </Alert>
          )}
          {chartData && chartData.series.length > 0 && (
            <PerformanceTimeline
              series={chartData.series}
              durationSeconds={timeAxisSeconds(
                result.status,
                chartData.series,
                result.duration_seconds ?? live.totalSeconds,
              )}
              averageResponseTime={result.summary.average_response_time}
              profile={result.load_profile}
            />
          )}
          <ResultCharts
            result={result}
            chartData={chartData}
            chartsLoading={live.chartStatus === 'loading' || live.chartStatus === 'idle'}
          />
          <RunAgentsCard agents={result.agents ?? []} live={false} />
          <FlowResultsTable
            rows={storedFlows}
            title={t('flows.results.title')}
            description={t('flows.results.text')}
            data-testid="flow-results"
          />
          {(result.api_results ?? []).length > 0 && <ApiResultsList apiResults={result.api_results ?? []} />}
        </>
      )}
      {view === 'results' && !result?.summary && (
        <p className="flex items-center gap-2 text-sm text-muted-foreground">
          <Info aria-hidden className="size-4" />
          {t('results.noResults.text')}
        </p>
      )}
    </div>
  );
}
