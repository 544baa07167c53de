import { contract } from '@aqa/contract';
import type {
  ChartData,
  ForceStopResponse,
  LiveSnapshot,
  RunStarted,
  StopTestResponse,
  TestResult,
} from '@aqa/plan';
import { call } from '@/lib/api';
import { routeKey, type RouteKey } from '@/lib/queries';
import { runTest } from '@/lib/run-test';
import { sessionUserEmail } from '@/lib/session';
import { readEventStream, type SseEvent } from '@/lib/sse';

/**
 * The run calls of docs/reference/02-running.md §7 and the live stream of our server, through the
 * contract's typed call (docs/contract.md), for the signed-in user.
 */

/** The one run-test call (src/lib/run-test.ts), shared with the plan editor. */
export { runTest };

/**
 * The one-click switch after a failed tool run: the same saved plan, for as long, in the built-in engine
 * (`engine: "builtin"`) or in Locust (`tool: "locust"`, this run only) (docs/adr/0003-jmeter-scripts-are-real-jmx.md "JMeter versions").
 */
export function runElsewhere(
  planId: string,
  choice: 'builtin' | 'locust',
  durationSeconds: number | undefined,
): Promise<RunStarted> {
  return runTest({
    plan_id: planId,
    user_email: sessionUserEmail(),
    ...(choice === 'builtin' ? { engine: 'builtin' as const } : { tool: 'locust' }),
    ...(durationSeconds !== undefined && durationSeconds > 0 ? { duration_seconds: durationSeconds } : {}),
  });
}

/** The input of a run's result call, for the signed-in user (its cache key is testResultKey). */
export const testResultInput = (id: string, planId?: string) => ({
  params: { id },
  query: { user_email: sessionUserEmail(), plan_id: planId || undefined },
});

/** The cache key of a run's result, as fetchTestResult asks it. */
export const testResultKey = (id: string, planId?: string): RouteKey =>
  routeKey(contract.runs.result, testResultInput(id, planId));

export function fetchTestResult(id: string, planId?: string, signal?: AbortSignal): Promise<TestResult> {
  return call(contract.runs.result, testResultInput(id, planId), { signal });
}

export function stopTest(id: string): Promise<StopTestResponse> {
  return call(contract.runs.stop, { params: { id } });
}

export function forceStopAllTests(): Promise<ForceStopResponse> {
  return call(contract.runs.stopAll);
}

const chartDataInput = (id: string) => ({ params: { id }, query: { user_email: sessionUserEmail() } });

/** The cache key of a run's chart data, as fetchChartData asks it. */
export const chartDataKey = (id: string): RouteKey => routeKey(contract.runs.chartData, chartDataInput(id));

export function fetchChartData(id: string, signal?: AbortSignal): Promise<ChartData> {
  return call(contract.runs.chartData, chartDataInput(id), { signal });
}

export type TestStreamEvent =
  | { type: 'status'; result: TestResult }
  | { type: 'snapshot'; snapshot: LiveSnapshot }
  | { type: 'end'; result: TestResult };

/** One event of GET /api/test-stream/{id}; null for an event this client does not know or cannot read. */
export function parseTestStreamEvent(event: SseEvent): TestStreamEvent | null {
  let data: unknown;
  try {
    data = JSON.parse(event.data);
  } catch {
    return null;
  }
  if (typeof data !== 'object' || data === null) return null;
  switch (event.event) {
    case 'status':
      // Our server's answer (TestResult); the status machine still reads any shape safely.
      return { type: 'status', result: data as TestResult };
    case 'end':
      return { type: 'end', result: data as TestResult };
    case 'snapshot': {
      const snapshot = data as LiveSnapshot;
      return typeof snapshot.second === 'number' && typeof snapshot.latency === 'object'
        ? { type: 'snapshot', snapshot }
        : null;
    }
    default:
      return null;
  }
}

/**
 * Follows a run's live stream: `status` on connect, a `snapshot` every second, `end` with the final
 * results. Resolves when the server closes the stream, rejects when it cannot be read.
 */
export function streamTest(
  id: string,
  options: { signal: AbortSignal; onEvent: (event: TestStreamEvent) => void; onOpen?: () => void },
): Promise<void> {
  return readEventStream(`/test-stream/${encodeURIComponent(id)}`, {
    signal: options.signal,
    onOpen: options.onOpen,
    onEvent: (event) => {
      const parsed = parseTestStreamEvent(event);
      if (parsed) options.onEvent(parsed);
    },
  });
}
