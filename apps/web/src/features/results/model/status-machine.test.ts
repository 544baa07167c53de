import { describe, expect, it } from 'vitest';
import {
  initialLiveState,
  keepsPolling,
  LIVE_SERIES_LIMIT,
  liveReducer,
  NOT_FOUND_GRACE_MS,
  phaseForFinalResult,
  phaseForResult,
  POLL_AFTER_COMPLETED_MS,
  resultView,
  snapshotToPoint,
  type LiveAction,
  type LivePhase,
  type LiveState,
} from './status-machine';
import type { ApiResult, LiveSnapshot, ResultSummary as TestSummary } from '@aqa/plan';
import { apiResultOf, chartPointOf, summaryOf } from '@/test/wire-builders';
import type { ResultView as TestResult } from './views';

const SUMMARY: TestSummary = summaryOf({ total_requests: 120, successful_requests: 118, failed_requests: 2 });
const API: ApiResult[] = [apiResultOf({ name: 'List users', method: 'GET', total_requests: 120 })];
const NOW = 1_700_000_000_000;

function stateIn(phase: LivePhase, extra: Partial<LiveState> = {}): LiveState {
  return { ...initialLiveState(), phase, ...extra };
}

function snapshot(second: number, requests: number): LiveSnapshot {
  return {
    second,
    elapsed_seconds: second,
    progress: second * 10,
    active_users: 5,
    requests_per_second: 40,
    error_rate: 1.5,
    latency: { avg: 12, p50: 10, p90: 20, p95: 25, p99: 40, p999: 60, min: 2, max: 80 },
    totals: { requests, successes: requests - 1, failures: 1, bytes_received: 1000 },
    agents: [],
    steps: [],
  };
}

const result = (shape: TestResult): LiveAction => ({ type: 'result', result: shape, now: NOW });

describe('phaseForResult (docs/reference/02-running.md §4, each poll)', () => {
  it.each<[string, TestResult, LivePhase]>([
    ['summary with non-empty api_results → completed', { summary: SUMMARY, api_results: API }, 'completed'],
    ['flagged intermediate → processing', { intermediate: true }, 'processing'],
    [
      'summary with total_requests above 0 but no API results → processing',
      { summary: SUMMARY },
      'processing',
    ],
    ['status processing → processing', { status: 'processing' }, 'processing'],
    ['status completed without summary → processing', { status: 'completed' }, 'processing'],
    ['status not_found → running', { status: 'not_found' }, 'running'],
    // Another server's status word: not one of ours, so it reads as a run still going.
    ['any other shape → running', JSON.parse('{"status":"queued"}') as TestResult, 'running'],
    ['an empty answer → running', {}, 'running'],
    // The server's own statuses come first.
    [
      'status running (figures so far) → running',
      { status: 'running', intermediate: true, summary: SUMMARY, api_results: API },
      'running',
    ],
    ['status failed → failed', { status: 'failed', error: 'boom' }, 'failed'],
    ['status stopped → stopped', { status: 'stopped', summary: SUMMARY }, 'stopped'],
    [
      'status completed with a summary that counted nothing → completed',
      { status: 'completed', summary: summaryOf({ total_requests: 0 }), api_results: [] },
      'completed',
    ],
  ])('%s', (_name, shape, phase) => {
    expect(phaseForResult(shape)).toBe(phase);
  });

  it('takes the final answer of the stream at its word', () => {
    expect(phaseForFinalResult({ status: 'completed' })).toBe('completed');
    expect(phaseForFinalResult({ status: 'completed', summary: SUMMARY })).toBe('completed');
    expect(phaseForFinalResult({ status: 'stopped' })).toBe('stopped');
    expect(phaseForFinalResult({ status: 'failed' })).toBe('failed');
    expect(phaseForFinalResult({ status: 'processing' })).toBe('processing');
  });
});

