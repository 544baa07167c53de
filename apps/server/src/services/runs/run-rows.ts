import type { EncodedHistogram } from '@aqa/engine';
import type { NewRunRow, RunPointRow, RunRow } from '../../db/schema';
import type { RunViewRow } from '../../repositories/run.repository';
import {
  withPercentilesInRange,
  type ApiResult,
  type ErrorsByKind,
  type Phrase,
  type ResultSummary,
  type RunAgent,
  type StoredStatus,
} from '@aqa/plan';
import type { RunAbortColumns, RunAnnotations, RunConfig, RunPoint, RunRecord, RunState } from './run-model';

/** The JSON columns of a run row, parsed. Every row was written by this server, so they parse. */
export function rowToRecord(row: RunRow): RunRecord {
  return {
    ...rowToState(row),
    config: JSON.parse(row.config) as RunConfig,
    histogram: row.histogram === null ? null : (JSON.parse(row.histogram) as EncodedHistogram),
  };
}

/** A run row without its configuration and histogram (what lists read), parsed. */
export function rowToState(row: Omit<RunRow, 'config' | 'histogram'>): RunState {
  return {
    id: row.id,
    user_id: row.user_id,
    workspace_id: row.workspace_id,
    plan_id: row.plan_id,
    plan_name: row.plan_name,
    status: row.status as StoredStatus,
    tool: row.tool,
    engine: row.engine,
    engine_note: row.engine_note,
    concurrent_users: row.concurrent_users,
    duration_seconds: row.duration_seconds,
    started_at: row.started_at,
    ended_at: row.ended_at,
    error: row.error,
    error_phrase: row.error_phrase === null ? null : (JSON.parse(row.error_phrase) as Phrase),
    error_details: row.error_details,
    // A run stored before percentiles were held within min and max reads as one stored since
    // (docs/adr/0006-hdr-histograms-merge-exactly.md "Percentiles within min and max").
    summary: row.summary === null ? null : withPercentilesInRange(JSON.parse(row.summary) as ResultSummary),
    api_results: row.api_results === null ? [] : (JSON.parse(row.api_results) as ApiResult[]),
    errors: row.errors === null ? {} : (JSON.parse(row.errors) as ErrorsByKind),
    agents: row.agents === null ? [] : (JSON.parse(row.agents) as RunAgent[]),
    ...(row.abort === null ? {} : (JSON.parse(row.abort) as RunAbortColumns)),
  };
}

export function annotationsOf(row: RunViewRow): RunAnnotations {
  return { test_name: row.test_name, notes: row.notes, is_baseline: row.plan_baseline_run_id === row.id };
}

/** The row a run starts with: its configuration, no result yet. */
export function newRunRow(record: RunRecord): NewRunRow {
  return {
    id: record.id,
    user_id: record.user_id,
    workspace_id: record.workspace_id,
    plan_id: record.plan_id,
    plan_name: record.plan_name,
    status: record.status,
    tool: record.tool,
    kind: 'load',
    engine: record.engine,
    engine_note: record.engine_note,
    config: JSON.stringify(record.config),
    concurrent_users: record.concurrent_users,
    duration_seconds: record.duration_seconds,
    started_at: record.started_at,
    ended_at: null,
    error: null,
    error_phrase: null,
    error_details: null,
    summary: null,
    api_results: null,
    errors: null,
    histogram: null,
    total_requests: null,
    error_rate: null,
    requests_per_second: null,
    average_response_time: null,
    percentile_95: null,
    agents: record.agents === undefined || record.agents.length === 0 ? null : JSON.stringify(record.agents),
    abort: null,
  };
}

export function rowToPoint(row: RunPointRow): RunPoint {
  return { step_index: row.step_index, second: row.second, data: JSON.parse(row.data) as RunPoint['data'] };
}
