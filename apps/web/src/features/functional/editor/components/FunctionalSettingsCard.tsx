import { FUNCTIONAL_BOUNDS } from '@aqa/plan';
import { Settings2 } from 'lucide-react';
import type { Dispatch } from 'react';
import { FormField } from '@/components/form-field';
import { Card } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import { useT } from '@/i18n';
import { cn } from '@/lib/utils';
import type { MessageKey } from '@/i18n/en';
import type { FunctionalForm, FunctionalFormAction, SettingField } from '../model/functional-form';
import { translateFunctionalMessage } from '../model/messages';

/** A number field of the form: the model's field name (where its problem is), its label and bounds. */
export interface NumberField {
  field: SettingField;
  model: string;
  label: MessageKey;
  bounds: { min: number; max: number; fallback: number };
}

/** The API and script screens' number fields and bounds (docs/reference/02-running.md §5). */
const NUMBER_FIELDS: NumberField[] = [
  {
    field: 'concurrentUsers',
    model: 'concurrent_users',
    label: 'functional.editor.concurrentUsers',
    bounds: FUNCTIONAL_BOUNDS.concurrent_users,
  },
  {
    field: 'iterations',
    model: 'iterations',
    label: 'functional.editor.iterations',
    bounds: FUNCTIONAL_BOUNDS.iterations,
  },
  {
    field: 'rampUp',
    model: 'ramp_up_time',
    label: 'functional.editor.rampUp',
    bounds: FUNCTIONAL_BOUNDS.ramp_up_time,
  },
  {
    field: 'duration',
    model: 'test_duration',
    label: 'functional.editor.duration',
    bounds: FUNCTIONAL_BOUNDS.test_duration,
  },
  {
    field: 'thinkTime',
    model: 'think_time',
    label: 'functional.editor.thinkTime',
    bounds: FUNCTIONAL_BOUNDS.think_time,
  },
];

/**
 * A UI test's numbers (docs/reference/02-running.md §5), on the UI screen and the script screen's Selenium
 * variant: one browser, so only iterations 1–10 and duration 1–60, each falling back to 1.
 */
export const UI_NUMBER_FIELDS: NumberField[] = [
  {
    field: 'iterations',
    model: 'iterations',
    label: 'functional.editor.iterations',
    bounds: FUNCTIONAL_BOUNDS.ui_iterations,
  },
  {
    field: 'duration',
    model: 'test_duration',
    label: 'functional.editor.duration',
    bounds: FUNCTIONAL_BOUNDS.test_duration,
  },
];

/**
 * The test configuration form of docs/reference/02-running.md §2 "Functional URL Input screen"; the UI
 * screen shows fewer number fields, with its own bounds and words.
 */
export function FunctionalSettingsCard({
  form,
  dispatch,
  errors,
  disabled,
  numberFields = NUMBER_FIELDS,
  text,
  testNamePlaceholder,
}: {
  form: FunctionalForm;
  dispatch: Dispatch<FunctionalFormAction>;
  /** Problems by the model's field name (test_name, iterations…). */
  errors: Record<string, string>;
  disabled: boolean;
  numberFields?: readonly NumberField[];
  /** The line under the title, and the test name's example, when the screen words them otherwise. */
  text?: string;
  testNamePlaceholder?: string;
}) {
  const t = useT();
  const set = (field: SettingField) => (value: string) => dispatch({ type: 'setSetting', field, value });
  const error = (field: string) => {
    const message = errors[field];
    return message ? translateFunctionalMessage(message, t) : undefined;
  };

  return (
    <Card className="space-y-5 p-4 sm:p-5" data-testid="functional-settings">
      <div className="space-y-0.5">
        <h2 className="flex items-center gap-2 text-base font-semibold">
          <Settings2 aria-hidden className="size-4 text-muted-foreground" />
          {t('functional.editor.configTitle')}
        </h2>
        <p className="text-[13px] leading-5 text-muted-foreground">
          {text ?? t('functional.editor.configText')}
        </p>
      </div>
      <fieldset disabled={disabled} className="space-y-4">
        <div className="grid gap-4 lg:grid-cols-2">
          <FormField
            id="functional-test-name"
            label={t('functional.editor.testName')}
            required
            error={error('test_name')}
            errorTestId="test-name-error"
          >
            {(control) => (
              <Input
                {...control}
                value={form.testName}
                maxLength={200}
                autoComplete="off"
                placeholder={testNamePlaceholder ?? t('functional.editor.testNamePlaceholder')}
                onChange={(event) => set('testName')(event.target.value)}
                data-testid="test-name"
              />
            )}
          </FormField>
          <FormField
            id="functional-description"
            label={t('functional.editor.description')}
            error={error('description')}
          >
            {(control) => (
              <Textarea
                {...control}
                rows={1}
                value={form.description}
                maxLength={2000}
                placeholder={t('functional.editor.descriptionPlaceholder')}
                onChange={(event) => set('description')(event.target.value)}
                className="min-h-10"
                data-testid="test-description"
              />
            )}
          </FormField>
        </div>
        <div
          className={cn(
            'grid grid-cols-2 gap-4',
            numberFields.length > 2 ? 'sm:grid-cols-3 xl:grid-cols-5' : 'lg:grid-cols-4',
          )}
        >
          {numberFields.map(({ field, model, label, bounds }) => (
            <FormField
              key={field}
              id={`functional-${field}`}
              label={t(label)}
              hint={t('functional.editor.boundsHint', { ...bounds })}
              error={error(model)}
              errorTestId={`${field}-error`}
            >
              {(control) => (
                <Input
                  {...control}
                  inputMode="numeric"
                  value={form[field]}
                  autoComplete="off"
                  onChange={(event) => set(field)(event.target.value)}
                  data-testid={`setting-${field}`}
                />
              )}
            </FormField>
          ))}
        </div>
      </fieldset>
    </Card>
  );
}
