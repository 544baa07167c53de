import {
  formatSpan,
  LoadProfileSchema,
  parseSpanMs,
  peakTarget,
  profileLengthMs,
  profileUsers,
  SpanError,
  type LoadProfile,
  type LoadProfileInput,
} from '@aqa/plan';

/*
 * `aqa run`'s load-profile flags (docs/adr/0027-load-profiles.md, "Where a profile goes"), read into
 * the plan model's LoadProfile for a run on this machine:
 *
 *   --stage 30s:50        a stage of the users model: over 30 s, move to 50 users (repeatable, in order)
 *   --stage 30s:200/s     a stage of the arrival-rate model: move to 200 iterations per second
 *   --rate 200            the arrival-rate model at 200 iterations per second for --duration; with rate
 *                         stages, the rate they start from (k6's startRate)
 *   --max-users 50        the arrival-rate model's pool of virtual users (k6's maxVUs)
 *
 * The stages set the users and the length, so --users and --duration are refused beside them. What the
 * model refuses is said in its words, under the flag it came from.
 */

/** A flag that cannot be read, in words; `aqa run` says it and exits 2. */
export class ProfileFlagError extends Error {}

export interface ProfileFlags {
  stage?: string[] | undefined;
  rate?: string | undefined;
  maxUsers?: string | undefined;
  /** Whether --users was given (the stages set the users). */
  users: boolean;
  /** --duration in seconds, when given: the length of a constant --rate. */
  durationSeconds: number | undefined;
  /** How long a constant --rate runs without --duration: the plan's duration, or the quick form's 10 s. */
  defaultSeconds: number;
}

const STAGE = /^\s*([^:\s]+)\s*:\s*([0-9]+(?:\.[0-9]+)?)\s*(\/s)?\s*$/;

interface ReadStage {
  duration: string;
  target: number;
  rate: boolean;
}

function readStage(text: string): ReadStage {
  const match = STAGE.exec(text);
  if (!match)
    throw new ProfileFlagError(
      `--stage ${JSON.stringify(text)} is not understood: write DURATION:USERS (30s:50) or DURATION:RATE/s (30s:200/s)`,
    );
  const duration = match[1]!;
  try {
    parseSpanMs(duration, 'Stage duration');
  } catch (e) {
    if (e instanceof SpanError) throw new ProfileFlagError(`--stage ${JSON.stringify(text)}: ${e.message}`);
    throw e;
  }
  return { duration, target: Number(match[2]), rate: match[3] !== undefined };
}

function positiveNumber(flag: string, text: string): number {
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n) || n <= 0)
    throw new ProfileFlagError(`${flag} must be a number above 0, not ${JSON.stringify(text)}`);
  return n;
}

/** Seconds as a span the model reads ("10s", "1.5s"). */
const seconds = (s: number): string => `${Number(s.toFixed(3))}s`;

/** The profile the flags describe, or undefined when none of them was given. */
export function profileFromFlags(flags: ProfileFlags): LoadProfile | undefined {
  const stages = (flags.stage ?? []).map(readStage);
  if (stages.length === 0 && flags.rate === undefined && flags.maxUsers === undefined) return undefined;
  const rateStages = stages.filter((s) => s.rate).length;
  if (rateStages > 0 && rateStages < stages.length)
    throw new ProfileFlagError(
      '--stage: every stage is users (30s:50) or every stage is a rate (30s:200/s), not both in one run',
    );
  const open = flags.rate !== undefined || rateStages > 0;
  if (flags.maxUsers !== undefined && !open)
    throw new ProfileFlagError(
      stages.length > 0
        ? '--max-users is the pool of an arrival-rate run: with users stages (30s:50) the stages are the users'
        : '--max-users is the pool of an arrival-rate run: give --rate or rate stages (30s:200/s)',
    );
  if (stages.length > 0 && flags.rate !== undefined && rateStages === 0)
    throw new ProfileFlagError('--rate runs the arrival-rate model: write its stages as rates, 30s:200/s');
  if (flags.users)
    throw new ProfileFlagError(
      stages.length > 0
        ? '--users cannot be given with --stage: the stages set the users'
        : '--users cannot be given with --rate: the arrival rate starts iterations; --max-users sets the pool',
    );
  if (stages.length > 0 && flags.durationSeconds !== undefined)
    throw new ProfileFlagError('--duration cannot be given with --stage: the stages set the length');

  const rate = flags.rate === undefined ? undefined : positiveNumber('--rate', flags.rate);
  const maxUsers = flags.maxUsers === undefined ? undefined : positiveNumber('--max-users', flags.maxUsers);
  const input: LoadProfileInput =
    stages.length > 0
      ? {
          model: open ? 'arrival_rate' : 'users',
          start: rate ?? 0,
          stages: stages.map(({ duration, target }) => ({ duration, target })),
        }
      : {
          // A constant rate: it starts at the rate and holds it for the run's length.
          model: 'arrival_rate',
          start: rate!,
          stages: [{ duration: seconds(flags.durationSeconds ?? flags.defaultSeconds), target: rate! }],
        };
  if (maxUsers !== undefined) input.max_users = maxUsers;
  const parsed = LoadProfileSchema.safeParse(input);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${flagOf(issue.path)}: ${issue.message}`);
    throw new ProfileFlagError(`the load profile cannot run:\n${lines.join('\n')}`);
  }
  return parsed.data;
}

/** The flag a model problem came from, for its message. */
function flagOf(path: readonly PropertyKey[]): string {
  const [field, index] = path;
  if (field === 'stages' && typeof index === 'number') return `--stage ${index + 1}`;
  if (field === 'stages') return '--stage';
  if (field === 'start') return '--rate';
  if (field === 'max_users') return '--max-users';
  return String(field ?? 'profile');
}

/** The profile in a few words, for the line a run starts with: "up to 50 users over 1m40s, 3 stages". */
export function profileText(profile: LoadProfile): string {
  const length = formatSpan(profileLengthMs(profile));
  const stages = `${profile.stages.length} stage${profile.stages.length === 1 ? '' : 's'}`;
  return profile.model === 'users'
    ? `up to ${peakTarget(profile)} users over ${length}, ${stages}`
    : `up to ${peakTarget(profile)} iterations/s over ${length}, ${stages}, a pool of ${profileUsers(profile)} users`;
}