describe('liveReducer: starting', () => {
  it('starts in starting', () => {
    expect(initialLiveState().phase).toBe('starting');
  });

  it('waits in a neutral loading phase when an existing test is viewed, until the first answer', () => {
    const viewed = liveReducer(initialLiveState(), { type: 'view' });
    expect(viewed.phase).toBe('loading');
    expect(resultView(viewed)).toBe('loading');
    expect(liveReducer(viewed, result({ status: 'stopped' })).phase).toBe('stopped');
    expect(liveReducer(viewed, result({ status: 'running' })).phase).toBe('running');
  });

  it('goes to running once a new start returns a test id', () => {
    expect(liveReducer(initialLiveState(), { type: 'startSucceeded' }).phase).toBe('running');
  });

  it.each(['noUrls', 'noTool', 'noTestId'] as const)('fails with the start problem %s', (code) => {
    const next = liveReducer(initialLiveState(), { type: 'startFailed', reason: { code } });
    expect(next.phase).toBe('failed');
    expect(next.problem).toEqual({ kind: 'start', reason: { code } });
    expect(resultView(next)).toBe('startError');
  });

  it('fails with the run request error', () => {
    const next = liveReducer(initialLiveState(), {
      type: 'startFailed',
      reason: {
        code: 'request',
        message: 'plan_id is required. Please save the test plan first before running the test.',
      },
    });
    expect(next.phase).toBe('failed');
    expect(next.problem?.kind).toBe('start');
  });

  it('ignores a start answer once the screen is past starting', () => {
    const running = stateIn('running');
    expect(liveReducer(running, { type: 'startFailed', reason: { code: 'noUrls' } })).toBe(running);
    expect(liveReducer(running, { type: 'view' })).toBe(running);
  });

  it('re-evaluates a starting test on a poll', () => {
    expect(liveReducer(initialLiveState(), result({ status: 'processing' })).phase).toBe('processing');
  });
});

describe('liveReducer: polling a running or processing test', () => {
  it.each<LivePhase>(['running', 'processing'])('re-evaluates %s on each answer', (phase) => {
    expect(liveReducer(stateIn(phase), result({ summary: SUMMARY, api_results: API })).phase).toBe(
      'completed',
    );
    expect(liveReducer(stateIn(phase), result({ intermediate: true })).phase).toBe('processing');
    expect(liveReducer(stateIn(phase), result({ status: 'running' })).phase).toBe('running');
    expect(liveReducer(stateIn(phase, { startedHere: true }), result({ status: 'not_found' })).phase).toBe(
      'running',
    );
  });

  it('processing goes back to running when the server says running', () => {
    expect(liveReducer(stateIn('processing'), result({ status: 'running' })).phase).toBe('running');
  });

  it('keeps the answer and records when it first completed with API results', () => {
    const next = liveReducer(
      stateIn('running'),
      result({ status: 'completed', summary: SUMMARY, api_results: API }),
    );
    expect(next.result?.summary).toEqual(SUMMARY);
    expect(next.completedAt).toBe(NOW);
    expect(next.final).toBe(true);
    expect(resultView(next)).toBe('results');
  });

  it.each([true, false])('a failed fetch (404: %s) gives running with no error shown', (notFound) => {
    const next = liveReducer(stateIn('processing', { startedHere: true }), {
      type: 'fetchFailed',
      notFound,
      now: NOW,
    });
    expect(next.phase).toBe('running');
    expect(next.problem).toBeNull();
    expect(next.notFound).toBe(notFound);
  });

  it('marks an answer of status not_found', () => {
    expect(
      liveReducer(stateIn('running', { startedHere: true }), result({ status: 'not_found' })).notFound,
    ).toBe(true);
    expect(liveReducer(stateIn('running', { notFound: true }), result({ status: 'running' })).notFound).toBe(
      false,
    );
  });

  it('fails with the server error when the server says the run failed', () => {
    const next = liveReducer(
      stateIn('running'),
      result({
        status: 'failed',
        error: 'interrupted by a server restart',
        error_phrase: { code: 'run.interrupted', params: {} },
      }),
    );
    expect(next.phase).toBe('failed');
    // The sentence's code comes along, for the screen to word it (docs/adr/0025-phrases.md).
    expect(next.problem).toEqual({
      kind: 'server',
      message: 'interrupted by a server restart',
      phrase: { code: 'run.interrupted', params: {} },
    });
    expect(resultView(next)).toBe('error');
  });

  it('shows a run a server restart interrupted as an early end with its figures, final', () => {
    const next = liveReducer(
      stateIn('running'),
      result({ status: 'interrupted', summary: SUMMARY, api_results: API, intermediate: false }),
    );
    expect(next.phase).toBe('stopped');
    expect(next.final).toBe(true);
    expect(resultView(next)).toBe('results');
  });

  it('ignores poll answers in a terminal phase', () => {
    for (const phase of ['failed', 'timeout'] as const) {
      const state = stateIn(phase);
      expect(liveReducer(state, result({ status: 'running' }))).toBe(state);
      expect(liveReducer(state, { type: 'fetchFailed', notFound: false, now: NOW })).toBe(state);
    }
  });

  it('while completed, newer figures of the completed run replace the stored ones (polling goes on)', () => {
    const completed = liveReducer(stateIn('running'), result({ summary: SUMMARY, api_results: API }));
    const newer = {
      status: 'completed' as const,
      summary: { ...SUMMARY, total_requests: 121 },
      api_results: API,
    };
    const next = liveReducer(completed, result(newer));
    expect(next.phase).toBe('completed');
    expect(next.result?.summary?.total_requests).toBe(121);
    expect(next.completedAt).toBe(NOW);
    expect(liveReducer(completed, result({ status: 'running' }))).toBe(completed);
  });
});

