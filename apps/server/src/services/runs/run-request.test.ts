import { migratePlan } from '@aqa/plan';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../errors';
import { planForRun, wholeMinutes } from './run-request';

const saved = migratePlan({
  name: 'Saved',
  tool: 'k6',
  concurrent_users: 5,
  duration: 3,
  urls: [{ url: 'http://127.0.0.1:9/saved', thinkTime: '1s' }],
});

describe('wholeMinutes', () => {
  it.each([
    [5, 5],
    ['7', 7],
    [2.9, 2],
    ['abc', 1],
    [0, 1],
    [-3, 1],
    [null, 1],
    ['', 1],
  ])('%j → %d', (input, minutes) => {
    expect(wholeMinutes(input)).toBe(minutes);
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
        duration: '4.7',
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
