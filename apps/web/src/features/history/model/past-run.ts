import type { PastRun } from '@aqa/plan';
import type { ResultView } from '@/features/results';

/** A past run in the live screen's result shape, for the shared result components. */
export function runAsResult(run: PastRun): ResultView {
  const stored = run.results_summary === null ? null : splitSummary(run.results_summary);
  return {
    test_id: run.test_id,
    plan_id: run.plan_id,
    plan_name: run.plan_name,
    status: run.status,
    concurrent_users: run.concurrent_users,
    tool: run.tool,
    engine: run.engine,
    started_at: run.start_time,
    ended_at: run.end_time,
    duration_seconds: run.duration,
    summary: stored?.summary ?? null,
    api_results: stored?.apiResults ?? [],
  };
}

function splitSummary({ api_results: apiResults, ...summary }: NonNullable<PastRun['results_summary']>) {
  return { summary, apiResults };
}

/**
 * The list item of a run known only from GET /get-test-result (not found in its plan's list); with no
 * answer at all, a run that is not found.
 */
export function resultAsRun(result: ResultView, testId: string): PastRun {
  return {
    test_id: result.test_id ?? testId,
    plan_id: result.plan_id ?? null,
    plan_name: result.plan_name ?? '',
    test_name: result.plan_name ?? '',
    status: result.status ?? 'not_found',
    start_time: result.started_at ?? '',
    end_time: result.ended_at ?? null,
    duration: result.summary?.test_duration ?? result.duration_seconds ?? 0,
    concurrent_users: result.concurrent_users ?? 0,
    tool: result.tool ?? '',
    engine: result.engine ?? '',
    created_at: result.started_at ?? '',
    notes: '',
    is_baseline: false,
    results_summary: result.summary ? { ...result.summary, api_results: result.api_results ?? [] } : null,
  };
}