describe('liveReducer: a run the server does not know', () => {
  const notFound = (now: number): LiveAction => ({ type: 'fetchFailed', notFound: true, now });

  it('an id nobody handed over is not found at the first 404: no running, no polling', () => {
    const viewed = liveReducer(initialLiveState(), { type: 'view' });
    const next = liveReducer(viewed, notFound(NOW));
    expect(next.phase).toBe('notFound');
    expect(resultView(next)).toBe('notFound');
    expect(keepsPolling(next, NOW, NOW + 180_000)).toBe(false);
    // Nothing after that brings it back to running.
    expect(liveReducer(next, { type: 'fetchFailed', notFound: false, now: NOW })).toBe(next);
  });

  it('an answer of status not_found counts the same', () => {
    const next = liveReducer(stateIn('running'), result({ status: 'not_found' }));
    expect(next.phase).toBe('notFound');
  });

  it('a run started here stays running while it may be starting, then is not found', () => {
    let state = liveReducer(initialLiveState({ startedHere: true }), { type: 'view' });
    state = liveReducer(state, notFound(NOW));
    expect(state).toMatchObject({ phase: 'running', notFound: true, notFoundSince: NOW });
    state = liveReducer(state, result({ status: 'not_found' }));
    state = liveReducer(state, notFound(NOW + NOT_FOUND_GRACE_MS - 1));
    expect(state.phase).toBe('running');
    expect(state.notFoundSince).toBe(NOW);
    state = liveReducer(state, notFound(NOW + NOT_FOUND_GRACE_MS));
    expect(state.phase).toBe('notFound');
  });

  it('a run that turns up within the grace starts the count afresh', () => {
    let state = liveReducer(stateIn('running', { startedHere: true }), notFound(NOW));
    state = liveReducer(state, { type: 'result', result: { status: 'running' }, now: NOW + 3_000 });
    expect(state).toMatchObject({ phase: 'running', notFound: false, notFoundSince: null });
    state = liveReducer(state, notFound(NOW + NOT_FOUND_GRACE_MS + 1));
    expect(state.phase).toBe('running');
  });

  it('a network error is no verdict on the id', () => {
    const next = liveReducer(stateIn('running'), { type: 'fetchFailed', notFound: false, now: NOW });
    expect(next.phase).toBe('running');
  });
});

