import { z } from 'zod';
import { MAX_DURATION_MIN, MAX_USERS } from './plan-bounds';
import { oneLine } from './strict-input';

/**
 * A performance plan's load profile (docs/adr/0027-load-profiles.md): the load over time as stages, each
 * moving linearly from the previous stage's target to its own, like k6's `ramping-vus` and
 * `ramping-arrival-rate` executors.
 *
 * - `users` (the closed model): the targets are virtual users; each loops through the plan's calls.
 * - `arrival_rate` (the open model): the targets are iterations started per second, whatever the answers'
 *   times, from a pool of at most `max_users` virtual users; an iteration that finds no free user is
 *   dropped and counted.
 *
 * This module is the one source of the profile's shape and arithmetic: the plan schema, the engine's
 * schedule, the generators, the editor's preview and the result's planned line all read it.
 */

export const LOAD_MODELS = ['users', 'arrival_rate'] as const;
export type LoadModel = (typeof LOAD_MODELS)[number];

/** The most stages one profile holds; a longer shape is almost always a generated mistake. */
export const MAX_STAGES = 100;
/** A profile is as long as a flat plan may be (docs/reference/01-authoring.md §5: 1 to 1440 minutes). */
export const MAX_PROFILE_MS = MAX_DURATION_MIN * 60_000;
/** The highest arrival rate a stage may ask for, in iterations per second. */
export const MAX_RATE = 1_000_000;
/** The longest graceful stop: users finishing an iteration are given at most this long. */
export const MAX_GRACEFUL_STOP_MS = 3_600_000;
export const DEFAULT_GRACEFUL_STOP = '10s';

export class SpanError extends Error {
  override name = 'SpanError';
}

/** "500ms", "30s", "1.5s", "2m", "1h", or a number of seconds ("45"): the aqa CLI's form of a duration. */
const SPAN = /^(\d+(?:\.\d+)?|\.\d+)\s*(ms|s|m|h)?$/i;
const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;

/**
 * Milliseconds of a span of time written as the aqa CLI writes one (`--duration 30s`).
 * @throws SpanError naming the field and what to write instead.
 */
export function parseSpanMs(text: string, label = 'Duration'): number {
  const trimmed = text.trim();
  const match = SPAN.exec(trimmed);
  if (!match) {
    throw new SpanError(`${label} "${trimmed}" is not understood: write e.g. 500ms, 30s, 2m or 1h`);
  }
  const unit = (match[2] ?? 's').toLowerCase() as keyof typeof UNIT_MS;
  const ms = Number(match[1]) * UNIT_MS[unit];
  // Sub-millisecond spans cannot be scheduled; refuse rather than round what the user wrote.
  if (Math.abs(ms - Math.round(ms)) > 1e-6) {
    throw new SpanError(`${label} "${trimmed}" is not a whole number of milliseconds`);
  }
  return Math.round(ms);
}

/** The shortest text for a span: "2h", "90s", "1m", "250ms". */
export function formatSpan(ms: number): string {
  if (ms > 0 && ms % UNIT_MS.h === 0) return `${ms / UNIT_MS.h}h`;
  if (ms > 0 && ms % UNIT_MS.m === 0) return `${ms / UNIT_MS.m}m`;
  if (ms % UNIT_MS.s === 0) return `${ms / UNIT_MS.s}s`;
  return `${ms}ms`;
}

function spanField(label: string, maxMs: number) {
  return oneLine(label)
    .trim()
    .superRefine((text, ctx) => {
      try {
        const ms = parseSpanMs(text, label);
        if (ms > maxMs) {
          ctx.addIssue({ code: 'custom', message: `${label} "${text}" is longer than ${formatSpan(maxMs)}` });
        }
      } catch (error) {
        if (!(error instanceof SpanError)) throw error;
        ctx.addIssue({ code: 'custom', message: error.message });
      }
    });
}

const TARGET_TYPE = 'A stage target must be a number';
const NEGATIVE_TARGET = 'A stage target cannot be negative';

export const LoadStageSchema = z.object({
  /** How long the stage moves toward its target: "30s", "2m". "0s" jumps at once (a step). */
  duration: spanField('Stage duration', MAX_PROFILE_MS),
  /** Users (closed model) or iterations per second (open model) at the end of the stage. */
  target: z
    .number({ error: () => TARGET_TYPE })
    .finite(TARGET_TYPE)
    .min(0, NEGATIVE_TARGET),
});
export type LoadStage = z.infer<typeof LoadStageSchema>;

