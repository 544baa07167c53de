import { FLOW_ERRORS, FlowSchema, MAX_FLOW_NAME } from '@aqa/plan';
import { Plus, Trash2 } from 'lucide-react';
import type { Dispatch } from 'react';
import { FormField } from '@/components/form-field';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { formatNumber } from '@/features/results';
import { useI18n } from '@/i18n';
import type { PlanForm, PlanFormAction } from '../model/plan-form';
import { unlistedFlowNames } from '../model/plan-form';
import { translatePlanMessage } from '../plan-messages';

/** A weight as typed, when it is one the plan takes (the plan's own rule, FlowSchema). */
function weightOf(text: string): number | undefined {
  const parsed = FlowSchema.shape.weight.safeParse(text.trim());
  return parsed.success ? parsed.data : undefined;
}

/**
 * The plan's flows (docs/adr/0027-load-profiles.md "Flows"): shown once a call names a flow or the plan
 * has one, a row of name and weight per flow with its share of the iterations, and a button that lists
 * the flows the calls name but no row does. The model's problems (a call naming no listed flow, a
 * flow without a call) are shown by the call and here.
 */
export function FlowsEditor({
  form,
  dispatch,
  error,
}: {
  form: PlanForm;
  dispatch: Dispatch<PlanFormAction>;
  /** The first problem the model found with the flows, already translated. */
  error: string | undefined;
}) {
  const { t, locale } = useI18n();
  const unlisted = unlistedFlowNames(form);
  if (form.flows.length === 0 && unlisted.length === 0) return null;
  const weights = form.flows.map((flow) => weightOf(flow.weight));
  const total = weights.every((w) => w !== undefined) ? weights.reduce<number>((a, w) => a + (w ?? 0), 0) : 0;
  return (
    <section
      className="mt-6 border-t border-border pt-4"
      data-testid="plan-flows"
      aria-labelledby="plan-flows-title"
    >
      <h3 id="plan-flows-title" className="text-sm font-semibold">
        {t('flows.title')}
      </h3>
      <p className="mt-1 text-[13px] text-muted-foreground">{t('flows.text')}</p>
      <ol className="mt-3 grid gap-3" data-testid="flow-rows">
        {form.flows.map((flow, index) => {
          const weight = weights[index];
          return (
            <li
              key={flow.id}
              className="grid gap-3 rounded-lg border border-border p-3 @xl:grid-cols-[2fr_1fr_auto] @xl:items-start"
              data-testid={`flow-${index}`}
            >
              <FormField id={`flow-${flow.id}-name`} label={t('flows.name')}>
                {(control) => (
                  <Input
                    {...control}
                    value={flow.name}
                    maxLength={MAX_FLOW_NAME}
                    autoComplete="off"
                    onChange={(event) =>
                      dispatch({ type: 'setFlow', flowId: flow.id, field: 'name', value: event.target.value })
                    }
                    data-testid={`flow-${index}-name`}
                  />
                )}
              </FormField>
              <FormField
                id={`flow-${flow.id}-weight`}
                label={t('flows.weight')}
                hint={
                  weight !== undefined && total > 0
                    ? t('flows.share', { share: formatNumber((weight / total) * 100, locale, 1, 1) })
                    : t('flows.weightHint')
                }
                // As the user types, like the other fields (a blank one is told on saving).
                error={
                  weight === undefined && flow.weight.trim() !== ''
                    ? translatePlanMessage(FLOW_ERRORS.weight, t)
                    : undefined
                }
                errorTestId={`flow-${index}-weight-error`}
              >
                {(control) => (
                  <Input
                    {...control}
                    inputMode="numeric"
                    value={flow.weight}
                    onChange={(event) =>
                      dispatch({
                        type: 'setFlow',
                        flowId: flow.id,
                        field: 'weight',
                        value: event.target.value,
                      })
                    }
                    className="num"
                    data-testid={`flow-${index}-weight`}
                  />
                )}
              </FormField>
              <Button
                variant="ghost"
                size="icon"
                className="@xl:mt-7"
                aria-label={t('flows.remove', { name: flow.name.trim() || t('flows.unnamed') })}
                onClick={() => dispatch({ type: 'removeFlow', flowId: flow.id })}
                data-testid={`flow-${index}-remove`}
              >
                <Trash2 aria-hidden className="size-4" />
              </Button>
            </li>
          );
        })}
      </ol>
      {error && (
        <p className="mt-2 text-[13px] text-destructive" data-testid="flows-error">
          {error}
        </p>
      )}
      <div className="mt-3 flex flex-wrap gap-2">
        {unlisted.length > 0 && (
          <Button
            variant="outline"
            size="sm"
            onClick={() => dispatch({ type: 'addFlows', names: unlisted })}
            data-testid="flows-add-named"
          >
            <Plus aria-hidden className="size-4" />
            {t('flows.addNamed', { names: unlisted.join(', ') })}
          </Button>
        )}
        <Button
          variant="outline"
          size="sm"
          onClick={() => dispatch({ type: 'addFlows', names: [''] })}
          data-testid="flows-add"
        >
          <Plus aria-hidden className="size-4" />
          {t('flows.add')}
        </Button>
      </div>
      <p className="mt-2 text-[13px] text-muted-foreground" data-testid="flows-scripts-note">
        {t('flows.scriptsNote')}
      </p>
    </section>
  );
}
