import {
  ArrivalSchedule,
  formatSpan,
  type LoadProfile,
  type LoadProfileInput,
  type ProfilePoint,
  parseSpanMs,
  peakTarget,
  profileLengthMs,
  profilePoints,
  profileUsers,
} from '@aqa/plan';

/**
 * A load profile (docs/adr/0027-load-profiles.md) as the script generators write it: the planned line's
 * segments, the closed model's users as blocks that start and leave together, the open model's rate in
 * steps. Everything here reads the profile through @aqa/plan's load-profile.ts (profilePoints,
 * ArrivalSchedule, profileUsers), so a generator never reads the stages a second time.
 */

/** One stage of the planned line: from `from` at `fromMs` to `to` at `toMs`, linear in between. */
export interface ProfileSegment {
  fromMs: number;
  toMs: number;
  from: number;
  to: number;
}

export function profileSegments(profile: LoadProfile): ProfileSegment[] {
  const points = profilePoints(profile);
  return points.slice(1).map((to, i) => {
    const from = points[i] as ProfilePoint;
    return { fromMs: from.atMs, toMs: to.atMs, from: from.target, to: to.target };
  });
}

/** The graceful stop in milliseconds. */
export function gracefulStopMs(profile: LoadProfile): number {
  return parseSpanMs(profile.graceful_stop);
}

/** Whether every corner of the planned line falls on a whole second (JMeter's and Locust's resolution). */
export function onWholeSeconds(profile: LoadProfile): boolean {
  return profilePoints(profile).every((p) => p.atMs % 1000 === 0);
}

/**
 * Users of the closed model that start on one rising segment, evenly spaced, and leave together: user
 * `k` (from 0) of the block starts at `firstStartMs + k · spacingMs`; all leave at `endMs`.
 */
export interface UserBlock {
  users: number;
  firstStartMs: number;
  /** Time between two starts of the block; 0 when they start at once (a step, or one user). */
  spacingMs: number;
  endMs: number;
}

/**
 * The closed model's users as blocks. User number u (from 1) is active while the planned line is at u or
 * above — the planned users are the line rounded down, as the engine schedules them — so on a rising
 * segment the users join one by one as the line crosses them, and on a falling one the youngest leave
 * first (docs/adr/0027-load-profiles.md "2. The schedule"). Users that join on the same segment and leave
 * within the same `leaveResolutionMs` (rounded) are one block: a tool that stops a group of users at
 * one time (a JMeter thread group's duration) needs one group per block.
 */
export function userBlocks(profile: LoadProfile, leaveResolutionMs = 1000): UserBlock[] {
  const segments = profileSegments(profile);
  const lengthMs = profileLengthMs(profile);
  const open = new Map<string, { block: UserBlock & { segment: number }; top: number }>();
  const blocks: (UserBlock & { segment: number })[] = [];
  for (let user = 1; user <= peakTarget(profile); user++) {
    // The intervals user `user` is active: joined on segment `segment` (-1: at 0 s, from `start`).
    let joined: { segment: number; atMs: number } | undefined =
      profile.start >= user ? { segment: -1, atMs: 0 } : undefined;
    const leave = (atMs: number) => {
      if (joined === undefined) return;
      const endMs = Math.round(atMs / leaveResolutionMs) * leaveResolutionMs;
      const key = `${joined.segment}:${endMs}`;
      const current = open.get(key);
      if (current && current.top === user - 1) {
        const { block } = current;
        block.users += 1;
        // Evenly spaced on a linear segment: the second start fixes the spacing.
        if (block.users === 2) block.spacingMs = joined.atMs - block.firstStartMs;
        current.top = user;
      } else {
        const block = { users: 1, firstStartMs: joined.atMs, spacingMs: 0, endMs, segment: joined.segment };
        blocks.push(block);
        open.set(key, { block, top: user });
      }
      joined = undefined;
    };
    segments.forEach((s, index) => {
      const crossing = (level: number) =>
        s.toMs === s.fromMs
          ? s.fromMs
          : s.fromMs + ((level - s.from) / (s.to - s.from)) * (s.toMs - s.fromMs);
      if (s.to > s.from && s.from < user && user <= s.to && joined === undefined) {
        joined = { segment: index, atMs: crossing(user) };
      } else if (s.to < s.from && s.to < user && user <= s.from) {
        leave(crossing(user));
      }
    });
    leave(lengthMs);
  }
  return blocks
    .map(({ users, firstStartMs, spacingMs, endMs }) => ({ users, firstStartMs, spacingMs, endMs }))
    .sort((a, b) => a.firstStartMs - b.firstStartMs || a.endMs - b.endMs);
}

/** A stretch of the open model at one rate, in iterations per second. */
export interface RateStep {
  fromMs: number;
  toMs: number;
  rate: number;
}

/**
 * The open model's rate as steps: a flat segment is one step, a ramp is cut into steps of `stepMs`
 * (the last one shorter), each at the ramp's average rate over it, so every step starts as many
 * iterations as the planned line does over the same time (ArrivalSchedule#iterationsBy). Zero-length
 * segments (a jump) hold no time and give no step.
 */
