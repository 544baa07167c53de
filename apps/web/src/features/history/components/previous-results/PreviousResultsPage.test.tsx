import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { answerConfirm } from '@/test/notices';
import { bodyOf, createFetchMock, json, renderApp, signInAs, TEST_USER, type FetchMock } from '@/test/render';
import type { PastRun } from '../../queries/history-api';
import { CHART_DATA, pastRun } from '../../test/fixtures';

// Chart.js needs a canvas, which jsdom lacks; the charts are tested through their cards.
vi.mock('react-chartjs-2', () => ({
  Line: () => <canvas data-testid="line-chart" />,
  Bar: () => <canvas data-testid="bar-chart" />,
  Doughnut: () => <canvas data-testid="doughnut-chart" />,
}));

let fetchMock: FetchMock;
let runs: PastRun[];

function resultOf(run: PastRun) {
  const { api_results: apiResults, ...summary } = run.results_summary ?? {};
  return {
    test_id: run.test_id,
    plan_id: run.plan_id,
    plan_name: run.plan_name,
    status: run.status,
    concurrent_users: run.concurrent_users,
    tool: run.tool,
    started_at: run.start_time,
    ended_at: run.end_time,
    duration_seconds: run.duration,
    summary,
    api_results: apiResults,
    errors: { http_status: { count: 2, samples: ['HTTP 500'] } },
  };
}

function handlers(extra: Record<string, Parameters<typeof createFetchMock>[0][string]> = {}) {
  return createFetchMock({
    'GET /api/me': () => json({ user: TEST_USER }),
    'GET /api/get-test-results': ({ url }) => {
      const params = new URL(url, 'http://localhost').searchParams;
      const planId = params.get('plan_id');
      const offset = Number(params.get('offset') ?? 0);
      const limit = Number(params.get('limit') ?? 100);
      const matching = runs.filter((run) => !planId || run.plan_id === planId);
      return new Response(JSON.stringify(matching.slice(offset, offset + limit)), {
        headers: { 'Content-Type': 'application/json', 'X-Total-Count': String(matching.length) },
      });
    },
    ...Object.fromEntries(
      runs.flatMap((run) => [
        [`GET /api/get-test-result/${run.test_id}`, () => json(resultOf(run))],
        [`GET /api/chart-data/${run.test_id}`, () => json({ ...CHART_DATA, test_id: run.test_id })],
      ]),
    ),
    ...extra,
  });
}

