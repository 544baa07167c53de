import {
  BREAKPOINT_ABORT_THRESHOLDS,
  DEFAULT_GRACEFUL_STOP,
  formatSpan,
  LoadProfileSchema,
  presetProfile,
  profileMinutes,
  profilePoints,
  profileUsers,
  type LoadModel,
  type LoadProfile,
  type LoadProfileInput,
  type Preset,
} from '@aqa/plan';
import { newId } from '@/features/call-editor';

/**
 * The load profile editor's state (docs/adr/0027-load-profiles.md): values as typed (a stage duration is
 * the text "30s" or "2m", a target is the text of a number), read by LoadProfileSchema on every edit so a
 * problem is shown under its field before anything is saved.
 */

export interface ProfileStageForm {
  id: string;
  /** As typed: "30s", "2m", "500ms". */
  duration: string;
  /** As typed: users (users model) or iterations per second (arrival rate model). */
  target: string;
}

export interface ProfileForm {
  model: LoadModel;
  /** The target at 0 s, as typed. */
  start: string;
  stages: ProfileStageForm[];
  gracefulStop: string;
  /** Arrival rate model only; blank: the default pool (`defaultMaxUsers`). */
  maxUsers: string;
}

/**
 * The profile as the model reads it. A text that is no number is sent as NaN, which the schema refuses
 * with its own words ("A stage target must be a number"); an invalid profile is never saved.
 */
export type ProfileBody = LoadProfileInput;

function stageForm(duration: string, target: number | string): ProfileStageForm {
  return { id: newId('stage'), duration, target: String(target) };
}

export function profileFormOf(profile: LoadProfile): ProfileForm {
  return {
    model: profile.model,
    start: String(profile.start),
    stages: profile.stages.map((stage) => stageForm(stage.duration, stage.target)),
    gracefulStop: profile.graceful_stop,
    maxUsers: profile.max_users === undefined ? '' : String(profile.max_users),
  };
}

/**
 * A profile turned on for a plan running `users` for `minutes`: the same load (all users from 0 s for the
 * whole length), so turning it on changes nothing until the user edits it or picks a preset.
 */
export function flatProfileForm(users: number, minutes: number): ProfileForm {
  return {
    model: 'users',
    start: String(users),
    stages: [stageForm(formatSpan(minutes * 60_000), users)],
    gracefulStop: DEFAULT_GRACEFUL_STOP,
    maxUsers: '',
  };
}

export function presetProfileForm(preset: Preset, peak: number, lengthMs: number): ProfileForm {
  return profileFormOf(presetProfile(preset, peak, lengthMs));
}

/** A blank stage after the last, holding the last target (what a new stage most often does). */
export function withNewStage(form: ProfileForm): ProfileForm {
  const last = form.stages[form.stages.length - 1];
  return { ...form, stages: [...form.stages, stageForm('1m', last?.target ?? form.start)] };
}

/** A number as typed; blank or not a number → NaN (see ProfileBody). */
function numberOf(text: string): number {
  const trimmed = text.trim();
  return trimmed === '' ? Number.NaN : Number(trimmed);
}

export function profileBodyOf(form: ProfileForm): ProfileBody {
  const maxUsers = form.maxUsers.trim();
  return {
    model: form.model,
    start: numberOf(form.start),
    stages: form.stages.map((stage) => ({ duration: stage.duration, target: numberOf(stage.target) })),
    graceful_stop: form.gracefulStop,
    ...(maxUsers !== '' ? { max_users: numberOf(maxUsers) } : {}),
  };
}

/** Problems by field: "model", "start", "stages" (the whole list), "stages.<id>.duration", "graceful_stop", "max_users". */
export type ProfileErrors = Partial<Record<string, string>>;

export type ProfileCheck = { ok: true; profile: LoadProfile } | { ok: false; errors: ProfileErrors };

/** The profile as LoadProfileSchema reads it, each problem keyed by its field (the first one of a field wins). */
export function checkProfile(form: ProfileForm): ProfileCheck {
  const body = profileBodyOf(form);
  const parsed = LoadProfileSchema.safeParse(body);
  if (parsed.success) return { ok: true, profile: parsed.data };
  const errors: ProfileErrors = {};
  for (const issue of parsed.error.issues) {
    const [head, index, field] = issue.path;
    const stage = head === 'stages' && typeof index === 'number' ? form.stages[index] : undefined;
    const key = stage ? `stages.${stage.id}.${String(field ?? 'duration')}` : String(head ?? 'stages');
    errors[key] ??= issue.message;
  }
  return { ok: false, errors };
}

/** The plan's users and minutes while a profile is on: peak users (or the pool) and the length rounded up. */
export function profileTotals(profile: LoadProfile): { users: number; minutes: number } {
  return { users: profileUsers(profile), minutes: profileMinutes(profile) };
}

/** The preview's line: seconds from the start against users or iterations per second. */
export function profileChartPoints(profile: LoadProfile): { x: number; y: number }[] {
  return profilePoints(profile).map((point) => ({ x: point.atMs / 1000, y: point.target }));
}

/** The plan's thresholds with Breakpoint's added where missing (docs/adr/0027-load-profiles.md "6. Presets"). */
export function withBreakpointThresholds(thresholds: readonly string[]): string[] {
  const missing = BREAKPOINT_ABORT_THRESHOLDS.filter((threshold) => !thresholds.includes(threshold));
  return [...thresholds, ...missing];
}
