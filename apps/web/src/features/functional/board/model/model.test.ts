import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api';
import { BUILT_SCREENS, screenPath } from '@/lib/screens';
import { backendState, meansDisconnected } from './board-errors';
import { countResults } from './counters';
import { TEST_KIND_NAMES } from '@aqa/plan';
import { editFunctionalPlanPath, kindEditorScreen } from './plan-labels';

const http = (status: number) => new ApiError({ kind: 'http', status, message: `HTTP ${status}` });

describe('the functional dashboard', () => {
  it('treats a failed fetch, a 404 and a 500 as a disconnected backend, other errors not', () => {
    expect(meansDisconnected(new ApiError({ kind: 'network', status: 0, message: 'Failed to fetch' }))).toBe(
      true,
    );
    expect(meansDisconnected(new ApiError({ kind: 'timeout', status: 0, message: 'late' }))).toBe(true);
    expect(meansDisconnected(http(404))).toBe(true);
    expect(meansDisconnected(http(500))).toBe(true);
    expect(meansDisconnected(http(403))).toBe(false);
    expect(meansDisconnected(http(400))).toBe(false);
  });

  it('says Checking... until the health check answers, and Disconnected when the lists say so', () => {
    expect(backendState({ status: 'loading' }, false)).toBe('checking');
    expect(backendState({ status: 'success', ok: true }, false)).toBe('connected');
    expect(backendState({ status: 'success', ok: false }, false)).toBe('disconnected');
    expect(backendState({ status: 'error' }, false)).toBe('disconnected');
    expect(backendState({ status: 'success', ok: true }, true)).toBe('disconnected');
  });

  it('counts runs by status', () => {
    const statuses = ['completed', 'failed', 'running', 'completed', 'stopped', 'interrupted'];
    expect(countResults(statuses.map((status) => ({ status: status as 'completed' })))).toEqual({
      total: 6,
      completed: 2,
      failed: 2,
      running: 1,
    });
  });

  it('edits a plan on the screen of its source, while that screen is built', () => {
    BUILT_SCREENS.add('functionalUrl');
    expect(editFunctionalPlanPath({ id: 'p1', source: 'url_input' })).toBe(
      '/functional-test/url-input?planId=p1',
    );
    expect(editFunctionalPlanPath({ id: 'p1', source: 'ui_url_input' })).toBe(
      '/functional-test/ui-url-input?planId=p1',
    );
    BUILT_SCREENS.delete('functionalUi');
    expect(editFunctionalPlanPath({ id: 'p1', source: 'ui_url_input' })).toBeNull();
    BUILT_SCREENS.add('functionalUi');
    expect(editFunctionalPlanPath({ id: 'p1', source: 'script_input' })).toBe(
      '/functional-test/script-input?planId=p1',
    );
  });

  it('finds the editor screen of every test kind at the path the kinds table names', () => {
    expect(TEST_KIND_NAMES.map(kindEditorScreen)).toEqual([
      'createTestUrl',
      'functionalUrl',
      'functionalScript',
      'functionalUi',
    ]);
    for (const kind of TEST_KIND_NAMES) expect(screenPath(kindEditorScreen(kind))).toMatch(/^\/[a-z-]+\//);
    // A Selenium script is edited on the script screen, though it runs as a UI test.
    expect(editFunctionalPlanPath({ id: 'p1', source: 'script_input', test_framework: 'selenium' })).toBe(
      '/functional-test/script-input?planId=p1',
    );
  });
});
