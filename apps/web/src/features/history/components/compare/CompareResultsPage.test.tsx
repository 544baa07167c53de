import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFetchMock, json, renderApp, signInAs, TEST_USER, type FetchMock } from '@/test/render';
import type { PastRun } from '../../queries/history-api';
import { comparison, pastRun } from '../../test/fixtures';

vi.mock('react-chartjs-2', () => ({
  Line: () => <canvas data-testid="line-chart" />,
  Bar: () => <canvas data-testid="bar-chart" />,
  Doughnut: () => <canvas data-testid="doughnut-chart" />,
}));

let fetchMock: FetchMock;
let runs: PastRun[];
/** What compare-test-results answers. */
let answer: ReturnType<typeof comparison>;

function listAnswer(items: PastRun[]) {
  return new Response(JSON.stringify(items), {
    headers: { 'Content-Type': 'application/json', 'X-Total-Count': String(items.length) },
  });
}

beforeEach(() => {
  signInAs();
  runs = [
    pastRun('c1', { start_time: '2025-03-03T10:00:00Z' }),
    pastRun('m1', {
      plan_id: 'p2',
      plan_name: 'Search',
      test_name: 'Search',
      start_time: '2025-03-02T12:00:00Z',
    }),
    pastRun('b1', { start_time: '2025-03-02T10:00:00Z' }),
    pastRun('a1', { start_time: '2025-03-01T10:00:00Z' }),
  ];
  fetchMock = createFetchMock({
    'GET /api/me': () => json({ user: TEST_USER }),
    'GET /api/get-test-results': ({ url }) => {
      const planId = new URL(url, 'http://localhost').searchParams.get('plan_id');
      return listAnswer(runs.filter((run) => !planId || run.plan_id === planId));
    },
    'GET /api/compare-test-results': () => json(answer),
  });
  answer = comparison();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

function compareCall(): URLSearchParams | undefined {
  const call = fetchMock.mock.calls
    .map(([url]) => (typeof url === 'string' ? url : ''))
    .filter((url) => url.startsWith('/api/compare-test-results'))
    .at(-1);
  return call ? new URL(call, 'http://localhost').searchParams : undefined;
}

describe('Compare runs', () => {
  it('sets both runs’ iterations and flows side by side, and says why one was stopped', async () => {
    answer.base.results_summary = {
      ...answer.base.results_summary!,
      flows: [
        { name: 'browse', iterations: 70 },
        { name: 'search', iterations: 30 },
      ],
    };
    answer.candidate = {
      ...answer.candidate,
      status: 'stopped',
      results_summary: {
        ...answer.candidate.results_summary!,
        iterations_started: 75,
        iterations_dropped: 25,
        flows: [{ name: 'browse', iterations: 75 }],
      },
      abort_reason: {
        threshold: 'p95<500',
        metric: 'p95',
        actual: 812,
        at_ms: 14_000,
        text: 'p95 812 ms broke p95<500 at 14s',
      },
      breaking_point: null,
    };
    renderApp('/compare-results?base=b1&candidate=c1');
    const table = await screen.findByTestId('compare-iterations');
    const rows = within(table).getAllByTestId('compare-iteration');
    expect(rows.map((row) => row.getAttribute('data-key'))).toEqual([
      'started',
      'dropped',
      'flow-browse',
      'flow-search',
    ]);
    expect(rows[0]).toHaveTextContent('Iterations started10075');
    expect(rows[1]).toHaveTextContent('Iterations dropped—25 (25%)');
    expect(rows[2]).toHaveTextContent('70 (70.0 %)75 (100.0 %)');
    expect(rows[3]).toHaveTextContent('30 (30.0 %)—');
    expect(within(screen.getByTestId('compare-candidate-run')).getByTestId('abort-reason')).toHaveTextContent(
      'p95 812 ms broke p95<500 at 14s',
    );
    expect(within(screen.getByTestId('compare-base-run')).queryByTestId('abort-banner')).toBeNull();
  });

  it("sets the schedule lag and each flow's requests and p95 side by side where the engine measured them", async () => {
    answer.base.results_summary = {
      ...answer.base.results_summary!,
      iterations_started: 100,
      iterations_dropped: 0,
      schedule_lag: { avg: 0.5, p50: 0.4, p90: 1, p95: 1.5, p99: 3.25, p999: 4, min: 0, max: 5 },
      flows: [
        { name: 'browse', iterations: 70, total_requests: 140, failed_requests: 0, percentile_95: 40 },
        { name: 'search', iterations: 30, total_requests: 30, failed_requests: 0, percentile_95: 90 },
      ],
    };
    answer.candidate = {
      ...answer.candidate,
      results_summary: {
        ...answer.candidate.results_summary!,
        flows: [{ name: 'browse', iterations: 75 }],
      },
    };
    renderApp('/compare-results?base=b1&candidate=c1');
    const table = await screen.findByTestId('compare-iterations');
    const rows = within(table).getAllByTestId('compare-iteration');
    expect(rows.map((row) => row.getAttribute('data-key'))).toEqual([
      'started',
      'dropped',
      'schedule-lag',
      'flow-browse',
      'flow-requests-browse',
      'flow-p95-browse',
      'flow-search',
      'flow-requests-search',
      'flow-p95-search',
    ]);
    expect(rows[2]).toHaveTextContent('Schedule lag (p99)3.25 ms—');
    // A tool's run counted the candidate's iterations only: a dash, never a 0.
    expect(rows[4]).toHaveTextContent('Requests of flow browse140—');
    expect(rows[5]).toHaveTextContent('p95 of flow browse40 ms—');
    expect(rows[8]).toHaveTextContent('p95 of flow search90 ms—');
  });

  it('compares the candidate with the run of its plan just before it when none is chosen', async () => {
    const { router } = renderApp('/compare-results?candidate=c1');
    await screen.findByTestId('comparison');
    expect(router.state.location.search).toContain('base=b1');
    expect(compareCall()?.get('base')).toBe('b1');
    expect(compareCall()?.get('candidate')).toBe('c1');
  });

  it("prefers the plan's baseline", async () => {
    runs[3] = pastRun('a1', { start_time: '2025-03-01T10:00:00Z', is_baseline: true });
    const { router } = renderApp('/compare-results?candidate=c1');
    await screen.findByTestId('comparison');
    expect(router.state.location.search).toContain('base=a1');
  });

  it('shows the figures side by side with their change, worse in red and better in green', async () => {
    renderApp('/compare-results?base=b1&candidate=c1');
    const metrics = await screen.findAllByTestId('compare-metric');
    expect(metrics.map((row) => row.getAttribute('data-key'))).toEqual([
      'requests_per_second',
      'average_response_time',
      'percentile_95',
      'percentile_99',
      'error_rate',
    ]);
    const delta = (index: number) => within(metrics[index]!).getByTestId('compare-metric-delta');
    expect(metrics[0]).toHaveTextContent('50 req/s');
    expect(metrics[0]).toHaveTextContent('40 req/s');
    expect(delta(0)).toHaveTextContent('−20%');
    expect(delta(0)).toHaveAttribute('data-tone', 'worse');
    expect(delta(0)).toHaveClass('text-destructive-text');
    expect(delta(1)).toHaveTextContent('−25%');
    expect(delta(1)).toHaveAttribute('data-tone', 'better');
    expect(delta(1)).toHaveClass('text-success-text');
    expect(delta(2)).toHaveTextContent('+50%');
    expect(delta(3)).toHaveAttribute('data-tone', 'same');
    // From a base of 0%, a relative change has no value: the rate's change is in percentage points.
    expect(delta(4)).toHaveTextContent(/^\+1 pp/);
    expect(delta(4)).toHaveAttribute('data-tone', 'worse');
    expect(delta(4)).toHaveClass('text-destructive-text');
    const errorChange = within(metrics[4]!).getByTestId('compare-metric-change');
    expect(errorChange).toHaveTextContent(/^\+1 pp$/);
    expect(errorChange).toHaveClass('text-destructive-text');
    // Other metrics keep their unit in Change and their percent in Change %.
    expect(within(metrics[2]!).getByTestId('compare-metric-change')).toHaveTextContent('+20 ms');

    const api = screen.getByTestId('compare-api');
    expect(api).toHaveTextContent('List users');
    expect(within(api).getByTestId('compare-api-p95')).toHaveTextContent('+50%');
    expect(within(api).getByTestId('compare-api-p95')).toHaveAttribute('data-tone', 'worse');
    expect(within(api).getByTestId('compare-api-errors')).toHaveTextContent(/^0 pp/);
    expect(within(api).getByTestId('compare-api-errors')).toHaveAttribute('data-tone', 'same');
    for (const metric of ['p95', 'rps', 'errors']) {
      expect(screen.getByTestId(`compare-chart-${metric}`)).toHaveAttribute('data-points', '4');
    }
    expect(screen.getByTestId('compare-base-run')).toHaveTextContent('Before');
    expect(screen.getByTestId('compare-candidate-run')).toHaveTextContent('After');
  });

  it('swaps base and candidate', async () => {
    const { router } = renderApp('/compare-results?base=b1&candidate=c1');
    await screen.findByTestId('comparison');
    await userEvent.click(screen.getByTestId('compare-swap'));
    await waitFor(() => expect(compareCall()?.get('base')).toBe('c1'));
    expect(router.state.location.search).toContain('candidate=b1');
  });

  it("shows the server's reason when two runs cannot be compared", async () => {
    fetchMock.mockImplementation(
      createFetchMock({
        'GET /api/me': () => json({ user: TEST_USER }),
        'GET /api/get-test-results': () => listAnswer(runs),
        'GET /api/compare-test-results': () =>
          json({ detail: 'Run a1 has no results to compare' }, 400, 'Bad Request'),
      }),
    );
    renderApp('/compare-results?base=a1&candidate=c1');
    expect(await screen.findByTestId('compare-error')).toHaveTextContent('Run a1 has no results to compare');
  });

  it('shows a lower error rate in percentage points, in green', async () => {
    const answer = comparison();
    answer.metrics[4] = {
      ...answer.metrics[4]!,
      base: 3.5,
      candidate: 1,
      delta: -2.5,
      delta_percent: -71.43,
      worse: false,
    };
    fetchMock.mockImplementation(
      createFetchMock({
        'GET /api/me': () => json({ user: TEST_USER }),
        'GET /api/get-test-results': () => listAnswer(runs),
        'GET /api/compare-test-results': () => json(answer),
      }),
    );
    renderApp('/compare-results?base=b1&candidate=c1');
    const metrics = await screen.findAllByTestId('compare-metric');
    const delta = within(metrics[4]!).getByTestId('compare-metric-delta');
    expect(delta).toHaveTextContent(/^−2\.5 pp/);
    expect(delta).toHaveAttribute('data-tone', 'better');
    expect(within(metrics[4]!).getByTestId('compare-metric-change')).toHaveClass('text-success-text');
  });

  it('offers only runs of the chosen plan in the other picker (issue #7)', async () => {
    renderApp('/compare-results?base=b1&candidate=c1');
    await screen.findByTestId('comparison');
    const offered = (testId: string) =>
      Array.from(screen.getByTestId<HTMLSelectElement>(testId).options, (option) => option.value).filter(
        Boolean,
      );
    expect(offered('compare-base')).toEqual(['c1', 'b1', 'a1']);
    expect(offered('compare-candidate')).toEqual(['c1', 'b1', 'a1']);
    expect(screen.queryByTestId('compare-plans-differ')).not.toBeInTheDocument();
  });

  it('shows two runs of different plans when the link asks for them, and says the plans differ', async () => {
    renderApp('/compare-results?base=m1&candidate=c1');
    await screen.findByTestId('comparison');
    expect(screen.getByTestId('compare-base')).toHaveValue('m1');
    expect(screen.getByTestId('compare-candidate')).toHaveValue('c1');
    expect(screen.getByTestId('compare-plans-differ')).toHaveTextContent(
      'These runs belong to different plans (Search and Checkout flow)',
    );
  });

  it("picks the newest other run of the base's plan when only a base is named", async () => {
    runs.unshift(pastRun('n1', { plan_id: 'p2', plan_name: 'Search', start_time: '2025-03-04T10:00:00Z' }));
    const { router } = renderApp('/compare-results?base=b1');
    await screen.findByTestId('comparison');
    expect(router.state.location.search).toContain('candidate=c1');
    expect(compareCall()?.get('candidate')).toBe('c1');
  });
});

describe('Compare runs: runs that ended early', () => {
  const STOPPED_SUMMARY = { ...pastRun('x').results_summary!, total_requests: 40, test_duration: 12 };

  it('offers stopped and failed runs that measured requests, marked partial, and not those without figures', async () => {
    runs = [
      pastRun('s1', {
        status: 'stopped',
        start_time: '2025-03-04T10:00:00Z',
        results_summary: STOPPED_SUMMARY,
      }),
      pastRun('e1', {
        status: 'stopped',
        start_time: '2025-03-04T09:00:00Z',
        results_summary: { ...STOPPED_SUMMARY, total_requests: 0 },
      }),
      pastRun('f1', {
        status: 'failed',
        start_time: '2025-03-04T08:00:00Z',
        results_summary: STOPPED_SUMMARY,
      }),
      pastRun('g1', { status: 'failed', start_time: '2025-03-04T07:00:00Z', results_summary: null }),
      pastRun('r1', { status: 'running', start_time: '2025-03-04T06:00:00Z', results_summary: null }),
      ...runs,
    ];
    const answer = comparison();
    answer.candidate = runs[0]!;
    fetchMock.mockImplementation(
      createFetchMock({
        'GET /api/me': () => json({ user: TEST_USER }),
        'GET /api/get-test-results': () => listAnswer(runs),
        'GET /api/compare-test-results': () => json(answer),
      }),
    );
    const { router } = renderApp('/compare-results');
    await screen.findByTestId('comparison');
    // The newest comparable run is the candidate, compared with the run of its plan before it.
    expect(router.state.location.search).toContain('candidate=s1');
    expect(router.state.location.search).toContain('base=f1');
    const options = Array.from(screen.getByTestId<HTMLSelectElement>('compare-base').options).filter(
      (option) => option.value,
    );
    expect(options.map((option) => option.value)).toEqual(['s1', 'f1', 'c1', 'b1', 'a1']);
    expect(options[0]).toHaveTextContent('Stopped early: partial figures');
    expect(options[1]).toHaveTextContent('Failed part-way: partial figures');
    expect(options[2]).not.toHaveTextContent('partial');
    const note = within(screen.getByTestId('compare-candidate-run')).getByTestId('partial-run');
    expect(note).toHaveTextContent(
      'Stopped early: partial figures — these figures cover the 12 s it ran, not its whole planned duration.',
    );
    expect(within(screen.getByTestId('compare-base-run')).queryByTestId('partial-run')).toBeNull();
  });

  it('says two runs with results are needed when there are not', async () => {
    runs = [pastRun('e1', { status: 'stopped', results_summary: { ...STOPPED_SUMMARY, total_requests: 0 } })];
    renderApp('/compare-results');
    expect(await screen.findByTestId('compare-choose')).toHaveTextContent('Not enough runs with results');
  });
});
