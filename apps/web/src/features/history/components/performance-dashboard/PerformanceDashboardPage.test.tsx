import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { answerConfirm, noticeTexts } from '@/test/notices';
import { bodyOf, createFetchMock, json, renderApp, signInAs, TEST_USER, type FetchMock } from '@/test/render';
import { dashboardAnswer, dashboardPlan } from '../../test/fixtures';

const BASE = {
  'GET /api/me': () => json({ user: TEST_USER }),
};

let fetchMock: FetchMock;

function dashboardCalls(): URL[] {
  return fetchMock.mock.calls
    .map(([url]) => (typeof url === 'string' ? url : ''))
    .filter((url) => url.startsWith('/api/performance-dashboard'))
    .map((url) => new URL(url, 'http://localhost'));
}

const PLAN_WITH_RESULTS = dashboardPlan('p1', {
  name: 'Checkout flow',
  description: 'Buys a thing',
  results_count: 5,
  recent_results: [
    {
      test_id: 'r5',
      status: 'completed',
      created_at: '2025-03-05T10:00:00Z',
      start_time: '2025-03-05T10:00:00Z',
    },
    {
      test_id: 'r4',
      status: 'failed',
      created_at: '2025-03-04T10:00:00Z',
      start_time: '2025-03-04T10:00:00Z',
    },
    {
      test_id: 'r3',
      status: 'stopped',
      created_at: '2025-03-03T10:00:00Z',
      start_time: '2025-03-03T10:00:00Z',
    },
  ],
  trend: [
    { test_id: 'r1', start_time: '2025-03-01T10:00:00Z', percentile_95: 20, error_rate: 0 },
    { test_id: 'r5', start_time: '2025-03-05T10:00:00Z', percentile_95: 35, error_rate: 1.5 },
  ],
});
const SCRIPT_PLAN = dashboardPlan('p2', { name: 'Imported API', source_page: 'script-input', tool: 'k6' });

