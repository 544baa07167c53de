import type { LiveSnapshot, Phrase } from '@aqa/plan';
import { isFinished } from './finished';
import { isNumber } from './format';
import type { ResultView as TestResult, SeriesPoint } from './views';

/**
 * The live performance test status of docs/reference/02-running.md §4 as a pure reducer. The screen feeds it what happens
 * (a start answered, a poll answered or failed, a stream event, a stop, the clock running out) and renders
 * what it says.
 */
export type LivePhase =
  | 'starting'
  /**
   * An existing run is viewed and the server has not answered yet: its stored status is not known, so
   * the screen says neither Running nor anything else, and offers no Stop (docs/reference/02-running.md §4).
   */
  | 'loading'
  | 'running'
  | 'processing'
  | 'completed'
  | 'failed'
  | 'stopped'
  | 'timeout'
  | 'notFound';

/** The phases in which the screen keeps asking for results (docs/reference/02-running.md §4: each poll re-evaluates it). */
export const POLLING_PHASES: readonly LivePhase[] = ['starting', 'loading', 'running', 'processing'];

export function isPollingPhase(phase: LivePhase): boolean {
  return POLLING_PHASES.includes(phase);
}

/** Why a run ended in `failed` or `timeout`. Texts are composed by the screen in the active language. */
export type LiveProblem =
  /** Starting from the stored configuration failed (docs/reference/02-running.md §8 "Failed to start test: {message}"). */
  | { kind: 'start'; reason: StartFailure }
  /** The server says the run failed (engine error, "interrupted by a server restart", ...). */
  | { kind: 'server'; message: string | null; phrase?: Phrase | null | undefined }
  /** No result within the maximum polling time. */
  | { kind: 'timeout'; seconds: number };

export type StartFailure =
  | { code: 'noUrls' }
  | { code: 'noTool' }
  | { code: 'noTestId' }
  /** The run request failed; `message` is already in words (null: "Unknown error"). */
  | { code: 'request'; message: string | null };

export interface LiveState {
  phase: LivePhase;
  /** The last results answer (poll, stream status or the stream's final answer). */
  result: TestResult | null;
  /** The last per-second snapshot of the stream. */
  snapshot: LiveSnapshot | null;
  /** Per-second points measured so far (stream snapshots, plus the stored series when joining late). */
  liveSeries: SeriesPoint[];
  problem: LiveProblem | null;
  /** When the run was first seen completed with API results (ms since the epoch); polling stops 30 s later. */
  completedAt: number | null;
  /** `result` is the server's last word on the run (the stream's `end`, or a finished status). */
  final: boolean;
  /** The last fetch was answered "not found" (404 or status not_found): the server does not know the id (yet). */
  notFound: boolean;
  /**
   * This browser started the run or was handed it (Run Script, /test-result/new): a "not found" answer
   * means the run is still starting, for NOT_FOUND_GRACE_MS. An id nobody handed over is not found at once.
   */
  startedHere: boolean;
  /** When the answers began saying "not found" without a break (ms since the epoch); null when they do not. */
  notFoundSince: number | null;
}

export type LiveAction =
  /** An existing test is viewed: starting → loading, until the server's first word on it. */
  | { type: 'view' }
  /** A new start returned a test id: starting → running. */
  | { type: 'startSucceeded' }
  | { type: 'startFailed'; reason: StartFailure }
  /** A results answer: a poll of GET /get-test-result or the stream's `status` event. */
  | { type: 'result'; result: TestResult; now: number }
  /** A results fetch failed; `notFound` for a 404. */
  | { type: 'fetchFailed'; notFound: boolean; now: number }
  | { type: 'snapshot'; snapshot: LiveSnapshot }
  /** The stored series of a run joined late (GET /chart-data while running). */
  | { type: 'backfill'; series: SeriesPoint[] }
  /** The stream's `end`: the final results answer. */
  | { type: 'end'; result: TestResult; now: number }
  /** Stop Test (or Back) succeeded. */
  | { type: 'stopped' }
  | { type: 'timeout'; seconds: number };

/** Points kept for the live timeline: two hours of seconds. */
export const LIVE_SERIES_LIMIT = 7_200;

/**
 * How long a run started from this browser may be unknown to the server before the screen calls it not
 * found: the spec's "status not_found gives running" (docs/reference/02-running.md §4) is about a run
 * that is starting, not about an id the server never issued.
 */
export const NOT_FOUND_GRACE_MS = 15_000;

export function initialLiveState(options: { startedHere?: boolean } = {}): LiveState {
  return {
    phase: 'starting',
    result: null,
    snapshot: null,
    liveSeries: [],
    problem: null,
    completedAt: null,
    final: false,
    notFound: false,
    startedHere: options.startedHere ?? false,
    notFoundSince: null,
  };
}

/**
 * A polling state after a "not found" answer: running while the run may still be starting (one this
 * browser started, within the grace), else the `notFound` phase — no Stop, no progress, a way back.
 */
function afterNotFound(state: LiveState, now: number): LiveState {
  const since = state.notFoundSince ?? now;
  const starting = state.startedHere && now - since < NOT_FOUND_GRACE_MS;
  return { ...state, phase: starting ? 'running' : 'notFound', notFound: true, notFoundSince: since };
}

