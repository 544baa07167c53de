import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type FunctionalPlan, FunctionalPlanSchema } from './functional/functional-plan';
import { type PerfPlan, PerfPlanSchema } from './perf-plan';
import {
  applyFunctionalTextCommand,
  applyTextCommand,
  parseFunctionalTextCommand,
  parseTextCommand,
} from './text-command';

/*
 * The parser as James uses it (docs/design.md §10): values relative to the plan's own ("double the
 * users"), APIs named as calls, Korean, and functional plans read by the same clauses.
 */

function perfPlan(users = 10): PerfPlan {
  return PerfPlanSchema.parse({
    name: 'Shop',
    concurrent_users: users,
    duration: 5,
    urls: [
      { name: 'Login', method: 'POST', url: 'https://shop.test/login' },
      { name: 'Catalog', url: 'https://shop.test/catalog' },
    ],
  });
}

function functionalPlan(overrides: Record<string, unknown> = {}): FunctionalPlan {
  return FunctionalPlanSchema.parse({
    test_name: 'Checkout',
    concurrent_users: 2,
    iterations: 3,
    apis: [
      { name: 'Login', url: 'https://shop.test/login', method: 'POST', headers: { 'X-Env': 'dev' } },
      { name: 'Cart', url: 'https://shop.test/cart' },
    ],
    ...overrides,
  });
}

describe('parseTextCommand: what James reads', () => {
  it('doubles the users and sets a think time on the login call in one command', () => {
    const plan = perfPlan(10);
    const { updates, errors } = parseTextCommand(
      'double the users and add a 200 ms think time to the login call',
      plan,
    );
    expect(errors).toEqual([]);
    expect(updates).toEqual([
      { field: 'concurrent_users', value: 20, scope: 'plan' },
      { field: 'thinkTime', value: '200ms', scope: { api: 0 } },
    ]);
    const next = applyTextCommand(plan, updates);
    expect(next.concurrent_users).toBe(20);
    expect(next.urls.map((u) => u.thinkTime)).toEqual(['200ms', '5s']);
  });

  it.each([
    ['double the users', 20],
    ['triple the users', 30],
    ['halve the users', 5],
    ['users x3', 30],
    ['2x users', 20],
    ['increase users by 15', 25],
    ['add 5 users', 15],
    ['reduce users by 4', 6],
    ['increase users to 50', 50],
    ['사용자 두 배', 20],
    ['사용자를 3배로', 30],
    ['사용자 5명 늘려줘', 15],
    ['사용자 3명 줄여', 7],
    ['동시 사용자를 40명으로 변경', 40],
  ])('users relative to the plan: %j', (command, users) => {
    const { updates, errors } = parseTextCommand(command, perfPlan(10));
    expect(errors).toEqual([]);
    expect(updates).toEqual([{ field: 'concurrent_users', value: users, scope: 'plan' }]);
  });

  it('keeps a relative change within the bounds and says what it would have made', () => {
    expect(parseTextCommand('double the users', perfPlan(600)).errors).toEqual([
      'Concurrent users must be a whole number from 1 to 1000 (600 × 2 = 1200).',
    ]);
    expect(parseTextCommand('reduce users by 10', perfPlan(10)).errors).toEqual([
      'Concurrent users must be a whole number from 1 to 1000 (10 − 10 = 0).',
    ]);
  });

  it('doubles the duration and names calls in Korean', () => {
    const { updates, errors } = parseTextCommand(
      'double the duration 그리고 Login 호출에 대기 시간 300ms',
      perfPlan(),
    );
    expect(errors).toEqual([]);
    expect(updates).toEqual([
      { field: 'duration', value: 10, scope: 'plan' },
      { field: 'thinkTime', value: '300ms', scope: { api: 0 } },
    ]);
  });

  it('says which words it did not understand, and that a performance plan has no iterations', () => {
    const { updates, errors } = parseTextCommand(
      'double the users and make it snappy and run 5 iterations',
      perfPlan(10),
    );
    expect(updates).toEqual([{ field: 'concurrent_users', value: 20, scope: 'plan' }]);
    expect(errors).toEqual([
      '"make it snappy" was not understood.',
      'A performance plan runs for a duration, not a number of iterations: "run 5 iterations".',
    ]);
    expect(parseTextCommand('think time 1s for the checkout call', perfPlan()).errors).toEqual([
      'There is no API named "checkout" in this plan.',
    ]);
  });
});

