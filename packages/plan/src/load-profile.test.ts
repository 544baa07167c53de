import { describe, expect, it } from 'vitest';
import {
  ArrivalSchedule,
  BREAKPOINT_ABORT_THRESHOLDS,
  LoadProfileSchema,
  PRESETS,
  PROFILE_ERRORS,
  SpanError,
  defaultMaxUsers,
  formatSpan,
  parseSpanMs,
  peakTarget,
  presetProfile,
  profileLengthMs,
  profileMinutes,
  profilePoints,
  profileUsers,
  targetAt,
  type LoadProfileInput,
} from './load-profile';
import { describeIssues } from './migrate-plan';

function problems(input: unknown) {
  const parsed = LoadProfileSchema.safeParse(input);
  if (parsed.success) throw new Error('expected the profile to be refused');
  return describeIssues(parsed.error);
}

const parse = (input: LoadProfileInput) => LoadProfileSchema.parse(input);

describe('parseSpanMs', () => {
  it.each([
    ['500ms', 500],
    ['30s', 30_000],
    ['1.5s', 1500],
    ['2m', 120_000],
    ['1h', 3_600_000],
    ['45', 45_000],
    ['0s', 0],
    [' 10S ', 10_000],
  ])('reads %j as %d ms', (text, ms) => expect(parseSpanMs(text)).toBe(ms));

  it('says what is wrong, naming the field', () => {
    expect(() => parseSpanMs('two minutes', 'Stage duration')).toThrow(
      new SpanError('Stage duration "two minutes" is not understood: write e.g. 500ms, 30s, 2m or 1h'),
    );
    expect(() => parseSpanMs('-5s')).toThrow(/not understood/);
    expect(() => parseSpanMs('1.5ms')).toThrow('Duration "1.5ms" is not a whole number of milliseconds');
  });

  it('writes the shortest text back, which reads as the same span', () => {
    for (const ms of [0, 250, 1000, 90_000, 60_000, 3_600_000, 5_400_000, 1500]) {
      expect(parseSpanMs(formatSpan(ms))).toBe(ms);
    }
    expect([formatSpan(90_000), formatSpan(7_200_000), formatSpan(1500)]).toEqual(['90s', '2h', '1500ms']);
  });
});

describe('LoadProfileSchema', () => {
  it('fills the defaults: from 0, a graceful stop of 10 s', () => {
    expect(parse({ model: 'users', stages: [{ duration: '30s', target: 50 }] })).toEqual({
      model: 'users',
      start: 0,
      stages: [{ duration: '30s', target: 50 }],
      graceful_stop: '10s',
    });
  });

  it('names each wrong field', () => {
    expect(problems({ model: 'vus', stages: [] })).toEqual([
      { field: 'model', message: PROFILE_ERRORS.model },
      { field: 'stages', message: PROFILE_ERRORS.noStage },
    ]);
    expect(
      problems({
        model: 'users',
        stages: [
          { duration: 'soon', target: 10 },
          { duration: '1m', target: 2.5 },
          { duration: '1m', target: 5000 },
          { duration: '1m', target: -1 },
        ],
      }),
    ).toEqual([
      {
        field: 'stages[0].duration',
        message: 'Stage duration "soon" is not understood: write e.g. 500ms, 30s, 2m or 1h',
      },
      { field: 'stages[3].target', message: 'A stage target cannot be negative' },
      { field: 'stages[1].target', message: PROFILE_ERRORS.wholeUsers },
      { field: 'stages[2].target', message: PROFILE_ERRORS.users },
    ]);
  });

  it('refuses a profile with no length, no load, or longer than a day', () => {
    expect(problems({ model: 'users', stages: [{ duration: '0s', target: 5 }] })).toEqual([
      { field: 'stages', message: PROFILE_ERRORS.noLength },
    ]);
    expect(problems({ model: 'users', stages: [{ duration: '1m', target: 0 }] })).toEqual([
      { field: 'stages', message: PROFILE_ERRORS.noLoad },
    ]);
    expect(
      problems({
        model: 'users',
        stages: [
          { duration: '20h', target: 5 },
          { duration: '5h', target: 5 },
        ],
      }),
    ).toEqual([{ field: 'stages', message: PROFILE_ERRORS.tooLong }]);
  });

  it('keeps max_users to the open model, and rates to thousandths', () => {
    expect(problems({ model: 'users', max_users: 50, stages: [{ duration: '1m', target: 5 }] })).toEqual([
      { field: 'max_users', message: PROFILE_ERRORS.maxUsersClosed },
    ]);
    expect(
      problems({ model: 'arrival_rate', max_users: 0, stages: [{ duration: '1m', target: 5 }] }),
    ).toEqual([{ field: 'max_users', message: PROFILE_ERRORS.maxUsers }]);
    expect(problems({ model: 'arrival_rate', stages: [{ duration: '1m', target: 0.0005 }] })).toEqual([
      { field: 'stages[0].target', message: PROFILE_ERRORS.rateStep },
    ]);
    expect(
      parse({ model: 'arrival_rate', stages: [{ duration: '1m', target: 0.5 }] }).stages[0]?.target,
    ).toBe(0.5);
  });
});

