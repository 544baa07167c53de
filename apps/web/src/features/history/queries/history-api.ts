import type {
  ApiComparison,
  ApiDelta,
  ApiFigures,
  Baseline,
  DashboardCounters,
  DashboardPlan,
  DeletedResult,
  MetricComparison,
  PastRun,
  PerformanceDashboard,
  RecentResult,
  RunComparison,
  RunStarted,
  TrendPoint,
} from '@aqa/plan';
import { api } from '@/lib/api';

/**
 * The results-history calls (docs/history-api.md): past runs, the performance dashboard, baselines,
 * comparison and reports. The server scopes every call to the signed-in user by the bearer token.
 */

const idPath = (id: string) => encodeURIComponent(id);

function query(params: Record<string, string | number | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

// The answers are @aqa/plan's schemas; the names below are the ones this feature's screens use.
export type { PastRun, DashboardCounters, DashboardPlan, PerformanceDashboard, TrendPoint };
export type RecentRun = RecentResult;
export type CompareFigures = ApiFigures;
export type DeltaFlag = ApiDelta;
export type CompareMetric = MetricComparison;
export type CompareApi = ApiComparison;
export type Comparison = RunComparison;

export interface Page<T> {
  items: T[];
  /** Items matching the query, before paging. */
  total: number;
}

export interface RunListQuery {
  planId?: string | null;
  status?: string | null;
  limit: number;
  offset: number;
}

/** GET /api/get-test-results: newest first; the total comes in X-Total-Count. */
export async function fetchPastRuns(request: RunListQuery, signal?: AbortSignal): Promise<Page<PastRun>> {
  let total: number | null = null;
  const runs = await api.get<PastRun[] | { data: PastRun[] }>(
    `/get-test-results${query({
      plan_id: request.planId,
      status: request.status,
      limit: request.limit,
      offset: request.offset,
    })}`,
    {
      signal,
      onResponse: (response) => {
        const header = Number(response.headers.get('x-total-count'));
        total = Number.isFinite(header) && response.headers.has('x-total-count') ? header : null;
      },
    },
  );
  // docs/reference/02-running.md §7: the answer may be an array or an object with a data array.
  const items = Array.isArray(runs) ? runs : (runs?.data ?? []);
  return { items, total: total ?? request.offset + items.length };
}

export function deleteTestResult(id: string): Promise<DeletedResult> {
  return api.delete(`/delete-test-result/${idPath(id)}`);
}

export function saveTestResult(request: {
  test_id: string;
  test_name?: string;
  notes?: string;
}): Promise<PastRun> {
  return api.post<PastRun>('/save-test-result', request);
}

export function setBaseline(planId: string, testId: string | null): Promise<Baseline> {
  return api.post('/set-baseline', { plan_id: planId, test_id: testId });
}

export type PlanFilter = 'all' | 'with_results' | 'no_results';

export interface DashboardQuery {
  q: string;
  filter: PlanFilter;
  limit: number;
  offset: number;
}

export function fetchPerformanceDashboard(
  request: DashboardQuery,
  signal?: AbortSignal,
): Promise<PerformanceDashboard> {
  return api.get<PerformanceDashboard>(
    `/performance-dashboard${query({
      q: request.q.trim(),
      filter: request.filter === 'all' ? undefined : request.filter,
      limit: request.limit,
      offset: request.offset,
    })}`,
    { signal },
  );
}

/** POST /api/run-test with only the plan id: the server runs the plan as saved. */
export function runSavedPlan(planId: string): Promise<RunStarted> {
  return api.post<RunStarted>('/run-test', { plan_id: planId });
}

export function deletePlan(id: string): Promise<{ message?: string }> {
  return api.delete(`/delete-test-plan/${idPath(id)}`);
}

export function fetchPlanScript(id: string): Promise<{ script: string; filename: string }> {
  return api.get(`/download-script/${idPath(id)}`);
}

export function fetchComparison(base: string, candidate: string, signal?: AbortSignal): Promise<Comparison> {
  return api.get<Comparison>(`/compare-test-results${query({ base, candidate })}`, { signal });
}

const LOOKUP_PAGE = 100;
const LOOKUP_PAGES = 10;

/**
 * A run's list item when it is not on the page shown (a link with ?testId=): looked up among its plan's
 * runs, newest first, a page at a time. Null when it is not found.
 */
export async function findPastRun(
  testId: string,
  planId: string | null | undefined,
  signal?: AbortSignal,
): Promise<PastRun | null> {
  for (let page = 0; page < LOOKUP_PAGES; page++) {
    const { items, total } = await fetchPastRuns(
      { planId, limit: LOOKUP_PAGE, offset: page * LOOKUP_PAGE },
      signal,
    );
    const found = items.find((run) => run.test_id === testId);
    if (found) return found;
    if ((page + 1) * LOOKUP_PAGE >= total || items.length === 0) return null;
  }
  return null;
}
