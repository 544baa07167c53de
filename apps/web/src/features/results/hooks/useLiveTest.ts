import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useLocation, useNavigate } from 'react-router';
import { screenPath } from '@/lib/screens';
import { useT } from '@/i18n';
import { errorDetailMessage } from '@/i18n/error-messages';
import { ApiError, isAbortError } from '@/lib/api';
import { sessionUserId } from '@/lib/session';
import { storage } from '@/lib/storage';
import { contract } from '@aqa/contract';
import { invalidateRoutes, onFetchedAnswers, useRouteLoader, useRouteQuery, viewOf } from '@/lib/queries';
import { RUN_LIST_ROUTES } from '@/lib/run-test';
import {
  checkStartConfig,
  clearCurrentTest,
  CURRENT_TEST_ID_KEY,
  configDurationSeconds,
  configPlanId,
  NEW_TEST_ROUTE_ID,
  readTestConfig,
  rememberCurrentTest,
  runPayload,
} from '../model/current-test';
import {
  DEFAULT_DURATION_SECONDS,
  elapsedAt,
  maxPollingSeconds,
  POLL_INTERVAL_MS,
  progressPercent,
  TICK_MS,
  type ElapsedReading,
} from '../model/progress';
import {
  initialLiveState,
  isPollingPhase,
  keepsPolling,
  liveReducer,
  resultView,
  type LiveState,
} from '../model/status-machine';
import type { ChartData, TestResult } from '@aqa/plan';
import type { TestConfig } from '../model/current-test';
import {
  chartDataKey,
  fetchChartData,
  runTest,
  stopTest,
  streamTest,
  testResultInput,
  testResultKey,
} from '../queries/results-api';

/** Where updates come from: the live stream, or polling every 3 s when the stream is unavailable. */
export type UpdateMode = 'stream' | 'polling';

export interface LiveTest {
  state: LiveState;
  view: ReturnType<typeof resultView>;
  mode: UpdateMode;
  /** The run's id; null while a new run is being started. */
  testId: string | null;
  config: TestConfig | null;
  elapsedSeconds: number;
  /** The configured duration in seconds (1 minute when unknown, docs/reference/02-running.md §9). */
  totalSeconds: number;
  /** The run or its stored configuration told the duration. */
  durationKnown: boolean;
  /** Percent of the configured duration elapsed (docs/reference/02-running.md §4), 0–100. */
  progress: number;
  /** The maximum polling time, seconds (docs/reference/02-running.md §9). */
  maxPollingSeconds: number;
  /** Measured per-second series of the finished run (GET /chart-data); null while loading or unavailable. */
  chartData: ChartData | null;
  chartStatus: 'idle' | 'loading' | 'ready' | 'failed';
  stopping: boolean;
  stopError: string | null;
  stop: () => Promise<boolean>;
  /** Back (docs/reference/02-running.md §4): stops a running test first, then clears the stored test, then leaves. */
  back: () => Promise<void>;
}

function readingOf(result: TestResult, now: number): ElapsedReading | null {
  if (typeof result.elapsed_seconds === 'number' && Number.isFinite(result.elapsed_seconds)) {
    return { seconds: result.elapsed_seconds, at: now };
  }
  return null;
}

function initialState(isNew: boolean, config: TestConfig | null, startedHere: boolean): LiveState {
  const state = initialLiveState({ startedHere });
  if (!isNew) return liveReducer(state, { type: 'view' });
  const problem = checkStartConfig(config);
  return problem ? liveReducer(state, { type: 'startFailed', reason: problem }) : state;
}

/**
 * The live result screen's data (docs/reference/02-running.md §2, §4, §7): starts a stored configuration when the route is
 * /test-result/new, follows the run through the live stream (falling back to polling every 3 s), ticks
 * the elapsed time every second, gives up after the maximum polling time, and loads the measured series
 * once results exist.
 */