describe('the planned line', () => {
  const profile = parse({
    model: 'users',
    start: 5,
    stages: [
      { duration: '30s', target: 50 },
      { duration: '1m', target: 50 },
      { duration: '0s', target: 100 },
      { duration: '20s', target: 0 },
    ],
  });

  it('goes through its corners, linearly between them, and jumps at a 0 s stage', () => {
    const points = profilePoints(profile);
    expect(points).toEqual([
      { atMs: 0, target: 5 },
      { atMs: 30_000, target: 50 },
      { atMs: 90_000, target: 50 },
      { atMs: 90_000, target: 100 },
      { atMs: 110_000, target: 0 },
    ]);
    expect(targetAt(points, 0)).toBe(5);
    expect(targetAt(points, 15_000)).toBe(27.5);
    expect(targetAt(points, 60_000)).toBe(50);
    expect(targetAt(points, 89_999)).toBe(50);
    expect(targetAt(points, 90_000)).toBe(100);
    expect(targetAt(points, 100_000)).toBe(50);
    expect(targetAt(points, 500_000)).toBe(0);
  });

  it('gives the plan its peak users and whole minutes', () => {
    expect(profileLengthMs(profile)).toBe(110_000);
    expect(peakTarget(profile)).toBe(100);
    expect(profileUsers(profile)).toBe(100);
    expect(profileMinutes(profile)).toBe(2);
    expect(profileMinutes(parse({ model: 'users', stages: [{ duration: '10s', target: 1 }] }))).toBe(1);
  });

  it('sizes the open model pool from the peak rate unless the plan says', () => {
    const open = parse({ model: 'arrival_rate', stages: [{ duration: '1m', target: 200 }] });
    expect(profileUsers(open)).toBe(200);
    expect(profileUsers({ ...open, max_users: 40 })).toBe(40);
    expect([defaultMaxUsers(0.5), defaultMaxUsers(37.2), defaultMaxUsers(50_000)]).toEqual([10, 38, 1000]);
  });
});

