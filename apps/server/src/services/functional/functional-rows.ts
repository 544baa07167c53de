import {
  type CallResult,
  FUNCTIONAL_SOURCES,
  FUNCTIONAL_TEST_TYPES,
  type FunctionalApiResult,
  type FunctionalPlan,
  kindOf,
  migrateFunctionalPlan,
  type FunctionalResult,
  type FunctionalStatus,
  functionalStatusKind,
  type FunctionalSummary,
  type Phrase,
} from '@aqa/plan';
import type { FunctionalPlanRow, FunctionalRunRow, NewFunctionalPlanRow } from '../../db/schema';

/** A plan's status before its first run. */
export const NEVER_RUN_STATUS = 'saved';

/** A saved functional plan as the calls answer it: the model's plan with its id, owner, status and times. */
export type SavedFunctionalPlan = FunctionalPlan & {
  id: string;
  _id: string;
  status: string;
  user_email: string;
  version: number;
  created_at: string;
  updated_at: string;
};

/** What the server owns and the body therefore does not keep: ids, owner, status, version and times. */
function planBody(plan: FunctionalPlan): string {
  const {
    id: _id,
    plan_id: _planId,
    status: _status,
    user_email: _email,
    version: _version,
    created_at: _created,
    updated_at: _updated,
    ...body
  } = plan;
  return JSON.stringify(body);
}

/** The plan as the columns of its row (everything but id, owner, status and times). */
export function planColumns(
  plan: FunctionalPlan,
): Pick<NewFunctionalPlanRow, 'name' | 'test_type' | 'source' | 'kind' | 'schema_version' | 'body'> {
  return {
    name: plan.test_name,
    test_type: plan.test_type,
    source: plan.source,
    kind: kindOf(plan),
    schema_version: plan.schema_version,
    body: planBody(plan),
  };
}

/** The stored plan, read again through the model (so a field added since takes its default). */
function rowToPlan(row: FunctionalPlanRow): FunctionalPlan {
  return migrateFunctionalPlan(JSON.parse(row.body));
}

export function toSavedPlan(row: FunctionalPlanRow, userEmail: string): SavedFunctionalPlan {
  return {
    ...rowToPlan(row),
    id: row.id,
    _id: row.id,
    status: row.status,
    user_email: userEmail,
    version: row.version,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The list shows three judged calls of each run, failing ones first, and "+N more validations". */
export const LISTED_CALLS = 3;

/** What a stored run keeps in its `result` column. */
export interface StoredCalls {
  validation_results: CallResult[];
  calls_omitted: number;
  api_results: FunctionalApiResult[];
  timeline_data: FunctionalResult['timeline_data'];
}

/**
 * The `keep` calls the list shows of a run: its failing calls first, then the passing ones, each in the
 * order they ran — a failure is never hidden behind "+N more validations" (docs/reference/02-running.md
 * §2 "Functional dashboard").
 */
export function listedCalls(calls: readonly CallResult[], keep: number): CallResult[] {
  const failing = calls.filter((call) => !call.success);
  const kept = failing.slice(0, keep);
  if (kept.length < keep) kept.push(...calls.filter((call) => call.success).slice(0, keep - kept.length));
  return kept;
}

/** The calls the list shows (listedCalls), calls_omitted counting the rest: a run's stored head. */
export function headOf(calls: StoredCalls, keep: number): StoredCalls {
  const kept = listedCalls(calls.validation_results, keep);
  return {
    ...calls,
    validation_results: kept,
    calls_omitted: calls.calls_omitted + calls.validation_results.length - kept.length,
  };
}

export const EMPTY_SUMMARY: FunctionalSummary = {
  total_requests: 0,
  successful_requests: 0,
  failed_requests: 0,
  validation_failures: 0,
};

/** `{ [key]: value }` when the stored word is one the model knows, else nothing. */
function oneOf<K extends string, T extends string>(
  key: K,
  words: readonly T[],
  value: string,
): Partial<Record<K, T>> {
  return (words as readonly string[]).includes(value) ? ({ [key]: value } as Partial<Record<K, T>>) : {};
}

/** A stored run's status as the calls answer it: one the model does not know is reported as failed. */
export function storedStatus(status: string): FunctionalStatus {
  const kind = functionalStatusKind(status);
  return kind === 'unknown' ? 'failed' : kind;
}

/** A stored run as the calls answer it; a status the model does not know is reported as failed. */
export function rowToResult(row: Omit<FunctionalRunRow, 'head'>): FunctionalResult {
  const calls: StoredCalls =
    row.result === null
      ? { validation_results: [], calls_omitted: 0, api_results: [], timeline_data: [] }
      : (JSON.parse(row.result) as StoredCalls);
  return {
    test_id: row.id,
    plan_id: row.plan_id,
    test_name: row.test_name,
    description: row.description,
    status: storedStatus(row.status),
    ...oneOf('test_type', FUNCTIONAL_TEST_TYPES, row.test_type),
    ...oneOf('source', FUNCTIONAL_SOURCES, row.source),
    start_time: row.start_time,
    end_time: row.end_time,
    error: row.error,
    ...(row.error_phrase === null ? {} : { error_phrase: JSON.parse(row.error_phrase) as Phrase }),
    summary: row.summary === null ? EMPTY_SUMMARY : (JSON.parse(row.summary) as FunctionalSummary),
    validation_results: calls.validation_results,
    validation_results_total: calls.validation_results.length + calls.calls_omitted,
    calls_omitted: calls.calls_omitted,
    api_results: calls.api_results,
    timeline_data: calls.timeline_data,
  };
}
