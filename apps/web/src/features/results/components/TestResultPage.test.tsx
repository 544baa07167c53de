import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { answerConfirm } from '@/test/notices';
import { bodyOf, createFetchMock, json, renderApp, signInAs, TEST_USER, type FetchMock } from '@/test/render';
import { CURRENT_TEST_CONFIG_KEY, CURRENT_TEST_ID_KEY } from '../model/current-test';
import { testResultKey } from '../queries/results-api';
import type { ChartData, LiveSnapshot, TestResult } from '@aqa/plan';
import { apiResultOf } from '@/test/wire-builders';

// Chart.js needs a canvas, which jsdom lacks; the charts' data is tested through their cards.
// Each canvas carries its axis labels and the end of its time axis, to check what the charts are given.
interface ChartProps {
  data: { labels?: unknown[] };
  options?: { scales?: { x?: { max?: number } } };
}
vi.mock('react-chartjs-2', () => ({
  Line: ({ options }: ChartProps) => <canvas data-testid="line-chart" data-x-max={options?.scales?.x?.max} />,
  Bar: ({ data }: ChartProps) => <canvas data-testid="bar-chart" data-labels={JSON.stringify(data.labels)} />,
  Doughnut: () => <canvas data-testid="doughnut-chart" />,
}));

const SUMMARY = {
  concurrent_users: 2,
  requests_per_second: 25,
  average_response_time: 12.5,
  error_rate: 1.25,
  total_requests: 100,
  successful_requests: 98,
  failed_requests: 2,
  percentile_50: 10,
  percentile_90: 20,
  percentile_95: 30,
  percentile_99: 45,
  percentile_999: 60,
  min_response_time: 1.5,
  max_response_time: 80,
  avg_bandwidth: 12.3,
  test_duration: 4,
};

const API_RESULTS = [
  apiResultOf({
    name: 'List users',
    label: 'List users',
    url: 'http://127.0.0.1:9/users',
    method: 'GET',
    total_requests: 60,
    successful_requests: 60,
    failed_requests: 0,
    average_response_time: 10,
    percentile_95: 20,
    percentile_99: 30,
    error_rate: 0,
  }),
  apiResultOf({
    name: 'Create order',
    label: 'Create order',
    url: 'http://127.0.0.1:9/orders',
    method: 'POST',
    total_requests: 40,
    successful_requests: 38,
    failed_requests: 2,
    average_response_time: 16,
    percentile_95: 40,
    percentile_99: 50,
    error_rate: 5,
  }),
];

function running(extra: Partial<TestResult> = {}): TestResult {
  return {
    test_id: 't1',
    plan_id: 'p1',
    plan_name: 'Checkout flow',
    status: 'running',
    progress: 0,
    elapsed_seconds: 0,
    duration_seconds: 4,
    intermediate: true,
    concurrent_users: 2,
    tool: 'k6',
    engine: 'built-in',
    engine_note: 'ran with the built-in engine: k6 is not installed on this server',
    started_at: new Date().toISOString(),
    ended_at: null,
    error: null,
    error_details: null,
    summary: null,
    api_results: [],
    errors: {},
    agents: [],
    partial: false,
    ...extra,
  };
}

function completed(extra: Partial<TestResult> = {}): TestResult {
  return running({
    status: 'completed',
    intermediate: false,
    progress: 100,
    elapsed_seconds: 4,
    summary: SUMMARY,
    api_results: API_RESULTS,
    errors: { http_status: { count: 2, samples: ['HTTP 500 Internal Server Error'] } },
    ...extra,
  });
}

const CHART_DATA: ChartData = {
  test_id: 't1',
  series: [1, 2, 3, 4].map((second) => ({
    second,
    active_users: 2,
    requests: 25,
    requests_per_second: 25,
    errors: second === 2 ? 2 : 0,
    error_rate: second === 2 ? 8 : 0,
    avg: 10 + second,
    p50: 10,
    p90: 20,
    p95: 20 + second,
    p99: 40,
    max: 80,
    bandwidth_kbs: 12,
  })),
  api_series: [
    {
      index: 0,
      name: 'List users',
      method: 'GET',
      url: 'http://127.0.0.1:9/users',
      points: [1, 2, 3, 4].map((second) => ({
        second,
        requests_per_second: 15,
        error_rate: 0,
        avg: 9,
        p95: 15,
      })),
    },
    {
      index: 1,
      name: 'Create user',
      method: 'POST',
      url: 'http://127.0.0.1:9/users',
      points: [1, 2, 3].map((second) => ({
        second,
        requests_per_second: 10,
        error_rate: second === 2 ? 20 : 0,
        avg: 18,
        p95: 30,
      })),
    },
  ],
  distribution: [
    { label: '0-100ms', count: 99 },
    { label: '100-200ms', count: 1 },
    { label: '200-300ms', count: 0 },
    { label: '300-400ms', count: 0 },
    { label: '400-500ms', count: 0 },
    { label: '500ms+', count: 0 },
  ],
  distribution_fitted: Array.from({ length: 12 }, (_, i) => ({
    label: `${(10 + i * 0.5).toFixed(1)}-${(10.5 + i * 0.5).toFixed(1)}ms`,
    count: i === 11 ? 1 : 9,
  })),
};

function snapshot(second: number, values: Partial<LiveSnapshot> = {}): LiveSnapshot {
  return {
    second,
    elapsed_seconds: second,
    progress: second * 25,
    active_users: 2,
    requests_per_second: 40 + second,
    error_rate: 0,
    latency: { avg: 11.5, p50: 10, p90: 15, p95: 18, p99: 25, p999: 30, min: 1, max: 40 },
    totals: { requests: 41 * second, successes: 41 * second, failures: 0, bytes_received: 100 },
    steps: [
      {
        index: 0,
        name: 'List users',
        method: 'GET',
        url: 'http://127.0.0.1:9/users',
        requests_per_second: 40,
        error_rate: 0,
        latency: { avg: 11, p95: 17 },
        totals: { requests: 41 * second, failures: 0 },
      },
    ],
    agents: [],
    ...values,
  };
}

