import type { FunctionalPlan, PerfPlan } from '@aqa/plan';
import { type FieldError, ValidationError } from '../errors';
import { normalizeEmail } from './account-user';
import { DEMO_ACCOUNT } from './demo-account.service';

/**
 * What a run of the demo account may ask for (docs/adr/0018-safe-defaults-and-lockout.md): its password
 * is on the sign-in page, so even where an operator turns it on for a reachable server
 * (DEMO_ACCOUNT=on) it is a way to try the product, not a free load generator.
 */
export const DEMO_RUN_LIMITS = {
  users: 50,
  /** Per run, whether asked for in minutes or with duration_seconds. */
  seconds: 5 * 60,
  /** Runs of the demo account going at once. */
  runsAtOnce: 1,
} as const;

export function isDemoAccount(email: string): boolean {
  return normalizeEmail(email) === normalizeEmail(DEMO_ACCOUNT.email);
}

/**
 * The demo limits a run of `users` users lasting `seconds` would break, each named by the field that
 * asks for too much (`durationField` for the length); none for other users.
 */
function demoLimitProblems(
  email: string,
  users: number,
  seconds: number,
  durationField: string,
): FieldError[] {
  if (!isDemoAccount(email)) return [];
  const problems: FieldError[] = [];
  if (users > DEMO_RUN_LIMITS.users) {
    problems.push({
      field: 'concurrent_users',
      message: `The demo account runs at most ${DEMO_RUN_LIMITS.users} concurrent users`,
    });
  }
  if (seconds > DEMO_RUN_LIMITS.seconds) {
    problems.push({
      field: durationField,
      message: `The demo account runs tests of at most ${DEMO_RUN_LIMITS.seconds / 60} minutes`,
    });
  }
  return problems;
}

/** The demo limits this run would break, by the field that asks for too much; none for other users. */
export function demoRunProblems(
  email: string,
  plan: Pick<PerfPlan, 'concurrent_users' | 'duration'>,
  durationSeconds: number | undefined,
): FieldError[] {
  return demoLimitProblems(
    email,
    plan.concurrent_users,
    durationSeconds ?? plan.duration * 60,
    durationSeconds === undefined ? 'duration' : 'duration_seconds',
  );
}

/**
 * The same bounds for a functional run of the demo account: at most DEMO_RUN_LIMITS.users users, and a
 * test duration (the run's cap, in minutes) of at most DEMO_RUN_LIMITS.seconds.
 */
export function demoFunctionalRunProblems(
  email: string,
  plan: Pick<FunctionalPlan, 'concurrent_users' | 'test_duration'>,
): FieldError[] {
  return demoLimitProblems(email, plan.concurrent_users, plan.test_duration * 60, 'test_duration');
}

const DEMO_HINT = 'Create an account of your own (or ask the operator for one) to run larger tests.';

/**
 * A demo run over the limits, load or functional: 400 DEMO_RUN_LIMIT naming each field, with what to do
 * (docs/adr/0018-safe-defaults-and-lockout.md). `namesFields` puts the field names in `detail`.
 */
export function demoRunRefusal(problems: FieldError[], namesFields = false): ValidationError {
  return new ValidationError(problems, { code: 'DEMO_RUN_LIMIT', hint: DEMO_HINT, namesFields });
}
