import {
  BREAKPOINT_ABORT_THRESHOLDS,
  formatSpan,
  LOAD_MODELS,
  parseSpanMs,
  PRESETS,
  SpanError,
  type LoadModel,
  type Preset,
} from '@aqa/plan';
import { Plus, Trash2 } from 'lucide-react';
import { lazy, Suspense, useState, type Dispatch } from 'react';
import { FormField } from '@/components/form-field';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { useT } from '@/i18n';
import type { PlanForm, PlanFormAction } from '../model/plan-form';
import {
  flatProfileForm,
  profileChartPoints,
  withNewStage,
  type ProfileCheck,
  type ProfileForm,
  type ProfileStageForm,
} from '../model/profile-form';
import { translatePlanMessage } from '../plan-messages';

const ProfileChart = lazy(() => import('./ProfileChart'));

/** A whole number from the form's text, or the fallback when it is not one above 0. */
function countOr(text: string, fallback: number): number {
  const value = Number(text.trim());
  return Number.isInteger(value) && value > 0 ? value : fallback;
}

/**
 * The load profile of the plan (docs/adr/0027-load-profiles.md): off by default; on, the model, the
 * presets filled from a peak and a length (§6), the stages as typed, graceful stop, max users (arrival
 * rate only) and a preview of the planned line. Each problem LoadProfileSchema finds is shown under its
 * field as the user types.
 */