describe('liveReducer: stream events', () => {
  it('a snapshot makes a starting or processing test running and adds its second to the live series', () => {
    const first = liveReducer(stateIn('processing'), { type: 'snapshot', snapshot: snapshot(1, 40) });
    expect(first.phase).toBe('running');
    expect(first.snapshot?.second).toBe(1);
    const second = liveReducer(first, { type: 'snapshot', snapshot: snapshot(2, 95) });
    expect(second.liveSeries.map((point) => [point.second, point.requests])).toEqual([
      [1, 40],
      [2, 55],
    ]);
    expect(resultView(second)).toBe('live');
  });

  it('a snapshot after a gap has no request count of its own', () => {
    const first = liveReducer(stateIn('running'), { type: 'snapshot', snapshot: snapshot(3, 40) });
    expect(first.liveSeries[0]?.requests).toBeUndefined();
    const later = liveReducer(first, { type: 'snapshot', snapshot: snapshot(5, 90) });
    expect(later.liveSeries[1]?.requests).toBeUndefined();
  });

  it('keeps at most LIVE_SERIES_LIMIT seconds', () => {
    let state = stateIn('running');
    state = liveReducer(state, {
      type: 'backfill',
      series: Array.from({ length: LIVE_SERIES_LIMIT + 5 }, (_, i) =>
        chartPointOf(i + 1, { active_users: 1, requests_per_second: 1, avg: 1, p95: 1 }),
      ),
    });
    expect(state.liveSeries).toHaveLength(LIVE_SERIES_LIMIT);
    expect(state.liveSeries[0]?.second).toBe(6);
  });

  it('backfilled seconds never replace seconds the stream delivered', () => {
    const live = liveReducer(stateIn('running'), { type: 'snapshot', snapshot: snapshot(1, 40) });
    const next = liveReducer(live, {
      type: 'backfill',
      series: [
        chartPointOf(1, { active_users: 9, requests_per_second: 9, error_rate: 9, avg: 9, p95: 9 }),
        chartPointOf(2, { active_users: 9, requests_per_second: 9, error_rate: 9, avg: 9, p95: 9 }),
      ],
    });
    expect(next.liveSeries.map((point) => point.active_users)).toEqual([5, 9]);
  });

  it('end: the final answer decides, whatever its shape', () => {
    const end = (shape: TestResult) =>
      liveReducer(stateIn('running'), { type: 'end', result: shape, now: NOW });
    expect(end({ status: 'completed', summary: SUMMARY, api_results: API }).phase).toBe('completed');
    const noSummary = end({ status: 'completed' });
    expect(noSummary.phase).toBe('completed');
    expect(resultView(noSummary)).toBe('noResults');
    const nothingCounted = end({ status: 'completed', summary: summaryOf({ total_requests: 0 }) });
    expect(resultView(nothingCounted)).toBe('noKpi');
    // A summary without figures (not ours: another server's answer) has no KPI either.
    expect(resultView(end(JSON.parse('{"status":"completed","summary":{}}') as TestResult))).toBe('noKpi');
    expect(end({ status: 'stopped', summary: SUMMARY }).phase).toBe('stopped');
    expect(end({ status: 'failed', error: 'x' }).phase).toBe('failed');
    expect(end({ status: 'completed' }).final).toBe(true);
  });

  it('end after a stop brings the stopped run figures', () => {
    const stopped = liveReducer(stateIn('running'), { type: 'stopped' });
    const next = liveReducer(stopped, {
      type: 'end',
      result: { status: 'stopped', summary: SUMMARY, api_results: API },
      now: NOW,
    });
    expect(next.phase).toBe('stopped');
    expect(next.final).toBe(true);
    expect(resultView(next)).toBe('results');
  });
});

