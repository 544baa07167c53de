import {
  type ApiResult,
  type FunctionalApiResult,
  type FunctionalPlan,
  type FunctionalSummary,
  type ResultSummary,
  safeMigrateFunctionalPlan,
  safeMigratePlan,
  type TestKind,
  type UrlEntry,
  withPercentilesInRange,
} from '@aqa/plan';
import type {
  AssistantFunctionalPlanRow,
  AssistantFunctionalRunRow,
  AssistantPlanRow,
  AssistantRepository,
  AssistantRunRow,
} from '../../repositories/assistant.repository';

/*
 * The user's plans and runs as James's analyser reads them (docs/design.md §10): parsed once from the
 * stored JSON (docs/reference/02-running.md §3 "Live test results", "Functional result"), newest first.
 */

export interface PerfPlanView {
  id: string;
  name: string;
  users: number;
  /** Minutes. */
  durationMinutes: number;
  sourcePage: string;
  /** Null when the stored body no longer reads as a plan. */
  urls: UrlEntry[] | null;
  baselineRunId: string | null;
}

export interface PerfRunView {
  id: string;
  planId: string | null;
  planName: string;
  /** The name the user gave the run, or its plan's. */
  name: string;
  status: string;
  users: number;
  startedAt: string;
  summary: ResultSummary | null;
  apis: ApiResult[];
}

export interface FunctionalPlanView {
  id: string;
  name: string;
  kind: TestKind;
  plan: FunctionalPlan | null;
}

export interface FunctionalRunView {
  id: string;
  planId: string | null;
  name: string;
  status: string;
  startedAt: string;
  error: string | null;
  summary: FunctionalSummary | null;
  apis: FunctionalApiResult[];
}

export interface AssistantData {
  perfPlans: PerfPlanView[];
  /** Newest first. */
  perfRuns: PerfRunView[];
  /** The plans' baselines by run id (one may be older than the runs read). */
  baselines: Map<string, PerfRunView>;
  functionalPlans: FunctionalPlanView[];
  /** Newest first. */
  functionalRuns: FunctionalRunView[];
}

function parseJson<T>(text: string | null): T | null {
  if (text === null) return null;
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}

function perfPlanView(row: AssistantPlanRow): PerfPlanView {
  const body = parseJson<Record<string, unknown>>(row.body) ?? {};
  const parsed = safeMigratePlan({
    ...body,
    schema_version: row.schema_version,
    name: row.name,
    concurrent_users: row.concurrent_users,
    duration: row.duration,
  });
  return {
    id: row.id,
    name: row.name,
    users: row.concurrent_users,
    durationMinutes: row.duration,
    sourcePage: row.source_page,
    urls: parsed.success ? parsed.data.urls : null,
    baselineRunId: row.baseline_run_id,
  };
}

function perfRunView(row: AssistantRunRow): PerfRunView {
  return {
    id: row.id,
    planId: row.plan_id,
    planName: row.plan_name,
    name: row.test_name ?? row.plan_name,
    status: row.status,
    users: row.concurrent_users,
    startedAt: row.started_at,
    summary: summaryInRange(parseJson<ResultSummary>(row.summary)),
    apis: parseJson<ApiResult[]>(row.api_results) ?? [],
  };
}

function functionalPlanView(row: AssistantFunctionalPlanRow): FunctionalPlanView {
  const parsed = safeMigrateFunctionalPlan(parseJson(row.body));
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    plan: parsed.success ? parsed.data : null,
  };
}

function functionalRunView(row: AssistantFunctionalRunRow): FunctionalRunView {
  return {
    id: row.id,
    planId: row.plan_id,
    name: row.test_name,
    status: row.status,
    startedAt: row.start_time,
    error: row.error,
    summary: parseJson<FunctionalSummary>(row.summary),
    apis: parseJson<{ api_results?: FunctionalApiResult[] }>(row.head)?.api_results ?? [],
  };
}

/** Reads everything James may use of one user's, and nothing of anyone else's. */
export async function loadAssistantData(repo: AssistantRepository, userId: string): Promise<AssistantData> {
  const [plans, runs, functionalPlans, functionalRuns] = await Promise.all([
    repo.perfPlans(userId),
    repo.perfRuns(userId),
    repo.functionalPlans(userId),
    repo.functionalRuns(userId),
  ]);
  const perfRuns = runs.map(perfRunView);
  const known = new Map(perfRuns.map((run) => [run.id, run]));
  const missing = plans
    .map((plan) => plan.baseline_run_id)
    .filter((id): id is string => id !== null && !known.has(id));
  const baselines = new Map<string, PerfRunView>();
  for (const run of [...perfRuns, ...(await repo.perfRunsById(userId, missing)).map(perfRunView)]) {
    if (plans.some((plan) => plan.baseline_run_id === run.id)) baselines.set(run.id, run);
  }
  return {
    perfPlans: plans.map(perfPlanView),
    perfRuns,
    baselines,
    functionalPlans: functionalPlans.map(functionalPlanView),
    functionalRuns: functionalRuns.map(functionalRunView),
  };
}

/** A run that measured something and ran its whole duration: what comparisons start from. */
export function isMeasuredRun(run: PerfRunView): run is PerfRunView & { summary: ResultSummary } {
  return run.status === 'completed' && run.summary !== null && run.summary.total_requests > 0;
}

/** The plan's completed runs that measured requests, newest first. */
export function measuredRunsOf(
  data: AssistantData,
  planId: string,
): (PerfRunView & { summary: ResultSummary })[] {
  return data.perfRuns.filter((run) => run.planId === planId).filter(isMeasuredRun);
}

/** A stored summary with its percentiles within min and max (docs/adr/0006-hdr-histograms-merge-exactly.md). */
function summaryInRange(summary: ResultSummary | null): ResultSummary | null {
  return summary === null ? null : withPercentilesInRange(summary);
}
