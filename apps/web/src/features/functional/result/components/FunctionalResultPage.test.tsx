import { type CallResult, type FunctionalResult, innerPhrase, said, saidFlat } from '@aqa/plan';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { answerConfirm, noticeTexts } from '@/test/notices';
import { createFetchMock, json, renderApp, signInAs, TEST_USER, type FetchMock } from '@/test/render';

const ID = 'fc_1';

const FAILED_CALL: CallResult = {
  api_name: 'Create order',
  method: 'POST',
  url: 'http://127.0.0.1:9/orders',
  status_code: 500,
  response_time: 41.5,
  success: false,
  iteration: 1,
  user: 1,
  validation_details: [
    {
      type: 'status_code',
      expected: '201',
      actual: '500',
      passed: false,
      message: 'expected status 201, got 500',
    },
    {
      type: 'schema',
      expected: 'the 201 response schema',
      actual: '2 violations',
      passed: false,
      message: 'the body does not match the schema',
      violations: [
        { path: '/id', message: 'must be integer' },
        { path: '', message: "must have required property 'total'" },
      ],
    },
  ],
  timings: { dns: 1, connect: 2, tls: 0, ttfb: 30, download: 8.5 },
  captures: [
    { name: 'orderId', value: null },
    { name: 'token', value: 'abc' },
  ],
  evidence: {
    request: {
      method: 'POST',
      url: 'http://127.0.0.1:9/orders',
      headers: { Authorization: '***' },
      body: '{"n":1}',
    },
    response: { status: 500, headers: { 'content-type': 'text/plain' }, body: 'boom', truncated: true },
  },
};

const PASSED_CALL: CallResult = {
  api_name: '',
  method: 'GET',
  url: 'http://127.0.0.1:9/health',
  status_code: 200,
  response_time: 3,
  success: true,
  iteration: 1,
  user: 1,
  validation_details: [
    { type: 'status_code', expected: '200', actual: '200', passed: true, message: 'status 200 as expected' },
  ],
};

function result(overrides: Partial<FunctionalResult> = {}): FunctionalResult {
  return {
    test_id: ID,
    plan_id: 'p1',
    test_name: 'Orders',
    description: 'Checks the order API',
    status: 'failed',
    test_type: 'functional',
    source: 'ui_url_input',
    start_time: '2026-11-26T10:00:00Z',
    summary: { total_requests: 2, successful_requests: 1, failed_requests: 1, validation_failures: 2 },
    validation_results: [FAILED_CALL, PASSED_CALL],
    api_results: [
      {
        name: 'Create order',
        status: 'failed',
        method: 'POST',
        url: 'http://127.0.0.1:9/orders',
        response_time: 41.5,
        status_code: 500,
        validation_results: [{ name: 'status_code', passed: false }],
      },
    ],
    timeline_data: [],
    ...overrides,
  };
}

let fetchMock: FetchMock;
const BASE = { 'GET /api/me': () => json({ user: TEST_USER }) };

beforeEach(() => signInAs());
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

function serve(handlers: Parameters<typeof createFetchMock>[0]) {
  fetchMock = createFetchMock({ ...BASE, ...handlers });
  vi.stubGlobal('fetch', fetchMock);
}

function calls(prefix: string): number {
  return fetchMock.mock.calls.filter(([url]) => typeof url === 'string' && url.startsWith(prefix)).length;
}

