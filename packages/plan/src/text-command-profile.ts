import {
  DEFAULT_GRACEFUL_STOP,
  formatSpan,
  LoadProfileSchema,
  parseSpanMs,
  profileLengthMs,
  type LoadProfile,
  type LoadStage,
} from './load-profile';
import { MAX_USERS } from './plan-bounds';

/*
 * The load-profile changes a text command (James's "Adjust current test plan") reads
 * (docs/adr/0027-load-profiles.md, "7. Where a profile goes"): "ramp up over 2 minutes" and "add a spike
 * to 500 users", in English and Korean. Each is worked out against the plan's load as it is — its profile,
 * or for a plan without one the flat load of its users for its minutes — and answered as the whole new
 * profile, which the model then checks like one typed in the editor.
 */

/** The load a change starts from: the plan's profile, else its users for its minutes. */
export interface ProfileBase {
  profile: LoadProfile | undefined;
  users: number;
  minutes: number;
}

/** How long a spike takes to rise, stays at its peak, and takes to fall back (Grafana's spike test). */
const SPIKE_RISE = '10s';
const SPIKE_HOLD = '30s';
const SPIKE_FALL = '10s';

const NUMBER = String.raw`(\d+(?:\.\d+)?|\.\d+)`;
const UNIT = String.raw`(ms|milliseconds?|s|secs?|seconds?|m|mins?|minutes?|h|hours?|초|분|시간)`;
const DURATION = String.raw`${NUMBER}\s*${UNIT}(?![a-z])`;
const USERS_WORD = String.raw`(?:users?|vus?|virtual\s+users?|명|사용자)`;

/** "ramp up over 2 minutes", "ramp-up of 30s to 200 users", "2분 동안 램프업", "200명까지 2분 동안 서서히 늘려". */
const RAMP_EN = new RegExp(
  String.raw`^(?:set\s+|add\s+|use\s+)?(?:a\s+|the\s+)?ramp(?:\s*-?\s*up)?(?:\s+time)?(?:\s+(?:to|of|at))?(?:\s+(?:up\s+)?to\s+${NUMBER}\s*${USERS_WORD})?\s*(?:over|in|for|across|during|of|=|:|to|is)?\s*(?:the\s+first\s+)?${DURATION}(?:\s+(?:up\s+)?to\s+${NUMBER}\s*${USERS_WORD})?$`,
  'iu',
);
const RAMP_KO = new RegExp(
  String.raw`^(?:${NUMBER}\s*명\s*(?:까지|으로)\s*)?${DURATION}\s*(?:동안|에\s*걸쳐)\s*(?:(?:서서히|천천히|점점)\s*)?(?:램프\s*업|늘리|늘려|늘림|증가)`,
  'iu',
);
/** "add a spike to 500 users", "spike to 500", "500명 스파이크 추가", "500명까지 급증 추가". */
const SPIKE_EN = new RegExp(
  String.raw`^(?:add\s+|insert\s+|with\s+)?(?:a\s+|one\s+)?spike\s+(?:up\s+)?(?:to|of|at)\s+${NUMBER}\s*${USERS_WORD}?$`,
  'iu',
);
const SPIKE_KO = new RegExp(
  String.raw`^${NUMBER}\s*명\s*(?:까지|으로|의)?\s*(?:의\s*)?(?:스파이크|급증)`,
  'iu',
);

function spanText(amount: string, unit: string): string | undefined {
  const u = unit.toLowerCase();
  const suffix =
    u.startsWith('ms') || u.startsWith('milli')
      ? 'ms'
      : u === '초' || u.startsWith('s')
        ? 's'
        : u === '분' || u.startsWith('m')
          ? 'm'
          : 'h';
  return `${amount}${suffix}`;
}

/** The plan's load as a users-model profile: its own, or its users held for its minutes. */
function baseProfile(base: ProfileBase): LoadProfile {
  return (
    base.profile ?? {
      model: 'users',
      start: base.users,
      stages: [{ duration: `${base.minutes}m`, target: base.users }],
      graceful_stop: DEFAULT_GRACEFUL_STOP,
    }
  );
}

/** The profile checked by the model; its first problem in words otherwise. */
function checked(profile: LoadProfile, clause: string): LoadProfile | string {
  const parsed = LoadProfileSchema.safeParse(profile);
  if (parsed.success) return parsed.data;
  return `${parsed.error.issues[0]?.message ?? 'The load profile is not valid'}: "${clause}".`;
}

function wholeUsers(text: string, clause: string): number | string {
  const users = Number(text);
  if (!Number.isInteger(users) || users < 1 || users > MAX_USERS)
    return `Users must be a whole number from 1 to ${MAX_USERS}: "${clause}".`;
  return users;
}

/**
 * "ramp up over 2 minutes [to N users]": the load reaches its peak (or N) over that time. A plan without a
 * profile becomes a ramp from 0 and a hold at its users for the rest of its minutes; a users-model
 * profile that starts by rising gets that first stage's length (and target, when given).
 */
