import { ArrowLeft, ArrowLeftRight, GitCompareArrows, TriangleAlert } from 'lucide-react';
import { contract } from '@aqa/contract';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { screenPath } from '@/lib/screens';
import { ScreenButton } from '@/components/screen-button';
import { PageHeader } from '@/components/page-header';
import { StatusBadge } from '@/components/status-badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';
import { AbortBanner, fetchTestResult } from '@/features/results';
import { useI18n } from '@/i18n';
import { errorDetailMessage } from '@/i18n/error-messages';
import { useRouteLoader, useRouteQuery, viewOf } from '@/lib/queries';
import { isComparable, isPartialRun } from '../../model/comparable';
import { defaultBaseId, defaultCandidateId, runsToOffer } from '../../model/compare-defaults';
import { formatDateTime, runOwnName, runTitle } from '../../model/run-format';
import { fetchPastRuns, pastRunsKey, type PastRun } from '../../queries/history-api';
import { EmptyBlock, ErrorBlock, LoadingBlock } from '@/components/state-blocks';
import { CompareOverlayChart } from './CompareOverlayChart';
import { CompareApisTable, CompareMetricsTable } from './CompareTables';
import { CompareIterations } from './CompareIterations';
import { PartialRunNote, partialRunKey } from '../shared/PartialRunNote';

/** Runs looked at for the pickers: the newest ones of the user, of which the comparable are offered. */
export const PICKER_RUNS = 100;

/** The comparable runs among `runs`: completed ones, and those stopped or failed part-way with figures. */
const comparable = (runs: PastRun[]) => runs.filter(isComparable);

const OPTIONS_REQUEST = { limit: PICKER_RUNS, offset: 0 };
const loadOptions = (signal: AbortSignal) =>
  fetchPastRuns(OPTIONS_REQUEST, signal).then((page) => comparable(page.items));
const NO_RUNS: PastRun[] = [];

/** The base a candidate is compared with when the link names none (the plan's baseline, else the run before). */
async function resolveBase(
  candidateId: string,
  options: PastRun[],
  signal: AbortSignal,
): Promise<string | null> {
  const listed = options.find((run) => run.test_id === candidateId);
  const planId = listed ? listed.plan_id : (await fetchTestResult(candidateId, undefined, signal)).plan_id;
  if (!planId) return null;
  const planRuns = comparable((await fetchPastRuns({ planId, limit: PICKER_RUNS, offset: 0 }, signal)).items);
  const candidate = planRuns.find((run) => run.test_id === candidateId) ?? listed;
  return candidate ? defaultBaseId(candidate, planRuns) : null;
}

/** A run in a picker; a partial run says so ("stopped early: partial figures"). */
function runOptionLabel(run: PastRun, locale: string, fallback: string, partial: string): string {
  const when = formatDateTime(run.start_time, locale);
  return [runTitle(run) ?? fallback, runOwnName(run), when, isPartialRun(run) ? partial : null, run.test_id]
    .filter(Boolean)
    .join(' · ');
}

/**
 * /compare-results?base=&candidate= (beyond the spec): two finished runs side by side (a run stopped or
 * failed part-way too, when it measured requests, marked as partial) — requests/sec,
 * average, p95, p99 and error rate with their change in % (worse in red), per-API changes, and both
 * runs' measured timelines overlaid (base dashed). Without a base, the candidate's plan baseline or the
 * run before it is chosen; without a candidate, the newest completed run (of the base's plan, when a base
 * is named). Issue #7: two runs of a plan — once one run is chosen, the other picker offers only runs of
 * its plan; a link naming runs of two plans is shown as asked, with a note that the plans differ.
 */