export const PROFILE_ERRORS = {
  model: `The load model must be one of: ${LOAD_MODELS.join(', ')}`,
  noStage: 'A load profile needs at least one stage',
  tooManyStages: `A load profile holds at most ${MAX_STAGES} stages`,
  noLength: 'The stages of a load profile must last longer than 0 s',
  tooLong: `The stages of a load profile may last ${formatSpan(MAX_PROFILE_MS)} at the most`,
  noLoad: 'A load profile must reach a target above 0 somewhere',
  wholeUsers: 'In the users model a stage target is a whole number of users',
  users: `In the users model a stage target is at most ${MAX_USERS} users`,
  rate: `An arrival rate is at most ${MAX_RATE.toLocaleString('en-US')} iterations per second`,
  rateStep: 'An arrival rate goes in steps of 0.001 iterations per second',
  maxUsers: `max_users must be a whole number from 1 to ${MAX_USERS}`,
  maxUsersClosed:
    'max_users belongs to the arrival_rate model; in the users model the stage targets are the users',
} as const;

export const LoadProfileSchema = z
  .object({
    model: z.enum(LOAD_MODELS, { error: () => PROFILE_ERRORS.model }),
    /** The target at 0 s, from which the first stage moves (k6's startVUs / startRate). */
    start: z
      .number({ error: () => TARGET_TYPE })
      .finite(TARGET_TYPE)
      .min(0, NEGATIVE_TARGET)
      .default(0),
    stages: z
      .array(LoadStageSchema)
      .min(1, PROFILE_ERRORS.noStage)
      .max(MAX_STAGES, PROFILE_ERRORS.tooManyStages),
    /** How long users finishing an iteration are given when their users leave (a ramp down, the end). */
    graceful_stop: spanField('Graceful stop', MAX_GRACEFUL_STOP_MS).default(DEFAULT_GRACEFUL_STOP),
    /** Open model only: the pool of virtual users iterations may use (k6's maxVUs). */
    max_users: z.number({ error: () => PROFILE_ERRORS.maxUsers }).optional(),
  })
  .superRefine((profile, ctx) => {
    const users = profile.model === 'users';
    const targets: [number, (string | number)[]][] = [
      [profile.start, ['start']],
      ...profile.stages.map((s, i): [number, (string | number)[]] => [s.target, ['stages', i, 'target']]),
    ];
    for (const [target, path] of targets) {
      if (users && !Number.isInteger(target))
        ctx.addIssue({ code: 'custom', path, message: PROFILE_ERRORS.wholeUsers });
      else if (users && target > MAX_USERS)
        ctx.addIssue({ code: 'custom', path, message: PROFILE_ERRORS.users });
      else if (!users && target > MAX_RATE)
        ctx.addIssue({ code: 'custom', path, message: PROFILE_ERRORS.rate });
      else if (!users && Math.abs(target * 1000 - Math.round(target * 1000)) > 1e-6)
        ctx.addIssue({ code: 'custom', path, message: PROFILE_ERRORS.rateStep });
    }
    if (targets.every(([target]) => target === 0))
      ctx.addIssue({ code: 'custom', path: ['stages'], message: PROFILE_ERRORS.noLoad });
    if (profile.max_users !== undefined) {
      if (users)
        ctx.addIssue({ code: 'custom', path: ['max_users'], message: PROFILE_ERRORS.maxUsersClosed });
      else if (!Number.isInteger(profile.max_users) || profile.max_users < 1 || profile.max_users > MAX_USERS)
        ctx.addIssue({ code: 'custom', path: ['max_users'], message: PROFILE_ERRORS.maxUsers });
    }
    // Lengths only once every stage's duration reads.
    const spans = profile.stages.map((s) => safeSpanMs(s.duration));
    if (spans.some((ms) => ms === undefined)) return;
    const length = spans.reduce<number>((sum, ms) => sum + (ms ?? 0), 0);
    if (length <= 0) ctx.addIssue({ code: 'custom', path: ['stages'], message: PROFILE_ERRORS.noLength });
    else if (length > MAX_PROFILE_MS)
      ctx.addIssue({ code: 'custom', path: ['stages'], message: PROFILE_ERRORS.tooLong });
  });
