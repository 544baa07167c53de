import type { CallResult, FunctionalResult } from '@aqa/plan';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createFetchMock,
  headersOf,
  json,
  renderApp,
  signInAs,
  TEST_USER,
  type FetchMock,
} from '@/test/render';

const ID = 'fc_ui';
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 0xff, 0xd9]);

/** A passed URL step: fast TTFB, FCP in the middle band, a poor LCP, a good CLS; one console error. */
const HOME: CallResult = {
  api_name: 'Home',
  method: 'GET',
  url: 'http://127.0.0.1:9/',
  status_code: 200,
  response_time: 812,
  success: true,
  iteration: 1,
  validation_details: [
    {
      type: 'page_title',
      expected: 'Shop',
      actual: 'Shop',
      passed: true,
      message: 'the title is "Shop" as expected',
    },
  ],
  ui: {
    timings: { ttfb: 120, dom_content_loaded: 340, load: 610 },
    vitals: { fcp: 2100, lcp: 4500, cls: 0.02 },
    console_errors: ['Uncaught TypeError: x is undefined'],
    failed_requests: [
      { method: 'GET', url: 'http://127.0.0.1:9/missing.png', error: 'HTTP 404' },
      { method: 'GET', url: 'http://127.0.0.1:9/font.woff', error: 'net::ERR_CONNECTION_REFUSED' },
    ],
    screenshots: [{ id: 'shot-1', label: 'Step', failure: false }],
    actions: [],
  },
};

/** A failed script step: one action passed, one did not find its element; LCP not reported. */
const LOGIN: CallResult = {
  api_name: 'Login',
  method: 'GET',
  url: 'http://127.0.0.1:9/login',
  status_code: 200,
  response_time: 5020,
  success: false,
  iteration: 1,
  error: 'waitFor css: #welcome failed',
  validation_details: [],
  ui: {
    timings: { ttfb: 1000, dom_content_loaded: 1100, load: 1300 },
    vitals: { fcp: 300, lcp: null, cls: 0.3 },
    console_errors: [],
    failed_requests: [],
    screenshots: [
      { id: 'shot-2', label: 'Step', failure: false },
      { id: 'shot-3', label: 'Failure', failure: true },
    ],
    actions: [
      {
        action: 'typeByID',
        line: 12,
        locator: 'id: user',
        passed: true,
        message: 'typed "ada"',
        duration_ms: 15,
      },
      {
        action: 'waitFor',
        line: 14,
        locator: null,
        passed: false,
        message: 'expected css: #welcome to be visible within 2 s, but no element matched',
        duration_ms: 2004,
      },
    ],
  },
};

function uiResult(overrides: Partial<FunctionalResult> = {}): FunctionalResult {
  return {
    test_id: ID,
    plan_id: 'p1',
    test_name: 'Shop pages',
    description: '',
    status: 'failed',
    test_type: 'ui',
    source: 'ui_url_input',
    start_time: '2026-11-26T10:00:00Z',
    summary: { total_requests: 2, successful_requests: 1, failed_requests: 1, validation_failures: 1 },
    validation_results: [HOME, LOGIN],
    api_results: [],
    timeline_data: [
      { time: 0.8, response_time: 812, requests: 1, failures: 0 },
      { time: 5.8, response_time: 5020, requests: 1, failures: 1 },
    ],
    ...overrides,
  };
}

let fetchMock: FetchMock;
const created: string[] = [];
const revoked: string[] = [];

