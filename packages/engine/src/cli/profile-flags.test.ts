import { describe, expect, it } from 'vitest';
import { ProfileFlagError, profileFromFlags, profileText, type ProfileFlags } from './profile-flags';

const flags = (given: Partial<ProfileFlags>): ProfileFlags => ({
  users: false,
  durationSeconds: undefined,
  defaultSeconds: 10,
  ...given,
});
const refusal = (given: Partial<ProfileFlags>): string => {
  try {
    profileFromFlags(flags(given));
  } catch (e) {
    if (e instanceof ProfileFlagError) return e.message;
    throw e;
  }
  throw new Error('not refused');
};

describe("aqa run's load-profile flags", () => {
  it('gives no profile without the flags', () => {
    expect(profileFromFlags(flags({}))).toBeUndefined();
  });

  it('reads --stage as the users model, in order, from 0', () => {
    const profile = profileFromFlags(flags({ stage: ['3s:4', '3s:4', '1s:0'] }));
    expect(profile).toEqual({
      model: 'users',
      start: 0,
      stages: [
        { duration: '3s', target: 4 },
        { duration: '3s', target: 4 },
        { duration: '1s', target: 0 },
      ],
      graceful_stop: '10s',
    });
    expect(profileText(profile!)).toBe('up to 4 users over 7s, 3 stages');
  });

  it('reads rate stages (/s) as the arrival-rate model, starting from --rate, with the pool of --max-users', () => {
    const profile = profileFromFlags(flags({ stage: ['10s:200/s'], rate: '50', maxUsers: '40' }));
    expect(profile).toMatchObject({
      model: 'arrival_rate',
      start: 50,
      stages: [{ duration: '10s', target: 200 }],
      max_users: 40,
    });
    expect(profileText(profile!)).toBe('up to 200 iterations/s over 10s, 1 stage, a pool of 40 users');
  });

  it('holds a constant --rate for --duration, or for the run length it would have had', () => {
    expect(profileFromFlags(flags({ rate: '20', durationSeconds: 6 }))).toMatchObject({
      model: 'arrival_rate',
      start: 20,
      stages: [{ duration: '6s', target: 20 }],
    });
    expect(profileFromFlags(flags({ rate: '2.5', defaultSeconds: 60 }))?.stages).toEqual([
      { duration: '60s', target: 2.5 },
    ]);
  });

  it('refuses what it cannot read, and flags that contradict the stages, naming the flag', () => {
    expect(refusal({ stage: ['soon'] })).toBe(
      '--stage "soon" is not understood: write DURATION:USERS (30s:50) or DURATION:RATE/s (30s:200/s)',
    );
    expect(refusal({ stage: ['30x:5'] })).toMatch(/^--stage "30x:5": /);
    expect(refusal({ stage: ['10s:5', '10s:50/s'] })).toMatch(
      /every stage is users .* or every stage is a rate/,
    );
    expect(refusal({ stage: ['10s:5'], users: true })).toBe(
      '--users cannot be given with --stage: the stages set the users',
    );
    expect(refusal({ stage: ['10s:5'], durationSeconds: 5 })).toBe(
      '--duration cannot be given with --stage: the stages set the length',
    );
    expect(refusal({ stage: ['10s:5'], maxUsers: '3' })).toMatch(
      /^--max-users is the pool of an arrival-rate run/,
    );
    expect(refusal({ maxUsers: '3' })).toMatch(/give --rate or rate stages/);
    expect(refusal({ stage: ['10s:5'], rate: '3' })).toBe(
      '--rate runs the arrival-rate model: write its stages as rates, 30s:200/s',
    );
    expect(refusal({ rate: 'fast' })).toBe('--rate must be a number above 0, not "fast"');
    expect(refusal({ rate: '5', users: true })).toMatch(/^--users cannot be given with --rate/);
  });

  it("says the model's own problems under the flag they came from", () => {
    expect(refusal({ stage: ['10s:2.5'] })).toBe(
      'the load profile cannot run:\n  --stage 1: In the users model a stage target is a whole number of users',
    );
    expect(refusal({ stage: ['0s:5'] })).toMatch(
      /--stage: The stages of a load profile must last longer than 0 s/,
    );
    expect(refusal({ rate: '5', maxUsers: '5000' })).toMatch(/--max-users: max_users must be a whole number/);
  });
});
