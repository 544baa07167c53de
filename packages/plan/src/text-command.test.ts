import { describe, expect, it } from 'vitest';
import { type PerfPlan, PerfPlanSchema } from './perf-plan';
import {
  applyTextCommand,
  type ParsedUpdate,
  parseTextCommand,
  TEXT_COMMAND_MESSAGES,
  textCommandErrorMessage,
  textCommandMessage,
} from './text-command';

function samplePlan(): PerfPlan {
  return PerfPlanSchema.parse({
    name: 'Shop',
    urls: [
      {
        name: 'Login',
        method: 'POST',
        url: 'https://shop.test/login',
        headers: [{ name: 'X-Env', value: 'dev' }],
      },
      { name: 'Catalog', url: 'https://shop.test/catalog' },
      { name: 'Cart', url: 'https://shop.test/cart' },
    ],
  });
}

/** The single update a command is read as; fails the test when it is not exactly one. */
function one(command: string): ParsedUpdate {
  const { updates, errors } = parseTextCommand(command, samplePlan());
  expect(errors).toEqual([]);
  expect(updates).toHaveLength(1);
  return updates[0] as ParsedUpdate;
}

function errorsOf(command: string): string[] {
  const { errors } = parseTextCommand(command, samplePlan());
  expect(errors.length).toBeGreaterThan(0);
  return errors;
}

describe('parseTextCommand: think time', () => {
  it.each([
    ['set think time to 2s for all APIs', '2s', 'all'],
    ['Think Time 1500ms on API 2', '1500ms', { api: 1 }],
    ['think time 1.5 seconds', '1.5s', 'all'],
    ['think time 3 for API "Catalog"', '3s', { api: 1 }],
    ['think time 3 for the catalog API', '3s', { api: 1 }],
    ['think time 3s on API named Cart', '3s', { api: 2 }],
    ['"Cart" API의 대기 시간 1초', '1s', { api: 2 }],
    ['모든 API 대기 시간 2초', '2s', 'all'],
    ['2번 API 생각 시간 1500ms', '1500ms', { api: 1 }],
  ])('%j', (command, value, scope) => {
    expect(one(command)).toEqual({ field: 'thinkTime', value, scope });
  });

  it('refuses think times the model refuses', () => {
    expect(errorsOf('think time 1.25s')).toEqual([
      'Think time "1.25s" goes in steps of 0.1 s (e.g. 1.2 or 1.3)',
    ]);
    expect(errorsOf('think time 7200s')[0]).toMatch(/maximum of 1 hour/);
    expect(errorsOf('think time soon')[0]).toMatch(/Give the think time/);
  });
});

describe('parseTextCommand: plan settings', () => {
  it.each([
    ['set users to 50', 50],
    ['change concurrent users to 100', 100],
    ['50 users', 50],
    ['VUs 20', 20],
    ['사용자 50명', 50],
    ['동시 사용자를 100명으로 변경', 100],
  ])('users: %j', (command, value) => {
    expect(one(command)).toEqual({ field: 'concurrent_users', value, scope: 'plan' });
  });

  it.each([
    ['set duration to 10 minutes', 10],
    ['run for 2 hours', 120],
    ['30 min', 30],
    ['duration 120 seconds', 2],
    ['기간 10분', 10],
    ['2시간 동안 실행', 120],
  ])('duration: %j', (command, value) => {
    expect(one(command)).toEqual({ field: 'duration', value, scope: 'plan' });
  });

  it.each([
    ['use JMeter', 'jmeter'],
    ['switch to k6', 'k6'],
    ['locust', 'locust'],
    ['change tool to Taurus', 'taurus'],
    ['use soapui', 'soapui'],
    ['JMeter로 바꿔', 'jmeter'],
    ['k6로 변경해줘', 'k6'],
  ])('tool: %j', (command, value) => {
    expect(one(command)).toEqual({ field: 'tool', value, scope: 'plan' });
  });

  it.each([
    ['rename plan to Checkout', 'Checkout'],
    ['rename the plan to "Checkout flow"', 'Checkout flow'],
    ['플랜 이름을 Checkout으로 변경', 'Checkout'],
  ])('name: %j', (command, value) => {
    expect(one(command)).toEqual({ field: 'name', value, scope: 'plan' });
  });

  it('checks the bounds of the model', () => {
    const usersRange = 'Concurrent users must be a whole number from 1 to 1000';
    const durationRange = 'Duration must be a whole number of minutes from 1 to 1440';
    expect(errorsOf('set users to 1001')).toEqual([usersRange]);
    expect(errorsOf('set users to 0')).toEqual([usersRange]);
    expect(errorsOf('set users to 2.5')).toEqual([usersRange]);
    expect(errorsOf('set users to 5o')[0]).toMatch(/Give the number of users/);
    expect(errorsOf('set duration to 1441 minutes')).toEqual([durationRange]);
    expect(errorsOf('set duration to 90 seconds')).toEqual([durationRange]);
    expect(errorsOf('run for 25 hours')).toEqual([durationRange]);
    expect(errorsOf('use gatling')[0]).toMatch(/one of jmeter, k6, locust, taurus, soapui/);
    expect(errorsOf('set users to 50 for API 2')[0]).toMatch(/whole plan/);
  });
});