describe('parseFunctionalTextCommand', () => {
  it('maps users, iterations, duration, think time and a timeout per API onto the functional model', () => {
    const plan = functionalPlan();
    const { updates, errors } = parseFunctionalTextCommand(
      'double the users, set iterations to 10, duration 5 minutes, think time 2s and timeout 10s for the login call',
      plan,
    );
    expect(errors).toEqual([]);
    expect(updates).toEqual([
      { field: 'concurrent_users', value: 4, scope: 'plan' },
      { field: 'iterations', value: 10, scope: 'plan' },
      { field: 'test_duration', value: 5, scope: 'plan' },
      { field: 'think_time', value: 2, scope: 'plan' },
      { field: 'timeout', value: 10, scope: { api: 0 } },
    ]);
    const next = applyFunctionalTextCommand(plan, updates);
    expect(FunctionalPlanSchema.parse(next)).toEqual(next);
    expect(next).toMatchObject({ concurrent_users: 4, iterations: 10, test_duration: 5, think_time: 2 });
    expect(next.apis.map((api) => api.timeout)).toEqual([10, 30]);
    expect(plan).toEqual(functionalPlan());
  });

  it('reads Korean and relative iterations', () => {
    const { updates, errors } = parseFunctionalTextCommand('반복 두 배 그리고 사용자 5명', functionalPlan());
    expect(errors).toEqual([]);
    expect(updates).toEqual([
      { field: 'iterations', value: 6, scope: 'plan' },
      { field: 'concurrent_users', value: 5, scope: 'plan' },
    ]);
  });

  it('checks the functional bounds and refuses what a functional plan does not have', () => {
    const read = (command: string, overrides?: Record<string, unknown>) =>
      parseFunctionalTextCommand(command, functionalPlan(overrides)).errors;
    expect(read('set users to 200')).toEqual(['Concurrent users must be a whole number from 1 to 100']);
    expect(read('think time 200ms')).toEqual(['Think time must be a whole number of seconds from 0 to 60']);
    expect(read('think time 2s for the login call')).toEqual([
      'A functional plan has one think time for all its APIs: "think time 2s for the login call".',
    ]);
    expect(read('use k6')).toEqual(['A functional plan has no load tool to change: "use k6".']);
    expect(read('set iterations to 20', { source: 'ui_url_input', test_type: 'ui' })).toEqual([
      'Iterations must be a whole number from 1 to 10',
    ]);
  });

  it('edits headers, methods and the token of named APIs, and removes one', () => {
    const plan = functionalPlan();
    const { updates, errors } = parseFunctionalTextCommand(
      'add header x-env: staging, make API 2 a POST, set bearer token t0k for the cart call and remove API 1',
      plan,
    );
    expect(errors).toEqual([]);
    const next = applyFunctionalTextCommand(plan, updates);
    expect(next.apis).toHaveLength(1);
    expect(next.apis[0]).toMatchObject({
      name: 'Cart',
      method: 'POST',
      headers: { 'x-env': 'staging' },
      authorization: { type: 'bearer', token: 't0k' },
    });
  });
});

describe('any command against either kind of plan', () => {
  const words = [
    ...['double', 'triple', 'halve', 'twice', 'x2', '3x', 'times', 'increase', 'reduce', 'by', 'to', 'add'],
    ...['users', 'iterations', 'duration', 'think', 'time', 'timeout', 'the', 'login', 'cart', 'call', 'API'],
    ...['두', '배', '2배', '반복', '사용자', '명', '늘려', '줄여', '호출에', 'Login', '그리고', 'and', ','],
    ...['0', '1', '5', '200', '999999', '-3', '.5', '2.5', 'ms', 's', 'minutes', '%', 'use', 'k6'],
  ];
  const command = fc.oneof(
    fc.string({ maxLength: 120 }),
    fc.array(fc.constantFrom(...words), { maxLength: 20 }).map((parts) => parts.join(' ')),
    fc
      .array(fc.constantFrom('remove API 1', 'remove API 2', 'double the users', 'make it snappy'))
      .map((parts) => parts.join(' and ')),
  );

  it('is read into updates or errors, and what is accepted keeps each plan within its model', () => {
    fc.assert(
      fc.property(command, fc.integer({ min: 1, max: 100 }), (text, users) => {
        const perf = perfPlan(users);
        const read = parseTextCommand(text, perf);
        PerfPlanSchema.parse(applyTextCommand(perf, read.updates));
        const functional = functionalPlan({ concurrent_users: users });
        const functionalRead = parseFunctionalTextCommand(text, functional);
        FunctionalPlanSchema.parse(applyFunctionalTextCommand(functional, functionalRead.updates));
        for (const error of [...read.errors, ...functionalRead.errors]) expect(error.trim()).not.toBe('');
      }),
      { numRuns: 150 },
    );
  });
});