export type LoadProfile = z.infer<typeof LoadProfileSchema>;
export type LoadProfileInput = z.input<typeof LoadProfileSchema>;

function safeSpanMs(text: string): number | undefined {
  try {
    return parseSpanMs(text);
  } catch {
    return undefined;
  }
}

/** A point of the planned line: at `atMs` from the start the target is `target`. */
export interface ProfilePoint {
  atMs: number;
  target: number;
}

/** The corners of the planned line, from 0 s to the end: what a chart draws and the schedule follows. */
export function profilePoints(profile: LoadProfile): ProfilePoint[] {
  const points: ProfilePoint[] = [{ atMs: 0, target: profile.start }];
  let atMs = 0;
  for (const stage of profile.stages) {
    atMs += parseSpanMs(stage.duration);
    points.push({ atMs, target: stage.target });
  }
  return points;
}

/** How long the stages last, in milliseconds (the graceful stop not included). */
export function profileLengthMs(profile: LoadProfile): number {
  return profile.stages.reduce((sum, stage) => sum + parseSpanMs(stage.duration), 0);
}

/** The planned target at `atMs` from the start: linear within a stage; a 0 s stage is a step. */
export function targetAt(points: readonly ProfilePoint[], atMs: number): number {
  const first = points[0];
  if (first === undefined) return 0;
  if (atMs <= first.atMs) return first.target;
  for (let i = 1; i < points.length; i++) {
    const to = points[i]!;
    if (atMs < to.atMs) {
      const from = points[i - 1]!;
      return from.target + ((to.target - from.target) * (atMs - from.atMs)) / (to.atMs - from.atMs);
    }
  }
  return points[points.length - 1]!.target;
}

/** The highest target of the profile: peak users, or peak iterations per second. */
export function peakTarget(profile: LoadProfile): number {
  return Math.max(profile.start, ...profile.stages.map((s) => s.target));
}

/**
 * The open model's pool of virtual users when the plan does not set `max_users`: enough for iterations
 * of up to one second at the peak rate, at least 10, at most the plan's user limit. A pool too small
 * for the target's answers shows as dropped iterations, never as a lower rate passed off as the plan's.
 */
export function defaultMaxUsers(peakRate: number): number {
  return Math.min(MAX_USERS, Math.max(10, Math.ceil(peakRate)));
}

/** The virtual users a profile may have at once: peak users (closed) or the pool (open). */
export function profileUsers(profile: LoadProfile): number {
  if (profile.model === 'users') return peakTarget(profile);
  return profile.max_users ?? defaultMaxUsers(peakTarget(profile));
}

/** The plan's `duration` in whole minutes for a profile: its length rounded up, at least 1. */
export function profileMinutes(profile: LoadProfile): number {
  return Math.max(1, Math.ceil(profileLengthMs(profile) / 60_000));
}

/**
 * The open model's schedule: when each iteration is due. Iteration n (from 0) is due when n + ½
 * iterations have accumulated under the planned rate, so over any stretch of time the iterations due
 * are the planned count rounded, a ramp from 0 starts with its first half iteration rather than at 0 s,
 * and workers or agents taking every K-th iteration (n = k, k + K, …) together follow the plan exactly.
 */
export class ArrivalSchedule {
  /** Iterations accumulated at each corner of the planned line. */
  private readonly accumulated: number[];
  readonly totalIterations: number;

  constructor(private readonly points: readonly ProfilePoint[]) {
    this.accumulated = [0];
    for (let i = 1; i < points.length; i++) {
      const from = points[i - 1]!;
      const to = points[i]!;
      const seconds = (to.atMs - from.atMs) / 1000;
      this.accumulated.push(this.accumulated[i - 1]! + ((from.target + to.target) / 2) * seconds);
    }
    // Iterations with n + ½ within the accumulated total: the total rounded half up.
    this.totalIterations = Math.max(0, Math.floor(this.accumulated[this.accumulated.length - 1]! + 0.5));
  }

  /** Iterations accumulated from 0 s to `atMs` (a real number). */
  iterationsBy(atMs: number): number {
    const last = this.points.length - 1;
    for (let i = 1; i <= last; i++) {
      const to = this.points[i]!;
      if (atMs < to.atMs || i === last) {
        const from = this.points[i - 1]!;
        const t = Math.min(Math.max(atMs, from.atMs), to.atMs) - from.atMs;
        const rateAt = targetAt([from, to], from.atMs + t);
        return this.accumulated[i - 1]! + ((from.target + rateAt) / 2) * (t / 1000);
      }
    }
    return 0;
  }

