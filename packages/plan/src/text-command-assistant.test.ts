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

/*
 * Relative and absolute changes, and compound commands (docs/design.md §10 "Adjust"): "add", "increase",
 * "double", "늘려" change a setting by an amount or a factor of its own value; "set … to", "…으로" set it.
 * Every part of a command is applied or named as not understood, never dropped.
 */

function plan(
  thinkTimes: readonly string[] = ['5s', '5s'],
  timeouts: readonly number[] = [30, 30],
): PerfPlan {
  return PerfPlanSchema.parse({
    name: 'Shop',
    concurrent_users: 10,
    duration: 5,
    urls: thinkTimes.map((thinkTime, index) => ({
      name: index === 0 ? 'Login' : `Page ${index + 1}`,
      url: `https://shop.test/${index}`,
      thinkTime,
      timeout: timeouts[index] ?? 30,
    })),
  });
}

function read(command: string, on: PerfPlan = plan()) {
  const result = parseTextCommand(command, on);
  return { ...result, next: applyTextCommand(on, result.updates) };
}

describe('relative changes to API settings', () => {
  it.each([
    ['add 10 seconds of think time', '15s'],
    ['add 10s to the think time', '15s'],
    ['add 2s more think time', '7s'],
    ['increase think time by 2s', '7s'],
    ['increase the think time by 500ms', '5.5s'],
    ['raise think time by 1.5 seconds', '6.5s'],
    ['think time +1s', '6s'],
    ['reduce think time by 2 seconds', '3s'],
    ['lower the think time by 1500 ms', '3.5s'],
    ['think time -1s', '4s'],
    ['double the think time', '10s'],
    ['halve think time', '2.5s'],
    ['think time x3', '15s'],
    ['대기 시간 10초 추가', '15s'],
    ['대기 시간을 2초 늘려줘', '7s'],
    ['대기 시간 2초 더', '7s'],
    ['대기 시간 1초 줄여', '4s'],
    ['생각 시간을 500ms 줄여 줘', '4.5s'],
    ['대기 시간 두 배로', '10s'],
    ['대기 시간을 절반으로', '2.5s'],
  ])('%j changes every think time from 5s to %s', (command, value) => {
    const { updates, errors, next } = read(command);
    expect(errors).toEqual([]);
    expect(updates).toEqual([{ field: 'thinkTime', value, scope: 'all' }]);
    expect(next.urls.map((u) => u.thinkTime)).toEqual([value, value]);
  });

  it.each([
    ['set think time to 10s', '10s'],
    ['think time 10 seconds', '10s'],
    ['increase think time to 8s', '8s'],
    ['change the think time to 2s', '2s'],
    ['대기 시간을 10초로 늘려', '10s'],
    ['대기 시간 3초로 설정', '3s'],
    ['대기 시간 3초', '3s'],
  ])('%j sets the think time to %s', (command, value) => {
    const { updates, errors } = read(command);
    expect(errors).toEqual([]);
    expect(updates).toEqual([{ field: 'thinkTime', value, scope: 'all' }]);
  });

  it('adds to each API its own think time, and to one API only when one is named', () => {
    const differing = plan(['1s', '300ms']);
    expect(read('add 2 seconds of think time', differing).next.urls.map((u) => u.thinkTime)).toEqual([
      '3s',
      '2.3s',
    ]);
    expect(read('double the think time', differing).next.urls.map((u) => u.thinkTime)).toEqual([
      '2s',
      '600ms',
    ]);
    const one = read('add 1s of think time to the login call', differing);
    expect(one.errors).toEqual([]);
    expect(one.next.urls.map((u) => u.thinkTime)).toEqual(['2s', '300ms']);
    expect(read('2번 API 대기 시간 1초 추가', differing).next.urls.map((u) => u.thinkTime)).toEqual([
      '1s',
      '1.3s',
    ]);
  });

  it('keeps "add a 200 ms think time" as giving the think time', () => {
    expect(read('add a 200 ms think time to the login call').updates).toEqual([
      { field: 'thinkTime', value: '200ms', scope: { api: 0 } },
    ]);
  });

  it('refuses a relative think time out of bounds and says what it would have made', () => {
    const { updates, errors } = read('reduce think time by 6s');
    expect(updates).toEqual([]);
    expect(errors).toEqual(['Think time cannot go below 0 (API 1: 5s − 6s = −1s).']);
    expect(read('add 1 hour of think time').errors[0]).toMatch(
      /^Think time .* longer than the maximum of 1 hour/,
    );
  });

  it.each([
    ['increase the timeout by 10s', [40, 30 + 10]],
    ['add 15 seconds to the timeout for API 2', [30, 45]],
    ['double the timeout', [60, 60]],
    ['reduce timeout by 5 seconds', [25, 25]],
    ['타임아웃 5초 늘려', [35, 35]],
    ['제한 시간을 10초 줄여줘', [20, 20]],
    ['set timeout to 10s', [10, 10]],
    ['타임아웃을 10초로 늘려', [10, 10]],
  ])('%j makes the timeouts %j', (command, timeouts) => {
    const { errors, next } = read(command);
    expect(errors).toEqual([]);
    expect(next.urls.map((u) => u.timeout)).toEqual(timeouts);
  });

  it('keeps a relative timeout within its bounds', () => {
    expect(read('increase the timeout by 300s').errors).toEqual([
      'Timeout must be a whole number of seconds from 1 to 300 (API 1: 30 + 300 = 330).',
    ]);
  });

  it('changes a transaction rate relative to its own, blank being 100%', () => {
    const rated = PerfPlanSchema.parse({
      name: 'Shop',
      urls: [{ url: 'https://shop.test/a', transactionRate: 40 }, { url: 'https://shop.test/b' }],
    });
    expect(read('increase the transaction rate of API 1 by 10%', rated).next.urls[0]?.transactionRate).toBe(
      50,
    );
    expect(read('halve the transaction rate', rated).next.urls.map((u) => u.transactionRate)).toEqual([
      20, 50,
    ]);
  });

  it('adds to the one think time of a functional plan', () => {
    const functional = functionalPlan({ think_time: 1 });
    for (const [command, seconds] of [
      ['add 2 seconds of think time', 3],
      ['double the think time', 2],
      ['대기 시간 3초 추가해줘', 4],
      ['set think time to 5s', 5],
    ] as const) {
      const { updates, errors } = parseFunctionalTextCommand(command, functional);
      expect(errors, command).toEqual([]);
      expect(updates, command).toEqual([{ field: 'think_time', value: seconds, scope: 'plan' }]);
    }
    expect(parseFunctionalTextCommand('increase the timeout by 5s', functional).updates).toEqual([
      { field: 'timeout', value: 35, scope: 'all' },
    ]);
  });
});

