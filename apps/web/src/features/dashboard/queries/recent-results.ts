import { contract } from '@aqa/contract';
import { createContext } from 'react';
import { fetchFunctionalResults } from '@/features/functional';
import { call } from '@/lib/api';
import { routeKey, routesKey } from '@/lib/queries';
import { sessionUserEmail } from '@/lib/session';

/**
 * The Recent Activity contract (docs/reference/02-running.md §2 "Home dashboard"). `fetchRecentResults`
 * (GET /api/get-test-results and GET /api/functional/functional-test-results) is handed to the dashboard
 * through `RecentResultsContext` by the router (src/app/data-sources.tsx).
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
  /** Which result screen opens it: the performance one unless said otherwise. */
  kind?: 'performance' | 'functional';
}

/** Loads the signed-in user's results, newest first or in any order (the dashboard sorts and keeps 5). */
export type RecentResultsSource = (signal: AbortSignal) => Promise<RecentResult[]>;

/** The registered source of Recent Activity; none (nothing fetched, the empty state) outside the app. */
export const RecentResultsContext = createContext<RecentResultsSource | undefined>(undefined);

export const RECENT_RESULTS_LIMIT = 5;

export function newestFirst(results: RecentResult[], limit: number = RECENT_RESULTS_LIMIT): RecentResult[] {
  const time = (result: RecentResult) => {
    const at = result.createdAt ? Date.parse(result.createdAt) : NaN;
    return Number.isFinite(at) ? at : 0;
  };
  return [...results].sort((a, b) => time(b) - time(a)).slice(0, limit);
}

/** The cache key of Recent Activity: the two run lists it reads, as fetchRecentResults asks them. */
export const recentResultsKey = () =>
  routesKey(
    routeKey(contract.runs.list, { query: { limit: RECENT_RESULTS_LIMIT } }),
    routeKey(contract.functional.results, {
      query: { user_email: sessionUserEmail(), limit: RECENT_RESULTS_LIMIT },
    }),
  );

/**
 * The user's newest runs of both kinds, performance and functional: the 5 newest of each list (each
 * server list is newest first), of which the dashboard keeps the 5 newest of them all.
 */
export const fetchRecentResults: RecentResultsSource = async (signal) => {
  const [runs, functional] = await Promise.all([
    call(contract.runs.list, { query: { limit: RECENT_RESULTS_LIMIT } }, { signal }),
    fetchFunctionalResults(signal, RECENT_RESULTS_LIMIT),
  ]);
  return [
    ...runs.map((run) => ({
      testId: run.test_id,
      planId: run.plan_id ?? undefined,
      name: run.test_name || undefined,
      createdAt: run.created_at,
      status: run.status,
      kind: 'performance' as const,
    })),
    ...functional.map((run) => ({
      testId: run.test_id,
      planId: run.plan_id ?? undefined,
      name: run.test_name || undefined,
      createdAt: run.start_time ?? undefined,
      status: run.status,
      kind: 'functional' as const,
    })),
  ];
};
