/**
 * The Recent Activity contract (spec 02 §2 "Home dashboard"). No results API exists yet; the results issue
 * provides a `RecentResultsSource` (backed by GET /api/get-test-results) and registers it in
 * `DATA_SOURCES.recentResults` (src/app/routes-registry.ts). Until then the dashboard fetches nothing and
 * shows its empty state.
 */
export type RecentResultStatus = 'completed' | 'running' | 'pending' | 'failed' | 'stopped' | (string & {});

export interface RecentResult {
  testId: string;
  planId?: string | undefined;
  /** Test or plan name; the dashboard shows "Unnamed Test" without one. */
  name?: string | undefined;
  /** ISO time the run was created. */
  createdAt?: string | undefined;
  status: RecentResultStatus;
}

/** Loads the signed-in user's results, newest first or in any order (the dashboard sorts and keeps 5). */
export type RecentResultsSource = (signal: AbortSignal) => Promise<RecentResult[]>;

export const RECENT_RESULTS_LIMIT = 5;

export function newestFirst(results: RecentResult[], limit: number = RECENT_RESULTS_LIMIT): RecentResult[] {
  const time = (result: RecentResult) => {
    const at = result.createdAt ? Date.parse(result.createdAt) : NaN;
    return Number.isFinite(at) ? at : 0;
  };
  return [...results].sort((a, b) => time(b) - time(a)).slice(0, limit);
}
