import type { CallResult, FunctionalResult } from '@aqa/plan';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { answerConfirm, noticeTexts } from '@/test/notices';
import { bodyOf, createFetchMock, json, renderApp, signInAs, TEST_USER, type FetchMock } from '@/test/render';

function call(name: string, success: boolean): CallResult {
  return {
    api_name: name,
    method: 'GET',
    url: `http://127.0.0.1:9/${name}`,
    status_code: success ? 200 : 404,
    response_time: 5,
    success,
    validation_details: [
      {
        type: 'status_code',
        expected: '200',
        actual: success ? '200' : '404',
        passed: success,
        message: 'm',
      },
    ],
  };
}

function run(id: string, status: FunctionalResult['status'], overrides: Partial<FunctionalResult> = {}) {
  return {
    test_id: id,
    plan_id: 'p1',
    test_name: `Run ${id}`,
    description: '',
    status,
    start_time: '2026-11-26T10:00:00Z',
    summary: { total_requests: 10, successful_requests: 8, failed_requests: 2, validation_failures: 3 },
    validation_results: [call('one', true), call('two', false), call('three', true)],
    validation_results_total: 10,
    api_results: [],
    timeline_data: [],
    ...overrides,
  } satisfies FunctionalResult;
}

const PLANS = [
  {
    id: 'p1',
    test_name: 'Orders API',
    test_type: 'functional',
    source: 'url_input',
    status: 'failed',
    created_at: '2026-11-25T09:00:00Z',
    apis: [{ name: 'one', url: 'http://127.0.0.1:9/one', method: 'GET' }],
  },
  {
    id: 'p2',
    test_name: '',
    test_type: 'functional',
    source: 'script_input',
    created_at: '2026-11-25T09:00:00Z',
  },
  {
    id: 'p3',
    test_name: 'Shop pages',
    test_type: 'ui',
    source: 'ui_url_input',
    test_framework: 'selenium',
    created_at: '2026-11-25T09:00:00Z',
    apis: [{ name: 'Home', url: 'http://127.0.0.1:9/', method: 'GET' }],
  },
];

let fetchMock: FetchMock;

function serve(handlers: Parameters<typeof createFetchMock>[0]) {
  fetchMock = createFetchMock({
    'GET /api/me': () => json({ user: TEST_USER }),
    'GET /api/health': () => json({ status: 'ok', database: 'ok', version: '1' }),
    ...handlers,
  });
  vi.stubGlobal('fetch', fetchMock);
}