describe('parseTextCommand: a plan with a load profile', () => {
  const shaped = (): PerfPlan => ({
    ...samplePlan(),
    load_profile: {
      model: 'users',
      start: 0,
      stages: [{ duration: '30s', target: 20 }],
      graceful_stop: '10s',
    },
  });

  it('refuses to change the users or the duration, which its stages set, and applies the rest', () => {
    const { updates, errors } = parseTextCommand('set users to 50 and think time 2s', shaped());
    expect(errors).toEqual([
      'This plan has a load profile: its stages set the users and the duration; change them in the editor\'s Load profile: "set users to 50".',
    ]);
    expect(updates).toEqual([{ field: 'thinkTime', value: '2s', scope: 'all' }]);
    expect(parseTextCommand('run for 10 minutes', shaped()).errors[0]).toMatch(
      /^This plan has a load profile/,
    );
  });
});

describe('parseTextCommand: API settings', () => {
  it.each<[string, ParsedUpdate]>([
    ['timeout 10s for all APIs', { field: 'timeout', value: 10, scope: 'all' }],
    ['set timeout to 60 seconds on API 1', { field: 'timeout', value: 60, scope: { api: 0 } }],
    ['타임아웃 10초', { field: 'timeout', value: 10, scope: 'all' }],
    ['transaction rate 50% for API 3', { field: 'transactionRate', value: 50, scope: { api: 2 } }],
    ['3번 API 트랜잭션 비율 25%', { field: 'transactionRate', value: 25, scope: { api: 2 } }],
    ['make API 2 a POST', { field: 'method', value: 'POST', scope: { api: 1 } }],
    ['set method to put for API 1', { field: 'method', value: 'PUT', scope: { api: 0 } }],
    ['2번 API를 DELETE로 바꿔', { field: 'method', value: 'DELETE', scope: { api: 1 } }],
    [
      'add header X-Env: staging to all APIs',
      { field: 'addHeader', value: { name: 'X-Env', value: 'staging' }, scope: 'all' },
    ],
    [
      '모든 API에 헤더 X-Env: staging 추가',
      { field: 'addHeader', value: { name: 'X-Env', value: 'staging' }, scope: 'all' },
    ],
    ['remove header X-Env from API 1', { field: 'removeHeader', value: 'X-Env', scope: { api: 0 } }],
    ['헤더 X-Env 삭제', { field: 'removeHeader', value: 'X-Env', scope: 'all' }],
    [
      'set bearer token abc.def-123 for all APIs',
      { field: 'bearerToken', value: 'abc.def-123', scope: 'all' },
    ],
    ['베어러 토큰을 abc로 설정해줘', { field: 'bearerToken', value: 'abc', scope: 'all' }],
    ['remove API 2', { field: 'removeApi', value: true, scope: { api: 1 } }],
    ['2번 API 삭제', { field: 'removeApi', value: true, scope: { api: 1 } }],
  ])('%j', (command, update) => {
    expect(one(command)).toEqual(update);
  });

  it('checks API numbers, names and values', () => {
    expect(errorsOf('think time 2s for API 4')).toEqual([
      'API 4 does not exist: this plan has 3 APIs (1–3).',
    ]);
    expect(errorsOf('think time 2s for API 0')[0]).toMatch(/API 0 does not exist/);
    expect(errorsOf('think time 2s for API "Checkout"')).toEqual([
      'There is no API named "Checkout" in this plan.',
    ]);
    expect(errorsOf('make the checkout API a POST')).toEqual([
      'There is no API named "checkout" in this plan.',
    ]);
    expect(errorsOf('timeout 301s')[0]).toMatch(/from 1 to 300/);
    expect(errorsOf('transaction rate 150% for API 1')[0]).toMatch(/from 0 to 100/);
    expect(errorsOf('make it a POST')[0]).toMatch(/Say which API/);
    expect(errorsOf('add header Bad Name: x')[0]).toMatch(/not understood/);
    expect(errorsOf('remove API 1, remove API 2 and remove API 3')).toEqual([
      'A plan keeps at least one API: this command would remove them all.',
    ]);
  });
});