beforeEach(() => {
  signInAs();
  created.length = 0;
  revoked.length = 0;
  // jsdom has no object URLs: record what the screen makes and lets go of.
  vi.stubGlobal(
    'URL',
    Object.assign(URL, {
      createObjectURL: (blob: Blob) => {
        const url = `blob:shot-${created.length + 1}-${blob.size}`;
        created.push(url);
        return url;
      },
      revokeObjectURL: (url: string) => revoked.push(url),
    }),
  );
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

function serve(result: FunctionalResult, extra: Parameters<typeof createFetchMock>[0] = {}) {
  // A body of bytes, not a Blob: jsdom's Blob cannot be read by the Response of Node's fetch.
  const shot = () => new Response(JPEG, { status: 200, headers: { 'Content-Type': 'image/jpeg' } });
  fetchMock = createFetchMock({
    'GET /api/me': () => json({ user: TEST_USER }),
    [`GET /api/functional/get-test-result/${ID}`]: () => json(result),
    [`GET /api/functional/get-test-status/${ID}`]: () => json({ test_id: ID, status: result.status }),
    [`GET /api/functional/screenshot/${ID}/shot-1`]: shot,
    [`GET /api/functional/screenshot/${ID}/shot-2`]: shot,
    [`GET /api/functional/screenshot/${ID}/shot-3`]: shot,
    ...extra,
  });
  vi.stubGlobal('fetch', fetchMock);
}

// Whole screens rendered in jsdom: seconds each on a busy 2-core machine.
describe('Functional result screen, UI run', { timeout: 20_000 }, () => {
  it('rates each step’s timings and Web Vitals in words, lists actions, console errors and failed requests', async () => {
    serve(uiResult());
    const user = userEvent.setup();
    renderApp(`/functional-test-result/${ID}`);
    const [home, login] = await screen.findAllByTestId('call-result');
    const first = within(home!);
    expect(first.getByTestId('call-name')).toHaveTextContent('Home');

    const rating = (card: typeof first, name: string) => card.getByTestId(`ui-figure-${name}`);
    // TTFB 120 ms ≤ 800 good; FCP 2100 ms in 1800–3000 needs improvement; LCP 4500 > 4000 poor; CLS 0.02 good.
    expect(rating(first, 'ttfb')).toHaveTextContent('120 ms');
    expect(rating(first, 'ttfb')).toHaveTextContent('Good');
    expect(rating(first, 'fcp')).toHaveAttribute('data-rating', 'needs-improvement');
    expect(rating(first, 'fcp')).toHaveTextContent('Needs improvement');
    expect(rating(first, 'lcp')).toHaveTextContent('Poor');
    // Shown as LCP, named in full for a screen reader and on hover.
    expect(within(rating(first, 'lcp')).getByText('Largest contentful paint (LCP)')).toHaveClass('sr-only');
    expect(rating(first, 'cls')).toHaveTextContent('0.02');
    expect(rating(first, 'cls')).toHaveTextContent('Good');
    // DOMContentLoaded and load have no thresholds: a figure without a rating.
    expect(rating(first, 'load')).toHaveTextContent('610 ms');
    expect(rating(first, 'load')).toHaveAttribute('data-rating', 'none');

    const consoleErrors = first.getByTestId('ui-console-errors');
    expect(consoleErrors).not.toHaveAttribute('open');
    expect(consoleErrors).toHaveTextContent('Console errors (1)');
    await user.click(within(consoleErrors).getByText('Console errors (1)'));
    expect(within(consoleErrors).getByText('Uncaught TypeError: x is undefined')).toBeVisible();
    expect(first.getByTestId('ui-failed-requests')).toHaveTextContent('Failed requests (2)');
    expect(first.getByTestId('ui-failed-requests')).toHaveTextContent('net::ERR_CONNECTION_REFUSED');
    expect(first.queryByTestId('ui-actions')).not.toBeInTheDocument();

    const second = within(login!);
    expect(second.getByTestId('call-outcome')).toHaveTextContent('Failed');
    expect(second.getByTestId('call-error')).toHaveTextContent('waitFor css: #welcome failed');
    expect(rating(second, 'ttfb')).toHaveTextContent('Needs improvement');
    expect(rating(second, 'lcp')).toHaveTextContent('not reported');
    expect(rating(second, 'lcp')).toHaveAttribute('data-rating', 'none');
    expect(rating(second, 'cls')).toHaveTextContent('Poor');
    expect(second.getByTestId('ui-actions')).toHaveTextContent('Actions (1/2 passed)');
    const [typed, waited] = second.getAllByTestId('ui-action');
    expect(typed).toHaveAttribute('data-passed', 'true');
    expect(typed).toHaveTextContent('typeByIDLine 12id: user');
    expect(waited).toHaveAttribute('data-passed', 'false');
    // An action whose locator found nothing, or that needs none, names no locator.
    expect(within(waited!).queryByTestId('ui-action-locator')).not.toBeInTheDocument();
    expect(within(waited!).getByTestId('ui-action-message')).toHaveTextContent(
      'expected css: #welcome to be visible within 2 s, but no element matched',
    );
    // The failure screenshot is the failed action's own (its only failure); the step's stays listed.
    expect(within(waited!).getByTestId('ui-screenshot')).toHaveAttribute('data-failure', 'true');
    expect(
      within(second.getByTestId('ui-screenshots'))
        .getAllByTestId('ui-screenshot')
        .map((shot) => shot.dataset.failure),
    ).toEqual(['false']);
  });

  it('fetches each screenshot with the session, enlarges it in a dialog that Escape closes, and lets it go', async () => {
    serve(uiResult({ validation_results: [HOME] }));
    const user = userEvent.setup();
    const { unmount } = renderApp(`/functional-test-result/${ID}`);
    const open = await screen.findByRole('button', { name: 'Enlarge screenshot: Step' });
    await waitFor(() => expect(open).toBeEnabled());
    const [request] = fetchMock.mock.calls.filter(([url]) => (url as string).includes('/screenshot/'));
    expect(request![0]).toBe(
      `/api/functional/screenshot/${ID}/shot-1?user_email=${encodeURIComponent(TEST_USER.email)}`,
    );
    expect(headersOf(request![1]).Authorization).toBe('Bearer test-token');
    const thumb = within(open).getByRole('img', { name: 'Screenshot of Home: Step' });
    expect(thumb).toHaveAttribute('src', `blob:shot-1-${JPEG.length}`);

    await user.click(open);
    const dialog = await screen.findByRole('dialog', { name: 'Home — Step' });
    expect(within(dialog).getByRole('img', { name: 'Screenshot of Home: Step' })).toHaveAttribute(
      'src',
      `blob:shot-1-${JPEG.length}`,
    );
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(open).toHaveFocus();

    await user.click(open);
    const again = await screen.findByRole('dialog');
    await user.click(within(again).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    expect(revoked).toEqual([]);
    unmount();
    expect(revoked).toEqual(created);
  });

  it('says why a screenshot could not be loaded, and when a step loaded no page', async () => {
    const noPage: CallResult = { ...HOME, ui: { ...HOME.ui!, timings: null } };
    serve(uiResult({ validation_results: [noPage] }), {
      [`GET /api/functional/screenshot/${ID}/shot-1`]: () =>
        json({ detail: 'Screenshot not found' }, 404, 'Not Found'),
    });
    renderApp(`/functional-test-result/${ID}`);
    expect(await screen.findByTestId('ui-screenshot-error')).toHaveTextContent(
      'Could not load the screenshot: Screenshot not found',
    );
    expect(screen.getByRole('button', { name: 'Enlarge screenshot: Step' })).toBeDisabled();
    expect(screen.getByTestId('ui-no-page')).toHaveTextContent('This step loaded no page');
    expect(screen.getByTestId('ui-figure-ttfb')).toHaveTextContent('not reported');
    expect(screen.getByTestId('ui-figure-lcp')).toHaveTextContent('Poor');
  });

  it('draws the timeline of a UI run from its measured step times', async () => {
    serve(uiResult());
    renderApp(`/functional-test-result/${ID}`);
    const chart = await screen.findByTestId('functional-timeline');
    expect(chart).toHaveAttribute('data-points', '2');
  });

  it('says the run waits for a browser and its place in the queue, and stops saying it once it runs', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let answer = uiResult({
      status: 'running',
      validation_results: [],
      timeline_data: [],
      queue_position: 2,
    });
    fetchMock = createFetchMock({
      'GET /api/me': () => json({ user: TEST_USER }),
      [`GET /api/functional/get-test-result/${ID}`]: () => json(answer),
      [`GET /api/functional/get-test-status/${ID}`]: () => json({ test_id: ID, status: answer.status }),
    });
    vi.stubGlobal('fetch', fetchMock);
    renderApp(`/functional-test-result/${ID}`);
    expect(await screen.findByTestId('ui-queue')).toHaveTextContent(
      'Waiting for a browser: position 2 in the queue',
    );
    answer = { ...answer, queue_position: null };
    await vi.advanceTimersByTimeAsync(5000);
    await waitFor(() => expect(screen.queryByTestId('ui-queue')).not.toBeInTheDocument());
    expect(screen.getByTestId('polling-note')).toBeInTheDocument();
  });
});