export default function CompareResultsPage() {
  const { t, locale } = useI18n();
  const [params, setParams] = useSearchParams();
  const base = params.get('base');
  const candidate = params.get('candidate');
  const optionsQuery = useRouteLoader('comparable-runs', pastRunsKey(OPTIONS_REQUEST), loadOptions);
  const options = viewOf(optionsQuery);
  // The cached answer keeps its identity between renders: the defaults below are looked for once.
  const optionRuns = useMemo(
    () => (optionsQuery.isSuccess ? optionsQuery.data : NO_RUNS),
    [optionsQuery.isSuccess, optionsQuery.data],
  );
  const [defaultsProblem, setDefaultsProblem] = useState<string | null>(null);

  const choose = useCallback(
    (next: { base?: string | null; candidate?: string | null }) =>
      setParams(
        (current) => {
          const search = new URLSearchParams(current);
          for (const [key, value] of Object.entries(next)) {
            if (value) search.set(key, value);
            else search.delete(key);
          }
          return search;
        },
        { replace: true },
      ),
    [setParams],
  );

  // Fill in a missing candidate or base once the user's completed runs are known.
  const optionsReady = options.status === 'success';
  useEffect(() => {
    if (!optionsReady || (base && candidate)) return;
    if (base) {
      const candidateId = defaultCandidateId(base, optionRuns);
      if (candidateId) choose({ candidate: candidateId });
      return;
    }
    const candidateId = candidate ?? optionRuns[0]?.test_id;
    if (!candidateId) return;
    const controller = new AbortController();
    resolveBase(candidateId, optionRuns, controller.signal).then(
      (baseId) => {
        if (controller.signal.aborted) return;
        choose({ candidate: candidateId, base: baseId });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setDefaultsProblem(errorDetailMessage(error, t));
      },
    );
    return () => controller.abort();
  }, [optionsReady, optionRuns, base, candidate, choose, t]);

  const compared = !!base && !!candidate && base !== candidate;
  const comparisonQuery = useRouteQuery(
    contract.history.compare,
    { query: { base: base ?? '', candidate: candidate ?? '' } },
    { enabled: compared },
  );
  const comparison = viewOf(comparisonQuery);
  const retry = () => {
    void optionsQuery.refetch();
    if (compared) void comparisonQuery.refetch();
  };

  const pickerRuns = [...optionRuns];
  for (const id of [base, candidate]) {
    if (id && !pickerRuns.some((run) => run.test_id === id) && comparison.status === 'success') {
      const known = [comparison.data.base, comparison.data.candidate].find((run) => run.test_id === id);
      if (known) pickerRuns.push(known);
    }
  }
  const fallback = (id: string) => t('history.results.testFallback', { id });
  const optionLabel = (run: PastRun) =>
    runOptionLabel(run, locale, fallback(run.test_id), t(partialRunKey(run.status)));
  const baseRun = pickerRuns.find((run) => run.test_id === base);
  const candidateRun = pickerRuns.find((run) => run.test_id === candidate);
  const baseChoices = runsToOffer(pickerRuns, candidateRun, base);
  const candidateChoices = runsToOffer(pickerRuns, baseRun, candidate);
  const plansDiffer =
    baseRun !== undefined && candidateRun !== undefined && baseRun.plan_id !== candidateRun.plan_id;

  let body;
  if (options.status === 'error') {
    body = (
      <ErrorBlock
        title={t('history.compare.loadFailed')}
        detail={errorDetailMessage(options.error, t)}
        onRetry={retry}
      />
    );
  } else if (options.status === 'loading') {
    body = <LoadingBlock text={t('common.loading')} />;
  } else if (!base || !candidate) {
    body = (
      <Card>
        <EmptyBlock
          icon={GitCompareArrows}
          title={optionRuns.length < 2 ? t('history.compare.needTwo') : t('history.compare.choose')}
          text={
            defaultsProblem ??
            (optionRuns.length < 2 ? t('history.compare.needTwoText') : t('history.compare.chooseText'))
          }
          data-testid="compare-choose"
        />
      </Card>
    );
  } else if (base === candidate) {
    body = (
      <Card>
        <EmptyBlock icon={GitCompareArrows} title={t('history.compare.same')} data-testid="compare-same" />
      </Card>
    );
  } else if (comparison.status === 'error') {
    body = (
      <ErrorBlock
        title={t('history.compare.failed')}
        detail={errorDetailMessage(comparison.error, t)}
        onRetry={retry}
        data-testid="compare-error"
      />
    );
  } else if (comparison.status !== 'success') {
    body = <LoadingBlock text={t('history.compare.loading')} />;
  } else {
    const data = comparison.data;
    // The run cards above name both runs; the charts' legends only say which is which.
    const baseLabel = t('history.compare.base');
    const candidateLabel = t('history.compare.candidate');
    body = (
      <div className="space-y-4" data-testid="comparison">
        <div className="grid grid-cols-1 gap-4 md:grid-cols-2">
          <RunCard run={data.base} role={t('history.compare.base')} dashed />
          <RunCard run={data.candidate} role={t('history.compare.candidate')} />
        </div>
        <CompareMetricsTable metrics={data.metrics} />
        <CompareIterations base={data.base} candidate={data.candidate} />
        <CompareApisTable apis={data.apis} />
        <div className="grid grid-cols-1 gap-4 xl:grid-cols-3">
          {(['p95', 'rps', 'errors'] as const).map((metric) => (
            <CompareOverlayChart
              key={metric}
              metric={metric}
              base={data.series.base}
              candidate={data.series.candidate}
              baseLabel={baseLabel}
              candidateLabel={candidateLabel}
            />
          ))}
        </div>
      </div>
    );
  }

  return (
    <div className="space-y-6" data-testid="compare-results">
      <PageHeader
        title={t('history.compare.title')}
        description={t('history.compare.subtitle')}
        actions={
          <ScreenButton screen="previousResults" variant="ghost" size="sm" data-testid="back-to-results">
            <ArrowLeft />
            {t('history.compare.back')}
          </ScreenButton>
        }
      />
      {optionsReady && (
        <Card className="grid grid-cols-1 items-end gap-3 p-4 md:grid-cols-[1fr_auto_1fr]">
          <div className="min-w-0 space-y-1.5">
            <Label htmlFor="compare-base">{t('history.compare.base')}</Label>
            <NativeSelect
              id="compare-base"
              value={base ?? ''}
              onChange={(event) => choose({ base: event.target.value })}
              data-testid="compare-base"
            >
              <option value="">{t('history.compare.pick')}</option>
              {baseChoices.map((run) => (
                <option key={run.test_id} value={run.test_id}>
                  {optionLabel(run)}
                </option>
              ))}
            </NativeSelect>
          </div>
          <Button
            variant="outline"
            size="icon"
            className="justify-self-center"
            onClick={() => choose({ base: candidate, candidate: base })}
            disabled={!base || !candidate}
            aria-label={t('history.compare.swap')}
            data-testid="compare-swap"
          >
            <ArrowLeftRight />
          </Button>
          <div className="min-w-0 space-y-1.5">
            <Label htmlFor="compare-candidate">{t('history.compare.candidate')}</Label>
            <NativeSelect
              id="compare-candidate"
              value={candidate ?? ''}
              onChange={(event) => choose({ candidate: event.target.value })}
              data-testid="compare-candidate"
            >
              <option value="">{t('history.compare.pick')}</option>
              {candidateChoices.map((run) => (
                <option key={run.test_id} value={run.test_id}>
                  {optionLabel(run)}
                </option>
              ))}
            </NativeSelect>
          </div>
          {plansDiffer && (
            <p
              className="flex items-start gap-1.5 text-[13px] text-warning-text md:col-span-3"
              role="note"
              data-testid="compare-plans-differ"
            >
              <TriangleAlert aria-hidden className="mt-0.5 size-3.5 shrink-0" />
              {t('history.compare.plansDiffer', {
                base: runTitle(baseRun) ?? fallback(baseRun.test_id),
                candidate: runTitle(candidateRun) ?? fallback(candidateRun.test_id),
              })}
            </p>
          )}
        </Card>
      )}
      {body}
    </div>
  );
}

