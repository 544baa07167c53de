import type {
  DashboardPlanRow,
  DashboardRepository,
  PlanSearch,
} from '../../repositories/dashboard.repository';
import type { PlanRepository } from '../../repositories/plan.repository';
import type { RunRepository } from '../../repositories/run.repository';
import type { AccountUser } from '../account-user';
import type { StoredStatus } from '../runs/run-model';
import { rowToPlan } from '../saved-plan';

/** Spec 02 §9: plan cards show 3 recent results each. */
export const RECENT_RESULTS_PER_PLAN = 3;
/** Completed runs a plan card's trend covers. */
export const TREND_RUNS = 10;

export interface DashboardCounters {
  total_plans: number;
  completed_tests: number;
  failed_tests: number;
  /** Running or processing. */
  running_tests: number;
}

export interface RecentResult {
  test_id: string;
  status: StoredStatus;
  created_at: string;
  start_time: string;
}

export interface TrendPoint {
  test_id: string;
  start_time: string;
  percentile_95: number;
  error_rate: number;
}

/** A plan card (spec 02 §3 "Performance plan as listed", "Performance test result"), with its trend. */
export interface DashboardPlan {
  _id: string;
  id: string;
  name: string;
  description: string;
  tool: string;
  concurrent_users: number;
  duration: number;
  source_page: string;
  created_at: string;
  updated_at: string;
  test_type: string;
  api_count: number;
  /** The plan's URL entries without their bodies, headers or checks. */
  urls: { method: string; url: string; name?: string }[];
  /** Every run of the plan. */
  results_count: number;
  /** The newest runs, newest first. */
  recent_results: RecentResult[];
  baseline_test_id: string | null;
  /** The last completed runs, oldest first. */
  trend: TrendPoint[];
}

export interface PerformanceDashboard {
  counters: DashboardCounters;
  /** Plans matching the search and filter, before paging. */
  total: number;
  plans: DashboardPlan[];
}

/**
 * GET /api/performance-dashboard: the whole screen in one call. The search, filter and page are SQL;
 * run counts, recent results and trends are read for the page's plans only, so the answer costs the
 * same with 10 plans or 10,000.
 */
export class DashboardService {
  constructor(
    private readonly dashboard: DashboardRepository,
    private readonly plans: PlanRepository,
    private readonly runs: RunRepository,
  ) {}

  async performance(user: AccountUser, search: PlanSearch): Promise<PerformanceDashboard> {
    const [page, totalPlans, counts] = await Promise.all([
      this.dashboard.searchPlans(user.id, search),
      this.plans.countForUser(user.id),
      this.runs.statusCountsForUser(user.id),
    ]);
    const ids = page.rows.map((row) => row.id);
    const [runCounts, latest, trends] = await Promise.all([
      this.dashboard.runCounts(ids),
      this.dashboard.latestRuns(ids, RECENT_RESULTS_PER_PLAN),
      this.dashboard.trends(ids, TREND_RUNS),
    ]);
    const recentByPlan = groupBy(
      latest.map((run) => ({
        plan_id: run.plan_id,
        result: {
          test_id: run.id,
          status: run.status as StoredStatus,
          created_at: run.started_at,
          start_time: run.started_at,
        },
      })),
    );
    const trendByPlan = groupBy(
      trends.flatMap((run) =>
        // A completed run always has its summary columns; a row without them has nothing to plot.
        run.percentile_95 === null || run.error_rate === null
          ? []
          : [
              {
                plan_id: run.plan_id,
                result: {
                  test_id: run.id,
                  start_time: run.started_at,
                  percentile_95: run.percentile_95,
                  error_rate: run.error_rate,
                },
              },
            ],
      ),
    );
    const count = (status: string) => counts[status] ?? 0;
    return {
      counters: {
        total_plans: totalPlans,
        completed_tests: count('completed'),
        failed_tests: count('failed'),
        running_tests: count('running') + count('processing'),
      },
      total: page.total,
      plans: page.rows.map((row) =>
        planCard(row, {
          results_count: runCounts.get(row.id) ?? 0,
          recent_results: recentByPlan.get(row.id) ?? [],
          trend: trendByPlan.get(row.id) ?? [],
        }),
      ),
    };
  }
}

function planCard(
  row: DashboardPlanRow,
  runs: Pick<DashboardPlan, 'results_count' | 'recent_results' | 'trend'>,
): DashboardPlan {
  // The cards show no script; the plan model is read only for its URL entries.
  const plan = rowToPlan({ ...row, user_id: '', script: '', script_edited: 0, search_text: '' });
  return {
    _id: row.id,
    id: row.id,
    name: row.name,
    description: row.description,
    tool: row.tool,
    concurrent_users: row.concurrent_users,
    duration: row.duration,
    source_page: row.source_page,
    created_at: row.created_at,
    updated_at: row.updated_at,
    test_type: row.test_type,
    api_count: plan.urls.length,
    urls: plan.urls.map((entry) => ({
      method: entry.method,
      url: entry.url,
      ...(entry.name === undefined || entry.name === '' ? {} : { name: entry.name }),
    })),
    results_count: runs.results_count,
    recent_results: runs.recent_results,
    baseline_test_id: row.baseline_run_id,
    trend: runs.trend,
  };
}

function groupBy<T>(items: { plan_id: string; result: T }[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const { plan_id, result } of items) {
    let list = groups.get(plan_id);
    if (list === undefined) groups.set(plan_id, (list = []));
    list.push(result);
  }
  return groups;
}