function hasApiResults(result: TestResult): boolean {
  return Array.isArray(result.api_results) && result.api_results.length > 0;
}

/**
 * The phase a results answer gives a running, processing or starting test (docs/reference/02-running.md §4). The server's own
 * run statuses come first — failed, stopped and running say what the run is doing, whatever figures
 * ride along (a running run carries its figures so far) — then the spec's rules, in its order:
 *   summary with non-empty api_results → completed; flagged intermediate → processing; summary with
 *   total_requests above 0 but no API results → processing; status processing → processing; status
 *   completed without summary → processing; status not_found → running; anything else → running.
 * One case the spec leaves open: completed with a summary that counted nothing (and so no API rows) is
 * completed — the screen then says "No KPI file found" instead of waiting for rows that cannot come.
 */
export function phaseForResult(result: TestResult): LivePhase {
  const status = result.status;
  if (status === 'failed') return 'failed';
  // A run a server restart interrupted ended early with figures, as a stopped one (docs/adr/0016-crash-recovery.md).
  if (status === 'stopped' || status === 'interrupted') return 'stopped';
  if (status === 'running') return 'running';
  const summary = result.summary ?? null;
  if (summary && hasApiResults(result)) return 'completed';
  if (result.intermediate === true) return 'processing';
  if (summary && (summary.total_requests ?? 0) > 0) return 'processing';
  if (status === 'processing') return 'processing';
  if (status === 'completed') return summary ? 'completed' : 'processing';
  return 'running';
}

/** The phase of the stream's final answer: the server's status is the last word. */
export function phaseForFinalResult(result: TestResult): LivePhase {
  switch (result.status) {
    case 'completed':
      return 'completed';
    case 'failed':
      return 'failed';
    case 'stopped':
    case 'interrupted':
      return 'stopped';
    default:
      return phaseForResult(result);
  }
}

function serverProblem(result: TestResult): LiveProblem {
  return { kind: 'server', message: result.error?.trim() || null, phrase: result.error_phrase ?? null };
}

/**
 * A snapshot as a series point. Its request count is the growth of the run's total since the previous
 * second (known only when that second was received too, or for the first second).
 */
export function snapshotToPoint(snapshot: LiveSnapshot, previous?: LiveSnapshot | null): SeriesPoint {
  const total = snapshot.totals?.requests;
  let requests: number | undefined;
  if (typeof total === 'number') {
    if (snapshot.second === 1) requests = total;
    else if (
      previous &&
      previous.second === snapshot.second - 1 &&
      typeof previous.totals?.requests === 'number'
    ) {
      requests = Math.max(0, total - previous.totals.requests);
    }
  }
  return {
    second: snapshot.second,
    ...(requests !== undefined ? { requests } : {}),
    active_users: snapshot.active_users,
    requests_per_second: snapshot.requests_per_second,
    error_rate: snapshot.error_rate,
    avg: snapshot.latency.avg,
    p50: snapshot.latency.p50,
    p90: snapshot.latency.p90,
    p95: snapshot.latency.p95,
    p99: snapshot.latency.p99,
    max: snapshot.latency.max,
    ...(isNumber(snapshot.iterations) ? { iterations: snapshot.iterations } : {}),
    ...(isNumber(snapshot.dropped_iterations) ? { dropped_iterations: snapshot.dropped_iterations } : {}),
    ...(Array.isArray(snapshot.flows) ? { flows: snapshot.flows } : {}),
  };
}

/** Merges points by second (later ones win), in order, keeping the newest LIVE_SERIES_LIMIT. */
export function mergeSeries(base: SeriesPoint[], extra: SeriesPoint[]): SeriesPoint[] {
  const bySecond = new Map<number, SeriesPoint>();
  for (const point of base) bySecond.set(point.second, point);
  for (const point of extra) bySecond.set(point.second, point);
  const merged = [...bySecond.values()].sort((a, b) => a.second - b.second);
  return merged.length > LIVE_SERIES_LIMIT ? merged.slice(-LIVE_SERIES_LIMIT) : merged;
}

function withResult(state: LiveState, result: TestResult, phase: LivePhase, now: number): LiveState {
  const next: LiveState = { ...state, phase, result, notFound: result.status === 'not_found' };
  if (phase === 'completed' && hasApiResults(result) && state.completedAt === null) next.completedAt = now;
  if (phase === 'failed') next.problem = serverProblem(result);
  if (phase === 'completed' || phase === 'failed' || phase === 'stopped') {
    next.final = isFinished(result.status);
  }
  return next;
}

