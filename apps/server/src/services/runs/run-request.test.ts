import { migratePlan, PLAN_ERRORS } from '@aqa/plan';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../errors';
import { DEMO_ACCOUNT } from '../demo-account.service';
import { planForRun } from './run-request';

const saved = migratePlan({
  name: 'Saved',
  tool: 'k6',
  concurrent_users: 5,
  duration: 3,
  urls: [{ url: 'http://127.0.0.1:9/saved', thinkTime: '1s' }],
});

function refusal(request: Parameters<typeof planForRun>[1], email = 'a@example.com'): ValidationError {
  try {
    planForRun(saved, request, email);
  } catch (error) {
    if (error instanceof ValidationError) return error;
    throw error;
  }
  throw new Error(`expected a refusal of ${JSON.stringify(request)}`);
}

describe('strict users and minutes (docs/design.md §11)', () => {
  it.each([0, -1, 'abc', null, '1e3', '0x10', ' 10 ', 1.5, '1.5', 'Infinity', 1e21, '99999999999'])(
    'refuses %j as duration and as concurrent_users, naming the field',
    (value) => {
      expect(refusal({ plan_id: 'p', duration: value }).errors).toEqual([
        { field: 'duration', message: PLAN_ERRORS.durationRange },
      ]);
      expect(refusal({ plan_id: 'p', concurrent_users: value }).errors).toEqual([
        { field: 'concurrent_users', message: PLAN_ERRORS.usersRange },
      ]);
    },
  );

  it('takes whole numbers and plain decimal digits', () => {
    expect(planForRun(saved, { plan_id: 'p', duration: '7', concurrent_users: 8 }, 'a@b.c')).toMatchObject({
      duration: 7,
      concurrent_users: 8,
    });
  });

  it('refuses a control character in the run name, naming planName', () => {
    expect(refusal({ plan_id: 'p', planName: 'Run\u0000name' }).errors.map((e) => e.field)).toEqual([
      'planName',
    ]);
  });
});

describe('demo account limits (docs/adr/0018-safe-defaults-and-lockout.md)', () => {
  it('refuses more than 50 users or 5 minutes for the demo account only', () => {
    const tooBig = { plan_id: 'p', concurrent_users: 51, duration: 6 };
    const error = refusal(tooBig, DEMO_ACCOUNT.email.toUpperCase());
    expect(error.code).toBe('DEMO_RUN_LIMIT');
    expect(error.errors.map((e) => e.field)).toEqual(['concurrent_users', 'duration']);
    expect(refusal({ plan_id: 'p', duration_seconds: 301 }, DEMO_ACCOUNT.email).errors).toEqual([
      { field: 'duration_seconds', message: 'The demo account runs tests of at most 5 minutes' },
    ]);
    expect(planForRun(saved, tooBig, 'someone@example.com').concurrent_users).toBe(51);
    expect(
      planForRun(saved, { plan_id: 'p', concurrent_users: 50, duration: 5 }, DEMO_ACCOUNT.email),
    ).toMatchObject({ concurrent_users: 50, duration: 5 });
    // duration_seconds, when sent, decides the length: 6 minutes of plan, 3 s of run.
    expect(
      planForRun(saved, { plan_id: 'p', duration: 6, duration_seconds: 3 }, DEMO_ACCOUNT.email).duration,
    ).toBe(6);
  });
});

describe('planForRun', () => {
  it('keeps the saved plan when the request carries only plan_id', () => {
    expect(planForRun(saved, { plan_id: 'p' }, 'a@example.com')).toMatchObject({
      name: 'Saved',
      tool: 'k6',
      concurrent_users: 5,
      duration: 3,
      urls: [{ url: 'http://127.0.0.1:9/saved' }],
    });
  });

  it("takes the request's fields, cleaned as the spec's client sends them", () => {
    const plan = planForRun(
      saved,
      {
        plan_id: 'p',
        tool: 'JMeter',
        concurrent_users: '12',
        duration: '4',
        planName: '  Run name ',
        urls: [
          {
            url: 'http://127.0.0.1:9/run',
            transactionRate: 'A@Example.com',
            parameters: [
              { name: 'q', value: '1' },
              { name: ' ', value: 'x' },
              { name: 'blank', value: '' },
            ],
            headers: [
              { name: 'X-A', value: 'a' },
              { name: '', value: 'orphan' },
              { key: 'X-Empty', value: ' ' },
            ],
          },
        ],
      },
      'a@example.com',
    );
    expect(plan).toMatchObject({ name: 'Run name', tool: 'jmeter', concurrent_users: 12, duration: 4 });
    expect(plan.urls[0]).toMatchObject({
      url: 'http://127.0.0.1:9/run',
      transactionRate: '',
      parameters: [{ key: 'q', value: '1' }],
      headers: [{ name: 'X-A', value: 'a' }],
    });
  });

  it('reports every problem of the result at once, with its field', () => {
    try {
      planForRun(
        saved,
        { plan_id: 'p', tool: 'gatling', concurrent_users: 0, urls: [{ url: 'nope' }] },
        'a@b.c',
      );
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).errors.map((e) => e.field)).toEqual([
        'tool',
        'concurrent_users',
        'urls.0.url',
      ]);
    }
  });
});
