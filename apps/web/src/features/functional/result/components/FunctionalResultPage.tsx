import { functionalStatusKind, type FunctionalResult } from '@aqa/plan';
import { Activity, CircleCheck, CircleX, LoaderCircle, Square, TriangleExclamationPoint } from 'lucide-react';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import { useConfirmStop } from '@/components/confirm-dialog';
import { useNotice } from '@/components/notices';
import { ErrorBlock, LoadingBlock } from '@/components/state-blocks';
import { StatusBadge } from '@/components/status-badge';
import { Alert } from '@/components/ui/alert';
import { BackButton } from '@/components/back-button';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { formatDateTime } from '@/features/history';
import { formatCount, MetricTile, ResultTestId } from '@/features/results';
import { useI18n } from '@/i18n';
import { useWorkspace } from '@/lib/workspace';
import { errorDetailMessage } from '@/i18n/error-messages';
import { usePhrase } from '@/i18n/phrases';
import { ApiError } from '@/lib/api';
import { screenPath } from '@/lib/screens';
import { useFunctionalResult, isSettled } from '../hooks/useFunctionalResult';
import { backPath, keepSavedPlanId } from '../model/back-navigation';
import {
  forgetFunctionalRun,
  isTestIdMismatch,
  readResultState,
  rememberFunctionalRun,
  type FunctionalResultState,
} from '../model/current-run';
import { FunctionalApiResults } from './FunctionalApiResults';
import { FunctionalReportDownloads } from './FunctionalReportDownloads';
import { ValidationResults } from './ValidationResults';

const FunctionalTimelineChart = lazy(() => import('./FunctionalTimelineChart'));

/** 'Test Summary' (docs/reference/02-running.md §2): Total Requests, Successful, Failed, Validation Failures. */
function TestSummary({ summary }: { summary: FunctionalResult['summary'] }) {
  const { t, locale } = useI18n();
  return (
    <section aria-labelledby="test-summary-title" className="space-y-3" data-testid="test-summary">
      <h2 id="test-summary-title" className="text-lg font-semibold tracking-tight">
        {t('functional.result.summary')}
      </h2>
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <MetricTile
          icon={Activity}
          label={t('functional.result.totalRequests')}
          value={formatCount(summary.total_requests, locale)}
          data-testid="summary-total"
        />
        <MetricTile
          icon={CircleCheck}
          tone="success"
          label={t('functional.result.successful')}
          value={formatCount(summary.successful_requests, locale)}
          data-testid="summary-successful"
        />
        <MetricTile
          icon={CircleX}
          tone={summary.failed_requests > 0 ? 'danger' : 'neutral'}
          label={t('functional.result.failedRequests')}
          value={formatCount(summary.failed_requests, locale)}
          data-testid="summary-failed"
        />
        <MetricTile
          icon={TriangleExclamationPoint}
          tone={summary.validation_failures > 0 ? 'danger' : 'neutral'}
          label={t('functional.result.validationFailures')}
          value={formatCount(summary.validation_failures, locale)}
          data-testid="summary-validation-failures"
        />
      </div>
    </section>
  );
}

/**
 * /functional-test-result/{testId} (docs/reference/02-running.md §2 "Functional result screen", §4, §5):
 * the run's summary, every judged call with its rules, timings and evidence, and its API results; the
 * status is polled every 5 s while it runs. A link whose test id differs from the stored functional run
 * is refused, unless another screen opened this run on purpose (see model/current-run.ts).
 */
export default function FunctionalResultPage() {
  const { testId = '' } = useParams();
  const location = useLocation();
  // Each visit is judged afresh: another screen may open this very address with the run's id.
  return <ResultGate key={location.key} testId={testId} opened={readResultState(location.state)} />;
}

function ResultGate({ testId, opened }: { testId: string; opened: FunctionalResultState | null }) {
  // Decided once, when the screen opens: the stored id changes below once this run is remembered.
  const [mismatch] = useState(() => isTestIdMismatch(testId, opened));

  useEffect(() => {
    if (!mismatch) rememberFunctionalRun(testId);
  }, [mismatch, testId]);

  return <ResultScreen testId={testId} mismatch={mismatch} planId={opened?.planId} />;
}

