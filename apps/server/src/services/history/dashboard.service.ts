import type { DashboardPlan, PerformanceDashboard, StoredStatus } from '@aqa/plan';
import type {
  DashboardPlanRow,
  DashboardRepository,
  PlanSearch,
} from '../../repositories/dashboard.repository';
import type { PlanRepository } from '../../repositories/plan.repository';
import type { RunRepository } from '../../repositories/run.repository';
import type { AccountUser } from '../account-user';
import { rowToPlan } from '../saved-plan';

/** The plan filters of the performance dashboard, for the routes' schema (routes do not import repositories). */
export { PLAN_FILTERS } from '../../repositories/dashboard.repository';

/** docs/reference/02-running.md §9: plan cards show 3 recent results each. */
export const RECENT_RESULTS_PER_PLAN = 3;
/** Completed runs a plan card's trend covers. */
export const TREND_RUNS = 10;

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
      this.dashboard.searchPlans(user.workspaceId, search),
      this.plans.countInWorkspace(user.workspaceId),
      this.runs.statusCountsInWorkspace(user.workspaceId),
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
  const plan = rowToPlan({
    ...row,
    user_id: '',
    workspace_id: '',
    script: '',
    script_edited: 0,
    search_text: '',
    version: 0,
  });
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