export function rateSteps(profile: LoadProfile, stepMs = 1000): RateStep[] {
  const schedule = new ArrivalSchedule(profilePoints(profile));
  const steps: RateStep[] = [];
  for (const s of profileSegments(profile)) {
    const length = s.toMs - s.fromMs;
    if (length <= 0) continue;
    const cuts = s.from === s.to ? 1 : Math.ceil(length / stepMs);
    for (let i = 0; i < cuts; i++) {
      const fromMs = s.fromMs + i * stepMs;
      const toMs = i === cuts - 1 ? s.toMs : fromMs + stepMs;
      const iterations = schedule.iterationsBy(toMs) - schedule.iterationsBy(fromMs);
      // Rates go in steps of 0.001 per second (LoadProfileSchema): keep the average to that precision.
      steps.push({ fromMs, toMs, rate: Math.round((iterations / ((toMs - fromMs) / 1000)) * 1000) / 1000 });
    }
  }
  return steps;
}

/** The open model's pool of users: `max_users`, or the ADR's default for the peak rate. */
export function arrivalPool(profile: LoadProfile): number {
  return profileUsers(profile);
}

/**
 * A profile a tool says as ramp-up + hold (+ ramp-down): from 0 (or `start`) up to the peak, held,
 * optionally down to 0 at the end. Undefined when the line has any other shape.
 */
export interface RampHold {
  peak: number;
  rampUpMs: number;
  holdMs: number;
  rampDownMs: number;
}

export function rampHold(profile: LoadProfile): RampHold | undefined {
  const segments = profileSegments(profile).filter((s) => s.toMs > s.fromMs || s.to !== s.from);
  const peak = peakTarget(profile);
  let i = 0;
  let rampUpMs = 0;
  let holdMs = 0;
  let rampDownMs = 0;
  if (segments[i] && segments[i]!.to === peak && segments[i]!.from < peak && segments[i]!.from === 0) {
    rampUpMs = segments[i]!.toMs - segments[i]!.fromMs;
    i++;
  } else if (profile.start !== peak) return undefined;
  while (segments[i] && segments[i]!.from === peak && segments[i]!.to === peak) {
    holdMs += segments[i]!.toMs - segments[i]!.fromMs;
    i++;
  }
  if (segments[i] && segments[i]!.from === peak && segments[i]!.to === 0) {
    rampDownMs = segments[i]!.toMs - segments[i]!.fromMs;
    i++;
  }
  return i === segments.length ? { peak, rampUpMs, holdMs, rampDownMs } : undefined;
}

/** A rate as the model keeps one: in steps of 0.001 iterations per second. */
export function rate3(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/**
 * The level of step `k` (1…`steps`) of a stepping ramp-up to `peak`: each step adds peak / steps, the
 * first at 0 s, as Taurus's JMeter executor steps concurrency and throughput. Users are whole (rounded
 * down, as the engine schedules the line), a rate in steps of 0.001.
 */
export function stepLevel(peak: number, steps: number, k: number, model: LoadProfile['model']): number {
  const level = (peak * k) / steps;
  return model === 'users' ? Math.floor(level + 1e-9) : rate3(level);
}

/**
 * The stages of a stepping ramp-up: `steps` steps of `stepMs` each (a jump of "0s" to the next level,
 * then that level held), then `holdMs` at the peak. plan-to-taurus.ts writes `steps` for exactly this
 * shape (taurusStairs below), and the Taurus importer reads `steps` as it (taurus-load-profile.ts).
 */
export function stairStages(
  peak: number,
  steps: number,
  stepMs: number,
  holdMs: number,
  model: LoadProfile['model'],
): Pick<LoadProfileInput, 'start' | 'stages'> {
  const stages: { duration: string; target: number }[] = [];
  for (let k = 1; k <= steps; k++) {
    const level = stepLevel(peak, steps, k, model);
    if (k > 1) stages.push({ duration: '0s', target: level });
    stages.push({ duration: formatSpan(stepMs), target: level });
  }
  if (holdMs > 0) stages.push({ duration: formatSpan(holdMs), target: peak });
  return { start: stepLevel(peak, steps, 1, model), stages };
}

/** A stepping ramp-up as Taurus's execution says it: `steps` steps of `stepMs`, then `holdMs` at the peak. */
export interface TaurusStairs {
  steps: number;
  stepMs: number;
  holdMs: number;
}

/** The profile's stepping ramp-up when it is exactly one stairStages writes (at least 2 steps), else undefined. */
export function taurusStairs(profile: LoadProfile): TaurusStairs | undefined {
  const peak = peakTarget(profile);
  const spans = profile.stages.map((s) => parseSpanMs(s.duration));
  const n = spans.length;
  for (const holdMs of [spans[n - 1] ?? 0, 0]) {
    const stairStagesCount = holdMs > 0 ? n - 1 : n;
    const steps = (stairStagesCount + 1) / 2;
    const stepMs = spans[0] ?? 0;
    if (!Number.isInteger(steps) || steps < 2 || stepMs <= 0) continue;
    const expected = stairStages(peak, steps, stepMs, holdMs, profile.model);
    const same =
      expected.start === profile.start &&
      expected.stages.length === n &&
      expected.stages.every(
        (s, i) => parseSpanMs(s.duration) === spans[i] && s.target === profile.stages[i]?.target,
      );
    if (same) return { steps, stepMs, holdMs };
  }
  return undefined;
}