describe('parseTextCommand: commands and errors', () => {
  it('reads several clauses joined by and , ; 그리고', () => {
    const { updates, errors } = parseTextCommand(
      'set users to 50 and duration to 10 minutes, use k6; think time 1s 그리고 타임아웃 5초',
      samplePlan(),
    );
    expect(errors).toEqual([]);
    expect(updates.map((u) => u.field)).toEqual([
      'concurrent_users',
      'duration',
      'tool',
      'thinkTime',
      'timeout',
    ]);
  });

  it('says which clause was not understood and gives nothing to apply', () => {
    const { errors } = parseTextCommand('set users to 50 and make it faster', samplePlan());
    expect(errors).toEqual(['"make it faster" was not understood.']);
    expect(textCommandErrorMessage(errors)).toMatch(
      /^"make it faster" was not understood\. Try: "set think time to 2s for all APIs", /,
    );
  });

  it('refuses an empty command', () => {
    expect(parseTextCommand('  ', samplePlan()).errors).toEqual([TEXT_COMMAND_MESSAGES.empty]);
    expect(parseTextCommand(' and ', samplePlan()).errors).toEqual([TEXT_COMMAND_MESSAGES.empty]);
  });

  it.each(['hello', 'make everything faster', 'delete the plan', 'set speed to 3'])(
    'does not guess at %j',
    (command) => {
      expect(parseTextCommand(command, samplePlan()).errors).toEqual([`"${command}" was not understood.`]);
    },
  );
});

describe('applyTextCommand', () => {
  it('applies every change to a copy, leaving the input as it was', () => {
    const plan = samplePlan();
    const { updates } = parseTextCommand(
      'set users to 50 and duration to 10 minutes and use k6 and rename plan to Checkout and think time 1s on API 2 and timeout 10s and make API 3 a PATCH and add header X-Env: staging and set bearer token t0k for API 1 and transaction rate 50% for API 3',
      plan,
    );
    const next = applyTextCommand(plan, updates);
    expect(PerfPlanSchema.parse(next)).toEqual(next);
    expect(next).toMatchObject({ name: 'Checkout', tool: 'k6', concurrent_users: 50, duration: 10 });
    expect(next.urls.map((u) => u.thinkTime)).toEqual(['5s', '1s', '5s']);
    expect(next.urls.map((u) => u.timeout)).toEqual([10, 10, 10]);
    expect(next.urls.map((u) => u.method)).toEqual(['POST', 'GET', 'PATCH']);
    expect(next.urls.map((u) => u.transactionRate)).toEqual(['', '', 50]);
    expect(next.urls[0]?.headers).toEqual([{ name: 'X-Env', value: 'staging' }]);
    expect(next.urls[1]?.headers).toEqual([{ name: 'X-Env', value: 'staging' }]);
    expect(next.urls[0]?.authorization).toMatchObject({ type: 'bearer', token: 't0k' });
    expect(next.urls[1]?.authorization.type).toBe('none');
    expect(plan).toEqual(samplePlan());
  });

  it('removes APIs by their numbers in the plan as read, and headers by name', () => {
    const plan = samplePlan();
    const { updates } = parseTextCommand(
      'remove API 1 and remove header x-env and think time 2s for API 3',
      plan,
    );
    const next = applyTextCommand(plan, updates);
    expect(next.urls.map((u) => u.name)).toEqual(['Catalog', 'Cart']);
    expect(next.urls[1]?.thinkTime).toBe('2s');
    expect(next.urls.every((u) => u.headers.length === 0)).toBe(true);
  });

  it('describes what it applied', () => {
    const plan = samplePlan();
    const { updates } = parseTextCommand('set users to 50 and think time 2s for API 2', plan);
    expect(textCommandMessage(updates)).toBe(
      'Applied 2 changes: concurrent users → 50; think time → 2s for API 2',
    );
  });
});