beforeEach(() => {
  signInAs();
  runs = [
    pastRun('r3', { test_name: '', plan_name: '', status: 'running', results_summary: null, duration: 65 }),
    pastRun('r2', { status: 'failed', concurrent_users: 1 }),
    pastRun('r1', { test_name: 'Nightly', is_baseline: true, notes: 'Before the cache' }),
  ];
  fetchMock = handlers();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('Previous Test Results', () => {
  it('lists the runs with plan name or "Test {id}", status colours, "Nm Ns" and their summary', async () => {
    renderApp('/previous-results');
    const items = await screen.findAllByTestId('run-item');
    expect(items).toHaveLength(3);
    expect(within(items[0]!).getByTestId('run-item-name')).toHaveTextContent('Test r3');
    expect(within(items[0]!).getByTestId('run-item-duration')).toHaveTextContent('1m 5s');
    expect(within(items[0]!).getByText('Running').closest('[data-status]')).toHaveAttribute(
      'data-status',
      'running',
    );
    expect(within(items[1]!).getByText('Failed')).toBeInTheDocument();
    expect(within(items[1]!).getByTestId('run-item-users')).toHaveTextContent(/^1 user$/);
    // docs/reference/02-running.md §2: the plan name titles a run; the run's own name, when it differs, comes under it.
    expect(within(items[1]!).getByTestId('run-item-name')).toHaveTextContent('Checkout flow');
    expect(within(items[1]!).queryByTestId('run-item-own-name')).not.toBeInTheDocument();
    expect(within(items[2]!).getByTestId('run-item-name')).toHaveTextContent(/^Checkout flow$/);
    expect(within(items[2]!).getByTestId('run-item-own-name')).toHaveTextContent('Nightly');
    expect(within(items[2]!).getByTestId('run-item-users')).toHaveTextContent(/^2 users$/);
    expect(within(items[2]!).getByTestId('run-item-duration')).toHaveTextContent('2m 5s');
    expect(within(items[2]!).getByTestId('run-item-summary')).toHaveTextContent('Total 100');
    expect(within(items[2]!).getByTestId('run-item-summary')).toHaveTextContent('Success 98');
    expect(within(items[2]!).getByTestId('run-item-summary')).toHaveTextContent('Errors 1.25%');
    expect(within(items[2]!).getByText('k6')).toBeInTheDocument();
    expect(screen.getByText('Select a test result')).toBeInTheDocument();
    expect(screen.getByTestId('pager-range')).toHaveTextContent('1–3 of 3');
    expect(screen.getByTestId('back-to-dashboard')).toHaveAttribute('href', '/dashboard');
  });

  it('selecting a run shows its information, summary, the live screen charts and its API results', async () => {
    const { router } = renderApp('/previous-results');
    const items = await screen.findAllByTestId('run-item');
    await userEvent.click(items[2]!);
    const detail = await screen.findByTestId('run-detail');
    expect(router.state.location.search).toBe('?testId=r1');
    expect(within(detail).getByTestId('info-test-id')).toHaveTextContent('r1');
    expect(within(detail).getByTestId('info-plan-name')).toHaveTextContent('Checkout flow');
    expect(within(detail).getByTestId('info-tool')).toHaveTextContent('k6');
    expect(within(detail).getByTestId('info-status')).toHaveTextContent('Completed');
    expect(within(detail).getByTestId('info-duration')).toHaveTextContent('2m 5s');
    expect(within(detail).getByTestId('info-users')).toHaveTextContent('2');
    expect(within(detail).getByTestId('perf-summary-total')).toHaveTextContent('100');
    expect(within(detail).getByTestId('perf-summary-failed')).toHaveTextContent('2');
    expect(within(detail).getByTestId('perf-summary-p95')).toHaveTextContent('30 ms');
    expect(within(detail).getByTestId('perf-summary-rps')).toHaveTextContent('25 req/s');
    expect(within(detail).getByTestId('perf-summary-bandwidth')).toHaveTextContent('12.3 KB/s');
    expect(within(detail).getByTestId('run-notes')).toHaveTextContent('Before the cache');
    expect(within(detail).getByTestId('baseline-mark')).toBeInTheDocument();
    // The live result screen's own chart components, drawn from the stored series.
    expect(await within(detail).findByTestId('performance-timeline')).toHaveAttribute('data-points', '2');
    expect(within(detail).getByTestId('chart-throughput')).toHaveAttribute('data-points', '2');
    expect(within(detail).getByTestId('result-charts')).toBeInTheDocument();
    expect(within(detail).getByTestId('run-api-results')).toHaveTextContent('Host: http://127.0.0.1:9');
    expect(within(detail).getByTestId('run-api-results')).toHaveTextContent('/users');
    expect(within(detail).getByTestId('report-html')).toBeInTheDocument();
  });

  it('says why an abort threshold stopped a run, with its breaking point and its iterations', async () => {
    const summary = runs[2]!.results_summary!;
    runs[2] = pastRun('r1', {
      status: 'stopped',
      results_summary: {
        ...summary,
        iterations_started: 420,
        iterations_dropped: 3,
        schedule_lag: { avg: 0.5, p50: 0.4, p90: 1, p95: 1.5, p99: 2.25, p999: 3, min: 0, max: 4 },
        flows: [
          { name: 'browse', iterations: 315, total_requests: 630, failed_requests: 0, percentile_95: 40 },
          { name: 'buy', iterations: 105, total_requests: 105, failed_requests: 2, percentile_95: 90 },
        ],
      },
      abort_reason: {
        threshold: 'p95<500',
        metric: 'p95',
        actual: 812,
        at_ms: 134_000,
        text: 'p95 812 ms broke p95<500 at 2m14s',
      },
      breaking_point: {
        model: 'arrival_rate',
        value: 42,
        at_ms: 123_000,
        text: 'the highest rate that held: 42 iterations/s at 2m3s',
      },
    });
    fetchMock.mockImplementation(handlers());
    renderApp('/previous-results?testId=r1');
    const detail = await screen.findByTestId('run-detail');
    expect(await within(detail).findByTestId('abort-reason')).toHaveTextContent(
      'p95 812 ms broke p95<500 at 2m14s',
    );
    expect(within(detail).getByTestId('breaking-point')).toHaveTextContent('42 iterations/s at 2m3s');
    expect(within(detail).getByTestId('tile-iterations-value')).toHaveTextContent('420');
    expect(within(detail).getByTestId('tile-dropped-iterations-value')).toHaveTextContent('3');
    expect(within(detail).getByTestId('tile-schedule-lag-value')).toHaveTextContent('2.25 ms');
    // Per flow as per API.
    const flows = within(within(detail).getByTestId('run-flow-results')).getAllByTestId('flow-row');
    expect(flows.map((row) => row.getAttribute('data-flow'))).toEqual(['browse', 'buy']);
    expect(flows[1]).toHaveTextContent('buy10525.0 %1052');
  });

  it('leaves the charts out when the chart data cannot be loaded', async () => {
    fetchMock.mockImplementation(
      handlers({ 'GET /api/chart-data/r1': () => json({ detail: 'gone' }, 500, 'Server Error') }),
    );
    renderApp('/previous-results?testId=r1');
    const detail = await screen.findByTestId('run-detail');
    expect(await within(detail).findByTestId('charts-omitted')).toBeInTheDocument();
    expect(within(detail).queryByTestId('performance-timeline')).not.toBeInTheDocument();
    expect(within(detail).getByTestId('performance-summary')).toBeInTheDocument();
  });

  it('preselects ?testId= even when the run is not on the page shown', async () => {
    const older = pastRun('r0', { test_name: 'Old one', plan_id: 'p9' });
    runs.push(older);
    fetchMock.mockImplementation(
      handlers({
        'GET /api/get-test-results': ({ url }) => {
          const planId = new URL(url, 'http://localhost').searchParams.get('plan_id');
          const page = planId === 'p9' ? [older] : runs.slice(0, 3);
          return new Response(JSON.stringify(page), {
            headers: { 'Content-Type': 'application/json', 'X-Total-Count': String(page.length) },
          });
        },
      }),
    );
    renderApp('/previous-results?testId=r0');
    const detail = await screen.findByTestId('run-detail');
    await waitFor(() =>
      expect(within(detail).getByTestId('run-detail-own-name')).toHaveTextContent('Old one'),
    );
    expect(within(detail).getByTestId('run-detail-title')).toHaveTextContent('Checkout flow');
  });

  it('says "No test results found" without runs', async () => {
    runs = [];
    fetchMock.mockImplementation(handlers());
    renderApp('/previous-results');
    expect(await screen.findByText('No test results found')).toBeInTheDocument();
  });

  it('says "Error loading test results" with the server\'s message or "Failed to load test results", and Try Again loads them', async () => {
    let calls = 0;
    const working = handlers();
    fetchMock.mockImplementation(async (input, init) => {
      if (typeof input !== 'string' || !input.startsWith('/api/get-test-results'))
        return working(input, init);
      calls += 1;
      if (calls === 1) return json({ detail: 'Database is busy' }, 503, 'Service Unavailable');
      if (calls === 2) throw new TypeError('Failed to fetch');
      return working(input, init);
    });
    renderApp('/previous-results');
    expect(await screen.findByText('Error loading test results')).toBeInTheDocument();
    expect(screen.getByText('Database is busy')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByText('Failed to load test results')).toBeInTheDocument();
    expect(screen.getByText('Error loading test results')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findAllByTestId('run-item')).toHaveLength(3);
  });

  it('deletes a finished run after confirmation, and never a running one', async () => {
    fetchMock.mockImplementation(
      handlers({
        'DELETE /api/delete-test-result/r2': () => {
          runs = runs.filter((run) => run.test_id !== 'r2');
          return json({ test_id: 'r2', deleted: true });
        },
      }),
    );
    const user = userEvent.setup();
    const { router } = renderApp('/previous-results?testId=r3');
    expect(await screen.findByTestId('run-delete')).toBeDisabled();

    await userEvent.click(screen.getAllByTestId('run-item')[1]!);
    await waitFor(() => expect(screen.getByTestId('run-detail')).toHaveAttribute('data-test-id', 'r2'));
    await user.click(screen.getByTestId('run-delete'));
    expect(await answerConfirm(user, false)).toBe('Are you sure you want to delete?');
    expect(screen.getAllByTestId('run-item')).toHaveLength(3);
    await user.click(screen.getByTestId('run-delete'));
    await answerConfirm(user, true);
    await waitFor(() => expect(screen.getAllByTestId('run-item')).toHaveLength(2));
    expect(router.state.location.search).toBe('');
    expect(await screen.findByText('Select a test result')).toBeInTheDocument();
  });

  it('renames a run with notes and sets it as its plan baseline', async () => {
    fetchMock.mockImplementation(
      handlers({
        'POST /api/save-test-result': ({ body }) => {
          const request = bodyOf({ body }) as { test_id: string; test_name: string; notes: string };
          runs = runs.map((run) =>
            run.test_id === request.test_id
              ? { ...run, test_name: request.test_name, notes: request.notes }
              : run,
          );
          return json(runs.find((run) => run.test_id === request.test_id));
        },
        'POST /api/set-baseline': ({ body }) => {
          const request = bodyOf({ body }) as { plan_id: string; test_id: string };
          runs = runs.map((run) => ({ ...run, is_baseline: run.test_id === request.test_id }));
          return json({ plan_id: request.plan_id, baseline_test_id: request.test_id });
        },
      }),
    );
    const user = userEvent.setup();
    runs[1] = pastRun('r2', { status: 'completed' });
    renderApp('/previous-results?testId=r2');
    await user.click(await screen.findByTestId('run-edit'));
    const dialog = await screen.findByTestId('run-edit-dialog');
    await user.clear(within(dialog).getByTestId('run-edit-name'));
    await user.type(within(dialog).getByTestId('run-edit-name'), 'After the cache');
    await user.type(within(dialog).getByTestId('run-edit-notes'), 'Redis on');
    await user.click(within(dialog).getByTestId('run-edit-save'));
    await waitFor(() =>
      expect(screen.getByTestId('run-detail-own-name')).toHaveTextContent('After the cache'),
    );
    expect(screen.getByTestId('run-detail-title')).toHaveTextContent('Checkout flow');
    expect(screen.getByTestId('run-notes')).toHaveTextContent('Redis on');
    const saved = fetchMock.mock.calls.find(([url]) => url === '/api/save-test-result');
    expect(bodyOf(saved?.[1])).toEqual({ test_id: 'r2', test_name: 'After the cache', notes: 'Redis on' });

    await user.click(screen.getByTestId('run-baseline'));
    await waitFor(() => expect(screen.getByTestId('baseline-mark')).toBeInTheDocument());
    const baseline = fetchMock.mock.calls.find(([url]) => url === '/api/set-baseline');
    expect(bodyOf(baseline?.[1])).toEqual({ plan_id: 'p1', test_id: 'r2' });
    expect(screen.getByTestId('run-baseline')).toHaveTextContent('Clear baseline');
    expect(screen.getByTestId('run-compare')).toHaveAttribute('href', '/compare-results?candidate=r2');
  });

  it('a stopped run that measured requests can be the baseline and compared, marked partial', async () => {
    runs = [
      pastRun('s1', {
        status: 'stopped',
        results_summary: { ...pastRun('x').results_summary!, test_duration: 9 },
      }),
      pastRun('s0', { status: 'stopped', results_summary: null }),
      ...runs,
    ];
    fetchMock = handlers();
    vi.stubGlobal('fetch', fetchMock);
    const user = userEvent.setup();
    renderApp('/previous-results?testId=s1');
    const detail = await screen.findByTestId('run-detail');
    expect(await within(detail).findByTestId('partial-run')).toHaveTextContent(
      'Stopped early: partial figures — these figures cover the 9 s it ran',
    );
    expect(within(detail).getByTestId('run-baseline')).toHaveTextContent('Set as baseline');
    expect(within(detail).getByTestId('run-compare')).toHaveAttribute(
      'href',
      '/compare-results?candidate=s1',
    );

    // Stopped before anything was measured: nothing to compare, no mark.
    await user.click(screen.getAllByTestId('run-item').find((item) => item.dataset.testId === 's0')!);
    await waitFor(() => expect(screen.getByTestId('run-detail')).toHaveAttribute('data-test-id', 's0'));
    expect(screen.queryByTestId('run-baseline')).not.toBeInTheDocument();
    expect(screen.queryByTestId('run-compare')).not.toBeInTheDocument();
    expect(screen.queryByTestId('partial-run')).not.toBeInTheDocument();
  });

  it('lists one plan with ?planId= and shows all runs again', async () => {
    runs.push(pastRun('x1', { plan_id: 'p2', plan_name: 'Other plan', test_name: 'Other plan' }));
    fetchMock.mockImplementation(handlers());
    const user = userEvent.setup();
    renderApp('/previous-results?planId=p2');
    await waitFor(() => expect(screen.getAllByTestId('run-item')).toHaveLength(1));
    expect(screen.getByTestId('plan-filter-chip')).toHaveTextContent('Other plan');
    await user.click(screen.getByTestId('clear-plan-filter'));
    await waitFor(() => expect(screen.getAllByTestId('run-item')).toHaveLength(4));
  });

  it('counts users in Korean without a plural', async () => {
    renderApp('/previous-results', { language: 'ko' });
    const items = await screen.findAllByTestId('run-item');
    expect(within(items[1]!).getByTestId('run-item-users')).toHaveTextContent(/^사용자 1명$/);
    expect(within(items[2]!).getByTestId('run-item-users')).toHaveTextContent(/^사용자 2명$/);
  });
});
