import type { CallResult } from '@aqa/plan';
import { afterEach, describe, expect, it } from 'vitest';
import { BUILT_SCREENS } from '@/lib/screens';
import { backPath, keepSavedPlanId, takeSavedPlanId } from './back-navigation';
import { isSuccessStatus, pageOfCalls, passedCount } from './call-pages';
import { forgetFunctionalRun, isTestIdMismatch, readResultState, rememberFunctionalRun } from './current-run';

function call(overrides: Partial<CallResult> = {}): CallResult {
  return {
    api_name: 'Get user',
    method: 'GET',
    url: 'http://127.0.0.1/users/1',
    status_code: 200,
    response_time: 12,
    success: true,
    validation_details: [
      { type: 'status_code', expected: '200', actual: '200', passed: true, message: 'status 200' },
    ],
    ...overrides,
  };
}

const urlScreenBuilt = BUILT_SCREENS.has('functionalUrl');
afterEach(() => {
  window.localStorage.clear();
  if (urlScreenBuilt) BUILT_SCREENS.add('functionalUrl');
  else BUILT_SCREENS.delete('functionalUrl');
});

describe('the stored run and the test id mismatch', () => {
  it('refuses a link whose id differs from a stored functional run, and nothing else', () => {
    expect(isTestIdMismatch('fc_b', null)).toBe(false);
    rememberFunctionalRun('fc_a');
    expect(isTestIdMismatch('fc_b', null)).toBe(true);
    expect(isTestIdMismatch('fc_a', null)).toBe(false);
    // Opened on purpose from another screen (View Result, Run Test): not refused.
    expect(isTestIdMismatch('fc_b', { testId: 'fc_b' })).toBe(false);
    expect(isTestIdMismatch('fc_b', { testId: 'fc_c' })).toBe(true);
    forgetFunctionalRun();
    expect(isTestIdMismatch('fc_b', null)).toBe(false);
    // A performance run stored by its own screen never blocks a functional one.
    window.localStorage.setItem('currentTestId', 'run_123');
    expect(isTestIdMismatch('fc_b', null)).toBe(false);
  });

  it('reads only string ids from router state', () => {
    expect(readResultState(null)).toBeNull();
    expect(readResultState({ testId: 3 })).toBeNull();
    expect(readResultState({ testId: 'fc_a', planId: 7 })).toEqual({ testId: 'fc_a', planId: undefined });
    expect(readResultState({ testId: 'fc_a', planId: 'p1' })).toEqual({ testId: 'fc_a', planId: 'p1' });
  });
});

describe('Back from a functional result', () => {
  it('goes to the plan on the screen of its source, else to the dashboard', () => {
    BUILT_SCREENS.add('functionalUrl');
    expect(backPath({ source: 'url_input', plan_id: 'p 1' }, undefined)).toBe(
      '/functional-test/url-input?planId=p%201',
    );
    expect(backPath({ source: 'url_input', plan_id: null }, 'p2')).toBe(
      '/functional-test/url-input?planId=p2',
    );
    expect(backPath({ source: 'ui_url_input', plan_id: 'p1' }, undefined)).toBe('/functional-dashboard');
    expect(backPath({ source: 'url_input', plan_id: null }, undefined)).toBe('/functional-dashboard');
    expect(backPath(null, undefined)).toBe('/functional-dashboard');
    expect(backPath({ source: 'script_input', plan_id: 'p1' }, undefined)).toBe(
      '/functional-test/script-input?planId=p1',
    );
    BUILT_SCREENS.delete('functionalUrl');
    expect(backPath({ source: 'url_input', plan_id: 'p1' }, undefined)).toBe('/functional-dashboard');
  });

  it('keeps the plan id as the saved plan id, read once', () => {
    keepSavedPlanId(null);
    expect(takeSavedPlanId()).toBeNull();
    keepSavedPlanId('p1');
    expect(window.localStorage.getItem('loadSavedPlanId')).toBe('p1');
    expect(takeSavedPlanId()).toBe('p1');
    expect(takeSavedPlanId()).toBeNull();
  });
});

describe('pages of calls', () => {
  it('numbers every call, filters the failed ones and clamps the page', () => {
    const calls = Array.from({ length: 60 }, (_, index) => call({ success: index % 3 !== 0 }));
    const first = pageOfCalls(calls, 'all', 0, 25);
    expect(first.pages).toBe(3);
    expect(first.matching).toBe(60);
    expect(first.groups).toHaveLength(1);
    expect(first.groups[0]?.iteration).toBeNull();
    expect(first.groups[0]?.calls.map((item) => item.number).slice(0, 3)).toEqual([1, 2, 3]);
    const failed = pageOfCalls(calls, 'failed', 5, 25);
    expect(failed.matching).toBe(20);
    expect(failed.page).toBe(0);
    expect(failed.from).toBe(0);
    expect(failed.to).toBe(20);
    expect(failed.groups[0]?.calls.map((item) => item.number).slice(0, 3)).toEqual([1, 4, 7]);
  });

  it('groups the calls of several iterations and users under headings', () => {
    const calls = [1, 2].flatMap((iteration) =>
      [1, 2].flatMap((user) => [call({ iteration, user }), call({ iteration, user, api_name: 'Second' })]),
    );
    const page = pageOfCalls(calls, 'all', 0, 5);
    expect(page.groups.map((group) => [group.iteration, group.user, group.calls.length])).toEqual([
      [1, 1, 2],
      [1, 2, 2],
      [2, 1, 1],
    ]);
  });

  it('counts passed rules and colours status codes 200-299 only', () => {
    const judged = call({
      validation_details: [
        { type: 'status_code', expected: '200', actual: '500', passed: false, message: 'x' },
        { type: 'contains_text', expected: 'ok', actual: 'ok', passed: true, message: 'y' },
      ],
    });
    expect(passedCount(judged)).toEqual({ passed: 1, total: 2 });
    expect([199, 200, 299, 300, null].map(isSuccessStatus)).toEqual([false, true, true, false, false]);
  });
});
