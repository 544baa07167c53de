import { runsInBrowser } from '@aqa/plan';
import { Play } from 'lucide-react';
import { forwardRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useConfirmDelete } from '@/components/confirm-dialog';
import { DeleteButton } from '@/components/delete-button';
import { DetailField } from '@/components/detail-field';
import { EditPlanLinkButton } from '@/components/edit-plan-button';
import { useNotice } from '@/components/notices';
import { StatusBadge } from '@/components/status-badge';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { formatDate } from '@/features/history';
import { MISSING } from '@/features/results';
import { useI18n } from '@/i18n';
import { useWorkspace } from '@/lib/workspace';
import { errorDetailMessage } from '@/i18n/error-messages';
import { screenPath } from '@/lib/screens';
import { cn } from '@/lib/utils';
import { deleteFunctionalPlan, runFunctionalTest, type SavedFunctionalPlan } from '../../queries/plan-api';
import { rememberFunctionalRun } from '../../result/model/current-run';
import { editFunctionalPlanPath, sourceLabel, testTypeLabel } from '../model/plan-labels';

/**
 * One plan of the functional dashboard (docs/reference/02-running.md §2): name (or 'Unnamed Plan'),
 * Test Type, Source, Status, Created; Edit Plan, Run Test (the plan as saved, then its result), Delete.
 * `highlighted` marks the plan Back came from (§4).
 */
export const PlanItem = forwardRef<
  HTMLElement,
  { plan: SavedFunctionalPlan; highlighted: boolean; onDeleted: () => void }
>(function PlanItem({ plan, highlighted, onDeleted }, ref) {
  const { t, locale } = useI18n();
  const { readOnly } = useWorkspace();
  const confirmDelete = useConfirmDelete();
  const notice = useNotice();
  const navigate = useNavigate();
  const [busy, setBusy] = useState<'run' | 'delete' | null>(null);
  const created = formatDate(plan.created_at, locale);

  async function run() {
    setBusy('run');
    try {
      const started = await runFunctionalTest({ ...plan, plan_id: plan.id });
      rememberFunctionalRun(started.test_id);
      void navigate(screenPath('functionalResult', { testId: started.test_id }), {
        state: { testId: started.test_id, planId: plan.id },
      });
    } catch (error) {
      // docs/reference/02-running.md §8: a UI plan's start fails in its own words.
      const failed = runsInBrowser(plan) ? 'functional.ui.startFailed' : 'functional.editor.startFailed';
      notice.error(t(failed, { message: errorDetailMessage(error, t) }));
      setBusy(null);
    }
  }

  async function remove() {
    if (!(await confirmDelete())) return;
    setBusy('delete');
    try {
      await deleteFunctionalPlan(plan.id);
      onDeleted();
    } catch {
      notice.error(t('functional.board.deletePlanFailed'));
      setBusy(null);
    }
  }

  return (
    <article
      ref={ref}
      className={cn(
        'min-w-0 scroll-mt-24 space-y-3 px-4 py-4 transition-colors duration-500 sm:px-5',
        highlighted && 'bg-accent/70 ring-2 ring-inset ring-primary/50',
      )}
      data-testid="functional-plan-item"
      data-plan-id={plan.id}
      data-highlighted={highlighted ? 'true' : undefined}
    >
      <h3 className="break-words text-sm font-semibold" data-testid="plan-item-name">
        {plan.test_name.trim() || t('functional.board.unnamedPlan')}
      </h3>
      <dl className="grid grid-cols-2 gap-3 rounded-lg bg-muted/40 px-3 py-2.5 sm:grid-cols-4 xl:grid-cols-2 2xl:grid-cols-4">
        <DetailField className="mt-0.5" label={t('functional.board.testType')} testId="plan-item-type">
          {t(testTypeLabel(plan.test_type))}
        </DetailField>
        <DetailField className="mt-0.5" label={t('functional.board.source')} testId="plan-item-source">
          {t(sourceLabel(plan.source))}
        </DetailField>
        <DetailField className="mt-0.5" label={t('functional.board.status')} testId="plan-item-status">
          {plan.status === 'saved' ? (
            <Badge variant="secondary">{t('functional.board.statusSaved')}</Badge>
          ) : plan.status ? (
            <StatusBadge status={plan.status} />
          ) : (
            MISSING
          )}
        </DetailField>
        <DetailField className="mt-0.5" label={t('functional.board.created')} testId="plan-item-created">
          {created ?? MISSING}
        </DetailField>
      </dl>
      <div className="flex flex-wrap gap-2">
        <EditPlanLinkButton to={editFunctionalPlanPath(plan)} />
        {!readOnly && (
          <>
            <Button size="sm" onClick={() => void run()} disabled={busy !== null} data-testid="run-plan">
              {busy === 'run' ? <Spinner /> : <Play />}
              {busy === 'run' ? t('functional.board.starting') : t('history.plan.run')}
            </Button>
            <DeleteButton
              busy={busy === 'delete'}
              disabled={busy !== null}
              onClick={() => void remove()}
              data-testid="delete-plan"
            >
              {t('history.plan.delete')}
            </DeleteButton>
          </>
        )}
      </div>
    </article>
  );
});