beforeEach(() => {
  signInAs();
  fetchMock = createFetchMock({
    ...BASE,
    'GET /api/performance-dashboard': () => json(dashboardAnswer([PLAN_WITH_RESULTS, SCRIPT_PLAN])),
  });
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('Performance dashboard', () => {
  it('shows the title, the counters and every field of a plan card', async () => {
    renderApp('/performance-dashboard');
    expect(await screen.findByRole('heading', { name: 'Performance Test Dashboard' })).toBeInTheDocument();
    const cards = await screen.findAllByTestId('plan-card');
    expect(cards).toHaveLength(2);
    expect(screen.getByTestId('counter-total_plans')).toHaveTextContent('2');
    expect(screen.getByTestId('counter-completed_tests')).toHaveTextContent('7');
    expect(screen.getByTestId('counter-failed_tests')).toHaveTextContent('2');
    expect(screen.getByTestId('counter-running_tests')).toHaveTextContent('1');

    const card = within(cards[0]!);
    expect(card.getByTestId('plan-card-name')).toHaveTextContent('Checkout flow');
    expect(card.getByTestId('plan-card-tool')).toHaveTextContent('JMeter');
    expect(card.getByText(/^Created /)).toBeInTheDocument();
    expect(card.getByTestId('plan-card-description')).toHaveTextContent('Buys a thing');
    expect(card.getByTestId('plan-card-apis')).toHaveTextContent('2');
    expect(card.getByTestId('plan-card-users')).toHaveTextContent('5');
    expect(card.getByTestId('plan-card-duration')).toHaveTextContent('120 s');
    expect(card.getByTestId('plan-card-source')).toHaveTextContent('URL input');
    const results = card.getAllByTestId('plan-card-result');
    expect(results).toHaveLength(3);
    expect(within(results[1]!).getByText('Failed')).toBeInTheDocument();
    expect(card.getAllByTestId('plan-card-view-result')[0]).toHaveAttribute('href', '/test-result/r5');
    expect(card.getByTestId('plan-card-more')).toHaveTextContent('+2 more results');
    expect(card.getByTestId('plan-card-more')).toHaveAttribute('href', '/previous-results?planId=p1');
    expect(card.getByTestId('plan-trend')).toHaveAttribute('data-runs', '2');
    expect(card.getByTestId('trend-p95-last')).toHaveTextContent('35 ms');
    expect(card.getByTestId('trend-errors-last')).toHaveTextContent('1.5%');
    expect(card.getByTestId('plan-compare')).toHaveAttribute('href', '/compare-results?candidate=r5');
    expect(card.getByTestId('edit-plan')).toHaveAttribute('href', '/create-test/url-input?planId=p1');

    const second = within(cards[1]!);
    expect(second.getByTestId('plan-card-source')).toHaveTextContent('Script upload');
    expect(second.getByTestId('plan-card-no-results')).toBeInTheDocument();
    expect(second.queryByTestId('plan-card-more')).not.toBeInTheDocument();
    expect(second.queryByTestId('plan-trend')).not.toBeInTheDocument();

    for (const id of ['view-all-results', 'create-url-test', 'create-script-test', 'back-to-dashboard']) {
      expect(screen.getByTestId(id)).toBeInTheDocument();
    }
    expect(screen.getByTestId('view-all-results')).toHaveAttribute('href', '/previous-results');
    expect(screen.getByTestId('back-to-dashboard')).toHaveAttribute('href', '/dashboard');
  });

  it('searches on the server after a pause in typing, and filters', async () => {
    const user = userEvent.setup();
    renderApp('/performance-dashboard');
    await screen.findAllByTestId('plan-card');
    await user.type(screen.getByTestId('plan-search'), 'Checkout');
    await waitFor(() => expect(dashboardCalls().at(-1)?.searchParams.get('q')).toBe('Checkout'));
    // One request for the whole word, not one per letter.
    expect(dashboardCalls().filter((url) => url.searchParams.has('q'))).toHaveLength(1);

    await user.selectOptions(screen.getByTestId('plan-filter'), 'with_results');
    await waitFor(() => expect(dashboardCalls().at(-1)?.searchParams.get('filter')).toBe('with_results'));
    expect(dashboardCalls().at(-1)?.searchParams.get('offset')).toBe('0');
  });

  it('says "No saved performance test plans" without plans and "No plans found" when nothing matches', async () => {
    fetchMock.mockImplementation(
      createFetchMock({
        ...BASE,
        'GET /api/performance-dashboard': () => json(dashboardAnswer([])),
      }),
    );
    const { unmount } = renderApp('/performance-dashboard');
    expect(await screen.findByText('No saved performance test plans')).toBeInTheDocument();
    unmount();

    fetchMock.mockImplementation(
      createFetchMock({
        ...BASE,
        'GET /api/performance-dashboard': () =>
          json({
            ...dashboardAnswer([]),
            counters: { total_plans: 4, completed_tests: 0, failed_tests: 0, running_tests: 0 },
          }),
      }),
    );
    renderApp('/performance-dashboard');
    expect(await screen.findByText('No plans found')).toBeInTheDocument();
  });

  it('shows "Failed to load data" with the server\'s message or "Failed to load plan", and tries again', async () => {
    let calls = 0;
    fetchMock.mockImplementation(
      createFetchMock({
        ...BASE,
        'GET /api/performance-dashboard': () => {
          calls += 1;
          if (calls === 1) return json({ detail: 'boom' }, 500, 'Server Error');
          if (calls === 2) return json({}, 502, 'Bad Gateway');
          return json(dashboardAnswer([SCRIPT_PLAN]));
        },
      }),
    );
    renderApp('/performance-dashboard');
    expect(await screen.findByText('Failed to load data')).toBeInTheDocument();
    expect(screen.getByText('boom')).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('try-again'));
    expect(await screen.findByText('Failed to load plan')).toBeInTheDocument();
    expect(screen.getByText('Failed to load data')).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('try-again'));
    expect(await screen.findAllByTestId('plan-card')).toHaveLength(1);
  });

  it('pages with Previous and Next and shows the range', async () => {
    const plans = Array.from({ length: 12 }, (_, i) => dashboardPlan(`p${i}`));
    fetchMock.mockImplementation(
      createFetchMock({
        ...BASE,
        'GET /api/performance-dashboard': ({ url }) => {
          const offset = Number(new URL(url, 'http://localhost').searchParams.get('offset') ?? 0);
          return json({ ...dashboardAnswer(offset === 0 ? plans : plans.slice(0, 3)), total: 15 });
        },
      }),
    );
    renderApp('/performance-dashboard');
    expect(await screen.findByTestId('pager-range')).toHaveTextContent('1–12 of 15');
    expect(screen.getByTestId('pager-previous')).toBeDisabled();
    await userEvent.click(screen.getByTestId('pager-next'));
    await waitFor(() => expect(screen.getByTestId('pager-range')).toHaveTextContent('13–15 of 15'));
    expect(dashboardCalls().at(-1)?.searchParams.get('offset')).toBe('12');
    expect(screen.getByTestId('pager-next')).toBeDisabled();
  });

  it('Run Test starts the plan and opens its result; a failure says why and opens nothing', async () => {
    fetchMock.mockImplementation(
      createFetchMock({
        ...BASE,
        'GET /api/performance-dashboard': () => json(dashboardAnswer([PLAN_WITH_RESULTS])),
        'POST /api/run-test': () => json({ detail: 'A test is already running' }, 409, 'Conflict'),
        'GET /api/get-test-result/run_9': () => json({ test_id: 'run_9', status: 'running' }),
      }),
    );
    const { router } = renderApp('/performance-dashboard');
    await userEvent.click(await screen.findByTestId('plan-run'));
    await waitFor(() =>
      expect(noticeTexts()).toEqual(['Failed to run test plan: A test is already running']),
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to run test plan: A test is already running');
    expect(router.state.location.pathname).toBe('/performance-dashboard');
    const run = fetchMock.mock.calls.find(([url]) => url === '/api/run-test');
    expect(bodyOf(run?.[1])).toEqual({ plan_id: 'p1' });

    fetchMock.mockImplementation(
      createFetchMock({
        ...BASE,
        'GET /api/performance-dashboard': () => json(dashboardAnswer([PLAN_WITH_RESULTS])),
        'POST /api/run-test': () => json({ test_id: 'run_9' }, 201, 'Created'),
        'GET /api/get-test-result/run_9': () => json({ test_id: 'run_9', status: 'running' }),
      }),
    );
    await userEvent.click(screen.getByTestId('plan-run'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/test-result/run_9'));
  });

  it('View Details shows the description, tool, created time and URLs', async () => {
    renderApp('/performance-dashboard');
    const [card] = await screen.findAllByTestId('plan-card');
    await userEvent.click(within(card!).getByTestId('plan-details'));
    const modal = await screen.findByTestId('plan-details-modal');
    expect(within(modal).getByTestId('plan-details-description')).toHaveTextContent('Buys a thing');
    expect(within(modal).getByTestId('plan-details-tool')).toHaveTextContent('JMeter');
    expect(within(modal).getByTestId('plan-details-created')).not.toHaveTextContent('—');
    expect(within(modal).getByTestId('plan-details-urls')).toHaveTextContent('http://127.0.0.1:9/orders');
  });

  it('Download Script saves the script under its name; a failure says "Failed to download script"', async () => {
    const created = vi.fn(() => 'blob:script');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: created, revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    fetchMock.mockImplementation(
      createFetchMock({
        ...BASE,
        'GET /api/performance-dashboard': () => json(dashboardAnswer([PLAN_WITH_RESULTS, SCRIPT_PLAN])),
        'GET /api/download-script/p1': () =>
          json({ script: '<jmeterTestPlan/>', filename: 'testplan_jmeter_p1.jmx', warnings: [] }),
      }),
    );
    renderApp('/performance-dashboard');
    const cards = await screen.findAllByTestId('plan-card');
    await userEvent.click(within(cards[0]!).getByTestId('plan-download'));
    await waitFor(() => expect(click).toHaveBeenCalled());
    const link = click.mock.contexts[0] as HTMLAnchorElement;
    expect(link.download).toBe('testplan_jmeter_p1.jmx');
    expect(created).toHaveBeenCalled();

    await userEvent.click(within(cards[1]!).getByTestId('plan-download'));
    await waitFor(() => expect(noticeTexts()).toEqual(['Failed to download script']));
  });

  it('Delete asks first, deletes and reloads; a failure says "Failed to delete test plan"', async () => {
    let deleted = false;
    fetchMock.mockImplementation(
      createFetchMock({
        ...BASE,
        'GET /api/performance-dashboard': () =>
          json(dashboardAnswer(deleted ? [SCRIPT_PLAN] : [PLAN_WITH_RESULTS, SCRIPT_PLAN])),
        'DELETE /api/delete-test-plan/p1': () => {
          deleted = true;
          return json({ message: 'Deleted' });
        },
      }),
    );
    const user = userEvent.setup();
    renderApp('/performance-dashboard');
    const cards = await screen.findAllByTestId('plan-card');
    await user.click(within(cards[0]!).getByTestId('plan-delete'));
    expect(screen.getByRole('alertdialog')).toHaveAccessibleName('Are you sure you want to delete?');
    expect(screen.getByTestId('confirm-accept')).toHaveTextContent('Delete');
    expect(await answerConfirm(user, false)).toBe('Are you sure you want to delete?');
    expect(
      fetchMock.mock.calls.some(
        ([url]) => typeof url === 'string' && url.startsWith('/api/delete-test-plan'),
      ),
    ).toBe(false);

    await user.click(within(cards[0]!).getByTestId('plan-delete'));
    await answerConfirm(user, true);
    await waitFor(() => expect(screen.getAllByTestId('plan-card')).toHaveLength(1));

    await user.click(within(screen.getByTestId('plan-card')).getByTestId('plan-delete'));
    await answerConfirm(user, true);
    await waitFor(() => expect(noticeTexts()).toEqual(['Failed to delete test plan']));
  });

  it('Voice Command sends the typed command with the plan id and shows the answer and the changes', async () => {
    fetchMock.mockImplementation(
      createFetchMock({
        ...BASE,
        'GET /api/performance-dashboard': () => json(dashboardAnswer([PLAN_WITH_RESULTS])),
        'POST /api/update-test-plan-command': ({ body }) =>
          typeof body === 'string' && body.includes('banana')
            ? json({ detail: 'Could not understand the command' }, 400, 'Bad Request')
            : json({
                message: 'Updated 1 setting',
                parsed_updates: [{ field: 'concurrent_users', value: 20, scope: 'plan' }],
              }),
      }),
    );
    const user = userEvent.setup();
    renderApp('/performance-dashboard');
    await user.click(await screen.findByTestId('plan-voice'));
    const panel = screen.getByTestId('voice-panel');
    await user.type(within(panel).getByTestId('voice-command-input'), 'set users to 20');
    await user.click(within(panel).getByTestId('voice-command-send'));
    expect(await within(panel).findByTestId('voice-command-message')).toHaveAttribute('data-kind', 'success');
    expect(within(panel).getByTestId('voice-command-message')).toHaveTextContent(
      'Applied 1 change: concurrent users → 20',
    );
    expect(within(panel).getByTestId('voice-command-changes')).toHaveTextContent('concurrent users → 20');
    const sent = fetchMock.mock.calls.find(([url]) => url === '/api/update-test-plan-command');
    expect(bodyOf(sent?.[1])).toEqual({ plan_id: 'p1', command: 'set users to 20' });

    await user.type(within(panel).getByTestId('voice-command-input'), 'banana');
    await user.click(within(panel).getByTestId('voice-command-send'));
    await waitFor(() =>
      expect(within(panel).getByTestId('voice-command-message')).toHaveAttribute('data-kind', 'error'),
    );
    expect(within(panel).getByTestId('voice-command-message')).toHaveTextContent(
      'Could not understand the command',
    );
  });

  it('Voice Command offers the microphone without speech recognition, and pressing it says so', async () => {
    // jsdom, like Firefox, has no Web Speech API.
    expect('SpeechRecognition' in window || 'webkitSpeechRecognition' in window).toBe(false);
    const user = userEvent.setup();
    renderApp('/performance-dashboard');
    await user.click((await screen.findAllByTestId('plan-voice'))[0]!);
    const mic = within(screen.getByTestId('voice-panel')).getByRole('button', { name: 'Speak a command' });
    await user.click(mic);
    expect(noticeTexts()).toEqual(['Speech recognition is not supported in this browser.']);
    expect(mic).toHaveAttribute('aria-pressed', 'false');
  });
});