/** An event stream the test writes to. */
function controlledStream() {
  const encoder = new TextEncoder();
  let controller: ReadableStreamDefaultController<Uint8Array> | null = null;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
  });
  return {
    response: () => new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } }),
    send: (event: string, data: unknown) =>
      act(async () => {
        controller?.enqueue(encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`));
        await new Promise((resolve) => setTimeout(resolve, 0));
      }),
    close: () => controller?.close(),
  };
}

/** An event stream answer holding `events`; it stays open unless `close`. */
function eventStream(events: [string, unknown][], close = true): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const [event, data] of events) {
        controller.enqueue(encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`));
      }
      if (close) controller.close();
    },
  });
  return new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } });
}

const notFound = () => json({ detail: 'Test result not found' }, 404, 'Not Found');

let fetchMock: FetchMock;
function mockApi(handlers: Parameters<typeof createFetchMock>[0]) {
  fetchMock = createFetchMock({
    'GET /api/me': () => json({ user: TEST_USER }),
    ...handlers,
  });
  vi.stubGlobal('fetch', fetchMock);
}

function callsTo(path: string, method = 'GET') {
  return fetchMock.mock.calls.filter(
    ([url, init]) =>
      typeof url === 'string' && url.split('?')[0] === path && (init?.method ?? 'GET') === method,
  );
}

