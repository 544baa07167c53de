import type { Dispatch } from 'react';
import { usePublishCurrentPlan } from '@/features/assistant/current-plan';
import { useT } from '@/i18n';
import type { PlanCheck } from '../model/form-to-plan';
import { formFromPlan, type PlanForm, type PlanFormAction } from '../model/plan-form';
import { describeFirstProblem } from '../plan-messages';

/**
 * Shows James the performance plan on screen (docs/design.md §10): the plan as Save would send it (or the
 * first reason it is not a plan yet, as the screen words it), a changed plan loaded into this form, and the
 * form as it was for Undo. Save stays the user's: nothing is sent to the server.
 */
export function usePublishPerfPlan(
  form: PlanForm,
  dispatch: Dispatch<PlanFormAction>,
  check: PlanCheck,
): void {
  const t = useT();
  usePublishCurrentPlan({
    kind: 'performance',
    read: () => {
      if (check.ok) return check.plan;
      if (form.name.trim() === '') return { problem: t('plans.error.nameRequired') };
      if (!check.snapshot.hasUrl) return { problem: t('plans.error.urlRequired') };
      return { problem: describeFirstProblem(check.errors, form, t) ?? t('plans.error.urlRequired') };
    },
    apply: (plan) => dispatch({ type: 'load', form: formFromPlan(plan) }),
    checkpoint: () => {
      const saved = form;
      return () => dispatch({ type: 'load', form: saved });
    },
  });
}