export function useLiveTest(routeTestId: string, routePlanId?: string): LiveTest {
  const t = useT();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const isNew = routeTestId === NEW_TEST_ROUTE_ID;
  const testId = isNew ? null : routeTestId;

  // The stored configuration describes this run only when it names it (or when it is the run to start).
  const [config] = useState<TestConfig | null>(() => {
    const stored = readTestConfig();
    if (!stored) return null;
    return isNew || stored.testId === routeTestId ? stored : null;
  });
  const planId = routePlanId ?? configPlanId(config);
  // Whether this browser started the run or was handed its id (Run Script, a start here, a link of this
  // app): only then is a "not found" answer a run still starting. Read before the id is remembered below.
  const [startedHere] = useState(
    () =>
      isNew ||
      config !== null ||
      storage.get(CURRENT_TEST_ID_KEY) === routeTestId ||
      (location.state as { testId?: unknown } | null)?.testId === routeTestId,
  );

  const [state, dispatch] = useReducer(liveReducer, null, () => initialState(isNew, config, startedHere));
  const [openedAt] = useState(() => Date.now());
  const [now, setNow] = useState(openedAt);
  const [reading, setReading] = useState<ElapsedReading | null>(null);
  const [mode, setMode] = useState<UpdateMode>('stream');
  const [stopping, setStopping] = useState(false);
  const [stopError, setStopError] = useState<string | null>(null);

  const knownSeconds =
    (typeof state.result?.duration_seconds === 'number' && state.result.duration_seconds > 0
      ? state.result.duration_seconds
      : undefined) ?? configDurationSeconds(config);
  const totalSeconds = knownSeconds ?? DEFAULT_DURATION_SECONDS;
  const maxPolling = maxPollingSeconds(totalSeconds);
  const deadline = openedAt + maxPolling * 1000;
  const elapsedSeconds = elapsedAt(reading ?? { seconds: 0, at: openedAt }, now);
  const polling = mode === 'polling' && testId !== null && keepsPolling(state, now, deadline);
  const ticking = isPollingPhase(state.phase) || polling;

  // --- Starting a stored configuration (/test-result/new) -------------------------------------------
  const startRequested = useRef(false);
  useEffect(() => {
    if (!isNew || state.phase !== 'starting' || startRequested.current || !config) return;
    startRequested.current = true;
    runTest(runPayload(config, sessionUserId() ?? undefined)).then(
      (answer) => {
        const id = typeof answer?.test_id === 'string' ? answer.test_id.trim() : '';
        if (!id) {
          dispatch({ type: 'startFailed', reason: { code: 'noTestId' } });
          return;
        }
        dispatch({ type: 'startSucceeded' });
        rememberCurrentTest(id);
        void navigate(screenPath('testResult', { testId: id }), {
          replace: true,
          state: { testId: id, planId: configPlanId(config) },
        });
      },
      (error: unknown) => {
        const message = errorDetailMessage(error, t).trim();
        dispatch({ type: 'startFailed', reason: { code: 'request', message: message || null } });
      },
    );
  }, [isNew, state.phase, config, navigate, t]);

  // --- Viewing a run ----------------------------------------------------------------------------------
  // The run on screen is remembered once the server has answered with it; an id it does not know is
  // forgotten, so that opening it again does not count as a run started here.
  const known = state.snapshot !== null || (state.result !== null && state.result.status !== 'not_found');
  const unknown = state.phase === 'notFound';
  useEffect(() => {
    if (!testId) return;
    if (known) rememberCurrentTest(testId);
    else if (unknown && storage.get(CURRENT_TEST_ID_KEY) === testId) clearCurrentTest();
  }, [testId, known, unknown]);

  // The run's result is one entry of the query cache (docs/contract.md §3 "Server state"): the stream
  // writes each result it sends into it and the poll below fills it while the stream is down, so any
  // other reader of the run sees what this screen sees. The live stream; an unavailable or broken
  // stream switches the screen to polling for good.
  const streamController = useRef<AbortController | null>(null);
  useEffect(() => {
    if (!testId) return;
    const controller = new AbortController();
    streamController.current = controller;
    let ended = false;
    let backfillAsked = false;
    streamTest(testId, {
      signal: controller.signal,
      onEvent: (event) => {
        const at = Date.now();
        if (event.type === 'snapshot') {
          dispatch({ type: 'snapshot', snapshot: event.snapshot });
          setReading({ seconds: event.snapshot.elapsed_seconds, at });
          return;
        }
        if (event.type === 'end') ended = true;
        queryClient.setQueryData(testResultKey(testId, planId), event.result);
        dispatch({ type: event.type === 'end' ? 'end' : 'result', result: event.result, now: at });
        const next = readingOf(event.result, at);
        if (next) setReading(next);
        // Joining a run already under way: its stored seconds fill the start of the live timeline.
        if (
          event.type === 'status' &&
          !backfillAsked &&
          event.result.status === 'running' &&
          (event.result.elapsed_seconds ?? 0) > 2
        ) {
          backfillAsked = true;
          fetchChartData(testId, controller.signal).then(
            (data) => {
              if (Array.isArray(data?.series)) dispatch({ type: 'backfill', series: data.series });
            },
            () => undefined,
          );
        }
      },
    }).then(
      () => {
        if (!ended && !controller.signal.aborted) setMode('polling');
      },
      (error: unknown) => {
        if (controller.signal.aborted || isAbortError(error)) return;
        if (error instanceof ApiError && error.status === 404) {
          dispatch({ type: 'fetchFailed', notFound: true, now: Date.now() });
        }
        setMode('polling');
      },
    );
    return () => {
      controller.abort();
      if (streamController.current === controller) streamController.current = null;
    };
  }, [testId, planId, queryClient]);

  // Nothing more to follow once the screen has given up or the run failed.
  useEffect(() => {
    if (state.phase === 'timeout' || state.phase === 'failed' || state.phase === 'notFound') {
      streamController.current?.abort();
    }
  }, [state.phase]);

  // Polling every 3 s (docs/reference/02-running.md §7) while the stream is unavailable: the entry the
  // stream writes, asked again on the interval for as long as keepsPolling says, in a hidden tab too
  // (as the screen always polled).
  useRouteQuery(contract.runs.result, testResultInput(testId ?? '', planId), {
    enabled: polling,
    refetchInterval: POLL_INTERVAL_MS,
    refetchIntervalInBackground: true,
  });
  // Each answer a poll brings goes to the status machine (the stream's went with their events).
  useEffect(() => {
    if (!testId) return;
    return onFetchedAnswers<TestResult>(queryClient, testResultKey(testId, planId), {
      answer: (result) => {
        const at = Date.now();
        dispatch({ type: 'result', result, now: at });
        const next = readingOf(result, at);
        if (next) setReading(next);
      },
      // docs/reference/02-running.md §8: results fetch errors are swallowed and polling continues.
      failure: (error) => {
        if (isAbortError(error)) return;
        dispatch({
          type: 'fetchFailed',
          notFound: error instanceof ApiError && error.status === 404,
          now: Date.now(),
        });
      },
    });
  }, [testId, planId, queryClient]);

  // The one-second clock: elapsed time, progress, and the maximum polling time.
  useEffect(() => {
    if (!ticking) return;
    const timer = setInterval(() => {
      const at = Date.now();
      setNow(at);
      if (at > deadline) dispatch({ type: 'timeout', seconds: maxPolling });
    }, TICK_MS);
    return () => clearInterval(timer);
  }, [ticking, deadline, maxPolling]);

  // --- Measured series once results exist (docs/reference/02-running.md §8: a chart-data failure only omits charts) ------------
  const view = resultView(state);
  const wantsCharts =
    testId !== null && (view === 'results' || (view === 'error' && (state.result?.summary ?? null) !== null));
  // Asked again at each phase of the run and when its final figures arrive: one entry for each.
  const charts = viewOf(
    useRouteLoader(
      `chart-data@${state.phase}:${String(state.final)}`,
      chartDataKey(testId ?? ''),
      (signal) => fetchChartData(testId ?? '', signal),
      { enabled: wantsCharts },
    ),
  );

  // --- Stop and Back ------------------------------------------------------------------------------------
  const stop = useCallback(async (): Promise<boolean> => {
    if (!testId) return false;
    setStopping(true);
    setStopError(null);
    try {
      await stopTest(testId);
      void invalidateRoutes(queryClient, ...RUN_LIST_ROUTES);
      dispatch({ type: 'stopped' });
      clearCurrentTest();
      return true;
    } catch (error) {
      setStopError(errorDetailMessage(error, t));
      return false;
    } finally {
      setStopping(false);
    }
  }, [testId, t, queryClient]);

  const phase = state.phase;
  const back = useCallback(async () => {
    if (phase === 'running' && testId) {
      const stopped = await stop();
      if (!stopped) return;
    }
    clearCurrentTest();
    // Opened directly (no earlier entry in this app): Back goes to the dashboard.
    if (location.key !== 'default') void navigate(-1);
    else void navigate(screenPath('dashboard'));
  }, [phase, testId, stop, navigate, location.key]);

  return {
    state,
    view,
    mode,
    testId,
    config,
    elapsedSeconds,
    totalSeconds,
    durationKnown: knownSeconds !== undefined,
    progress: progressPercent(elapsedSeconds, totalSeconds),
    maxPollingSeconds: maxPolling,
    chartData: charts.status === 'success' && Array.isArray(charts.data?.series) ? charts.data : null,
    chartStatus:
      charts.status === 'idle'
        ? 'idle'
        : charts.status === 'loading'
          ? 'loading'
          : charts.status === 'success' && Array.isArray(charts.data?.series)
            ? 'ready'
            : 'failed',
    stopping,
    stopError,
    stop,
    back,
  };
}