beforeEach(() => signInAs());
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('live result screen: the stream', () => {
  it('shows the live tiles and progress from the stream, then the completed results and charts', async () => {
    const stream = controlledStream();
    mockApi({
      'GET /api/test-stream/t1': () => stream.response(),
      'GET /api/chart-data/t1': () => json(CHART_DATA),
    });
    renderApp('/test-result/t1');

    expect(await screen.findByRole('heading', { name: 'Test Results' })).toBeInTheDocument();
    await stream.send('status', running());
    expect(screen.getByRole('heading', { name: 'Checkout flow' })).toBeInTheDocument();
    expect(screen.getByTestId('result-test-id')).toHaveTextContent('t1');
    expect(screen.getByTestId('result-status')).toHaveTextContent('Running');
    expect(screen.getByTestId('waiting-panel')).toHaveTextContent('Test Result Preparing...');
    expect(screen.getByTestId('stop-test')).toHaveTextContent('Stop Test');
    expect(screen.getByTestId('engine-alert')).toHaveTextContent(
      'Ran with the built-in engine: k6 is not installed on this server.',
    );

    await stream.send('snapshot', snapshot(1));
    expect(screen.getByTestId('tile-active-users-value')).toHaveTextContent('2');
    expect(screen.getByTestId('tile-rps-value')).toHaveTextContent('41 req/s');
    expect(screen.getByTestId('tile-avg-value')).toHaveTextContent('11.5 ms');
    expect(screen.getByTestId('tile-error-rate-value')).toHaveTextContent('0%');
    expect(screen.getByTestId('progress-bar')).toHaveAttribute('aria-valuenow', '25');
    expect(screen.getByTestId('progress-elapsed')).toHaveTextContent('Elapsed: 1 s / 4 s');
    expect(screen.queryByTestId('waiting-panel')).not.toBeInTheDocument();
    expect(screen.getByTestId('performance-timeline')).toHaveAttribute('data-points', '1');
    expect(within(screen.getByTestId('live-api-table')).getByText('List users')).toBeInTheDocument();

    await stream.send('snapshot', snapshot(2, { requests_per_second: 52.5, error_rate: 7.5 }));
    expect(screen.getByTestId('tile-rps-value')).toHaveTextContent('52.5 req/s');
    expect(screen.getByTestId('tile-error-rate-value')).toHaveTextContent('7.5%');
    expect(screen.getByTestId('progress-bar')).toHaveAttribute('aria-valuenow', '50');

    await stream.send('end', completed());
    stream.close();
    expect(screen.getByTestId('result-status')).toHaveTextContent('Completed');
    expect(screen.queryByTestId('stop-test')).not.toBeInTheDocument();
    expect(screen.queryByTestId('live-progress')).not.toBeInTheDocument();
    expect(screen.getByTestId('summary-total-requests-value')).toHaveTextContent('100');
    expect(screen.getByTestId('summary-rps-value')).toHaveTextContent('25 req/s');
    expect(screen.getByTestId('summary-avg-value')).toHaveTextContent('12.5 ms');
    expect(screen.getByTestId('summary-error-rate-value')).toHaveTextContent('1.25%');

    // The measured series and histogram arrive from GET /chart-data.
    expect(await screen.findByTestId('chart-distribution')).toHaveAttribute('data-points', '6');
    expect(screen.getByTestId('performance-timeline')).toHaveAttribute('data-points', '4');
    expect(screen.getByTestId('chart-throughput')).toHaveAttribute('data-points', '4');
    expect(screen.getByTestId('chart-error-trend')).toHaveAttribute('data-points', '4');
    expect(screen.getByTestId('chart-success-failure')).toHaveAttribute('data-points', '2');
    expect(screen.getByTestId('chart-metrics')).toHaveAttribute('data-points', '5');
    expect(screen.getByTestId('chart-api-comparison')).toHaveAttribute('data-points', '2');
    // Per-API series: one line per API, 4 + 3 measured seconds.
    expect(screen.getByTestId('chart-api-timeline')).toHaveAttribute('data-points', '7');
    expect(screen.getByTestId('timeline-avg')).toHaveTextContent('12.5 ms');
    expect(screen.getByTestId('timeline-peak')).toHaveTextContent('14 ms');
    expect(screen.getByTestId('timeline-peak-p95')).toHaveTextContent('24 ms');

    const stats = screen.getByTestId('detailed-statistics');
    expect(within(stats).getByTestId('stat-duration')).toHaveTextContent('4 s');
    expect(within(stats).getByTestId('stat-p99')).toHaveTextContent('45 ms');
    expect(within(stats).getByTestId('stat-min')).toHaveTextContent('1.5 ms');
    expect(within(stats).getByTestId('stat-bandwidth')).toHaveTextContent('12.3 KB/s');
    expect(within(stats).getByTestId('stat-tool')).toHaveTextContent('Built-in engine');
    expect(within(stats).getByTestId('stat-plan-tool')).toHaveTextContent('k6');
    expect(within(stats).getByTestId('engine-note')).toHaveTextContent(
      'Ran with the built-in engine: k6 is not installed on this server.',
    );

    const rows = within(screen.getByTestId('api-results-table')).getAllByTestId('api-table-row');
    expect(rows).toHaveLength(2);
    const items = within(screen.getByTestId('api-results-list')).getAllByTestId('api-result');
    expect(within(items[0]!).getByTestId('error-rate-badge')).toHaveAttribute('data-level', 'success');
    expect(within(items[1]!).getByTestId('error-rate-badge')).toHaveAttribute('data-level', 'warning');
    // The host once above the cards, each card its path (issue 24), the whole URL on hover.
    expect(within(items[1]!).getByText('/orders')).toHaveAttribute('title', 'http://127.0.0.1:9/orders');
    expect(within(screen.getByTestId('api-results-list')).getByTestId('api-host')).toHaveTextContent(
      'Host: http://127.0.0.1:9',
    );
    expect(screen.getByTestId('errors-by-kind')).toHaveTextContent('HTTP 500 Internal Server Error');
    // A stream that delivered its end needs no polling.
    expect(callsTo('/api/get-test-result/t1')).toHaveLength(0);
  });

  it('opens a finished run with its results at once', async () => {
    mockApi({
      'GET /api/test-stream/t1': () =>
        eventStream([
          ['status', completed()],
          ['end', completed()],
        ]),
      'GET /api/chart-data/t1': () => json(CHART_DATA),
    });
    renderApp('/test-result/t1');
    expect(await screen.findByTestId('summary-total-requests-value')).toHaveTextContent('100');
    expect(screen.getByTestId('result-status')).toHaveTextContent('Completed');
    // Remembered by an effect after the render that shows the run; on a busy machine it comes a tick later.
    await waitFor(() => expect(window.localStorage.getItem(CURRENT_TEST_ID_KEY)).toBe('t1'));
  });

  it("writes the stream's results into the run's cache entry, which any other reader of the run shares", async () => {
    const stream = controlledStream();
    mockApi({
      'GET /api/test-stream/t1': () => stream.response(),
      'GET /api/chart-data/t1': () => json(CHART_DATA),
    });
    const { queryClient } = renderApp('/test-result/t1');
    expect(await screen.findByRole('heading', { name: 'Test Results' })).toBeInTheDocument();
    await stream.send('status', running({ elapsed_seconds: 1 }));
    expect(queryClient.getQueryData(testResultKey('t1'))).toMatchObject({
      status: 'running',
      elapsed_seconds: 1,
    });
    await stream.send('end', completed());
    stream.close();
    expect(queryClient.getQueryData(testResultKey('t1'))).toMatchObject({ status: 'completed' });
    // The stream told it all: nothing was polled.
    expect(callsTo('/api/get-test-result/t1')).toHaveLength(0);
  });

  it('a stopped run never shows Running or a Stop Test while its result loads (issue 24)', async () => {
    const stream = controlledStream();
    mockApi({
      'GET /api/test-stream/t1': () => stream.response(),
      'GET /api/chart-data/t1': () => json(CHART_DATA),
    });
    renderApp('/test-result/t1');
    // The first paint, before the server has said anything about the run: a neutral loading state.
    const status = await screen.findByTestId('result-status');
    expect(status).toHaveAttribute('data-phase', 'loading');
    expect(status).toHaveTextContent('Loading');
    expect(screen.getByTestId('loading-panel')).toHaveTextContent('Loading the result...');
    expect(screen.queryByTestId('stop-test')).not.toBeInTheDocument();
    expect(screen.queryByTestId('live-panel')).not.toBeInTheDocument();
    expect(screen.queryByText('Test Result Preparing...')).not.toBeInTheDocument();

    await stream.send('status', completed({ status: 'stopped' }));
    await waitFor(() => expect(screen.getByTestId('result-status')).toHaveTextContent('Stopped'));
    expect(screen.queryByTestId('stop-test')).not.toBeInTheDocument();
    expect(screen.queryByTestId('loading-panel')).not.toBeInTheDocument();
  });

  it('the loading state is in Korean too', async () => {
    const stream = controlledStream();
    mockApi({ 'GET /api/test-stream/t1': () => stream.response() });
    renderApp('/test-result/t1', { language: 'ko' });
    expect(await screen.findByTestId('result-status')).toHaveTextContent('불러오는 중');
    expect(screen.getByTestId('loading-panel')).toHaveTextContent('결과를 불러오는 중...');
  });

  it('leaves the time charts out when the chart data cannot be loaded (docs/reference/02-running.md §8)', async () => {
    mockApi({
      'GET /api/test-stream/t1': () => eventStream([['end', completed()]]),
      'GET /api/chart-data/t1': () => json({ detail: 'boom' }, 500, 'Internal Server Error'),
    });
    renderApp('/test-result/t1');
    expect(await screen.findByTestId('charts-unavailable')).toBeInTheDocument();
    expect(screen.queryByTestId('chart-throughput')).not.toBeInTheDocument();
    expect(screen.queryByTestId('chart-distribution')).not.toBeInTheDocument();
    expect(screen.getByTestId('chart-success-failure')).toBeInTheDocument();
  });
});