  /** When iteration `n` (from 0) is due, in milliseconds from the start; undefined past the last. */
  dueMs(n: number): number | undefined {
    if (!(n >= 0) || n >= this.totalIterations) return undefined;
    const wanted = n + 0.5;
    for (let i = 1; i < this.points.length; i++) {
      if (this.accumulated[i]! < wanted) continue;
      const from = this.points[i - 1]!;
      const to = this.points[i]!;
      const seconds = (to.atMs - from.atMs) / 1000;
      const need = wanted - this.accumulated[i - 1]!;
      const a = from.target;
      const slope = seconds > 0 ? (to.target - a) / seconds : 0;
      // Solve a·τ + slope·τ²/2 = need for τ in the form that stays exact when a or slope is 0.
      const tau = (2 * need) / (a + Math.sqrt(Math.max(0, a * a + 2 * slope * need)));
      return from.atMs + Math.min(tau * 1000, to.atMs - from.atMs);
    }
    return this.points[this.points.length - 1]!.atMs;
  }
}

/** The presets of the editor (Grafana's load-testing guide's test types), filled from a peak and a length. */
export const PRESETS = ['smoke', 'average', 'stress', 'spike', 'soak', 'breakpoint'] as const;
export type Preset = (typeof PRESETS)[number];

/** What a Breakpoint run stops on unless the user changes it: errors piling up or answers slowing down. */
export const BREAKPOINT_ABORT_THRESHOLDS = ['error_rate<5%', 'p95<2000'] as const;

/** The users a Smoke test uses: a handful, to see that the plan works at all. */
const SMOKE_USERS = 3;

/**
 * A preset's profile for a peak (users, or iterations per second for Breakpoint) and a length. Stage
 * lengths are whole seconds and add up to the length; each preset keeps the shape of its test type:
 * - smoke: a few users (at most 3) for the whole length;
 * - average: ramp up over 10 %, hold 80 %, ramp down over 10 %;
 * - stress: the same toward a higher peak, ramping up over 20 %, hold 70 %, down 10 %;
 * - spike: straight up to the peak over two thirds, straight down over the last third, no plateau;
 * - soak: ramp up over 5 %, hold 90 %, ramp down over 5 %;
 * - breakpoint: the arrival rate rising from 0 to the peak over the whole length, until an abort
 *   threshold stops it (BREAKPOINT_ABORT_THRESHOLDS).
 */
export function presetProfile(preset: Preset, peak: number, lengthMs: number): LoadProfile {
  const stage = (ms: number, target: number): LoadStage => ({ duration: formatSpan(ms), target });
  const parts = (shares: readonly number[]): number[] => {
    const seconds = Math.max(shares.length, Math.round(lengthMs / 1000));
    const whole = shares.map((share) => Math.max(1, Math.round(seconds * share)));
    // What rounding gave or took goes to the longest stage, so the stages add up to the length.
    const longest = whole.indexOf(Math.max(...whole));
    whole[longest]! += seconds - whole.reduce((a, b) => a + b, 0);
    return whole.map((s) => s * 1000);
  };
  const base = { start: 0, graceful_stop: DEFAULT_GRACEFUL_STOP } as const;
  const upHoldDown = (shares: readonly [number, number, number]): LoadProfile => {
    const [up, hold, down] = parts(shares);
    return {
      ...base,
      model: 'users',
      stages: [stage(up!, peak), stage(hold!, peak), stage(down!, 0)],
    };
  };
  switch (preset) {
    case 'smoke': {
      const users = Math.min(peak, SMOKE_USERS);
      return { ...base, model: 'users', start: users, stages: [stage(parts([1])[0]!, users)] };
    }
    case 'average':
      return upHoldDown([0.1, 0.8, 0.1]);
    case 'stress':
      return upHoldDown([0.2, 0.7, 0.1]);
    case 'spike': {
      const [up, down] = parts([2 / 3, 1 / 3]);
      return { ...base, model: 'users', stages: [stage(up!, peak), stage(down!, 0)] };
    }
    case 'soak':
      return upHoldDown([0.05, 0.9, 0.05]);
    case 'breakpoint':
      return { ...base, model: 'arrival_rate', stages: [stage(parts([1])[0]!, peak)] };
  }
}