function RunCard({ run, role, dashed = false }: { run: PastRun; role: string; dashed?: boolean }) {
  const { t, locale } = useI18n();
  return (
    <Card className="space-y-2 p-4" data-testid={dashed ? 'compare-base-run' : 'compare-candidate-run'}>
      <div className="flex items-center justify-between gap-2">
        <span className="flex items-center gap-2 text-xs font-semibold uppercase tracking-wide text-muted-foreground">
          <span
            aria-hidden
            className={
              dashed ? 'w-6 border-t-2 border-dashed border-current' : 'w-6 border-t-2 border-current'
            }
          />
          {role}
        </span>
        <StatusBadge status={run.status} />
      </div>
      <p className="break-words font-semibold">
        {runTitle(run) ?? t('history.results.testFallback', { id: run.test_id })}
      </p>
      {runOwnName(run) && <p className="break-words text-sm">{runOwnName(run)}</p>}
      <PartialRunNote run={run} />
      <AbortBanner result={run} />
      <p className="num text-xs text-muted-foreground">
        {formatDateTime(run.start_time, locale) ?? '—'} · <code className="font-mono">{run.test_id}</code>
      </p>
      <Link
        to={`${screenPath('previousResults')}?testId=${encodeURIComponent(run.test_id)}`}
        className="text-[13px] font-medium text-primary hover:underline"
      >
        {t('history.compare.openRun')}
      </Link>
    </Card>
  );
}
