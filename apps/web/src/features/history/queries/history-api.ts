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
  StoredStatus,
  TrendPoint,
} from '@aqa/plan';
import { contract, type CallAnswer, type PLAN_FILTERS } from '@aqa/contract';
import { call } from '@/lib/api';
import { routeKey, type RouteKey } from '@/lib/queries';
import { runTest } from '@/lib/run-test';

/**
 * The results-history calls (docs/history-api.md): past runs, the performance dashboard, baselines,
 * comparison and reports. The server scopes every call to the signed-in user by the bearer token.
 */

/** A query value the server should not see: absent, null or blank. */
const given = <T>(value: T | null | undefined): T | undefined =>
  value === null || value === undefined || value === '' ? undefined : value;

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
  status?: StoredStatus | null;
  limit: number;
  offset: number;
}

const pastRunsInput = (request: RunListQuery) => ({
  query: {
    plan_id: given(request.planId),
    status: given(request.status),
    limit: request.limit,
    offset: request.offset,
  },
});

/** The cache key of one page of past runs (docs/adr/0026-server-state-through-tanstack-query.md). */
export const pastRunsKey = (request: RunListQuery): RouteKey =>
  routeKey(contract.runs.list, pastRunsInput(request));

/** GET /api/get-test-results: newest first; the total comes in X-Total-Count. */
export async function fetchPastRuns(request: RunListQuery, signal?: AbortSignal): Promise<Page<PastRun>> {
  let total: number | null = null;
  const items = await call(contract.runs.list, pastRunsInput(request), {
    signal,
    onResponse: (response) => {
      const header = Number(response.headers.get('x-total-count'));
      total = Number.isFinite(header) && response.headers.has('x-total-count') ? header : null;
    },
  });
  return { items, total: total ?? request.offset + items.length };
}

export function deleteTestResult(id: string): Promise<DeletedResult> {
  return call(contract.history.deleteResult, { params: { id } });
}

export function saveTestResult(request: {
  test_id: string;
  test_name?: string;
  notes?: string;
}): Promise<PastRun> {
  return call(contract.history.saveResult, { body: request });
}

export function setBaseline(planId: string, testId: string | null): Promise<Baseline> {
  return call(contract.history.setBaseline, { body: { plan_id: planId, test_id: testId } });
}

export type PlanFilter = (typeof PLAN_FILTERS)[number];

export interface DashboardQuery {
  q: string;
  filter: PlanFilter;
  limit: number;
  offset: number;
}

/** The input of one page of the performance dashboard (the screen reads it through the query cache). */
export const dashboardInput = (request: DashboardQuery) => ({
  query: {
    q: given(request.q.trim()),
    filter: request.filter === 'all' ? undefined : request.filter,
    limit: request.limit,
    offset: request.offset,
  },
});

/** POST /api/run-test with only the plan id: the server runs the plan as saved. */
export function runSavedPlan(planId: string): Promise<RunStarted> {
  return runTest({ plan_id: planId });
}

export function deletePlan(id: string): Promise<CallAnswer<typeof contract.plans.delete>> {
  return call(contract.plans.delete, { params: { id } });
}

export function fetchPlanScript(id: string): Promise<CallAnswer<typeof contract.plans.downloadScript>> {
  return call(contract.plans.downloadScript, { params: { id } });
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