export function liveReducer(state: LiveState, action: LiveAction): LiveState {
  switch (action.type) {
    case 'view':
      return state.phase === 'starting' ? { ...state, phase: 'loading' } : state;
    case 'startSucceeded':
      return state.phase === 'starting' ? { ...state, phase: 'running' } : state;

    case 'startFailed':
      return state.phase === 'starting'
        ? { ...state, phase: 'failed', problem: { kind: 'start', reason: action.reason } }
        : state;

    case 'result': {
      if (isPollingPhase(state.phase)) {
        if (action.result.status === 'not_found') {
          return afterNotFound({ ...state, result: action.result }, action.now);
        }
        return {
          ...withResult(state, action.result, phaseForResult(action.result), action.now),
          notFoundSince: null,
        };
      }
      // Completed keeps polling for a while (docs/reference/02-running.md §7): newer figures replace the stored ones. A stopped
      // run's figures arrive after the stop.
      if (state.phase === 'completed' || state.phase === 'stopped') {
        const status = action.result.status;
        const sameRun =
          state.phase === 'completed'
            ? status === 'completed'
            : status === 'stopped' || status === 'interrupted';
        if (sameRun && action.result.summary) {
          return { ...state, result: action.result, final: true, notFound: false };
        }
      }
      return state;
    }

    case 'fetchFailed':
      // docs/reference/02-running.md §4: a failed fetch leaves a polling test running, with no error
      // shown — except a 404 for a run that is not starting (see afterNotFound).
      if (!isPollingPhase(state.phase)) return state;
      if (action.notFound) return afterNotFound(state, action.now);
      return { ...state, phase: 'running', notFound: false, notFoundSince: null };

    case 'snapshot': {
      const polling = isPollingPhase(state.phase);
      if (!polling && state.phase !== 'stopped') return state;
      return {
        ...state,
        phase: polling ? 'running' : state.phase,
        snapshot: action.snapshot,
        liveSeries: mergeSeries(state.liveSeries, [snapshotToPoint(action.snapshot, state.snapshot)]),
        notFound: false,
        notFoundSince: null,
      };
    }

    case 'backfill':
      // Stream points already received win over the stored ones.
      return { ...state, liveSeries: mergeSeries(action.series, state.liveSeries) };

    case 'end': {
      if (isPollingPhase(state.phase)) {
        return {
          ...withResult(state, action.result, phaseForFinalResult(action.result), action.now),
          final: true,
        };
      }
      if (state.phase === 'stopped' || state.phase === 'completed') {
        return { ...state, result: action.result, final: true, notFound: false };
      }
      return state;
    }

    case 'stopped':
      return isPollingPhase(state.phase) ? { ...state, phase: 'stopped', problem: null } : state;

    case 'timeout':
      return isPollingPhase(state.phase)
        ? { ...state, phase: 'timeout', problem: { kind: 'timeout', seconds: action.seconds } }
        : state;
  }
}

/** What the body of the screen shows for a state (docs/reference/02-running.md §2). */
export type ResultView =
  | 'startError'
  | 'error'
  | 'timeout'
  /** Running or processing without figures: "Test Result Preparing..." / "Processing Test Results...". */
  | 'waiting'
  /** Running with live figures from the stream or the server's figures so far. */
  | 'live'
  /** Completed with a summary whose total requests is zero or missing. */
  | 'noKpi'
  /** Completed without a summary. */
  | 'noResults'
  | 'results'
  /** Stopped before any request was counted. */
  | 'stoppedEmpty'
  /** The server does not know the id (and this browser is not starting it): "Test not found". */
  | 'notFound'
  /** An existing run before the server's first answer: "Loading the result...", no status guessed. */
  | 'loading';

export function totalRequestsOf(result: TestResult | null): number | null {
  const total = result?.summary?.total_requests;
  return typeof total === 'number' && Number.isFinite(total) ? total : null;
}

export function resultView(state: LiveState): ResultView {
  const { phase, result } = state;
  const summary = result?.summary ?? null;
  const total = totalRequestsOf(result);
  switch (phase) {
    case 'failed':
      return state.problem?.kind === 'start' ? 'startError' : 'error';
    case 'timeout':
      return 'timeout';
    case 'notFound':
      return 'notFound';
    case 'completed':
      if (!summary) return 'noResults';
      return total === null || total <= 0 ? 'noKpi' : 'results';
    case 'stopped':
      if (summary && total !== null && total > 0) return 'results';
      // Until the stopped run's figures arrive, the live ones stay.
      return state.snapshot && !state.final ? 'live' : 'stoppedEmpty';
    case 'starting':
    case 'running':
      return state.snapshot || (summary && total !== null && total > 0) ? 'live' : 'waiting';
    case 'processing':
      return 'waiting';
    case 'loading':
      return 'loading';
  }
}

/** After a completed result with API results, polling goes on this long (docs/reference/02-running.md §7, §9). */
export const POLL_AFTER_COMPLETED_MS = 30_000;

/**
 * Whether the screen should keep asking GET /get-test-result (when the live stream is unavailable):
 * while starting, running or processing; for 30 s after completing with API results; while a completed
 * or stopped run's final figures have not arrived, until the maximum polling time (`deadline`).
 */
export function keepsPolling(state: LiveState, now: number, deadline: number): boolean {
  if (isPollingPhase(state.phase)) return true;
  if (state.phase === 'completed') {
    if (state.completedAt !== null) return now - state.completedAt < POLL_AFTER_COMPLETED_MS;
    return !state.final && now < deadline;
  }
  if (state.phase === 'stopped') return !state.final && now < deadline;
  return false;
}