// Whole screens rendered in jsdom: seconds each on a busy 2-core machine.
describe('Functional result screen', { timeout: 20_000 }, () => {
  it('shows the summary and each failed rule with its expected and actual, the timings and the evidence', async () => {
    // The result answers once the loading text was seen: on a busy machine it came before the first look.
    let answer: () => void = () => undefined;
    const loadingSeen = new Promise<void>((resolve) => (answer = resolve));
    serve({
      [`GET /api/functional/get-test-result/${ID}`]: async () => {
        await loadingSeen;
        return json(result());
      },
      'GET /api/functional/functional-test-results': () => json([result()]),
      'GET /api/functional/get-test-configs': () =>
        json([
          { id: 'p0', test_name: 'Other' },
          { id: 'p1', test_name: 'Orders' },
        ]),
    });
    const user = userEvent.setup();
    const { router } = renderApp(`/functional-test-result/${ID}`);
    expect(await screen.findByText('Loading test result...')).toBeInTheDocument();
    answer();
    expect(await screen.findByTestId('result-test-name')).toHaveTextContent('Orders');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Functional Test Result');
    // The header's trail leads back to the list of runs (issue 24).
    const crumbs = screen.getByTestId('breadcrumbs');
    expect(crumbs).toHaveTextContent('PLANS>Functional Dashboard>Functional Test Result');
    expect(within(crumbs).getByRole('link', { name: 'Functional Dashboard' })).toHaveAttribute(
      'href',
      '/functional-dashboard',
    );
    expect(screen.getByTestId('result-test-id')).toHaveTextContent(ID);
    expect(screen.getByTestId('result-status')).toHaveTextContent('Failed');
    expect(screen.getByTestId('result-started')).toHaveTextContent(/^Started at .*2026/);
    expect(screen.getByTestId('summary-total-value')).toHaveTextContent('2');
    expect(screen.getByTestId('summary-validation-failures-value')).toHaveTextContent('2');
    expect(screen.queryByTestId('stop-test')).not.toBeInTheDocument();
    expect(screen.getByTestId('report-junit')).toBeInTheDocument();

    const [failed, passed] = screen.getAllByTestId('call-result');
    const card = within(failed!);
    expect(card.getByTestId('call-name')).toHaveTextContent('Create order');
    expect(card.getByTestId('call-outcome')).toHaveTextContent('Failed');
    expect(card.getByTestId('call-passed')).toHaveTextContent('0/2 passed');
    expect(card.getByTestId('call-status-code')).toHaveTextContent('500');
    expect(card.getByTestId('call-status-code')).toHaveAttribute('data-ok', 'false');
    const [rule] = card.getAllByTestId('validation-detail');
    expect(within(rule!).getByTestId('detail-expected')).toHaveTextContent('201');
    expect(within(rule!).getByTestId('detail-actual')).toHaveTextContent('500');
    expect(within(rule!).getByTestId('detail-message')).toHaveTextContent('expected status 201, got 500');
    expect(card.getByTestId('schema-violations')).toHaveTextContent("/ must have required property 'total'");
    expect(card.getByTestId('timing-ttfb')).toHaveTextContent('30 ms');
    expect(card.getByTestId('call-captures')).toHaveTextContent('{{orderId}} found nothing{{token}} abc');
    await user.click(card.getByText('Request and response'));
    expect(card.getByTestId('evidence-response-body')).toHaveTextContent('boom');
    expect(card.getByTestId('evidence-truncated')).toBeVisible();
    expect(card.getByTestId('evidence-request')).toHaveTextContent('Authorization***');
    // An unnamed call is 'API N' by its place in the run.
    expect(within(passed!).getByTestId('call-name')).toHaveTextContent('API 2');
    await user.click(screen.getByTestId('calls-filter-failed'));
    expect(screen.getAllByTestId('call-result')).toHaveLength(1);
    expect(screen.getByTestId('api-results')).toHaveTextContent('Create order');

    // Back from a run of no editor screen: the dashboard, which is told which plan to select.
    await user.click(screen.getByTestId('back-button'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/functional-dashboard'));
    expect(window.localStorage.getItem('currentTestId')).toBeNull();
    const plans = await screen.findAllByTestId('functional-plan-item');
    await waitFor(() => expect(plans[1]).toHaveAttribute('data-highlighted', 'true'));
    expect(plans[0]).not.toHaveAttribute('data-highlighted');
    // Read once: the saved plan id does not stay behind for another screen.
    expect(window.localStorage.getItem('loadSavedPlanId')).toBeNull();
  });

  it('says what a result leaves out and the limits why: evidence past the first failed calls, calls past the first', async () => {
    const { evidence: _dropped, ...withoutEvidence } = FAILED_CALL;
    serve({
      [`GET /api/functional/get-test-result/${ID}`]: () =>
        json(result({ validation_results: [FAILED_CALL, withoutEvidence, PASSED_CALL], calls_omitted: 7 })),
    });
    renderApp(`/functional-test-result/${ID}`);
    const [kept, notKept, passed] = await screen.findAllByTestId('call-result');
    expect(within(kept!).queryByTestId('evidence-not-kept')).not.toBeInTheDocument();
    expect(within(notKept!).getByTestId('evidence-not-kept')).toHaveTextContent(
      'Request and response not kept: a run keeps them for the first 20 failed calls of each API and the first 100 in all.',
    );
    expect(within(passed!).queryByTestId('evidence-not-kept')).not.toBeInTheDocument();
    expect(screen.getByTestId('calls-omitted')).toHaveTextContent(
      '7 more calls were judged but are not listed here; the summary counts them. A result keeps its first 5,000 calls, at most 32 MB of them.',
    );
  });

  it('draws the timeline only when the test type is not functional', async () => {
    const timeline = [
      { time: 0, response_time: 12, requests: 2, failures: 0 },
      { time: 1, response_time: 30, requests: 2, failures: 1 },
    ];
    serve({
      [`GET /api/functional/get-test-result/${ID}`]: () =>
        json(result({ test_type: 'api', timeline_data: timeline })),
      'GET /api/functional/get-test-result/fc_2': () =>
        json(result({ test_id: 'fc_2', test_type: 'functional', timeline_data: timeline })),
    });
    const { router } = renderApp(`/functional-test-result/${ID}`);
    expect(await screen.findByTestId('functional-timeline')).toHaveAttribute('data-points', '2');
    await act(() => router.navigate('/functional-test-result/fc_2', { state: { testId: 'fc_2' } }));
    await waitFor(() => expect(screen.getByTestId('result-test-id')).toHaveTextContent('fc_2'));
    await screen.findByTestId('test-summary');
    expect(screen.queryByTestId('functional-timeline')).not.toBeInTheDocument();
  });

  it('polls the status every 5 s while running, then fetches the full result', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let status: FunctionalResult['status'] = 'running';
    serve({
      [`GET /api/functional/get-test-result/${ID}`]: () =>
        json(result({ status, validation_results: status === 'running' ? [] : [PASSED_CALL] })),
      [`GET /api/functional/get-test-status/${ID}`]: () => json({ test_id: ID, status }),
    });
    renderApp(`/functional-test-result/${ID}`);
    expect(await screen.findByTestId('polling-note')).toHaveTextContent(
      'Checking the status every 5 seconds',
    );
    expect(screen.getByTestId('stop-test')).toBeInTheDocument();
    expect(calls('/api/functional/get-test-status')).toBe(0);
    await act(() => vi.advanceTimersByTimeAsync(5000));
    await waitFor(() => expect(calls('/api/functional/get-test-status')).toBe(1));
    status = 'completed';
    await act(() => vi.advanceTimersByTimeAsync(5000));
    await waitFor(() => expect(screen.getByTestId('result-status')).toHaveTextContent('Completed'));
    expect(screen.queryByTestId('polling-note')).not.toBeInTheDocument();
    expect(screen.getAllByTestId('call-result')).toHaveLength(1);
    const statusCalls = calls('/api/functional/get-test-status');
    await act(() => vi.advanceTimersByTimeAsync(15000));
    expect(calls('/api/functional/get-test-status')).toBe(statusCalls);
  });

  it('ends polling when a server restart interrupted the run, and shows what it judged, in English and Korean', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let status: FunctionalResult['status'] = 'running';
    const error = 'The server stopped during the run, so it did not finish';
    serve({
      [`GET /api/functional/get-test-result/${ID}`]: () =>
        json(result(status === 'running' ? { status } : { status, error })),
      [`GET /api/functional/get-test-status/${ID}`]: () => json({ test_id: ID, status }),
    });
    const { unmount } = renderApp(`/functional-test-result/${ID}`);
    expect(await screen.findByTestId('polling-note')).toBeInTheDocument();
    status = 'interrupted';
    await act(() => vi.advanceTimersByTimeAsync(5000));
    await waitFor(() => expect(screen.getByTestId('result-status')).toHaveTextContent('Interrupted'));
    expect(screen.getByTestId('result-status')).toHaveAttribute('data-status', 'interrupted');
    expect(screen.getByTestId('interrupted-notice')).toHaveTextContent(
      'Test interrupted: the server stopped during the run. What it judged before is kept below.',
    );
    expect(screen.queryByTestId('run-error')).not.toBeInTheDocument();
    expect(screen.queryByTestId('polling-note')).not.toBeInTheDocument();
    expect(screen.queryByTestId('stop-test')).not.toBeInTheDocument();
    expect(screen.getAllByTestId('call-result')).toHaveLength(2);
    const statusCalls = calls('/api/functional/get-test-status');
    await act(() => vi.advanceTimersByTimeAsync(15000));
    expect(calls('/api/functional/get-test-status')).toBe(statusCalls);
    unmount();

    renderApp(`/functional-test-result/${ID}`, { language: 'ko' });
    expect(await screen.findByTestId('interrupted-notice')).toHaveTextContent(
      '테스트가 중단되었습니다: 실행 중에 서버가 멈췄습니다.',
    );
    expect(screen.getByTestId('result-status')).toHaveTextContent('중단됨');
  });

  it("words the server's judgements, a call's error and the run's error in Korean from their codes; a result stored before them keeps its English", async () => {
    // As the engine makes them (packages/engine/src/functional/judge.ts): English text and its phrase.
    const judged = said('judge.status.failed', { expected: '201', actual: '500' });
    const refused = saidFlat('net.refused', { where: '127.0.0.1:9' });
    const noAnswer = said('judge.noResponse', {
      expectation: innerPhrase('expect.status', { expected: '200' }),
      failure: refused.phrase,
    });
    const ended = said('functional.durationEnded', {
      duration: innerPhrase('duration.minutes', { count: 1 }),
      done: 3,
      total: 10,
    });
    const worded: CallResult = {
      ...FAILED_CALL,
      validation_details: [
        { ...FAILED_CALL.validation_details[0]!, message: judged.text, message_phrase: judged.phrase },
      ],
    };
    const unanswered: CallResult = {
      ...PASSED_CALL,
      api_name: 'Health',
      status_code: null,
      success: false,
      error: refused.text,
      error_phrase: refused.phrase,
      validation_details: [
        {
          type: 'status_code',
          expected: '200',
          actual: null,
          passed: false,
          message: noAnswer.text,
          message_phrase: noAnswer.phrase,
        },
      ],
    };
    // A call stored before phrases: its message has no code, so its English is shown as it was.
    const older: CallResult = {
      ...FAILED_CALL,
      api_name: 'Old order',
      evidence: undefined,
      validation_details: [
        { ...FAILED_CALL.validation_details[0]!, message: 'expected status 202, got 500' },
      ],
    };
    const stored = result({
      error: ended.text,
      error_phrase: ended.phrase,
      summary: { total_requests: 3, successful_requests: 0, failed_requests: 3, validation_failures: 4 },
      validation_results: [worded, unanswered, older],
    });
    serve({ [`GET /api/functional/get-test-result/${ID}`]: () => json(stored) });
    const { unmount } = renderApp(`/functional-test-result/${ID}`, { language: 'ko' });
    expect(await screen.findByTestId('run-error')).toHaveTextContent(
      '테스트 시간 1분이(가) 끝나 반복 10회 중 3회를 마쳤습니다',
    );
    expect(screen.getByTestId('run-error')).not.toHaveTextContent(ended.text);
    const cards = await screen.findAllByTestId('call-result');
    const messages = (card: HTMLElement) =>
      within(card)
        .getAllByTestId('detail-message')
        .map((node) => node.textContent);
    const card = (name: string) =>
      cards.find((c) => within(c).getByTestId('call-name').textContent === name)!;
    expect(messages(card('Create order'))).toEqual(['예상 상태 201, 실제 500']);
    expect(within(card('Health')).getByTestId('call-error')).toHaveTextContent('127.0.0.1:9 연결 거부됨');
    expect(messages(card('Health'))).toEqual(['예상 상태 200, 그러나 127.0.0.1:9 연결 거부됨']);
    expect(messages(card('Old order'))).toEqual(['expected status 202, got 500']);
    // No English judgement the server made with a code is left on the Korean screen.
    for (const english of [judged.text, refused.text, noAnswer.text, ended.text]) {
      expect(document.body.textContent).not.toContain(english);
    }
    unmount();

    renderApp(`/functional-test-result/${ID}`, { language: 'en' });
    expect(await screen.findByTestId('run-error')).toHaveTextContent(
      'The test duration of 1 min ended after 3 of 10 iterations',
    );
    expect(screen.getAllByTestId('detail-message').map((node) => node.textContent)).toContain(
      'expected status 200, but connection refused by 127.0.0.1:9',
    );
  });

  it('an API the run never reached reads "Not run" in grey, its rules too — not failed (issue 24)', async () => {
    const notRun: FunctionalResult['api_results'][number] = {
      name: 'Pay',
      status: 'not_run',
      method: 'POST',
      url: 'http://127.0.0.1:9/pay',
      response_time: 0,
      status_code: null,
      validation_results: [{ name: 'status_code', passed: false }],
    };
    serve({
      [`GET /api/functional/get-test-result/${ID}`]: () =>
        json(result({ api_results: [...result().api_results, notRun] })),
    });
    renderApp(`/functional-test-result/${ID}`, { language: 'ko' });
    const rows = await screen.findAllByTestId('api-result-row');
    const row = within(rows[1]!);
    expect(row.getByTestId('api-status')).toHaveTextContent('실행 안 됨');
    expect(row.getByTestId('api-status')).not.toHaveTextContent('not_run');
    expect(row.getByTestId('api-rule')).toHaveTextContent('status_code: 실행 안 됨');
    expect(row.queryByText('실패')).not.toBeInTheDocument();
    expect(row.getByTestId('api-not-run')).toBeInTheDocument();
    // The API that ran and failed still says so.
    expect(within(rows[0]!).getByTestId('api-status')).toHaveTextContent('실패');
  });

  it('stops a running test and says so, or says why it could not', async () => {
    let status: FunctionalResult['status'] = 'running';
    let stopAnswer = () => json({ detail: 'Run already ended' }, 409, 'Conflict');
    serve({
      [`GET /api/functional/get-test-result/${ID}`]: () => json(result({ status })),
      [`POST /api/functional/stop-test/${ID}`]: () => stopAnswer(),
    });
    const user = userEvent.setup();
    renderApp(`/functional-test-result/${ID}`);
    // Stop asks first; Cancel sends nothing (issue 24).
    await user.click(await screen.findByTestId('stop-test'));
    expect(await answerConfirm(user, false)).toBe(
      'Stop this test? It ends now and keeps what it measured so far; it cannot be resumed.',
    );
    expect(calls(`/api/functional/stop-test/${ID}`)).toBe(0);
    expect(screen.getByTestId('stop-test')).toBeInTheDocument();

    await user.click(screen.getByTestId('stop-test'));
    await answerConfirm(user, true);
    await waitFor(() => expect(noticeTexts()).toContain('Failed to stop test: Run already ended'));

    stopAnswer = () => {
      status = 'stopped';
      return json({ test_id: ID, status: 'stopped' });
    };
    await user.click(screen.getByTestId('stop-test'));
    await answerConfirm(user, true);
    await waitFor(() => expect(noticeTexts()).toContain('Test stopped successfully'));
    await waitFor(() => expect(screen.getByTestId('result-status')).toHaveTextContent('Stopped'));
    expect(screen.queryByTestId('stop-test')).not.toBeInTheDocument();
  });

  it('refuses a link to another run than the stored one, but opens a run another screen opened', async () => {
    serve({
      [`GET /api/functional/get-test-result/${ID}`]: () => json(result()),
      'GET /api/functional/get-test-result/fc_missing': () =>
        json({ detail: 'Functional test result not found' }, 404, 'Not Found'),
    });
    window.localStorage.setItem('currentTestId', 'fc_other');
    const { router } = renderApp(`/functional-test-result/${ID}`);
    expect(await screen.findByTestId('test-id-mismatch')).toHaveTextContent(
      'Test ID mismatch. Please run the test again.',
    );
    expect(calls('/api/functional/get-test-result')).toBe(0);

    await act(() => router.navigate(`/functional-test-result/${ID}`, { state: { testId: ID } }));
    expect(await screen.findByTestId('result-test-name')).toHaveTextContent('Orders');
    expect(window.localStorage.getItem('currentTestId')).toBe(ID);

    await act(() =>
      router.navigate('/functional-test-result/fc_missing', { state: { testId: 'fc_missing' } }),
    );
    const error = await screen.findByTestId('result-error');
    expect(error).toHaveTextContent('Failed to fetch test result');
    expect(error).toHaveTextContent('Functional test result not found');
  });
});