beforeEach(() => signInAs());
afterEach(() => {
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

// Whole screens rendered in jsdom: seconds each on a busy 2-core machine.
describe('Functional dashboard', { timeout: 20_000 }, () => {
  it('shows the backend status, the counters, the runs and the plans', async () => {
    serve({
      'GET /api/functional/functional-test-results': () =>
        json([run('fc_1', 'completed'), run('fc_2', 'failed', { test_name: '' }), run('fc_3', 'running')]),
      'GET /api/functional/get-test-configs': () => json(PLANS),
    });
    renderApp('/functional-dashboard');
    expect(await screen.findByRole('heading', { name: 'Functional Test Dashboard' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('backend-status')).toHaveTextContent('Connected'));
    const items = await screen.findAllByTestId('functional-result-item');
    expect(items).toHaveLength(3);
    expect(screen.getByTestId('counter-total')).toHaveTextContent('3');
    expect(screen.getByTestId('counter-completed')).toHaveTextContent('1');
    expect(screen.getByTestId('counter-failed')).toHaveTextContent('1');
    expect(screen.getByTestId('counter-running')).toHaveTextContent('1');

    const first = within(items[0]!);
    expect(first.getByTestId('result-item-name')).toHaveTextContent('Run fc_1');
    expect(first.getByTestId('result-item-summary')).toHaveTextContent(
      'Total 10Successful 8Failed 2Validation failures 3',
    );
    expect(first.getByTestId('result-item-validations')).toHaveTextContent('two0/1 passed');
    // The failing call comes first, whatever its place in the run (issue 24).
    expect(
      within(first.getByTestId('result-item-validations'))
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['two0/1 passed', 'one1/1 passed', 'three1/1 passed', '+7 more validations']);
    expect(first.getByTestId('result-item-more')).toHaveTextContent('+7 more validations');
    expect(first.getByTestId('view-result')).toHaveAttribute('href', '/functional-test-result/fc_1');
    expect(within(items[1]!).getByTestId('result-item-name')).toHaveTextContent('Unnamed Test');

    const plans = screen.getAllByTestId('functional-plan-item');
    expect(within(plans[0]!).getByTestId('plan-item-type')).toHaveTextContent('Functional');
    expect(within(plans[0]!).getByTestId('plan-item-source')).toHaveTextContent('URL Input');
    expect(within(plans[0]!).getByTestId('plan-item-status')).toHaveTextContent('Failed');
    expect(within(plans[1]!).getByTestId('plan-item-name')).toHaveTextContent('Unnamed Plan');
    expect(within(plans[1]!).getByTestId('plan-item-source')).toHaveTextContent('Script Input');
    // Each plan is edited on the screen of its source; UI Test and UI Plan open the UI screen.
    expect(within(plans[1]!).getByTestId('edit-plan')).toHaveAttribute(
      'href',
      '/functional-test/script-input?planId=p2',
    );
    expect(within(plans[2]!).getByTestId('plan-item-type')).toHaveTextContent('UI');
    expect(within(plans[2]!).getByTestId('plan-item-source')).toHaveTextContent('UI URL Input');
    expect(within(plans[2]!).getByTestId('edit-plan')).toHaveAttribute(
      'href',
      '/functional-test/ui-url-input?planId=p3',
    );
    expect(screen.getByTestId('create-ui-test')).toHaveAttribute('href', '/functional-test/ui-url-input');
    expect(screen.getByTestId('create-ui-plan')).toHaveAttribute('href', '/functional-test/ui-url-input');
    expect(screen.getByTestId('create-script-test')).not.toHaveAttribute('aria-disabled');
    expect(screen.getByTestId('functional-guide')).toHaveTextContent('Script-based Testing');
  });

  it('draws a long list 20 at a time while the counters count every run', async () => {
    serve({
      'GET /api/functional/functional-test-results': () =>
        json(Array.from({ length: 25 }, (_, index) => run(`fc_${index}`, 'completed'))),
      'GET /api/functional/get-test-configs': () => json([]),
    });
    renderApp('/functional-dashboard');
    expect(await screen.findAllByTestId('functional-result-item')).toHaveLength(20);
    expect(screen.getByTestId('counter-total')).toHaveTextContent('25');
    expect(screen.getByTestId('counter-completed')).toHaveTextContent('25');
    await userEvent.setup().click(screen.getByTestId('more-results'));
    expect(screen.getAllByTestId('functional-result-item')).toHaveLength(25);
    expect(screen.queryByTestId('more-results')).not.toBeInTheDocument();
  });

  it('shows the empty state and Disconnected on a 404, and the long message on another error', async () => {
    serve({
      'GET /api/functional/get-test-configs': () => json([]),
      'GET /api/health': () => json({ status: 'error', database: 'error' }, 503, 'Service Unavailable'),
    });
    renderApp('/functional-dashboard');
    expect(await screen.findByTestId('results-empty')).toBeInTheDocument();
    expect(screen.getByTestId('plans-empty')).toBeInTheDocument();
    expect(screen.getByTestId('backend-status')).toHaveTextContent('Disconnected');

    serve({
      'GET /api/functional/functional-test-results': () => json({ detail: 'No' }, 403, 'Forbidden'),
      'GET /api/functional/get-test-configs': () => json([]),
    });
    await userEvent.setup().click(screen.getByTestId('refresh-board'));
    expect(await screen.findByTestId('board-error')).toHaveTextContent(
      'Failed to load functional test data. Please check if the backend server is running and the functional test API is available.',
    );
  });

  it(
    'deletes a run and a plan after asking, says when it could not, and runs a plan',
    { timeout: 15_000 },
    async () => {
      let results = [run('fc_1', 'completed')];
      serve({
        'GET /api/functional/functional-test-results': () => json(results),
        'GET /api/functional/get-test-configs': () => json(PLANS.slice(0, 1)),
        'DELETE /api/functional/delete-result/fc_1': () => {
          results = [];
          return json({ message: 'deleted' });
        },
        'DELETE /api/functional/delete-config/p1': () => json({ detail: 'broken' }, 500, 'Server Error'),
        'POST /api/functional/run-test': () => json({ test_id: 'fc_9' }),
        'GET /api/functional/get-test-result/fc_9': () => json(run('fc_9', 'running')),
      });
      const user = userEvent.setup();
      const { router } = renderApp('/functional-dashboard');
      await user.click(await screen.findByTestId('delete-result'));
      expect(await answerConfirm(user, true)).toBe('Are you sure you want to delete?');
      expect(await screen.findByTestId('results-empty')).toBeInTheDocument();

      await user.click(screen.getByTestId('delete-plan'));
      await answerConfirm(user, true);
      await waitFor(() => expect(noticeTexts()).toContain('Failed to delete functional test config'));

      await user.click(screen.getByTestId('run-plan'));
      await waitFor(() => expect(router.state.location.pathname).toBe('/functional-test-result/fc_9'));
      const sent = fetchMock.mock.calls.find(([url]) => url === '/api/functional/run-test');
      expect(bodyOf(sent?.[1])).toMatchObject({
        plan_id: 'p1',
        test_name: 'Orders API',
        source: 'url_input',
      });
      expect(await screen.findByTestId('result-test-name')).toHaveTextContent('Run fc_9');
    },
  );

  it('says a UI plan could not start in the UI words', async () => {
    serve({
      'GET /api/functional/functional-test-results': () => json([]),
      'GET /api/functional/get-test-configs': () => json(PLANS.slice(2)),
      'POST /api/functional/run-test': () =>
        json({ detail: 'UI tests need Chromium, and none was found at /usr/bin/chromium' }, 503),
    });
    const user = userEvent.setup();
    renderApp('/functional-dashboard');
    await user.click(await screen.findByTestId('run-plan'));
    await waitFor(() =>
      expect(noticeTexts()).toContain(
        'Failed to start UI functional test: UI tests need Chromium, and none was found at /usr/bin/chromium',
      ),
    );
  });
});
