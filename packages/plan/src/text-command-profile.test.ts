import { describe, expect, it } from 'vitest';
import { parseFunctionalTextCommand } from './text-command';
import { FunctionalPlanSchema } from './functional/functional-plan';
import { type PerfPlan, PerfPlanSchema, type PerfPlanInput } from './perf-plan';
import { applyTextCommand, describeUpdate, parseTextCommand } from './text-command';

/** James's "Adjust current test plan" on the load profile (text-command-profile.ts). */

function plan(over: Partial<PerfPlanInput> = {}): PerfPlan {
  return PerfPlanSchema.parse({
    name: 'Shop',
    concurrent_users: 10,
    duration: 5,
    urls: [{ name: 'Home', url: 'https://shop.test/' }],
    ...over,
  });
}

function applied(command: string, base: PerfPlan = plan()): PerfPlan {
  const { updates, errors } = parseTextCommand(command, base);
  expect(errors).toEqual([]);
  return applyTextCommand(base, updates);
}

function refusal(command: string, base: PerfPlan = plan()): string {
  const { updates, errors } = parseTextCommand(command, base);
  expect(updates).toEqual([]);
  expect(errors).toHaveLength(1);
  return errors[0]!;
}

describe('ramp up over …', () => {
  it('turns a flat plan into a ramp from 0 to its users and a hold for the rest of its minutes', () => {
    const next = applied('ramp up over 2 minutes');
    expect(next.load_profile).toEqual({
      model: 'users',
      start: 0,
      stages: [
        { duration: '2m', target: 10 },
        { duration: '3m', target: 10 },
      ],
      graceful_stop: '10s',
    });
    // The form's users and minutes stay true (withProfileTotals).
    expect([next.concurrent_users, next.duration]).toEqual([10, 5]);
  });

  it('reads a target, other units and the Korean wording', () => {
    expect(applied('ramp up to 50 users over 30s', plan({ duration: 1 })).load_profile?.stages).toEqual([
      { duration: '30s', target: 50 },
      { duration: '30s', target: 50 },
    ]);
    expect(applied('ramp-up of 90 seconds').load_profile?.stages[0]).toEqual({ duration: '90s', target: 10 });
    expect(applied('2분 동안 램프업').load_profile?.stages[0]).toEqual({ duration: '2m', target: 10 });
    expect(applied('200명까지 1분 동안 서서히 늘려').load_profile?.stages).toEqual([
      { duration: '1m', target: 200 },
      { duration: '4m', target: 200 },
    ]);
  });

  it('changes the first rising stage of a users profile and keeps the rest', () => {
    const base = plan({
      load_profile: {
        model: 'users',
        stages: [
          { duration: '30s', target: 20 },
          { duration: '1m', target: 20 },
          { duration: '10s', target: 0 },
        ],
      },
    });
    expect(applied('ramp up over 2 minutes', base).load_profile?.stages).toEqual([
      { duration: '2m', target: 20 },
      { duration: '1m', target: 20 },
      { duration: '10s', target: 0 },
    ]);
  });

  it('refuses in words what it cannot do, naming the clause', () => {
    expect(refusal('ramp up over 10 minutes')).toBe(
      'The ramp-up (10m) must be shorter than the test (5m): "ramp up over 10 minutes".',
    );
    expect(refusal('ramp up over 1 minute for API 1')).toBe(
      'A load profile applies to the whole plan, not to APIs: "ramp up over 1 minute for API 1".',
    );
    const open = plan({
      load_profile: { model: 'arrival_rate', stages: [{ duration: '1m', target: 50 }], max_users: 20 },
    });
    expect(refusal('ramp up over 30s', open)).toMatch(/does not start with a ramp of users/);
    expect(refusal('ramp up to 5000 users over 1 minute')).toBe(
      'Users must be a whole number from 1 to 1000: "ramp up to 5000 users over 1 minute".',
    );
  });
});

describe('add a spike to … users', () => {
  it('adds 10 s up, 30 s held and 10 s back down at the end of a flat plan', () => {
    const next = applied('add a spike to 500 users');
    expect(next.load_profile).toMatchObject({
      model: 'users',
      start: 10,
      stages: [
        { duration: '5m', target: 10 },
        { duration: '10s', target: 500 },
        { duration: '30s', target: 500 },
        { duration: '10s', target: 10 },
      ],
    });
    // 5 min 50 s: six minutes in the form, and the peak is the spike's.
    expect([next.concurrent_users, next.duration]).toEqual([500, 6]);
  });

  it('goes on from a ramp read in the same command, and before a closing ramp down to 0', () => {
    expect(applied('ramp up over 1 minute and add a spike to 300 users').load_profile?.stages).toEqual([
      { duration: '1m', target: 10 },
      { duration: '4m', target: 10 },
      { duration: '10s', target: 300 },
      { duration: '30s', target: 300 },
      { duration: '10s', target: 10 },
    ]);
    const closing = plan({
      load_profile: {
        model: 'users',
        stages: [
          { duration: '1m', target: 40 },
          { duration: '30s', target: 0 },
        ],
      },
    });
    expect(applied('add a spike to 300 users', closing).load_profile?.stages).toEqual([
      { duration: '1m', target: 40 },
      { duration: '10s', target: 300 },
      { duration: '30s', target: 300 },
      { duration: '10s', target: 40 },
      { duration: '30s', target: 0 },
    ]);
  });

  it('reads Korean and refuses an arrival-rate profile', () => {
    expect(applied('500명 스파이크 추가').load_profile?.stages[1]).toEqual({ duration: '10s', target: 500 });
    const open = plan({
      load_profile: { model: 'arrival_rate', stages: [{ duration: '1m', target: 50 }], max_users: 20 },
    });
    expect(refusal('add a spike to 500 users', open)).toMatch(/needs a users-model load profile/);
  });

  it('is described in the applied message with the new stages', () => {
    const { updates } = parseTextCommand('add a spike to 500 users', plan());
    expect(describeUpdate(updates[0]!)).toBe(
      'load profile → 10 → 5m:10 → 10s:500 → 30s:500 → 10s:10 (5m 50s)',
    );
  });
});

describe('a functional plan', () => {
  it('has no load profile to change, and says so', () => {
    const functional = FunctionalPlanSchema.parse({
      test_name: 'API',
      apis: [{ name: 'Home', method: 'GET', url: 'https://shop.test/' }],
    });
    const { errors } = parseFunctionalTextCommand('ramp up over 2 minutes', functional);
    expect(errors).toEqual(['A functional plan has no load profile to change: "ramp up over 2 minutes".']);
  });
});
