import { FunctionalPlanSchema, PerfPlanSchema } from '@aqa/plan';
import { describe, expect, it } from 'vitest';
import { previewCommand } from './adjust';
import { createTranslate } from '@/i18n';
import { greetingName, isShortcut, shortcutLabel } from './greeting';
import { problemText } from './problem-text';

describe('previewCommand on a functional plan', () => {
  const plan = FunctionalPlanSchema.parse({
    test_name: 'Checkout',
    iterations: 2,
    apis: [
      { name: 'Login', url: 'https://shop.test/login', authorization: { type: 'bearer', token: 'secret-1' } },
      { name: 'Cart', url: 'https://shop.test/cart' },
    ],
  });

  it('shows each changed field before → after, per API, and never a token', () => {
    const preview = previewCommand(
      'double the iterations, timeout 10s for the cart call, add header X-Env: qa to API 2, set bearer token secret-2 for API 2 and remove API 1',
      { kind: 'functional', plan },
    );
    expect(preview.problems).toEqual([]);
    expect(preview.rows).toEqual([
      { field: 'iterations', before: '2', after: '4' },
      { field: 'api', api: { number: 1, name: 'Login' }, before: 'Login', after: null },
      { field: 'timeout', api: { number: 2, name: 'Cart' }, before: '30s', after: '10s' },
      {
        field: 'authorization',
        api: { number: 2, name: 'Cart' },
        before: 'none',
        after: 'bearer (token set)',
      },
      { field: 'header', header: 'X-Env', api: { number: 2, name: 'Cart' }, before: null, after: 'qa' },
    ]);
    expect(JSON.stringify(preview.rows)).not.toContain('secret');
  });

  it('has no rows when the plan already has the values', () => {
    expect(previewCommand('set iterations to 2', { kind: 'functional', plan }).rows).toEqual([]);
  });
});

describe('the greeting and the shortcut', () => {
  it('greets by first name, else the username, else the email before the @', () => {
    expect(greetingName({ username: 'ada@x.test', email: 'ada@x.test', firstName: ' Ada ' })).toBe('Ada');
    expect(greetingName({ username: 'grace', email: 'g@x.test' })).toBe('grace');
    expect(greetingName({ username: 'alan.t@x.test', email: 'alan.t@x.test' })).toBe('alan.t');
  });

  it('is Ctrl+J, or ⌘J on a Mac, with no other modifier', () => {
    expect(shortcutLabel('MacIntel')).toBe('⌘J');
    expect(shortcutLabel('Linux x86_64')).toBe('Ctrl+J');
    const key = { key: 'j', ctrlKey: true, metaKey: false, altKey: false, shiftKey: false };
    expect(isShortcut(key)).toBe(true);
    expect(isShortcut({ ...key, ctrlKey: false, metaKey: true })).toBe(true);
    expect(isShortcut({ ...key, shiftKey: true })).toBe(false);
    expect(isShortcut({ ...key, ctrlKey: false })).toBe(false);
  });
});

describe("the parser's problems in the screen's language", () => {
  it('words the common ones in Korean with the user’s own words, and leaves others as written', () => {
    const ko = createTranslate('ko');
    expect(problemText('"make it snappy" was not understood.', ko)).toBe(
      '"make it snappy"은(는) 이해하지 못했습니다.',
    );
    expect(problemText('There is no API named "checkout" in this plan.', ko)).toBe(
      '이 플랜에 "checkout"라는 이름의 API가 없습니다.',
    );
    expect(problemText('Concurrent users must be a whole number from 1 to 100', ko)).toBe(
      'Concurrent users must be a whole number from 1 to 100',
    );
  });
});

describe('a compound Korean command in the preview', () => {
  const plan = PerfPlanSchema.parse({
    name: 'Shop',
    concurrent_users: 10,
    urls: [
      { name: 'Login', url: 'https://shop.test/login', thinkTime: '1s' },
      { name: 'Cart', url: 'https://shop.test/cart', thinkTime: '2s' },
    ],
  });

  it('shows every part it applies, adding to each think time rather than setting it', () => {
    const preview = previewCommand('사용자를 두 배로 하고 대기 시간 10초 추가해줘', {
      kind: 'performance',
      plan,
    });
    expect(preview.problems).toEqual([]);
    expect(preview.rows).toEqual([
      { field: 'users', before: '10', after: '20' },
      { field: 'thinkTime', api: { number: 1, name: 'Login' }, before: '1s', after: '11s' },
      { field: 'thinkTime', api: { number: 2, name: 'Cart' }, before: '2s', after: '12s' },
    ]);
  });

  it('names in Korean the part that holds two changes with no word between them', () => {
    const preview = previewCommand('사용자 50명 기간 10분 그리고 k6로 바꿔', { kind: 'performance', plan });
    expect(preview.rows).toEqual([{ field: 'tool', before: 'jmeter', after: 'k6' }]);
    expect(preview.problems.map((problem) => problemText(problem, createTranslate('ko')))).toEqual([
      '"사용자 50명 기간 10분"에는 변경이 둘 이상 들어 있습니다: "그리고", 쉼표 또는 "and"로 나누어 주세요.',
    ]);
  });
});
