import {
  DEFAULT_DURATION_MIN,
  formatSpan,
  type LoadProfile,
  LoadProfileSchema,
  type LoadProfileInput,
  MAX_PROFILE_MS,
  MAX_USERS,
  profileMinutes,
  profileUsers,
} from '@aqa/plan';
import { rate3, stairStages } from '../../export/profile-segments';
import { loadSetting, type Warn } from './taurus-execution';
import { durationMs, pathKey, scalarText } from './taurus-text';
import type { TaurusPerformanceLoad } from './taurus-model';
import type { PlainMap } from './yaml-tree';

export type { TaurusPerformanceLoad };

/*
 * A Taurus execution's load as a performance plan's (docs/adr/0027-load-profiles.md "Importers"): the
 * reverse of plan-to-taurus.ts's taurusLoad, so that plan → Taurus YAML → import gives back the same
 * profile for every shape Taurus can say. Taurus's load profile (docs/adr/0027-load-profiles.md
 * "The generated scripts"): `concurrency` users reached over `ramp-up` and held for `hold-for` after
 * it; `steps` makes the ramp a staircase; `throughput` caps the requests per second of the whole test.
 */

/** Taurus's concurrency when the execution sets none. */
const TAURUS_DEFAULT_CONCURRENCY = 1;

/**
 * The execution's load as a performance plan's users, minutes and load profile. `calls` is the number
 * of requests an iteration sends: Taurus's throughput counts requests, the open model iterations.
 */
export function readPerformanceLoad(
  execution: PlainMap,
  path: string,
  calls: number,
  warn: Warn,
): TaurusPerformanceLoad {
  const at = (key: string) => `${path}${pathKey(key)}`;
  const written = (key: string) => scalarText(loadSetting(execution, key)) ?? '';
  const count = (key: string): number | undefined => {
    const raw = loadSetting(execution, key);
    if (raw === undefined || raw === null) return undefined;
    const n = typeof raw === 'number' ? raw : Number(scalarText(raw)?.trim() || Number.NaN);
    if (Number.isFinite(n) && n >= 0) return n;
    warn(at(key), execution, key, `${key} "${written(key)}" is not a number of 0 or more; it is skipped`);
    return undefined;
  };
  const span = (key: string): number | undefined => {
    const raw = loadSetting(execution, key);
    if (raw === undefined || raw === null) return undefined;
    const ms = durationMs(raw);
    if (ms !== undefined) return Math.round(ms);
    warn(
      at(key),
      execution,
      key,
      `${key} "${written(key)}" is not a duration such as 90s or 1m30s; it is skipped`,
    );
    return undefined;
  };

  let users = count('concurrency') ?? TAURUS_DEFAULT_CONCURRENCY;
  if (!Number.isInteger(users) || users < 1 || users > MAX_USERS) {
    const fitted = Math.min(MAX_USERS, Math.max(1, Math.ceil(users)));
    warn(
      at('concurrency'),
      execution,
      'concurrency',
      `concurrency ${users} is ${fitted} users here: a performance plan runs a whole number of users from 1 to ${MAX_USERS}`,
    );
    users = fitted;
  }
  let rampMs = span('ramp-up') ?? 0;
  let holdMs = span('hold-for');
  const iterations = count('iterations');
  const steps = count('steps');
  const throughput = count('throughput');

  if (holdMs === undefined) {
    holdMs = rampMs > 0 ? 0 : DEFAULT_DURATION_MIN * 60_000;
    warn(
      path,
      execution,
      iterations === undefined ? 'scenario' : 'iterations',
      rampMs > 0
        ? 'The execution sets no hold-for: the plan ends when its ramp-up does'
        : `The execution sets no hold-for: the plan holds its users for ${formatSpan(holdMs)}`,
    );
  }
  if (iterations !== undefined) {
    warn(
      at('iterations'),
      execution,
      'iterations',
      `Taurus stops each user after ${iterations} iteration(s); a performance plan runs its users for its length (${formatSpan(rampMs + holdMs)}), so iterations is skipped`,
    );
  }
  if (rampMs + holdMs > MAX_PROFILE_MS) {
    const cut = Math.max(0, MAX_PROFILE_MS - rampMs);
    rampMs = Math.min(rampMs, MAX_PROFILE_MS);
    warn(
      at('hold-for'),
      execution,
      'hold-for',
      `ramp-up and hold-for last more than ${formatSpan(MAX_PROFILE_MS)}, a plan's longest: the hold is cut to ${formatSpan(cut)}`,
    );
    holdMs = cut;
  }

  const open = throughput !== undefined && throughput > 0;
  const model: LoadProfile['model'] = open ? 'arrival_rate' : 'users';
  let peak = users;
  if (open) {
    peak = Math.max(0.001, rate3(throughput / Math.max(1, calls)));
    warn(
      at('throughput'),
      execution,
      'throughput',
      `Taurus's throughput caps the requests per second of the whole test (${throughput}/s over ${calls} request(s) an iteration); the plan starts ${peak} iterations/s (the open model) from a pool of at most ${users} users (concurrency). What differs: JMeter slows the users down to the cap and never starts more than concurrency users at once, so a slow target gets fewer requests; the plan starts each iteration on time and counts those no free user could start as dropped`,
    );
  }
  let stepCount = steps === undefined ? 1 : Math.floor(steps);
  if (steps !== undefined && (stepCount < 1 || stepCount !== steps || (stepCount > 1 && rampMs === 0))) {
    warn(
      at('steps'),
      execution,
      'steps',
      rampMs === 0
        ? 'steps divides a ramp-up, and the execution has none; it is skipped'
        : `steps ${steps} is not a whole number of 1 or more; the ramp-up is ${stepCount > 1 ? `${stepCount} steps` : 'linear'}`,
    );
    if (rampMs === 0 || stepCount < 1) stepCount = 1;
  }

  let input: LoadProfileInput | undefined;
  const pool = open ? { max_users: users } : {};
  if (stepCount > 1) {
    const stepMs = Math.round(rampMs / stepCount);
    if (stepMs * stepCount !== rampMs) {
      warn(
        at('steps'),
        execution,
        'steps',
        `A ramp-up of ${formatSpan(rampMs)} in ${stepCount} steps is ${formatSpan(stepMs)} a step here: a stage lasts whole milliseconds`,
      );
    }
    input = { model, ...stairStages(peak, stepCount, stepMs, holdMs, model), ...pool };
  } else if (rampMs > 0) {
    input = {
      model,
      start: 0,
      stages: [
        { duration: formatSpan(rampMs), target: peak },
        ...(holdMs > 0 ? [{ duration: formatSpan(holdMs), target: peak }] : []),
      ],
      ...pool,
    };
  } else if (open || holdMs % 60_000 !== 0 || holdMs === 0) {
    const ms = holdMs > 0 ? holdMs : 60_000;
    input = { model, start: peak, stages: [{ duration: formatSpan(ms), target: peak }], ...pool };
  }
  if (input === undefined) return { concurrent_users: users, duration: holdMs / 60_000 };
  const profile = LoadProfileSchema.safeParse(input);
  if (!profile.success) {
    warn(
      path,
      execution,
      'scenario',
      `The execution's load cannot be a load profile (${profile.error.issues.map((i) => i.message).join('; ')}); the plan runs ${users} users for ${DEFAULT_DURATION_MIN} minute(s)`,
    );
    return { concurrent_users: users, duration: DEFAULT_DURATION_MIN };
  }
  return {
    concurrent_users: profileUsers(profile.data),
    duration: profileMinutes(profile.data),
    load_profile: profile.data,
  };
}