describe('live result screen: charts', () => {
  it('offers the distribution in bars fitted to the measured range beside the 100 ms bars', async () => {
    mockApi({
      'GET /api/test-stream/t1': () => eventStream([['end', completed()]]),
      'GET /api/chart-data/t1': () => json(CHART_DATA),
    });
    renderApp('/test-result/t1');
    const card = await screen.findByTestId('chart-distribution');
    expect(card).toHaveAttribute('data-points', '6');
    const labels = () => JSON.parse(within(card).getByTestId('bar-chart').dataset.labels ?? '[]') as string[];
    expect(labels()[0]).toBe('0-100ms');
    const fixed = within(card).getByRole('button', { name: '100 ms bars' });
    expect(fixed).toHaveAttribute('aria-pressed', 'true');

    await userEvent.click(within(card).getByRole('button', { name: 'Fitted to the range' }));
    expect(card).toHaveAttribute('data-points', '12');
    expect(labels()[0]).toBe('10.0-10.5ms');
    expect(card).toHaveTextContent('in bars fitted to the fastest and slowest responses');
    await userEvent.click(fixed);
    expect(card).toHaveAttribute('data-points', '6');
  });

  it('labels the API comparison by name, else by method and path, so two APIs of one host differ', async () => {
    const unnamed = API_RESULTS.map((api) => ({
      ...api,
      name: `${api.method} ${api.url}`,
      label: `${api.method} ${api.url}`,
    }));
    unnamed.push({
      ...API_RESULTS[0]!,
      name: 'Search the whole catalogue',
      label: 'Search the whole catalogue',
    });
    mockApi({
      'GET /api/test-stream/t1': () => eventStream([['end', completed({ api_results: unnamed })]]),
      'GET /api/chart-data/t1': () => json(CHART_DATA),
    });
    renderApp('/test-result/t1');
    const card = await screen.findByTestId('chart-api-comparison');
    expect(JSON.parse(within(card).getByTestId('bar-chart').dataset.labels ?? '[]')).toEqual([
      'GET /users',
      'POST /orders',
      'Search the whol…',
    ]);
  });

  it("ends a stopped run's time axes at its last measured second, not at its planned duration", async () => {
    const stopped = completed({ status: 'stopped', duration_seconds: 60, progress: 7 });
    mockApi({
      'GET /api/test-stream/t1': () => eventStream([['end', stopped]]),
      'GET /api/chart-data/t1': () => json(CHART_DATA),
    });
    renderApp('/test-result/t1');
    const timeline = await screen.findByTestId('performance-timeline');
    expect(within(timeline).getByTestId('line-chart')).toHaveAttribute('data-x-max', '4');
    expect(within(screen.getByTestId('chart-throughput')).getByTestId('line-chart')).toHaveAttribute(
      'data-x-max',
      '4',
    );
  });

  it('breaks a run with flows down by flow, live and stored, with the schedule lag beside the dropped iterations', async () => {
    const stream = controlledStream();
    mockApi({
      'GET /api/test-stream/t1': () => stream.response(),
      'GET /api/chart-data/t1': () => json(CHART_DATA),
    });
    renderApp('/test-result/t1');
    expect(await screen.findByRole('heading', { name: 'Test Results' })).toBeInTheDocument();
    await stream.send('status', running());
    await stream.send(
      'snapshot',
      snapshot(1, {
        iterations: 8,
        dropped_iterations: 2,
        schedule_lag: { avg: 0.4, p95: 1.5, p99: 2.5 },
        flows: [
          {
            name: 'browse',
            iterations: 6,
            requests: 12,
            failures: 0,
            latency: { avg: 10, p95: 20, p99: 30 },
          },
          { name: 'buy', iterations: 2, requests: 2, failures: 1, latency: { avg: 40, p95: 50, p99: 60 } },
        ],
        totals: {
          ...snapshot(1).totals,
          iterations: 8,
          dropped_iterations: 2,
          flows: [
            { name: 'browse', iterations: 6, requests: 12, failures: 0 },
            { name: 'buy', iterations: 2, requests: 2, failures: 1 },
          ],
        },
      }),
    );
    const live = screen.getByTestId('live-flow-table');
    expect(live).toHaveTextContent('Per flow, live');
    const liveRows = within(live).getAllByTestId('flow-row');
    expect(liveRows.map((row) => row.getAttribute('data-flow'))).toEqual(['browse', 'buy']);
    expect(liveRows[1]).toHaveTextContent('buy225.0 %2150%40 ms50 ms60 ms');
    expect(screen.getByTestId('tile-schedule-lag-value')).toHaveTextContent('2.5 ms');
    expect(screen.getByTestId('tile-schedule-lag')).toHaveTextContent('p95 1.5 ms · Last second');

    await stream.send(
      'end',
      completed({
        summary: {
          ...SUMMARY,
          iterations_started: 80,
          iterations_dropped: 20,
          schedule_lag: { avg: 0.5, p50: 0.4, p90: 1, p95: 1.75, p99: 3.5, p999: 4, min: 0, max: 5 },
          flows: [
            {
              name: 'browse',
              iterations: 60,
              total_requests: 120,
              failed_requests: 0,
              error_rate: 0,
              average_response_time: 11,
              percentile_95: 21,
              percentile_99: 31,
            },
            { name: 'buy', iterations: 20, total_requests: 20, failed_requests: 0, error_rate: 0 },
          ],
        },
      }),
    );
    stream.close();
    const stored = await screen.findByTestId('flow-results');
    expect(screen.queryByTestId('live-flow-table')).not.toBeInTheDocument();
    const rows = within(stored).getAllByTestId('flow-row');
    expect(rows[0]).toHaveTextContent('browse6075.0 %12000%11 ms21 ms31 ms');
    // A figure the run did not keep is a dash.
    expect(rows[1]).toHaveTextContent('buy2025.0 %2000%———');
    expect(screen.getByTestId('tile-schedule-lag-value')).toHaveTextContent('3.5 ms');
    expect(screen.getByTestId('tile-schedule-lag')).toHaveTextContent('p95 1.75 ms · Over the whole run');
    expect(
      within(screen.getByTestId('detailed-statistics')).getByTestId('stat-schedule-lag'),
    ).toHaveTextContent('3.5 ms (p95 1.75 ms)');
  });

  it('a run an abort threshold stopped says why and where it broke (docs/adr/0027-load-profiles.md, "Abort criteria")', async () => {
    const text = 'p95 812 ms broke p95<500 at 2m14s';
    const aborted = completed({
      status: 'stopped',
      error: text,
      abort_reason: { threshold: 'p95<500', metric: 'p95', actual: 812, at_ms: 134_000, text },
      breaking_point: {
        model: 'arrival_rate',
        value: 42,
        at_ms: 123_000,
        text: 'the highest rate that held: 42 iterations/s at 2m3s',
      },
    });
    mockApi({
      'GET /api/test-stream/t1': () => eventStream([['end', aborted]]),
      'GET /api/chart-data/t1': () => json(CHART_DATA),
    });
    renderApp('/test-result/t1');
    expect(await screen.findByTestId('abort-reason')).toHaveTextContent(text);
    expect(screen.getByTestId('breaking-point')).toHaveTextContent('42 iterations/s at 2m3s');
    expect(screen.getByTestId('stopped-notice')).toBeInTheDocument();
  });

  it('keeps the planned duration on the time axes of a completed run', async () => {
    mockApi({
      'GET /api/test-stream/t1': () => eventStream([['end', completed({ duration_seconds: 60 })]]),
      'GET /api/chart-data/t1': () => json(CHART_DATA),
    });
    renderApp('/test-result/t1');
    const timeline = await screen.findByTestId('performance-timeline');
    expect(within(timeline).getByTestId('line-chart')).toHaveAttribute('data-x-max', '60');
  });
});

