import { api } from '@/lib/api';
import type { ApiResult, SeriesPoint, TestSummary } from '@/features/results';

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

/** Spec 02 §3 "Past run list item", plus notes and whether it is its plan's baseline. */
export interface PastRun {
  test_id: string;
  plan_id: string | null;
  plan_name: string;
  test_name: string;
  status: string;
  start_time: string;
  end_time: string | null;
  /** Seconds the load ran. */
  duration: number;
  concurrent_users: number;
  tool: string;
  engine?: string;
  created_at: string;
  notes?: string;
  is_baseline?: boolean;
  results_summary: (TestSummary & { api_results?: ApiResult[] | null }) | null;
}

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
  // Spec 02 §7: the answer may be an array or an object with a data array.
  const items = Array.isArray(runs) ? runs : (runs?.data ?? []);
  return { items, total: total ?? request.offset + items.length };
}

export function deleteTestResult(id: string): Promise<{ test_id: string; deleted: boolean }> {
  return api.delete(`/delete-test-result/${idPath(id)}`);
}

export function saveTestResult(request: {
  test_id: string;
  test_name?: string;
  notes?: string;
}): Promise<PastRun> {
  return api.post<PastRun>('/save-test-result', request);
}

export function setBaseline(
  planId: string,
  testId: string | null,
): Promise<{
  plan_id: string;
  baseline_test_id: string | null;
}> {
  return api.post('/set-baseline', { plan_id: planId, test_id: testId });
}

export type PlanFilter = 'all' | 'with_results' | 'no_results';

export interface DashboardCounters {
  total_plans: number;
  completed_tests: number;
  failed_tests: number;
  running_tests: number;
}

export interface RecentRun {
  test_id: string;
  status: string;
  created_at: string;
  start_time: string;
}

export interface TrendPoint {
  test_id: string;
  start_time: string;
  percentile_95: number | null;
  error_rate: number | null;
}

/** A plan as the performance dashboard lists it. */
export interface DashboardPlan {
  _id?: string;
  id: string;
  name: string;
  description: string;
  tool: string;
  concurrent_users: number;
  /** Minutes. */
  duration: number;
  source_page: string;
  created_at: string;
  updated_at?: string;
  test_type?: string | null;
  api_count: number;
  urls: { method: string; url: string; name?: string }[];
  results_count: number;
  recent_results: RecentRun[];
  baseline_test_id: string | null;
  /** The last completed runs, oldest first. */
  trend: TrendPoint[];
}

export interface PerformanceDashboard {
  counters: DashboardCounters;
  total: number;
  plans: DashboardPlan[];
}

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

export interface RunTestStarted {
  test_id?: string;
}

/** POST /api/run-test with only the plan id: the server runs the plan as saved. */
export function runSavedPlan(planId: string): Promise<RunTestStarted> {
  return api.post<RunTestStarted>('/run-test', { plan_id: planId });
}

export function deletePlan(id: string): Promise<{ message?: string }> {
  return api.delete(`/delete-test-plan/${idPath(id)}`);
}

export function fetchPlanScript(id: string): Promise<{ script: string; filename: string }> {
  return api.get(`/download-script/${idPath(id)}`);
}

export interface CompareFigures {
  total_requests: number;
  requests_per_second: number;
  average_response_time: number;
  percentile_95: number;
  percentile_99: number;
  error_rate: number;
}

export interface DeltaFlag {
  delta_percent: number | null;
  worse: boolean;
}

export interface CompareMetric {
  key: string;
  label: string;
  unit: string;
  base: number | null;
  candidate: number | null;
  delta: number | null;
  delta_percent: number | null;
  worse: boolean;
}

export interface CompareApi {
  key: string;
  name: string;
  method: string;
  url: string;
  base: CompareFigures | null;
  candidate: CompareFigures | null;
  deltas: { average_response_time: DeltaFlag; percentile_95: DeltaFlag; error_rate: DeltaFlag };
}

export interface Comparison {
  base: PastRun;
  candidate: PastRun;
  metrics: CompareMetric[];
  apis: CompareApi[];
  series: { base: SeriesPoint[]; candidate: SeriesPoint[] };
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
