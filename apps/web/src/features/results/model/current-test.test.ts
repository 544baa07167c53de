import { afterEach, describe, expect, it } from 'vitest';
import {
  checkStartConfig,
  clearCurrentTest,
  configDurationSeconds,
  CURRENT_TEST_CONFIG_KEY,
  CURRENT_TEST_ID_KEY,
  readTestConfig,
  rememberCurrentTest,
  runPayload,
  storeTestConfig,
} from './current-test';

afterEach(() => window.localStorage.clear());

describe('checkStartConfig (docs/reference/02-running.md §5, §8)', () => {
  it('needs at least one URL, then a tool', () => {
    expect(checkStartConfig(null)).toEqual({ code: 'noUrls' });
    expect(checkStartConfig({ tool: 'jmeter', urls: [] })).toEqual({ code: 'noUrls' });
    expect(checkStartConfig({ urls: [{ url: 'http://a' }] })).toEqual({ code: 'noTool' });
    expect(checkStartConfig({ urls: [{ url: 'http://a' }], tool: ' ' })).toEqual({ code: 'noTool' });
    expect(checkStartConfig({ urls: [{ url: 'http://a' }], tool: 'k6' })).toBeNull();
  });
});

describe('runPayload (docs/reference/02-running.md §5)', () => {
  it('sends numbers, a whole duration with fallback 1, and drops blank parameters and headers', () => {
    const payload = runPayload(
      {
        planName: 'Checkout',
        plan_id: 'p1',
        tool: 'jmeter',
        concurrent_users: '5' as unknown as number,
        duration: 'abc' as unknown as number,
        urls: [
          {
            url: 'http://a',
            parameters: [
              { key: 'q', value: '1' },
              { key: '', value: 'x' },
              { key: 'y', value: ' ' },
            ],
            headers: [
              { name: 'X-A', value: 'b' },
              { name: '', value: '' },
            ],
          },
        ],
      },
      'ada@example.com',
    );
    expect(payload).toEqual({
      plan_id: 'p1',
      planName: 'Checkout',
      tool: 'jmeter',
      concurrent_users: 5,
      duration: 1,
      urls: [
        { url: 'http://a', parameters: [{ key: 'q', value: '1' }], headers: [{ name: 'X-A', value: 'b' }] },
      ],
      user_email: 'ada@example.com',
    });
  });

  it('rounds the duration, reads planId and plan_name, and passes duration_seconds', () => {
    const payload = runPayload(
      { planId: 'p2', plan_name: 'Login', tool: 'k6', duration: 2.6, duration_seconds: 4, urls: [] },
      undefined,
    );
    expect(payload).toMatchObject({
      plan_id: 'p2',
      planName: 'Login',
      duration: 3,
      duration_seconds: 4,
      concurrent_users: 1,
    });
  });
});

describe('stored current test (docs/reference/02-running.md §3, §7)', () => {
  it('remembers the run on screen and tells the stored configuration its id', () => {
    storeTestConfig({ tool: 'k6', urls: [] });
    rememberCurrentTest('t-1');
    expect(window.localStorage.getItem(CURRENT_TEST_ID_KEY)).toBe('t-1');
    expect(readTestConfig()?.testId).toBe('t-1');
  });

  it('clears both entries', () => {
    storeTestConfig({ tool: 'k6' });
    rememberCurrentTest('t-1');
    clearCurrentTest();
    expect(window.localStorage.getItem(CURRENT_TEST_ID_KEY)).toBeNull();
    expect(window.localStorage.getItem(CURRENT_TEST_CONFIG_KEY)).toBeNull();
  });

  it('ignores a stored configuration that is not an object', () => {
    window.localStorage.setItem(CURRENT_TEST_CONFIG_KEY, '[1,2]');
    expect(readTestConfig()).toBeNull();
    window.localStorage.setItem(CURRENT_TEST_CONFIG_KEY, '{oops');
    expect(readTestConfig()).toBeNull();
  });

  it('reads the configured duration in seconds', () => {
    expect(configDurationSeconds({ duration: 2 })).toBe(120);
    expect(configDurationSeconds({ duration: 2, duration_seconds: 4 })).toBe(4);
    expect(configDurationSeconds({})).toBeUndefined();
    expect(configDurationSeconds(null)).toBeUndefined();
  });
});
