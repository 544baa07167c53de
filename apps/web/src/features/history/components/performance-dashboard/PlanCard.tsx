import { ArrowRight, Download, GitCompareArrows, Info, Mic, Play, Star } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { isScreenAvailable, screenPath } from '@/lib/screens';
import { useConfirmDelete } from '@/components/confirm-dialog';
import { DeleteButton } from '@/components/delete-button';
import { DetailField } from '@/components/detail-field';
import { useNotice } from '@/components/notices';
import { StatusBadge } from '@/components/status-badge';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { formatCount, toolName } from '@/features/results';
import { useI18n } from '@/i18n';
import { useWorkspace } from '@/lib/workspace';
import { errorDetailMessage } from '@/i18n/error-messages';
import { formatDate, formatDateTime } from '../../model/run-format';
import { downloadText } from '@/lib/download';
import { deletePlan, fetchPlanScript, runSavedPlan, type DashboardPlan } from '../../queries/history-api';
import { EditPlanButton } from '@/components/edit-plan-button';
import { PlanDetailsModal } from './PlanDetailsModal';
import { TrendSparkline } from './TrendSparkline';
import { VoiceCommandPanel } from './VoiceCommandPanel';

/** docs/reference/02-running.md §9: a plan card shows its 3 most recent results. */
export const CARD_RECENT_RESULTS = 3;

/**
 * One plan of the performance dashboard (docs/reference/02-running.md §2): name, tool badge, created date, description, APIs,
 * users, duration in seconds, source, its 3 newest results with '+N more results', and the card actions.
 * Failures are the spec's alerts.
 */