describe('compound commands: every part applied or named', () => {
  it.each<[string, Partial<PerfPlan> & { thinkTime?: string; timeout?: number }]>([
    ['사용자를 두 배로 하고 대기 시간 2초 추가해줘', { concurrent_users: 20, thinkTime: '7s' }],
    ['사용자 50명으로 바꾸고 기간 10분으로 해줘', { concurrent_users: 50, duration: 10 }],
    ['사용자를 5명 늘리고 실행 시간을 두 배로 늘려줘', { concurrent_users: 15, duration: 10 }],
    ['기간을 20분으로 변경하고 k6로 바꿔', { duration: 20, tool: 'k6' }],
    ['타임아웃 10초로 설정하고 사용자 3명 줄여', { timeout: 10, concurrent_users: 7 }],
    ['사용자 두 배 그리고 나서 대기 시간 1초', { concurrent_users: 20, thinkTime: '1s' }],
    ['사용자 40명 및 기간 30분', { concurrent_users: 40, duration: 30 }],
    ['set users to 50 then use k6', { concurrent_users: 50, tool: 'k6' }],
    ['double the users and then run for 10 minutes', { concurrent_users: 20, duration: 10 }],
    ['users 50 & duration 20 minutes', { concurrent_users: 50, duration: 20 }],
    ['increase users by 10 and the duration by 5 minutes', { concurrent_users: 20, duration: 10 }],
    ['add 10 users and 5 minutes', { concurrent_users: 20, duration: 10 }],
    ['reduce users by 2, think time by 1s', { concurrent_users: 8, thinkTime: '4s' }],
    ['add 10 seconds of think time and double the users', { concurrent_users: 20, thinkTime: '15s' }],
  ])('%j', (command, expected) => {
    const { errors, updates, next } = read(command);
    expect(errors).toEqual([]);
    expect(updates).toHaveLength(Object.keys(expected).length);
    const { thinkTime, timeout, ...planFields } = expected;
    expect(next).toMatchObject(planFields);
    if (thinkTime !== undefined) expect(next.urls.map((u) => u.thinkTime)).toEqual([thinkTime, thinkTime]);
    if (timeout !== undefined) expect(next.urls.map((u) => u.timeout)).toEqual([timeout, timeout]);
  });

  it.each([
    '사용자 50명 기간 10분',
    'set users to 50 duration 10 minutes',
    'set users to 50 for 10 minutes',
    'run with k6 for 10 minutes',
    'think time 2s timeout 10s',
    '대기 시간 2초 타임아웃 10초',
    'double the users 10 minutes',
  ])('names %j as holding more than one change instead of applying part of it', (command) => {
    const { errors, updates } = read(command);
    expect(updates).toEqual([]);
    expect(errors).toEqual([
      `"${command}" holds more than one change: join them with "and", a comma or "그리고".`,
    ]);
  });

  it('names the Korean clause it did not understand and applies the rest', () => {
    const { errors, updates } = read('사용자를 두 배로 하고 좀 더 빠르게 해줘');
    expect(updates).toEqual([{ field: 'concurrent_users', value: 20, scope: 'plan' }]);
    expect(errors).toEqual(['"좀 더 빠르게 해줘" was not understood.']);
  });

  it('reads a clause that says "by" without saying which way as a question, not a guess', () => {
    expect(read('users by 5').errors).toEqual(['Say whether to increase or decrease: "users by 5".']);
  });
});

describe('any compound of understood clauses', () => {
  const clauses = [
    'set users to 50',
    'double the users',
    'add 5 users',
    'set duration to 10 minutes',
    'use k6',
    'think time 2s for API 2',
    'add 1s of think time',
    'timeout 10s for all APIs',
    'increase the timeout by 5s',
    '사용자 20명',
    '대기 시간 3초 추가',
    '기간 30분',
    'make API 1 a POST',
    'remove header X-Env',
  ];
  const separators = [' and ', ', ', '; ', ' then ', ' and then ', ' & ', ' 그리고 ', ' 및 '];

  it('applies each clause as it would alone: no part is dropped or read into another', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom(...clauses), fc.constantFrom(...separators)), {
          minLength: 1,
          maxLength: 6,
        }),
        (parts) => {
          const on = plan(['1s', '2s']);
          const command = parts
            .map(([clause, separator], index) => (index === 0 ? clause : `${separator}${clause}`))
            .join('');
          const whole = parseTextCommand(command, on);
          expect(whole.errors).toEqual([]);
          expect(whole.updates).toEqual(parts.flatMap(([clause]) => parseTextCommand(clause, on).updates));
        },
      ),
      { numRuns: 200 },
    );
  });
});
