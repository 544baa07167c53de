import { MAX_DURATION_MIN, MAX_USERS, MIN_DURATION_MIN, MIN_USERS, ToolSchema, type Tool } from '@aqa/plan';
import { SlidersHorizontal } from 'lucide-react';
import { useMemo, type Dispatch } from 'react';
import { FormField } from '@/components/form-field';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import { useT } from '@/i18n';
import type { FormErrors } from '../model/form-to-plan';
import { TOOL_OPTIONS, type PlanForm, type PlanFormAction } from '../model/plan-form';
import { checkProfile, profileTotals } from '../model/profile-form';
import { translatePlanMessage } from '../plan-messages';
import { LoadProfileEditor } from './LoadProfileEditor';
import { TestDataEditor } from './TestDataEditor';
import { FlowsEditor } from './FlowsEditor';
import { NativeSelect } from '@/components/ui/native-select';

/** The plan's name, tool, users and duration: "Plan settings" on the URL screen, "Test Configuration" on the upload screen. */
export function PlanSettingsCard({
  form,
  dispatch,
  errors,
  disabled,
  onToolChange,
  title,
  description,
  tools = TOOL_OPTIONS,
}: {
  form: PlanForm;
  dispatch: Dispatch<PlanFormAction>;
  errors: FormErrors;
  disabled: boolean;
  onToolChange: (tool: Tool) => void;
  title?: string;
  description?: string;
  /** The tools offered; a loaded plan's tool is listed even when it is not among them. */
  tools?: readonly { value: Tool; label: string }[];
}) {
  const t = useT();
  const toolOptions = tools.some((option) => option.value === form.tool)
    ? tools
    : [...tools, ...TOOL_OPTIONS.filter((option) => option.value === form.tool)];
  const error = (field: string) => {
    const message = errors.plan[field];
    return message ? translatePlanMessage(message, t) : undefined;
  };
  const profileCheck = useMemo(
    () => (form.loadProfile ? checkProfile(form.loadProfile) : undefined),
    [form.loadProfile],
  );
  /** While a profile is on, users and minutes are its totals (docs/adr/0027-load-profiles.md), shown read-only. */
  const profileOn = profileCheck !== undefined;
  const totals = profileCheck?.ok ? profileTotals(profileCheck.profile) : undefined;
  return (
    <Card className="@container" data-testid="plan-settings">
      <CardHeader className="p-4 pb-4 sm:p-6 sm:pb-4">
        <CardTitle as="h2" className="flex items-center gap-2">
          <SlidersHorizontal aria-hidden className="size-4 text-muted-foreground" />
          {title ?? t('plans.settingsTitle')}
        </CardTitle>
        <CardDescription>{description ?? t('plans.settingsText')}</CardDescription>
      </CardHeader>
      <CardContent className="px-4 pb-4 sm:px-6 sm:pb-6">
        <fieldset disabled={disabled} className="grid gap-4 @xl:grid-cols-2 @4xl:grid-cols-[2fr_1fr_1fr_1fr]">
          <FormField
            id="plan-name"
            label={t('plans.planName')}
            required
            hint={t('plans.planNameHint')}
            error={error('name')}
            errorTestId="plan-name-error"
          >
            {(control) => (
              <Input
                {...control}
                value={form.name}
                maxLength={200}
                autoComplete="off"
                placeholder={t('plans.planNamePlaceholder')}
                onChange={(event) =>
                  dispatch({ type: 'setSetting', field: 'name', value: event.target.value })
                }
                data-testid="plan-name"
              />
            )}
          </FormField>
          <FormField id="plan-tool" label={t('plans.tool')} error={error('tool')}>
            {(control) => (
              <NativeSelect
                {...control}
                value={form.tool}
                onChange={(event) => {
                  const tool = ToolSchema.safeParse(event.target.value);
                  if (tool.success) onToolChange(tool.data);
                }}
                data-testid="plan-tool"
              >
                {toolOptions.map((option) => (
                  <option key={option.value} value={option.value}>
                    {option.label}
                  </option>
                ))}
              </NativeSelect>
            )}
          </FormField>
          <FormField
            id="plan-users"
            label={t('plans.concurrentUsers')}
            hint={
              profileOn
                ? t('loadProfile.totalsNote')
                : t('plans.concurrentUsersHint', { min: MIN_USERS, max: MAX_USERS })
            }
            error={error('concurrent_users')}
            errorTestId="plan-users-error"
          >
            {(control) => (
              <Input
                {...control}
                type="number"
                inputMode="numeric"
                min={MIN_USERS}
                max={MAX_USERS}
                step={1}
                placeholder="10"
                value={profileOn ? (totals?.users ?? '') : form.concurrentUsers}
                readOnly={profileOn}
                onChange={(event) =>
                  dispatch({ type: 'setSetting', field: 'concurrentUsers', value: event.target.value })
                }
                className="num"
                data-testid="plan-users"
              />
            )}
          </FormField>
          <FormField
            id="plan-duration"
            label={t('plans.duration')}
            hint={
              profileOn
                ? t('loadProfile.totalsNote')
                : t('plans.durationHint', { min: MIN_DURATION_MIN, max: MAX_DURATION_MIN })
            }
            error={error('duration')}
            errorTestId="plan-duration-error"
          >
            {(control) => (
              <Input
                {...control}
                type="number"
                inputMode="numeric"
                min={MIN_DURATION_MIN}
                max={MAX_DURATION_MIN}
                step={1}
                placeholder="5"
                value={profileOn ? (totals?.minutes ?? '') : form.duration}
                readOnly={profileOn}
                onChange={(event) =>
                  dispatch({ type: 'setSetting', field: 'duration', value: event.target.value })
                }
                className="num"
                data-testid="plan-duration"
              />
            )}
          </FormField>
        </fieldset>
        <fieldset disabled={disabled}>
          <LoadProfileEditor form={form} dispatch={dispatch} check={profileCheck} />
        </fieldset>
        {/* With a profile or without one (docs/adr/0027-load-profiles.md "Abort criteria"); Breakpoint adds its own. */}
        <fieldset disabled={disabled} className="mt-4">
          <FormField
            id="plan-abort-thresholds"
            label={t('loadProfile.abortThresholds')}
            hint={t('loadProfile.abortThresholdsHint')}
            error={error('abort_thresholds')}
            errorTestId="plan-abort-thresholds-error"
          >
            {(control) => (
              <Textarea
                {...control}
                rows={Math.max(2, form.abortThresholds.length)}
                value={form.abortThresholds.join('\n')}
                onChange={(event) =>
                  dispatch({ type: 'setAbortThresholds', lines: event.target.value.split('\n') })
                }
                className="font-mono text-[13px]"
                data-testid="plan-abort-thresholds"
              />
            )}
          </FormField>
        </fieldset>
        <fieldset disabled={disabled}>
          <FlowsEditor form={form} dispatch={dispatch} error={error('flows')} />
          <TestDataEditor form={form} dispatch={dispatch} />
        </fieldset>
      </CardContent>
    </Card>
  );
}
