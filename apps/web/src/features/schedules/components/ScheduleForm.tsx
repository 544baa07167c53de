import { contract } from '@aqa/contract';
import {
  cronProblem,
  describeSchedule,
  isTimeZone,
  nextRunTimes,
  ScheduleCreateSchema,
  type Schedule,
  type SchedulePlanKind,
} from '@aqa/plan';
import { CalendarClock } from 'lucide-react';
import { useMemo, useState, type FormEvent } from 'react';
import { FormField } from '@/components/form-field';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { Spinner } from '@/components/ui/spinner';
import { useI18n } from '@/i18n';
import { errorDetailMessage } from '@/i18n/error-messages';
import { ApiError } from '@/lib/api';
import { useRouteQuery } from '@/lib/queries';
import { TimeZoneSelect } from '@/components/time-zone-select';
import { timeZoneChoices } from '@/lib/time-zones';
import { findWorkspace, useWorkspace, useWorkspaces } from '@/lib/workspace';
import { CRON_PRESETS, formatInZone, scheduleProblemText } from '../model/schedule-words';
import { createSchedule } from '../queries/schedules-api';

interface PlanChoice {
  id: string;
  kind: SchedulePlanKind;
  name: string;
}

type Field = 'plan_id' | 'cron' | 'timezone';

/**
 * New schedule (docs/adr/0031-schedules.md): a saved plan of either kind, a cron expression (or a common
 * time), a time zone; while the user types, the expression in words and its next five times, read by the
 * same functions the server fires by (packages/plan/src/schedules.ts).
 */