describe('liveReducer: stop and timeout', () => {
  it('running → stopped after the stop succeeds', () => {
    const next = liveReducer(stateIn('running'), { type: 'stopped' });
    expect(next.phase).toBe('stopped');
    expect(resultView(next)).toBe('stoppedEmpty');
  });

  it('a stopped run keeps its live figures until the final ones arrive', () => {
    const live = liveReducer(stateIn('running'), { type: 'snapshot', snapshot: snapshot(1, 40) });
    const stopped = liveReducer(live, { type: 'stopped' });
    expect(resultView(stopped)).toBe('live');
    const polled = liveReducer(stopped, result({ status: 'stopped', summary: SUMMARY, api_results: API }));
    expect(polled.final).toBe(true);
    expect(resultView(polled)).toBe('results');
  });

  it('a stop does nothing to a finished test', () => {
    const completed = stateIn('completed');
    expect(liveReducer(completed, { type: 'stopped' })).toBe(completed);
  });

  it.each<LivePhase>(['starting', 'running', 'processing'])(
    '%s → timeout after the maximum polling time',
    (phase) => {
      const next = liveReducer(stateIn(phase), { type: 'timeout', seconds: 180 });
      expect(next.phase).toBe('timeout');
      expect(next.problem).toEqual({ kind: 'timeout', seconds: 180 });
      expect(resultView(next)).toBe('timeout');
    },
  );

  it.each<LivePhase>(['completed', 'failed', 'stopped'])('%s does not time out', (phase) => {
    const state = stateIn(phase);
    expect(liveReducer(state, { type: 'timeout', seconds: 180 })).toBe(state);
  });
});

describe('resultView', () => {
  it('shows the waiting panel while running or processing without figures', () => {
    expect(resultView(stateIn('running'))).toBe('waiting');
    expect(resultView(stateIn('processing', { result: { summary: SUMMARY } }))).toBe('waiting');
    expect(resultView(stateIn('running', { result: { status: 'running', summary: SUMMARY } }))).toBe('live');
    expect(
      resultView(
        stateIn('running', { result: { status: 'running', summary: summaryOf({ total_requests: 0 }) } }),
      ),
    ).toBe('waiting');
  });
});

describe('keepsPolling (docs/reference/02-running.md §7)', () => {
  const deadline = NOW + 180_000;
  it('polls while starting, running or processing', () => {
    for (const phase of ['starting', 'running', 'processing'] as const) {
      expect(keepsPolling(stateIn(phase), NOW, deadline)).toBe(true);
    }
  });

  it('stops 30 s after completing with API results', () => {
    const completed = stateIn('completed', { completedAt: NOW, final: true });
    expect(keepsPolling(completed, NOW + POLL_AFTER_COMPLETED_MS - 1, deadline)).toBe(true);
    expect(keepsPolling(completed, NOW + POLL_AFTER_COMPLETED_MS, deadline)).toBe(false);
  });

  it('goes on while completed without final figures, until the deadline', () => {
    const completed = stateIn('completed');
    expect(keepsPolling(completed, NOW, deadline)).toBe(true);
    expect(keepsPolling(completed, deadline, deadline)).toBe(false);
    expect(keepsPolling(stateIn('completed', { final: true }), NOW, deadline)).toBe(false);
  });

  it('asks a stopped run for its figures until they arrive', () => {
    expect(keepsPolling(stateIn('stopped'), NOW, deadline)).toBe(true);
    expect(keepsPolling(stateIn('stopped', { final: true }), NOW, deadline)).toBe(false);
  });

  it('never polls a failed or timed-out test', () => {
    expect(keepsPolling(stateIn('failed'), NOW, deadline)).toBe(false);
    expect(keepsPolling(stateIn('timeout'), NOW, deadline)).toBe(false);
  });
});

describe('snapshotToPoint', () => {
  it('copies the measured second', () => {
    expect(snapshotToPoint(snapshot(1, 40))).toEqual({
      second: 1,
      requests: 40,
      active_users: 5,
      requests_per_second: 40,
      error_rate: 1.5,
      avg: 12,
      p50: 10,
      p90: 20,
      p95: 25,
      p99: 40,
      max: 80,
    });
  });

  it('keeps an open-model second’s iterations started and dropped', () => {
    const point = snapshotToPoint({ ...snapshot(2, 90), iterations: 30, dropped_iterations: 4 });
    expect(point).toMatchObject({ second: 2, iterations: 30, dropped_iterations: 4 });
    expect(snapshotToPoint(snapshot(2, 90))).not.toHaveProperty('iterations');
  });
});
