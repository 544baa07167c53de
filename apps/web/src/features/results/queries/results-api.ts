import { api } from '@/lib/api';
import { sessionUserId } from '@/lib/session';
import { readEventStream, type SseEvent } from '@/lib/sse';
import type { RunTestPayload } from '../model/current-test';
import type {
  ChartData,
  ForceStopResponse,
  LiveSnapshot,
  RunStarted,
  StopTestResponse,
  TestResult,
} from '@aqa/plan';

/** The run calls of docs/reference/02-running.md §7 and the live stream of our server, under /api, for the signed-in user. */

function query(params: Record<string, string | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value) search.set(key, value);
  const text = search.toString();
  return text ? `?${text}` : '';
}

const idPath = (id: string) => encodeURIComponent(id);

export function runTest(payload: RunTestPayload): Promise<RunStarted> {
  return api.post<RunStarted>('/run-test', payload);
}

/**
 * The one-click switch after a failed tool run: the same saved plan, for as long, in the built-in engine
 * (`engine: "builtin"`) or in Locust (`tool: "locust"`, this run only) (docs/adr/0003-jmeter-scripts-are-real-jmx.md "JMeter versions").
 */
export function runElsewhere(
  planId: string,
  choice: 'builtin' | 'locust',
  durationSeconds: number | undefined,
): Promise<RunStarted> {
  return api.post<RunStarted>('/run-test', {
    plan_id: planId,
    user_email: sessionUserId() ?? undefined,
    ...(choice === 'builtin' ? { engine: 'builtin' } : { tool: 'locust' }),
    ...(durationSeconds !== undefined && durationSeconds > 0 ? { duration_seconds: durationSeconds } : {}),
  });
}

export function fetchTestResult(id: string, planId?: string, signal?: AbortSignal): Promise<TestResult> {
  return api.get<TestResult>(
    `/get-test-result/${idPath(id)}${query({ user_email: sessionUserId() ?? undefined, plan_id: planId })}`,
    { signal },
  );
}

export function stopTest(id: string): Promise<StopTestResponse> {
  return api.post(`/stop-test/${idPath(id)}`);
}

export function forceStopAllTests(): Promise<ForceStopResponse> {
  return api.post('/force-stop-all-tests');
}

export function fetchChartData(id: string, signal?: AbortSignal): Promise<ChartData> {
  return api.get<ChartData>(
    `/chart-data/${idPath(id)}${query({ user_email: sessionUserId() ?? undefined })}`,
    { signal },
  );
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
  return readEventStream(`/test-stream/${idPath(id)}`, {
    signal: options.signal,
    onOpen: options.onOpen,
    onEvent: (event) => {
      const parsed = parseTestStreamEvent(event);
      if (parsed) options.onEvent(parsed);
    },
  });
}