export function ScheduleForm({ onCreated }: { onCreated: (schedule: Schedule) => void }) {
  const { t, language, locale } = useI18n();
  const loadPlans = useRouteQuery(contract.plans.list);
  const functionalPlans = useRouteQuery(contract.functional.list);
  // Channels told of this schedule's runs, beside the plan's own (docs/adr/0032-notifications-out.md).
  const channels = useRouteQuery(contract.notifications.list);
  const [channelIds, setChannelIds] = useState<string[]>([]);
  const plans: PlanChoice[] = useMemo(
    () => [
      ...(loadPlans.data ?? []).map((plan) => ({ id: plan.id, kind: 'load' as const, name: plan.name })),
      ...(functionalPlans.data ?? []).map((plan) => ({
        id: plan.id,
        kind: 'functional' as const,
        name: plan.test_name,
      })),
    ],
    [loadPlans.data, functionalPlans.data],
  );
  // The workspace's zone is offered first (docs/adr/0035-workspaces-and-roles.md): its members meet in it.
  const workspace = useWorkspace();
  const workspaces = useWorkspaces();
  const workspaceZone = findWorkspace(workspaces.data?.workspaces ?? [], workspace.id)?.timezone;
  const zones = useMemo(() => timeZoneChoices(workspaceZone), [workspaceZone]);
  // The preview counts from when the form opened: the next times move on only at the times themselves.
  const [openedAt] = useState(() => Date.now());
  const [planId, setPlanId] = useState('');
  const [cron, setCron] = useState('0 2 * * 1-5');
  // Untouched (null), the zone follows the workspace's, which may arrive after the form opened.
  const [chosenZone, setTimezone] = useState<string | null>(null);
  const timezone = chosenZone ?? zones[0] ?? 'UTC';
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);

  const cronError = cronProblem(cron);
  const zoneKnown = isTimeZone(timezone);
  const preview =
    cronError === null && zoneKnown
      ? {
          words: describeSchedule(cron, timezone, language) ?? cron,
          next: nextRunTimes(cron, timezone, openedAt),
        }
      : null;

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (adding) return;
    setFormError(null);
    const parsed = ScheduleCreateSchema.safeParse({
      plan_id: planId,
      cron,
      timezone,
      channel_ids: channelIds,
    });
    if (!parsed.success) {
      const found: Partial<Record<Field, string>> = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as Field;
        found[field] ??=
          field === 'plan_id' ? t('schedules.planRequired') : scheduleProblemText(issue.message, t);
      }
      setErrors(found);
      return;
    }
    setErrors({});
    setAdding(true);
    try {
      onCreated(await createSchedule(parsed.data));
      setPlanId('');
      setChannelIds([]);
    } catch (error) {
      const message =
        error instanceof ApiError && error.kind === 'http'
          ? scheduleProblemText(error.detail, t)
          : errorDetailMessage(error, t);
      setFormError(t('schedules.addFailed', { message }));
    } finally {
      setAdding(false);
    }
  }

  const plansLoaded = loadPlans.isSuccess && functionalPlans.isSuccess;
  return (
    <form noValidate onSubmit={(e) => void handleSubmit(e)} className="space-y-4" data-testid="schedule-form">
      <FormField id="schedule-plan" label={t('schedules.plan')} required error={errors.plan_id}>
        {(control) => (
          <NativeSelect
            {...control}
            value={planId}
            onChange={(e) => {
              setPlanId(e.target.value);
              setErrors((current) => ({ ...current, plan_id: undefined }));
            }}
            data-testid="schedule-plan"
          >
            <option value="">{t('schedules.planPlaceholder')}</option>
            {(['load', 'functional'] as const).map((kind) => (
              <optgroup
                key={kind}
                label={t(kind === 'load' ? 'schedules.planLoad' : 'schedules.planFunctional')}
              >
                {plans
                  .filter((plan) => plan.kind === kind)
                  .map((plan) => (
                    <option key={plan.id} value={plan.id}>
                      {plan.name}
                    </option>
                  ))}
              </optgroup>
            ))}
          </NativeSelect>
        )}
      </FormField>
      {plansLoaded && plans.length === 0 && (
        <p className="text-[13px] text-muted-foreground" data-testid="schedule-no-plans">
          {t('schedules.noPlans')}
        </p>
      )}
      <div className="grid gap-4 sm:grid-cols-[1fr_16rem]">
        <FormField id="schedule-cron" label={t('schedules.cron')} required error={errors.cron}>
          {(control) => (
            <Input
              {...control}
              value={cron}
              autoComplete="off"
              spellCheck={false}
              className="font-mono"
              onChange={(e) => {
                setCron(e.target.value);
                setErrors((current) => ({ ...current, cron: undefined }));
              }}
              data-testid="schedule-cron"
            />
          )}
        </FormField>
        <FormField id="schedule-timezone" label={t('schedules.timezone')} required error={errors.timezone}>
          {(control) => (
            <TimeZoneSelect
              {...control}
              zones={zones}
              value={timezone}
              onChange={(e) => setTimezone(e.target.value)}
              data-testid="schedule-timezone"
            />
          )}
        </FormField>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <span className="text-[13px] text-muted-foreground">{t('schedules.presets')}</span>
        {CRON_PRESETS.map((preset) => (
          <Button
            key={preset.cron}
            type="button"
            size="sm"
            variant={cron === preset.cron ? 'secondary' : 'outline'}
            onClick={() => {
              setCron(preset.cron);
              setErrors((current) => ({ ...current, cron: undefined }));
            }}
            data-testid="schedule-preset"
          >
            {t(preset.label)}
          </Button>
        ))}
      </div>
      <p className="text-[13px] text-muted-foreground">{t('schedules.cronHint')}</p>
      <div
        className="rounded-lg border border-border bg-muted/40 px-4 py-3"
        data-testid="schedule-preview"
        aria-live="polite"
      >
        {preview === null ? (
          <p className="text-sm text-destructive" data-testid="schedule-preview-problem">
            {cronError === null
              ? t('schedules.timezoneInvalid', { zone: timezone })
              : scheduleProblemText(cronError, t)}
          </p>
        ) : (
          <>
            <p className="text-sm font-medium" data-testid="schedule-preview-words">
              {t('schedules.preview')}: {preview.words}
            </p>
            <p className="mt-2 text-[13px] text-muted-foreground">{t('schedules.nextRuns')}</p>
            <ol className="mt-1 space-y-0.5 text-[13px] tabular-nums" data-testid="schedule-preview-next">
              {preview.next.map((at) => (
                <li key={at}>{formatInZone(at, timezone, locale)}</li>
              ))}
            </ol>
          </>
        )}
      </div>
      {(channels.data?.channels.length ?? 0) > 0 && (
        <fieldset className="space-y-2" data-testid="schedule-channels">
          <legend className="text-sm font-medium">{t('schedules.channels')}</legend>
          <div className="flex flex-wrap gap-x-5 gap-y-2">
            {channels.data?.channels.map((channel) => (
              <label key={channel.id} className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  className="size-4 accent-primary"
                  checked={channelIds.includes(channel.id)}
                  onChange={(e) =>
                    setChannelIds((current) =>
                      e.target.checked ? [...current, channel.id] : current.filter((id) => id !== channel.id),
                    )
                  }
                />
                {channel.name}
              </label>
            ))}
          </div>
          <p className="text-[13px] text-muted-foreground">{t('schedules.channelsHint')}</p>
        </fieldset>
      )}
      {formError && (
        <Alert variant="destructive" data-testid="schedule-form-error">
          {formError}
        </Alert>
      )}
      <Button type="submit" disabled={adding} data-testid="schedule-add">
        {adding ? <Spinner /> : <CalendarClock aria-hidden />}
        {adding ? t('schedules.adding') : t('schedules.add')}
      </Button>
    </form>
  );
}