export function PlanCard({ plan, onChanged }: { plan: DashboardPlan; onChanged: () => void }) {
  const { t, locale } = useI18n();
  const { readOnly } = useWorkspace();
  const notice = useNotice();
  const confirmDelete = useConfirmDelete();
  const navigate = useNavigate();
  const [busy, setBusy] = useState<'run' | 'download' | 'delete' | null>(null);
  const [detailsOpen, setDetailsOpen] = useState(false);
  const [voiceOpen, setVoiceOpen] = useState(false);

  const recent = plan.recent_results.slice(0, CARD_RECENT_RESULTS);
  const more = Math.max(0, plan.results_count - recent.length);
  const latestCompleted = plan.trend[plan.trend.length - 1]?.test_id;
  const canCompare = plan.trend.length >= 2 && isScreenAvailable('compareResults');
  const created = formatDate(plan.created_at, locale);
  const source =
    plan.source_page === 'script-input' ? t('history.plan.sourceScript') : t('history.plan.sourceUrl');

  async function run() {
    setBusy('run');
    try {
      const started = await runSavedPlan(plan.id);
      if (!started?.test_id) throw new Error(t('results.start.noTestId'));
      void navigate(screenPath('testResult', { testId: started.test_id }), {
        state: { testId: started.test_id, planId: plan.id },
      });
    } catch (error) {
      notice.error(t('history.plan.runFailed', { message: errorDetailMessage(error, t) }));
      setBusy(null);
    }
  }

  async function download() {
    setBusy('download');
    try {
      const answer = await fetchPlanScript(plan.id);
      downloadText(answer.script, answer.filename);
    } catch {
      notice.error(t('history.plan.downloadFailed'));
    } finally {
      setBusy(null);
    }
  }

  async function remove() {
    if (!(await confirmDelete())) return;
    setBusy('delete');
    try {
      await deletePlan(plan.id);
      onChanged();
    } catch {
      notice.error(t('history.plan.deleteFailed'));
      setBusy(null);
    }
  }

  return (
    <Card
      className="flex w-full min-w-0 flex-col gap-4 p-4 sm:p-5"
      data-testid="plan-card"
      data-plan-id={plan.id}
    >
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0 space-y-1">
          <h3 className="break-words text-base font-semibold leading-6" data-testid="plan-card-name">
            {plan.name}
          </h3>
          {created && (
            <p className="text-xs text-muted-foreground">{t('history.plan.createdOn', { date: created })}</p>
          )}
        </div>
        <Badge variant="outline" className="font-mono text-[11px]" data-testid="plan-card-tool">
          {toolName(plan.tool)}
        </Badge>
      </div>

      <p className="line-clamp-2 min-h-10 text-sm text-muted-foreground" data-testid="plan-card-description">
        {plan.description?.trim() || t('history.plan.noDescription')}
      </p>

      <dl className="grid grid-cols-2 gap-3 rounded-lg bg-muted/40 px-3 py-2.5 sm:grid-cols-4">
        <DetailField className="num" label={t('history.plan.apis')} testId="plan-card-apis">
          {formatCount(plan.api_count, locale)}
        </DetailField>
        <DetailField className="num" label={t('history.plan.users')} testId="plan-card-users">
          {formatCount(plan.concurrent_users, locale)}
        </DetailField>
        <DetailField className="num" label={t('history.plan.duration')} testId="plan-card-duration">
          {t('history.plan.durationSeconds', { seconds: formatCount(plan.duration * 60, locale) })}
        </DetailField>
        <DetailField className="num" label={t('history.plan.source')} testId="plan-card-source">
          {source}
        </DetailField>
      </dl>

      <TrendSparkline trend={plan.trend} />

      <div className="space-y-2">
        <h4 className="text-xs font-semibold uppercase tracking-wide text-muted-foreground">
          {t('history.plan.recentResults')}
        </h4>
        {recent.length === 0 ? (
          <p className="text-sm text-muted-foreground" data-testid="plan-card-no-results">
            {t('history.plan.noResults')}
          </p>
        ) : (
          <ul
            className="divide-y divide-border rounded-lg border border-border"
            data-testid="plan-card-results"
          >
            {recent.map((run) => (
              <li
                key={run.test_id}
                className="flex items-center gap-2 px-3 py-2"
                data-testid="plan-card-result"
              >
                <StatusBadge status={run.status} />
                {run.test_id === plan.baseline_test_id && (
                  <Star
                    aria-label={t('history.baseline.is')}
                    className="size-3.5 fill-warning text-warning"
                  />
                )}
                <span className="num min-w-0 flex-1 truncate text-xs text-muted-foreground">
                  {formatDateTime(run.start_time || run.created_at, locale, 'short', 'short')}
                </span>
                <Button asChild variant="ghost" size="sm" className="h-7 px-2">
                  <Link
                    to={screenPath('testResult', { testId: run.test_id })}
                    state={{ testId: run.test_id, planId: plan.id }}
                    data-testid="plan-card-view-result"
                  >
                    {t('dashboard.viewResult')}
                    <ArrowRight />
                  </Link>
                </Button>
              </li>
            ))}
          </ul>
        )}
        {more > 0 && (
          <Link
            to={`${screenPath('previousResults')}?planId=${encodeURIComponent(plan.id)}`}
            className="inline-block text-[13px] font-medium text-primary hover:underline"
            data-testid="plan-card-more"
          >
            {t('history.plan.moreResults', { count: more })}
          </Link>
        )}
      </div>

      <div className="mt-auto flex flex-wrap gap-2 border-t border-border pt-4">
        {!readOnly && (
          <Button size="sm" onClick={() => void run()} disabled={busy !== null} data-testid="plan-run">
            {busy === 'run' ? <Spinner /> : <Play />}
            {t('history.plan.run')}
          </Button>
        )}
        <Button variant="outline" size="sm" onClick={() => setDetailsOpen(true)} data-testid="plan-details">
          <Info />
          {t('history.plan.details')}
        </Button>
        <EditPlanButton plan={plan} />
        <Button
          variant="outline"
          size="sm"
          onClick={() => void download()}
          disabled={busy !== null}
          data-testid="plan-download"
        >
          {busy === 'download' ? <Spinner /> : <Download />}
          {t('history.plan.download')}
        </Button>
        {!readOnly && (
          <Button
            variant={voiceOpen ? 'secondary' : 'outline'}
            size="sm"
            onClick={() => setVoiceOpen((open) => !open)}
            aria-expanded={voiceOpen}
            data-testid="plan-voice"
          >
            <Mic />
            {t('history.plan.voice')}
          </Button>
        )}
        {canCompare && latestCompleted && (
          <Button asChild variant="outline" size="sm">
            <Link
              to={`${screenPath('compareResults')}?candidate=${encodeURIComponent(latestCompleted)}`}
              data-testid="plan-compare"
            >
              <GitCompareArrows />
              {t('history.plan.compare')}
            </Link>
          </Button>
        )}
        {!readOnly && (
          <DeleteButton
            busy={busy === 'delete'}
            disabled={busy !== null}
            onClick={() => void remove()}
            data-testid="plan-delete"
          >
            {t('history.plan.delete')}
          </DeleteButton>
        )}
      </div>
      {voiceOpen && !readOnly && <VoiceCommandPanel planId={plan.id} onApplied={onChanged} />}
      <PlanDetailsModal plan={plan} open={detailsOpen} onOpenChange={setDetailsOpen} />
    </Card>
  );
}