describe('live result screen: the states of docs/reference/02-running.md §4', () => {
  function endWith(result: TestResult) {
    mockApi({
      'GET /api/test-stream/t1': () => eventStream([['end', result]]),
      'GET /api/chart-data/t1': () => json(CHART_DATA),
    });
  }

  it('completed with no request counted: "No KPI file found" with Go Back', async () => {
    endWith(completed({ summary: { ...SUMMARY, total_requests: 0 }, api_results: [] }));
    const { router } = renderApp('/test-result/t1');
    expect(await screen.findByText('No KPI file found')).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('panel-go-back'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(window.localStorage.getItem(CURRENT_TEST_ID_KEY)).toBeNull();
  });

  it('completed without a summary: "No test results available"', async () => {
    endWith(completed({ summary: null, api_results: [] }));
    renderApp('/test-result/t1');
    expect(await screen.findByText('No test results available')).toBeInTheDocument();
  });

  it("a run that failed in its tool: a short message, and the tool's output behind a Details toggle", async () => {
    const output = [
      '$ /usr/bin/java -Djmeter.home=/usr/share/jmeter DebianJMeter -n -t plan.jmx',
      'Creating summariser <summary>',
      'Error in NonGUIDriver com.thoughtworks.xstream.security.ForbiddenClassException: org.apache.jmeter.save.ScriptWrapper',
    ].join('\n');
    endWith(
      running({
        status: 'failed',
        intermediate: false,
        tool: 'jmeter',
        engine: 'jmeter',
        engine_note: 'ran in JMeter 2.13',
        error: 'JMeter stopped with an error before sending any request: it could not load the test plan.',
        error_details: output,
      }),
    );
    renderApp('/test-result/t1');
    expect(await screen.findByTestId('error-message')).toHaveTextContent(
      'The test run failed: JMeter stopped with an error before sending any request: it could not load the test plan.',
    );
    // The message stays short: the stack and log are not in it.
    expect(screen.getByTestId('error-message')).not.toHaveTextContent('ForbiddenClassException');
    const toggle = screen.getByTestId('error-details-toggle');
    expect(toggle).toHaveTextContent('Details');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByTestId('error-details-text')).toBeNull();

    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const text = screen.getByTestId('error-details-text');
    expect(text.tagName).toBe('PRE');
    expect(toggle).toHaveAttribute('aria-controls', text.id);
    expect(text.textContent).toBe(output);
    expect(text).toHaveClass('font-mono', 'overflow-auto', 'text-foreground');
    expect(text).not.toHaveClass('text-destructive-text');

    await userEvent.click(toggle);
    expect(screen.queryByTestId('error-details-text')).toBeNull();
  });

  it('a run that failed in JMeter offers the same plan in the built-in engine or Locust, one click each', async () => {
    const failed = running({
      status: 'failed',
      intermediate: false,
      tool: 'jmeter',
      engine: 'jmeter',
      engine_note: 'ran in Apache JMeter 2.13',
      duration_seconds: 30,
      error: 'JMeter stopped with an error before sending any request: it could not load the test plan.',
    });
    mockApi({
      'GET /api/test-stream/t1': () => eventStream([['end', failed]]),
      'GET /api/chart-data/t1': () => json(CHART_DATA),
      'POST /api/run-test': () => json({ test_id: 't2', status: 'running', engine: 'builtin' }, 201),
      'GET /api/test-stream/t2': () => eventStream([['status', running({ test_id: 't2' })]], false),
      'GET /api/chart-data/t2': () => json(CHART_DATA),
    });
    const { router } = renderApp('/test-result/t1');
    const offer = await screen.findByTestId('run-elsewhere');
    expect(offer).toHaveTextContent('JMeter could not run this plan');
    expect(within(offer).getByTestId('run-elsewhere-locust')).toHaveTextContent('Run with Locust');
    await userEvent.click(within(offer).getByTestId('run-elsewhere-builtin'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/test-result/t2'));
    const [call] = callsTo('/api/run-test', 'POST');
    expect(bodyOf(call![1])).toEqual({
      plan_id: 'p1',
      user_email: TEST_USER.email,
      engine: 'builtin',
      duration_seconds: 30,
    });
  });

  it('a run that failed for another reason in the built-in engine offers no switch', async () => {
    endWith(running({ status: 'failed', error: 'interrupted by a server restart', intermediate: false }));
    renderApp('/test-result/t1');
    expect(await screen.findByText('Test Error')).toBeInTheDocument();
    expect(screen.queryByTestId('run-elsewhere')).toBeNull();
  });

  it("shows why an installed tool did not run the plan (it failed the server's check)", async () => {
    const reason =
      "JMeter 2.13 is installed but cannot load test plans: XStream rejects JMeter's own classes (ForbiddenClassException)";
    endWith(
      completed({
        tool: 'jmeter',
        engine: 'builtin',
        engine_note: `${reason}; this run used the built-in engine`,
      }),
    );
    renderApp('/test-result/t1');
    expect(await screen.findByTestId('engine-alert')).toHaveTextContent(
      `${reason}; this run used the built-in engine.`,
    );
  });

  it('a failed run: "Test Error" with the reason, Go Back and Retry', async () => {
    endWith(running({ status: 'failed', error: 'interrupted by a server restart', intermediate: false }));
    renderApp('/test-result/t1');
    expect(await screen.findByText('Test Error')).toBeInTheDocument();
    expect(screen.getByTestId('error-message')).toHaveTextContent(
      'The test run failed: interrupted by a server restart',
    );
    expect(screen.getByTestId('result-status')).toHaveTextContent('Failed');
    expect(screen.getByTestId('panel-go-back')).toBeInTheDocument();
    // No tool output came with this failure: no Details toggle.
    expect(screen.queryByTestId('error-details')).toBeNull();
    await userEvent.click(screen.getByTestId('panel-retry'));
    expect(await screen.findByText('Test Error')).toBeInTheDocument();
    expect(callsTo('/api/test-stream/t1')).toHaveLength(2);
  });

  it('processing: "Processing Test Results..."', async () => {
    mockApi({
      'GET /api/test-stream/t1': () =>
        eventStream([['status', running({ status: 'processing', elapsed_seconds: 4 })]], false),
    });
    renderApp('/test-result/t1');
    expect(await screen.findByText('Processing Test Results...')).toBeInTheDocument();
    expect(screen.getByTestId('waiting-panel')).toHaveTextContent('100%');
    expect(screen.queryByTestId('stop-test')).not.toBeInTheDocument();
  });
});

describe('live result screen: polling when the stream is unavailable', () => {
  it('polls GET /get-test-result every 3 seconds and shows the server figures so far', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let answer: TestResult = running({
      elapsed_seconds: 1,
      summary: { ...SUMMARY, requests_per_second: 33 },
    });
    mockApi({
      // The stream is unavailable (a proxy that does not pass it on): the screen polls instead.
      'GET /api/test-stream/t1': () => json({ detail: 'Bad gateway' }, 502, 'Bad Gateway'),
      'GET /api/get-test-result/t1': () => json(answer),
      'GET /api/chart-data/t1': () => json(CHART_DATA),
    });
    renderApp('/test-result/t1');
    await waitFor(() => expect(screen.getByTestId('tile-rps-value')).toHaveTextContent('33 req/s'));
    expect(screen.getByTestId('update-mode')).toHaveAttribute('data-mode', 'polling');
    const first = callsTo('/api/get-test-result/t1').length;
    expect(first).toBeGreaterThanOrEqual(1);
    expect(callsTo('/api/get-test-result/t1')[0]?.[0]).toContain('user_email=ada%40example.com');

    await act(() => vi.advanceTimersByTimeAsync(3_000));
    expect(callsTo('/api/get-test-result/t1').length).toBe(first + 1);

    answer = completed();
    await act(() => vi.advanceTimersByTimeAsync(3_000));
    expect(await screen.findByTestId('summary-total-requests-value')).toHaveTextContent('100');
    expect(screen.getByTestId('result-status')).toHaveTextContent('Completed');

    // Completed with API results: polling goes on for 30 s, then stops.
    await act(() => vi.advanceTimersByTimeAsync(33_000));
    const afterWindow = callsTo('/api/get-test-result/t1').length;
    await act(() => vi.advanceTimersByTimeAsync(9_000));
    expect(callsTo('/api/get-test-result/t1').length).toBe(afterWindow);
  });

  it('swallows fetch errors and times out after the maximum polling time with the spec text', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const unavailable = () => json({ detail: 'Service unavailable' }, 503, 'Service Unavailable');
    mockApi({
      'GET /api/test-stream/t9': unavailable,
      'GET /api/get-test-result/t9': unavailable,
    });
    renderApp('/test-result/t9');
    expect(await screen.findByText('Test Result Preparing...')).toBeInTheDocument();
    expect(screen.getByTestId('result-status')).toHaveTextContent('Running');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    await act(() => vi.advanceTimersByTimeAsync(179_000));
    expect(screen.queryByText('Test Timeout')).not.toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(3_000));
    expect(screen.getByText('Test Timeout')).toBeInTheDocument();
    expect(screen.getByTestId('timeout-message')).toHaveTextContent(
      'Test timeout: Results not available after 180 seconds. The test may have completed but results are still being processed.',
    );
    expect(screen.getByText('Refresh the page in a few minutes.')).toBeInTheDocument();
    expect(screen.getByTestId('result-status')).toHaveTextContent('Timed out');
    const polls = callsTo('/api/get-test-result/t9').length;
    await act(() => vi.advanceTimersByTimeAsync(9_000));
    expect(callsTo('/api/get-test-result/t9').length).toBe(polls);

    await userEvent.click(screen.getByTestId('panel-refresh'));
    expect(await screen.findByText('Test Result Preparing...')).toBeInTheDocument();
  });
});