export function LoadProfileEditor({
  form,
  dispatch,
  check,
}: {
  form: PlanForm;
  dispatch: Dispatch<PlanFormAction>;
  /** The profile as the schema reads it; undefined while the profile is off. */
  check: ProfileCheck | undefined;
}) {
  const t = useT();
  const profile = form.loadProfile;
  const users = countOr(form.concurrentUsers, 10);
  const minutes = countOr(form.duration, 1);
  /** The profile last turned off, so turning it on again brings it back rather than starting over. */
  const [parked, setParked] = useState<ProfileForm | null>(null);
  const [peak, setPeak] = useState(() => String(users));
  const [length, setLength] = useState(() => formatSpan(minutes * 60_000));
  const [presetProblem, setPresetProblem] = useState<string | null>(null);
  const [breakpointAdded, setBreakpointAdded] = useState(false);

  const errors = check && !check.ok ? check.errors : {};
  const error = (key: string) => {
    const message = errors[key];
    return message ? translatePlanMessage(message, t) : undefined;
  };
  const set = (next: ProfileForm) => dispatch({ type: 'setProfile', profile: next });
  const setStage = (id: string, change: Partial<ProfileStageForm>) => {
    if (!profile) return;
    set({
      ...profile,
      stages: profile.stages.map((stage) => (stage.id === id ? { ...stage, ...change } : stage)),
    });
  };

  const toggle = (on: boolean) => {
    if (on) {
      // The presets start from what the plan runs now.
      setPeak(String(users));
      setLength(formatSpan(minutes * 60_000));
      dispatch({ type: 'setProfile', profile: parked ?? flatProfileForm(users, minutes) });
    } else {
      setParked(profile);
      setBreakpointAdded(false);
      dispatch({ type: 'setProfile', profile: null });
    }
  };

  const applyPreset = (preset: Preset) => {
    const peakValue = Number(peak.trim());
    if (peak.trim() === '' || !Number.isFinite(peakValue) || peakValue <= 0) {
      setPresetProblem(t('loadProfile.presetPeakInvalid'));
      return;
    }
    let lengthMs: number;
    try {
      lengthMs = parseSpanMs(length);
    } catch (problem) {
      if (!(problem instanceof SpanError)) throw problem;
      setPresetProblem(
        t('loadProfile.error.spanUnread', { field: t('loadProfile.length'), value: length.trim() }),
      );
      return;
    }
    setPresetProblem(null);
    setBreakpointAdded(preset === 'breakpoint');
    dispatch({ type: 'applyPreset', preset, peak: peakValue, lengthMs });
  };

  const setModel = (model: LoadModel) => {
    if (!profile) return;
    // max_users belongs to the arrival rate model only (LoadProfileSchema refuses it in the users model).
    set({ ...profile, model, maxUsers: model === 'users' ? '' : profile.maxUsers });
  };

  return (
    <section
      className="mt-6 border-t border-border pt-4"
      data-testid="load-profile"
      aria-labelledby="load-profile-title"
    >
      <h3 id="load-profile-title" className="text-sm font-semibold">
        {t('loadProfile.title')}
      </h3>
      <label className="mt-2 flex cursor-pointer items-center gap-2 text-sm">
        <input
          type="checkbox"
          checked={profile !== null}
          onChange={(event) => toggle(event.target.checked)}
          className="size-4 accent-primary"
          data-testid="profile-toggle"
        />
        {t('loadProfile.toggle')}
      </label>
      <p className="mt-1 text-[13px] text-muted-foreground">{t('loadProfile.offText')}</p>

      {profile && (
        <div className="mt-4 grid gap-5">
          <fieldset className="grid gap-2">
            <legend className="mb-2 text-sm font-medium">{t('loadProfile.model')}</legend>
            <div className="grid gap-2 @xl:grid-cols-2">
              {LOAD_MODELS.map((model) => (
                <label
                  key={model}
                  className="flex cursor-pointer items-start gap-3 rounded-lg border border-border p-3 has-[:checked]:border-primary has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring"
                >
                  <input
                    type="radio"
                    name="profile-model"
                    value={model}
                    checked={profile.model === model}
                    onChange={() => setModel(model)}
                    className="mt-1 size-4 shrink-0 accent-primary"
                    data-testid={`profile-model-${model}`}
                  />
                  <span className="grid gap-0.5">
                    <span className="text-sm font-medium">{t(`loadProfile.model.${model}`)}</span>
                    <span className="text-[13px] text-muted-foreground">
                      {t(`loadProfile.model.${model}Text`)}
                    </span>
                  </span>
                </label>
              ))}
            </div>
            {error('model') && <p className="text-[13px] text-destructive">{error('model')}</p>}
          </fieldset>

          <div className="grid gap-3">
            <div>
              <p className="text-sm font-medium">{t('loadProfile.presets')}</p>
              <p className="text-[13px] text-muted-foreground">{t('loadProfile.presetsText')}</p>
            </div>
            <div className="grid gap-4 @xl:grid-cols-2 @4xl:grid-cols-4">
              <FormField id="profile-peak" label={t('loadProfile.peak')} hint={t('loadProfile.peakHint')}>
                {(control) => (
                  <Input
                    {...control}
                    inputMode="decimal"
                    value={peak}
                    onChange={(event) => setPeak(event.target.value)}
                    className="num"
                    data-testid="profile-peak"
                  />
                )}
              </FormField>
              <FormField
                id="profile-length"
                label={t('loadProfile.length')}
                hint={t('loadProfile.lengthHint')}
              >
                {(control) => (
                  <Input
                    {...control}
                    value={length}
                    onChange={(event) => setLength(event.target.value)}
                    className="num"
                    data-testid="profile-length"
                  />
                )}
              </FormField>
            </div>
            <div className="flex flex-wrap gap-2" role="group" aria-label={t('loadProfile.presets')}>
              {PRESETS.map((preset) => (
                <Button
                  key={preset}
                  variant="outline"
                  size="sm"
                  onClick={() => applyPreset(preset)}
                  data-testid={`profile-preset-${preset}`}
                >
                  {t(`loadProfile.preset.${preset}`)}
                </Button>
              ))}
            </div>
            {presetProblem && (
              <p className="text-[13px] text-destructive" data-testid="profile-preset-error">
                {presetProblem}
              </p>
            )}
            {breakpointAdded && (
              <p className="text-[13px] text-muted-foreground" data-testid="profile-breakpoint-note">
                {t('loadProfile.breakpointThresholds', {
                  thresholds: BREAKPOINT_ABORT_THRESHOLDS.join(', '),
                })}
              </p>
            )}
            {form.thresholds.length > 0 && (
              <p className="text-[13px] text-muted-foreground" data-testid="profile-thresholds">
                {t('loadProfile.planThresholds', { thresholds: form.thresholds.join(', ') })}
              </p>
            )}
          </div>

          <div className="grid gap-3">
            <div>
              <p className="text-sm font-medium">{t('loadProfile.stages')}</p>
              <p className="text-[13px] text-muted-foreground">{t('loadProfile.stagesText')}</p>
            </div>
            <div className="grid gap-4 @xl:grid-cols-2 @4xl:grid-cols-4">
              <FormField
                id="profile-start"
                label={t('loadProfile.start')}
                hint={t(`loadProfile.startHint.${profile.model}`)}
                error={error('start')}
                errorTestId="profile-start-error"
              >
                {(control) => (
                  <Input
                    {...control}
                    inputMode="decimal"
                    value={profile.start}
                    onChange={(event) => set({ ...profile, start: event.target.value })}
                    className="num"
                    data-testid="profile-start"
                  />
                )}
              </FormField>
            </div>
            <ol className="grid gap-3" data-testid="profile-stages">
              {profile.stages.map((stage, index) => (
                <li
                  key={stage.id}
                  className="grid gap-3 rounded-lg border border-border p-3 @xl:grid-cols-[1fr_1fr_auto] @xl:items-start"
                  data-testid={`profile-stage-${index}`}
                >
                  <FormField
                    id={`profile-stage-${stage.id}-duration`}
                    label={`${t('loadProfile.stage', { number: index + 1 })} · ${t('loadProfile.stageDuration')}`}
                    error={error(`stages.${stage.id}.duration`)}
                    errorTestId={`profile-stage-${index}-duration-error`}
                  >
                    {(control) => (
                      <Input
                        {...control}
                        value={stage.duration}
                        onChange={(event) => setStage(stage.id, { duration: event.target.value })}
                        className="num"
                        data-testid={`profile-stage-${index}-duration`}
                      />
                    )}
                  </FormField>
                  <FormField
                    id={`profile-stage-${stage.id}-target`}
                    label={t(`loadProfile.stageTarget.${profile.model}`)}
                    error={error(`stages.${stage.id}.target`)}
                    errorTestId={`profile-stage-${index}-target-error`}
                  >
                    {(control) => (
                      <Input
                        {...control}
                        inputMode="decimal"
                        value={stage.target}
                        onChange={(event) => setStage(stage.id, { target: event.target.value })}
                        className="num"
                        data-testid={`profile-stage-${index}-target`}
                      />
                    )}
                  </FormField>
                  <Button
                    variant="ghost"
                    size="icon"
                    className="@xl:mt-7"
                    disabled={profile.stages.length <= 1}
                    aria-label={t('loadProfile.removeStage', { number: index + 1 })}
                    onClick={() =>
                      set({ ...profile, stages: profile.stages.filter((s) => s.id !== stage.id) })
                    }
                    data-testid={`profile-stage-${index}-remove`}
                  >
                    <Trash2 aria-hidden className="size-4" />
                  </Button>
                </li>
              ))}
            </ol>
            {error('stages') && (
              <p className="text-[13px] text-destructive" data-testid="profile-stages-error">
                {error('stages')}
              </p>
            )}
            <div>
              <Button
                variant="outline"
                size="sm"
                onClick={() => set(withNewStage(profile))}
                data-testid="profile-add-stage"
              >
                <Plus aria-hidden className="size-4" />
                {t('loadProfile.addStage')}
              </Button>
            </div>
          </div>

          <div className="grid gap-4 @xl:grid-cols-2 @4xl:grid-cols-4">
            <FormField
              id="profile-graceful-stop"
              label={t('loadProfile.gracefulStop')}
              hint={t('loadProfile.gracefulStopHint')}
              error={error('graceful_stop')}
              errorTestId="profile-graceful-stop-error"
            >
              {(control) => (
                <Input
                  {...control}
                  value={profile.gracefulStop}
                  onChange={(event) => set({ ...profile, gracefulStop: event.target.value })}
                  className="num"
                  data-testid="profile-graceful-stop"
                />
              )}
            </FormField>
            {profile.model === 'arrival_rate' && (
              <FormField
                id="profile-max-users"
                label={t('loadProfile.maxUsers')}
                hint={t('loadProfile.maxUsersHint')}
                error={error('max_users')}
                errorTestId="profile-max-users-error"
              >
                {(control) => (
                  <Input
                    {...control}
                    inputMode="numeric"
                    value={profile.maxUsers}
                    onChange={(event) => set({ ...profile, maxUsers: event.target.value })}
                    className="num"
                    data-testid="profile-max-users"
                  />
                )}
              </FormField>
            )}
          </div>

          {/* What the generators write of a profile (docs/adr/0027-load-profiles.md "7. Where a profile goes"). */}
          <p className="text-[13px] text-muted-foreground" data-testid="profile-scripts-note">
            {t('loadProfile.scriptsNote')}
          </p>
          <Suspense fallback={null}>
            <ProfileChart points={check?.ok ? profileChartPoints(check.profile) : []} model={profile.model} />
          </Suspense>
        </div>
      )}
    </section>
  );
}
