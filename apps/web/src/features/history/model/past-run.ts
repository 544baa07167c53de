import type { TestResult } from '@/features/results';
import type { PastRun } from '../queries/history-api';

/** A past run in the live screen's result shape, for the shared result components. */
export function runAsResult(run: PastRun): TestResult {
  const { api_results: apiResults, ...summary } = run.results_summary ?? {};
  return {
    test_id: run.test_id,
    plan_id: run.plan_id,
    plan_name: run.plan_name,
    status: run.status,
    concurrent_users: run.concurrent_users,
    tool: run.tool,
    engine: run.engine ?? null,
    started_at: run.start_time,
    ended_at: run.end_time,
    duration_seconds: run.duration,
    summary: run.results_summary ? summary : null,
    api_results: apiResults ?? [],
  };
}

/** The list item of a run known only from GET /get-test-result (not found in its plan's list). */
export function resultAsRun(result: TestResult, testId: string): PastRun {
  return {
    test_id: result.test_id ?? testId,
    plan_id: result.plan_id ?? null,
    plan_name: result.plan_name ?? '',
    test_name: result.plan_name ?? '',
    status: result.status ?? 'unknown',
    start_time: result.started_at ?? '',
    end_time: result.ended_at ?? null,
    duration: result.summary?.test_duration ?? result.duration_seconds ?? 0,
    concurrent_users: result.concurrent_users ?? 0,
    tool: result.tool ?? '',
    engine: result.engine ?? undefined,
    created_at: result.started_at ?? '',
    notes: '',
    is_baseline: false,
    results_summary: result.summary ? { ...result.summary, api_results: result.api_results ?? [] } : null,
  };
}