describe('live result screen: a test the server does not know', () => {
  it('an id nobody handed over: "Test not found" at once, no Stop, no progress, ways back', async () => {
    mockApi({
      'GET /api/test-stream/run_doesnotexist': notFound,
      'GET /api/get-test-result/run_doesnotexist': notFound,
    });
    const { router } = renderApp('/test-result/run_doesnotexist');
    const panel = await screen.findByTestId('not-found-panel');
    expect(within(panel).getByRole('heading', { name: 'Test not found' })).toBeInTheDocument();
    expect(screen.getByTestId('not-found-message')).toHaveTextContent(
      'The server has no test run with the ID run_doesnotexist.',
    );
    expect(screen.getByTestId('result-status')).toHaveTextContent('Not found');
    expect(screen.queryByTestId('stop-test')).not.toBeInTheDocument();
    expect(screen.queryByTestId('live-panel')).not.toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(screen.queryByTestId('waiting-panel')).not.toBeInTheDocument();
    expect(window.localStorage.getItem(CURRENT_TEST_ID_KEY)).toBeNull();

    // No more asking once the screen knows.
    const asked = callsTo('/api/get-test-result/run_doesnotexist').length;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(callsTo('/api/get-test-result/run_doesnotexist').length).toBe(asked);

    expect(within(panel).getByRole('link', { name: 'Previous Results' })).toHaveAttribute(
      'href',
      '/previous-results',
    );
    await userEvent.click(within(panel).getByRole('link', { name: 'Dashboard' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });

  it('a run handed over by Run Script is given a moment to start, then is not found', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    window.localStorage.setItem(CURRENT_TEST_ID_KEY, 'run_handed');
    mockApi({
      'GET /api/test-stream/run_handed': notFound,
      'GET /api/get-test-result/run_handed': notFound,
    });
    renderApp('/test-result/run_handed');
    expect(await screen.findByText('Test Result Preparing...')).toBeInTheDocument();
    expect(await screen.findByTestId('waiting-not-found')).toBeInTheDocument();
    expect(screen.getByTestId('result-status')).toHaveTextContent('Running');

    await act(() => vi.advanceTimersByTimeAsync(16_000));
    expect(await screen.findByTestId('not-found-panel')).toBeInTheDocument();
    expect(screen.queryByTestId('stop-test')).not.toBeInTheDocument();
    expect(window.localStorage.getItem(CURRENT_TEST_ID_KEY)).toBeNull();
  });

  it('says so in Korean', async () => {
    mockApi({
      'GET /api/test-stream/run_doesnotexist': notFound,
      'GET /api/get-test-result/run_doesnotexist': notFound,
    });
    renderApp('/test-result/run_doesnotexist', { language: 'ko' });
    const panel = await screen.findByTestId('not-found-panel');
    expect(within(panel).getByRole('heading', { name: '테스트를 찾을 수 없습니다' })).toBeInTheDocument();
    expect(within(panel).getByRole('link', { name: '이전 결과' })).toBeInTheDocument();
    expect(within(panel).getByRole('link', { name: '대시보드' })).toBeInTheDocument();
  });
});

describe('live result screen: Stop Test and Back', () => {
  it('shows Stopping... while stopping, then the stopped run', async () => {
    const stream = controlledStream();
    let release: () => void = () => undefined;
    mockApi({
      'GET /api/test-stream/t1': () => stream.response(),
      'POST /api/stop-test/t1': () =>
        new Promise<Response>((resolve) => {
          release = () => resolve(json({ test_id: 't1', status: 'stopped' }));
        }),
      'GET /api/chart-data/t1': () => json(CHART_DATA),
    });
    renderApp('/test-result/t1');
    await screen.findByTestId('result-status');
    await stream.send('status', running());
    await stream.send('snapshot', snapshot(1));

    const user = userEvent.setup();
    await user.click(screen.getByTestId('stop-test'));
    // Stop asks first (issue 24): Cancel sends nothing.
    expect(await answerConfirm(user, false)).toBe(
      'Stop this test? It ends now and keeps what it measured so far; it cannot be resumed.',
    );
    expect(callsTo('/api/stop-test/t1', 'POST')).toHaveLength(0);
    await user.click(screen.getByTestId('stop-test'));
    await answerConfirm(user, true);
    expect(screen.getByTestId('stop-test')).toHaveTextContent('Stopping...');
    expect(screen.getByTestId('stop-test')).toBeDisabled();
    act(() => release());
    await waitFor(() => expect(screen.getByTestId('result-status')).toHaveTextContent('Stopped'));
    expect(screen.queryByTestId('stop-test')).not.toBeInTheDocument();
    expect(window.localStorage.getItem(CURRENT_TEST_ID_KEY)).toBeNull();
    expect(screen.getByTestId('stopped-notice')).toBeInTheDocument();

    await stream.send('end', completed({ status: 'stopped' }));
    expect(await screen.findByTestId('summary-total-requests-value')).toHaveTextContent('100');
    expect(screen.getByTestId('result-status')).toHaveTextContent('Stopped');
  });

  it('says why a stop failed', async () => {
    const stream = controlledStream();
    mockApi({
      'GET /api/test-stream/t1': () => stream.response(),
      'POST /api/stop-test/t1': () => json({ detail: 'The run is not running' }, 409, 'Conflict'),
    });
    renderApp('/test-result/t1');
    await screen.findByTestId('result-status');
    await stream.send('status', running());
    const user = userEvent.setup();
    await user.click(screen.getByTestId('stop-test'));
    await answerConfirm(user, true);
    expect(await screen.findByTestId('stop-error')).toHaveTextContent(
      'Failed to stop test: The run is not running',
    );
    expect(screen.getByTestId('result-status')).toHaveTextContent('Running');
  });

  it('Back stops a running test first, then clears the stored test and leaves', async () => {
    const stream = controlledStream();
    window.localStorage.setItem(CURRENT_TEST_CONFIG_KEY, JSON.stringify({ tool: 'k6', testId: 't1' }));
    mockApi({
      'GET /api/test-stream/t1': () => stream.response(),
      'POST /api/stop-test/t1': () => json({ test_id: 't1', status: 'stopped' }),
    });
    const { router } = renderApp('/test-result/t1');
    await screen.findByTestId('result-status');
    await stream.send('status', running());
    await userEvent.click(screen.getByTestId('back-button'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(callsTo('/api/stop-test/t1', 'POST')).toHaveLength(1);
    expect(window.localStorage.getItem(CURRENT_TEST_ID_KEY)).toBeNull();
    expect(window.localStorage.getItem(CURRENT_TEST_CONFIG_KEY)).toBeNull();
  });

  it('Back from a finished test does not stop anything', async () => {
    mockApi({
      'GET /api/test-stream/t1': () => eventStream([['end', completed()]]),
      'GET /api/chart-data/t1': () => json(CHART_DATA),
    });
    const { router } = renderApp('/test-result/t1');
    await screen.findByTestId('summary-total-requests-value');
    await userEvent.click(screen.getByTestId('back-button'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(callsTo('/api/stop-test/t1', 'POST')).toHaveLength(0);
  });
});

describe('live result screen: starting a stored configuration (/test-result/new)', () => {
  const CONFIG = {
    planName: 'Checkout flow',
    plan_id: 'p1',
    tool: 'k6',
    concurrent_users: 2,
    duration: 1,
    duration_seconds: 4,
    urls: [{ url: 'http://127.0.0.1:9/users', method: 'GET' }],
  };

  it.each([
    ['no configuration', null, 'Failed to start test: No URLs provided in test configuration'],
    ['no URLs', { ...CONFIG, urls: [] }, 'Failed to start test: No URLs provided in test configuration'],
    ['no tool', { ...CONFIG, tool: '' }, 'Failed to start test: No tool specified in test configuration'],
  ])('refuses to start with %s', async (_name, config, message) => {
    if (config) window.localStorage.setItem(CURRENT_TEST_CONFIG_KEY, JSON.stringify(config));
    mockApi({});
    renderApp('/test-result/new');
    expect(await screen.findByTestId('error-message')).toHaveTextContent(message);
    expect(screen.getByText('Test Error')).toBeInTheDocument();
    expect(callsTo('/api/run-test', 'POST')).toHaveLength(0);
  });

  it('shows the server refusal and opens no result page', async () => {
    window.localStorage.setItem(CURRENT_TEST_CONFIG_KEY, JSON.stringify({ ...CONFIG, plan_id: undefined }));
    mockApi({
      'POST /api/run-test': () =>
        json(
          { detail: 'plan_id is required. Please save the test plan first before running the test.' },
          400,
        ),
    });
    const { router } = renderApp('/test-result/new');
    expect(await screen.findByTestId('error-message')).toHaveTextContent(
      'Failed to start test: plan_id is required. Please save the test plan first before running the test.',
    );
    expect(router.state.location.pathname).toBe('/test-result/new');
    expect(screen.getByTestId('result-test-id')).toHaveTextContent('—');
  });

  it('fails when the server answers without a test id', async () => {
    window.localStorage.setItem(CURRENT_TEST_CONFIG_KEY, JSON.stringify(CONFIG));
    mockApi({ 'POST /api/run-test': () => json({ status: 'running' }, 201) });
    renderApp('/test-result/new');
    expect(await screen.findByTestId('error-message')).toHaveTextContent(
      'Failed to start test: Failed to get test ID from server',
    );
  });

  it('starts the run, then follows it at /test-result/{id}', async () => {
    window.localStorage.setItem(CURRENT_TEST_CONFIG_KEY, JSON.stringify(CONFIG));
    const stream = controlledStream();
    mockApi({
      'POST /api/run-test': () => json({ test_id: 'new-1', status: 'running', engine: 'built-in' }, 201),
      'GET /api/test-stream/new-1': () => stream.response(),
    });
    const { router } = renderApp('/test-result/new');
    await waitFor(() => expect(router.state.location.pathname).toBe('/test-result/new-1'));
    const [, init] = callsTo('/api/run-test', 'POST')[0]!;
    expect(bodyOf(init)).toMatchObject({
      plan_id: 'p1',
      planName: 'Checkout flow',
      tool: 'k6',
      concurrent_users: 2,
      duration: 1,
      duration_seconds: 4,
      user_email: TEST_USER.email,
    });
    expect(window.localStorage.getItem(CURRENT_TEST_ID_KEY)).toBe('new-1');
    await waitFor(() => expect(screen.getByTestId('result-test-id')).toHaveTextContent('new-1'));
    await stream.send('status', running({ test_id: 'new-1' }));
    expect(screen.getByRole('heading', { name: 'Checkout flow' })).toBeInTheDocument();
    expect(screen.getByTestId('progress-elapsed')).toHaveTextContent('/ 4 s');
    expect(callsTo('/api/run-test', 'POST')).toHaveLength(1);
  });
});

describe('live result screen: Korean', () => {
  it('speaks Korean', async () => {
    const stream = controlledStream();
    mockApi({ 'GET /api/test-stream/t1': () => stream.response() });
    renderApp('/test-result/t1', { language: 'ko' });
    await screen.findByTestId('result-status');
    await stream.send('status', running());
    expect(screen.getByTestId('stop-test')).toHaveTextContent('테스트 중지');
    expect(screen.getByText('테스트 결과 준비 중...')).toBeInTheDocument();
    expect(screen.getByTestId('engine-alert')).toHaveTextContent(
      '이 서버에 k6이(가) 설치되어 있지 않아 내장 엔진으로 실행했습니다.',
    );
  });
});