describe('ArrivalSchedule', () => {
  /** Iterations due in each whole second, as a worker following the schedule would start them. */
  function perSecond(schedule: ArrivalSchedule, seconds: number): number[] {
    const counts = new Array<number>(seconds).fill(0);
    for (let n = 0; n < schedule.totalIterations; n++) {
      const at = schedule.dueMs(n)!;
      counts[Math.min(seconds - 1, Math.floor(at / 1000))]! += 1;
    }
    return counts;
  }

  it('starts a constant rate evenly: 10/s for 3 s is 30 iterations, 10 in each second', () => {
    const schedule = new ArrivalSchedule(
      profilePoints(parse({ model: 'arrival_rate', start: 10, stages: [{ duration: '3s', target: 10 }] })),
    );
    expect(schedule.totalIterations).toBe(30);
    expect(schedule.dueMs(0)).toBeCloseTo(50, 9);
    expect(schedule.dueMs(1)).toBeCloseTo(150, 9);
    expect(schedule.dueMs(29)).toBeCloseTo(2950, 9);
    expect(schedule.dueMs(30)).toBeUndefined();
    expect(perSecond(schedule, 3)).toEqual([10, 10, 10]);
  });

  it('follows a ramp: 0 to 100/s over 10 s is 500 iterations, each second the area under the line', () => {
    const schedule = new ArrivalSchedule(
      profilePoints(parse({ model: 'arrival_rate', stages: [{ duration: '10s', target: 100 }] })),
    );
    expect(schedule.totalIterations).toBe(500);
    // Second s holds the area between s and s+1 under rate = 10·t: 5, 15, 25, …
    expect(perSecond(schedule, 10)).toEqual([5, 15, 25, 35, 45, 55, 65, 75, 85, 95]);
    for (let n = 1; n < schedule.totalIterations; n++) {
      expect(schedule.dueMs(n)!).toBeGreaterThan(schedule.dueMs(n - 1)!);
    }
  });

  it('accumulates across stages, a pause at 0 and a step, and agrees with iterationsBy', () => {
    const points = profilePoints(
      parse({
        model: 'arrival_rate',
        start: 20,
        stages: [
          { duration: '2s', target: 20 },
          { duration: '1s', target: 0 },
          { duration: '1s', target: 0 },
          { duration: '0s', target: 50 },
          { duration: '2s', target: 50 },
        ],
      }),
    );
    const schedule = new ArrivalSchedule(points);
    expect(schedule.totalIterations).toBe(40 + 10 + 0 + 100);
    expect(perSecond(schedule, 6)).toEqual([20, 20, 10, 0, 50, 50]);
    for (const n of [0, 17, 45, 49, 50, 99, 149]) {
      const at = schedule.dueMs(n)!;
      expect(schedule.iterationsBy(at)).toBeCloseTo(n + 0.5, 6);
    }
  });

  it('splits exactly over K workers taking every K-th iteration', () => {
    const schedule = new ArrivalSchedule(
      profilePoints(parse({ model: 'arrival_rate', stages: [{ duration: '5s', target: 333 }] })),
    );
    const workers = 3;
    const taken = Array.from({ length: workers }, (_, k) => {
      let count = 0;
      for (let n = k; schedule.dueMs(n) !== undefined; n += workers) count += 1;
      return count;
    });
    expect(taken.reduce((a, b) => a + b, 0)).toBe(schedule.totalIterations);
    expect(Math.max(...taken) - Math.min(...taken)).toBeLessThanOrEqual(1);
  });
});

describe('presetProfile', () => {
  it('fills every preset from a peak and a length, its stages adding up to the length', () => {
    for (const preset of PRESETS) {
      const profile = LoadProfileSchema.parse(presetProfile(preset, 300, 5 * 60_000));
      expect(profileLengthMs(profile), preset).toBe(300_000);
      expect(peakTarget(profile), preset).toBe(preset === 'smoke' ? 3 : 300);
    }
  });

  it('keeps the shape of each test type', () => {
    const stages = (preset: (typeof PRESETS)[number]) =>
      presetProfile(preset, 300, 10 * 60_000).stages.map((s) => `${s.duration}→${s.target}`);
    expect(stages('smoke')).toEqual(['10m→3']);
    expect(stages('average')).toEqual(['1m→300', '8m→300', '1m→0']);
    expect(stages('stress')).toEqual(['2m→300', '7m→300', '1m→0']);
    expect(stages('spike')).toEqual(['400s→300', '200s→0']);
    expect(stages('soak')).toEqual(['30s→300', '9m→300', '30s→0']);
    expect(stages('breakpoint')).toEqual(['10m→300']);
    expect(presetProfile('breakpoint', 300, 60_000).model).toBe('arrival_rate');
    expect(BREAKPOINT_ABORT_THRESHOLDS).toContain('error_rate<5%');
  });

  it('gives even a 10-second profile a stage of at least a second each', () => {
    const profile = presetProfile('soak', 20, 10_000);
    expect(profile.stages.map((s) => s.duration)).toEqual(['1s', '8s', '1s']);
  });
});