function ResultScreen({
  testId,
  mismatch,
  planId,
}: {
  testId: string;
  mismatch: boolean;
  planId: string | undefined;
}) {
  const { t, locale } = useI18n();
  const { readOnly } = useWorkspace();
  const say = usePhrase();
  const notice = useNotice();
  const navigate = useNavigate();
  const live = useFunctionalResult(testId, !mismatch);
  const { result } = live;
  const running = result?.status === 'running';
  const confirmStop = useConfirmStop();

  function back() {
    forgetFunctionalRun();
    const to = backPath(result, planId);
    if (to === screenPath('functionalDashboard')) keepSavedPlanId(result?.plan_id ?? planId);
    void navigate(to);
  }

  async function stop() {
    // Stopping ends the run for good: asked first (docs/reference/02-running.md §4).
    if (!(await confirmStop())) return;
    const outcome = await live.stop();
    if (outcome.ok) {
      forgetFunctionalRun();
      notice.success(t('functional.result.stopped'));
    } else {
      notice.error(t('results.stopFailed', { message: errorDetailMessage(outcome.error, t) }));
    }
  }

  const started = formatDateTime(result?.start_time, locale, 'medium');
  const showTimeline =
    result?.test_type !== undefined && result.test_type !== 'functional' && result.timeline_data.length > 0;
  const queuePosition = running ? (result.queue_position ?? null) : null;

  let body;
  if (mismatch) {
    body = (
      <Alert variant="destructive" data-testid="test-id-mismatch">
        {t('functional.result.mismatch')}
      </Alert>
    );
  } else if (live.error) {
    const detail =
      live.error instanceof ApiError && live.error.kind === 'http' ? live.error.message : undefined;
    body = (
      <ErrorBlock
        title={t('functional.result.fetchFailed')}
        detail={detail ?? errorDetailMessage(live.error, t)}
        data-testid="result-error"
      />
    );
  } else if (!result) {
    body = <LoadingBlock text={t('functional.result.loading')} />;
  } else {
    body = (
      <>
        <Card className="space-y-1.5 p-4 sm:p-5" data-testid="result-info">
          <h2 className="break-words text-lg font-semibold" data-testid="result-test-name">
            {result.test_name.trim() || t('dashboard.unnamedTest')}
          </h2>
          <p className="num text-[13px] text-muted-foreground" data-testid="result-started">
            {t('functional.result.startedAt', { time: started ?? t('functional.result.notAvailable') })}
          </p>
          {result.description.trim() && (
            <p className="whitespace-pre-line break-words text-sm" data-testid="result-description">
              {result.description}
            </p>
          )}
        </Card>
        {isSettled(result.status) && <FunctionalReportDownloads testId={result.test_id} />}
        {result.status === 'interrupted' ? (
          // Its own words, in the screen's language (docs/adr/0016-crash-recovery.md).
          <Alert variant="warning" icon data-testid="interrupted-notice">
            {t(
              result.summary.total_requests > 0
                ? 'functional.result.interrupted'
                : 'functional.result.interruptedEmpty',
            )}
          </Alert>
        ) : (
          result.error && (
            <Alert variant="destructive" icon data-testid="run-error">
              {say(result.error, result.error_phrase)}
            </Alert>
          )
        )}
        {queuePosition !== null && (
          <Alert variant="info" icon data-testid="ui-queue">
            {t('functional.uiResult.queued', { position: formatCount(queuePosition, locale) })}
          </Alert>
        )}
        {live.polling && (
          <p className="flex items-center gap-2 text-[13px] text-muted-foreground" data-testid="polling-note">
            <span aria-hidden className="size-2 animate-pulse rounded-full bg-info" />
            {t('functional.result.polling')}
          </p>
        )}
        <TestSummary summary={result.summary} />
        <ValidationResults
          testId={result.test_id}
          calls={result.validation_results}
          omitted={result.calls_omitted}
        />
        {showTimeline && (
          <Suspense fallback={<LoadingBlock text={t('common.loading')} />}>
            <FunctionalTimelineChart points={result.timeline_data} />
          </Suspense>
        )}
        {result.api_results.length > 0 && <FunctionalApiResults apis={result.api_results} />}
      </>
    );
  }

  const kind = result ? functionalStatusKind(result.status) : null;
  return (
    <div className="space-y-6" data-testid="functional-result-page">
      <header className="space-y-3">
        <BackButton onClick={back} disabled={live.stopping} />
        <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
          <div className="min-w-0 space-y-2">
            <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
              <h1 className="text-2xl font-semibold tracking-tight sm:text-[28px] sm:leading-9">
                {t('functional.result.title')}
              </h1>
              {kind && (
                <span data-testid="result-status" data-status={kind}>
                  <StatusBadge status={kind === 'unknown' ? '' : kind} />
                </span>
              )}
            </div>
            <ResultTestId testId={testId} />
          </div>
          {running && !mismatch && !readOnly && (
            <Button
              variant="destructive"
              className="self-start"
              onClick={() => void stop()}
              disabled={live.stopping}
              data-testid="stop-test"
            >
              {live.stopping ? (
                <LoaderCircle className="animate-spin" />
              ) : (
                <Square className="fill-current" />
              )}
              {live.stopping ? t('results.stopping') : t('results.stopTest')}
            </Button>
          )}
        </div>
      </header>
      {body}
    </div>
  );
}
