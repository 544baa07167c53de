import { FunctionalPlanSchema } from '@aqa/plan';
import type { Dispatch } from 'react';
import { usePublishCurrentPlan } from '@/features/assistant/current-plan';
import { useT } from '@/i18n';
import type { FunctionalPlanScreen, PlanProblem } from './useFunctionalPlan';

/**
 * Shows James the functional plan on screen (docs/design.md §10): the plan as Save would send it, read by
 * the model (or the screen's first problem), a changed plan loaded into this form, and the form as it was
 * for Undo. Used by the API and UI editors; a script plan's settings live in its script.
 */
export function usePublishFunctionalPlan<Form, Problem extends PlanProblem>(
  screen: FunctionalPlanScreen<Form, Problem>,
  form: Form,
  dispatch: Dispatch<{ type: 'load'; form: Form }>,
): void {
  const t = useT();
  usePublishCurrentPlan({
    kind: 'functional',
    read: () => {
      const check = screen.check(form);
      const first = check.problems[0];
      if (!check.ok && first) return { problem: screen.problemText(first, t) };
      const parsed = FunctionalPlanSchema.safeParse(check.body);
      return parsed.success ? parsed.data : { problem: parsed.error.issues[0]?.message ?? '' };
    },
    apply: (plan) => dispatch({ type: 'load', form: screen.formOfPlan(plan) }),
    checkpoint: () => {
      const saved = form;
      return () => dispatch({ type: 'load', form: saved });
    },
  });
}