function rampUp(spanMs: number, span: string, to: number | undefined, base: ProfileBase, clause: string) {
  if (base.profile === undefined) {
    const lengthMs = base.minutes * 60_000;
    if (spanMs >= lengthMs)
      return `The ramp-up (${span}) must be shorter than the test (${formatSpan(lengthMs)}): "${clause}".`;
    const target = to ?? base.users;
    return checked(
      {
        model: 'users',
        start: 0,
        stages: [
          { duration: span, target },
          { duration: formatSpan(lengthMs - spanMs), target },
        ],
        graceful_stop: DEFAULT_GRACEFUL_STOP,
      },
      clause,
    );
  }
  const profile = base.profile;
  const first = profile.stages[0];
  if (profile.model !== 'users' || first === undefined || first.target <= profile.start)
    return `This plan's load profile does not start with a ramp of users; change it in the editor's Load profile: "${clause}".`;
  return checked(
    {
      ...profile,
      stages: [{ duration: span, target: to ?? first.target }, ...profile.stages.slice(1)],
    },
    clause,
  );
}

/**
 * "add a spike to N users": 10 s up to N, 30 s there, 10 s back to the level it left — before the
 * profile's closing ramp down to 0 when it has one, else at its end.
 */
function spike(users: number, base: ProfileBase, clause: string): LoadProfile | string {
  const profile = baseProfile(base);
  if (profile.model !== 'users')
    return `A spike of users needs a users-model load profile; this plan's is an arrival rate: "${clause}".`;
  const stages = [...profile.stages];
  const last = stages[stages.length - 1];
  const before = stages[stages.length - 2];
  const closing = last !== undefined && last.target === 0 && (before?.target ?? profile.start) > 0;
  const tail: LoadStage[] = closing ? [stages.pop()!] : [];
  const level = stages[stages.length - 1]?.target ?? profile.start;
  stages.push(
    { duration: SPIKE_RISE, target: users },
    { duration: SPIKE_HOLD, target: users },
    { duration: SPIKE_FALL, target: level },
    ...tail,
  );
  return checked({ ...profile, stages }, clause);
}

/** Whether a clause asks for a load-profile change (a functional plan, which has none, says so). */
export function isProfileClause(text: string): boolean {
  return [RAMP_EN, RAMP_KO, SPIKE_EN, SPIKE_KO].some((pattern) => pattern.test(text));
}

/**
 * A load-profile change read from a clause (its scope words already taken out): the whole new profile, a
 * problem in words, or undefined when the clause is not one of these changes.
 */
export function parseProfileClause(
  text: string,
  base: ProfileBase,
  clause: string,
): LoadProfile | string | undefined {
  const ramp = RAMP_EN.exec(text);
  if (ramp) {
    const [, toBefore, amount, unit, toAfter] = ramp;
    return rampClause(amount!, unit!, toBefore ?? toAfter, base, clause);
  }
  const rampKo = RAMP_KO.exec(text);
  if (rampKo) {
    const [, to, amount, unit] = rampKo;
    return rampClause(amount!, unit!, to, base, clause);
  }
  const spiked = SPIKE_EN.exec(text) ?? SPIKE_KO.exec(text);
  if (spiked) {
    const users = wholeUsers(spiked[1]!, clause);
    return typeof users === 'string' ? users : spike(users, base, clause);
  }
  return undefined;
}

function rampClause(
  amount: string,
  unit: string,
  to: string | undefined,
  base: ProfileBase,
  clause: string,
): LoadProfile | string {
  const span = spanText(amount, unit)!;
  let spanMs: number;
  try {
    spanMs = parseSpanMs(span, 'Ramp-up');
  } catch (problem) {
    return `${(problem as Error).message}: "${clause}".`;
  }
  if (spanMs <= 0) return `A ramp-up takes longer than 0 s: "${clause}".`;
  let target: number | undefined;
  if (to !== undefined) {
    const users = wholeUsers(to, clause);
    if (typeof users === 'string') return users;
    target = users;
  }
  return rampUp(spanMs, formatSpan(spanMs), target, base, clause);
}

/** "5m 50s", "1h 2m", "45s", "500ms": a length as people read it. */
function lengthText(ms: number): string {
  if (ms < 1000) return `${ms}ms`;
  const parts: string[] = [];
  let seconds = Math.round(ms / 1000);
  for (const [unit, size] of [
    ['h', 3600],
    ['m', 60],
    ['s', 1],
  ] as const) {
    if (seconds >= size) parts.push(`${Math.floor(seconds / size)}${unit}`);
    seconds %= size;
  }
  return parts.join(' ');
}

/**
 * A profile in words any language reads — the start, then each stage as duration:target, then the
 * whole length: "0 → 2m:50 → 3m:50 (5m)"; targets per second in the arrival-rate model ("/s").
 */
export function profileChangeText(profile: LoadProfile): string {
  const unit = profile.model === 'users' ? '' : '/s';
  const stages = profile.stages.map((stage) => `${stage.duration}:${stage.target}${unit}`);
  return `${profile.start}${unit} → ${stages.join(' → ')} (${lengthText(profileLengthMs(profile))})`;
}
