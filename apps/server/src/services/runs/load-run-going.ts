import type { ApiResultRow, RunResult, RunSummary } from '@aqa/engine';
import { flowSummaryRow, reasonColumns, ToolRunError } from '@aqa/engine';
import type { ApiResult, ResultSummary } from '@aqa/plan';
import { abortSaid, withPercentilesInRange } from '@aqa/plan';
import type { FastifyBaseLogger } from 'fastify';
import type { LiveRelay } from '../../cluster/live-relay';
import { RelayOutput } from '../../cluster/relay-output';
import type { RunRepository } from '../../repositories/run.repository';
import type { GoingRun, ViewShare } from '../lifecycle/run-lifecycle';
import { DatabaseOutput } from './database-output';
import type { LiveRun } from './live-run';
import { endingColumns, type LoadRunEnded } from './load-run-store';
import type { RunEnding, RunOutput } from './run-output';

/**
 * A load run going: fed each second to its outputs (the database, its live stream, and the other
 * replicas through Redis) until it ends; its followers learn it ended once its ending is stored.
 */
export function goingLoadRun(
  live: LiveRun,
  runs: RunRepository,
  /** The other replicas' relay (docs/adr/0020-server-replicas.md); null without Redis. */
  relay: LiveRelay | null,
  /** The run's view the lifecycle shares with the other replicas: refreshed each second measured. */
  view: ViewShare,
  log: FastifyBaseLogger,
): GoingRun<LoadRunEnded, LiveRun> {
  const database = new DatabaseOutput(live.id, runs, log);
  const followers: RunOutput[] = [
    live.stream,
    ...(relay === null ? [] : [new RelayOutput(live, relay, view)]),
  ];
  const ending = drive(live, [database, ...followers], database, log);
  return {
    entry: live,
    ended: ending.then((end) => ({
      userId: live.userId,
      workspaceId: live.workspaceId,
      columns: endingColumns(end),
      record: live.toRecord(),
    })),
    afterStored: async () => {
      const end = await ending;
      for (const output of followers) {
        try {
          await output.stop(end);
        } catch (err) {
          log.error({ err, output: output.description }, 'A run output could not finish');
        }
      }
      log.info({ status: end.status, total_requests: end.summary?.total_requests ?? 0 }, 'Run ended');
    },
    settled: () => live.markStored(),
  };
}

/**
 * Feeds the outputs each second until the run ends, then answers its ending once the database has
 * written every second (the ending, the run's last write, is the lifecycle's). Never rejects.
 */
async function drive(
  run: LiveRun,
  outputs: RunOutput[],
  database: DatabaseOutput,
  log: FastifyBaseLogger,
): Promise<RunEnding> {
  let result: RunResult | undefined;
  let failure: unknown;
  try {
    for await (const snapshot of run.handle.snapshots) {
      run.add(snapshot);
      for (const output of outputs) {
        try {
          output.addSnapshot(snapshot);
        } catch (err) {
          log.error({ err, output: output.description }, 'A run output failed');
        }
      }
    }
    run.markProcessing();
    result = await run.handle.result;
  } catch (err) {
    failure = err;
    log.error({ err }, 'The run failed');
  }
  const ending = result === undefined ? failedEnding(run, failure) : finalEnding(run, result);
  run.finish(ending);
  try {
    await database.stop();
  } catch (err) {
    log.error({ err, output: database.description }, 'A run output could not finish');
  }
  return ending;
}

/** The summary stored and shown: its percentiles within its min and max (docs/adr/0006-hdr-histograms-merge-exactly.md). */
function summaryOf(
  s: RunSummary,
  iterations: RunResult['iterations'],
  flows: RunResult['flows'],
  exhausted: RunResult['data_exhausted'] = [],
): ResultSummary {
  return withPercentilesInRange({
    concurrent_users: s.concurrent_users,
    requests_per_second: s.requests_per_second,
    average_response_time: s.average_response_time,
    error_rate: s.error_rate,
    total_requests: s.total_requests,
    successful_requests: s.successful_requests,
    failed_requests: s.failed_requests,
    percentile_50: s.percentile_50,
    percentile_90: s.percentile_90,
    percentile_95: s.percentile_95,
    percentile_99: s.percentile_99,
    percentile_999: s.percentile_999,
    min_response_time: s.min_response_time,
    max_response_time: s.max_response_time,
    avg_bandwidth: s.avg_bandwidth,
    test_duration: s.test_duration,
    // An open-model profile's iterations (docs/adr/0027-load-profiles.md); absent for any other run.
    ...(iterations === undefined
      ? {}
      : {
          iterations_started: iterations.started,
          iterations_dropped: iterations.dropped,
          // Their schedule lag, merged exactly from every worker's and agent's histogram (docs/adr/0006).
          schedule_lag: iterations.schedule_lag,
        }),
    // Test data that ran out (docs/adr/0027-load-profiles.md "Test data"); absent when none did.
    ...(exhausted.length === 0 ? {} : { data_exhausted: exhausted.map((e) => e.message) }),
    // A plan with flows: each flow's iterations (docs/adr/0027-load-profiles.md "Flows").
    // With each flow's requests and latency, merged by the engine: what a threshold scoped to the flow
    // is judged on at the end (docs/adr/0027-load-profiles.md "Abort criteria").
    ...(flows === undefined ? {} : { flows: flows.map(flowSummaryRow) }),
  });
}

function apiResultOf(row: ApiResultRow): ApiResult {
  return {
    name: row.name,
    label: row.label,
    url: row.url,
    method: row.method,
    total_requests: row.total_requests,
    successful_requests: row.successful_requests,
    failed_requests: row.failed_requests,
    average_response_time: row.average_response_time,
    percentile_95: row.percentile_95,
    percentile_99: row.percentile_99,
    error_rate: row.error_rate,
    errors_by_kind: row.errors,
  };
}

function finalEnding(run: LiveRun, result: RunResult): RunEnding {
  // A run whose workers were terminated at the hard bound did not send the load planned: failed, with
  // what was measured and why (docs/adr/0022-linear-time-patterns.md).
  const status =
    result.cut_short !== undefined ? 'failed' : result.status === 'stopped' ? 'stopped' : 'completed';
  return {
    status,
    started_at: result.started_at,
    ended_at: result.ended_at,
    // A run cut short says so in the engine's words, without a phrase (docs/adr/0025-phrases.md); one an
    // abort threshold stopped, in the abort's words (docs/adr/0027-load-profiles.md, "Abort criteria").
    ...reasonColumns(
      result.cut_short ??
        (status === 'stopped'
          ? result.aborted === undefined
            ? run.stopReason
            : abortSaid(result.aborted)
          : null),
    ),
    error_details: null,
    summary: summaryOf(result.summary, result.iterations, result.flows, result.data_exhausted),
    api_results: result.api_results.map(apiResultOf),
    errors: result.errors,
    histogram: result.histogram,
    ...agentsOf(run),
    ...(result.aborted === undefined ? {} : { aborted: result.aborted }),
    ...(result.breaking_point === undefined ? {} : { breaking_point: result.breaking_point }),
  };
}

/** A runner that failed still measured something: keep it, with the reason. */
function failedEnding(run: LiveRun, failure: unknown): RunEnding {
  const live = run.toRecord();
  return {
    status: 'failed',
    started_at: new Date(run.startedAtMs).toISOString(),
    ended_at: new Date().toISOString(),
    error: failure instanceof Error ? failure.message : String(failure),
    // A tool's own output stays out of the sentence above, for the result screen's Details.
    error_details: failure instanceof ToolRunError && failure.details !== '' ? failure.details : null,
    summary: live.summary,
    api_results: live.api_results,
    errors: live.errors,
    histogram: run.histogram(),
    ...agentsOf(run),
  };
}

/** A run on load agents ends with each agent's part; a run on the server has none. */
function agentsOf(run: LiveRun): Pick<RunEnding, 'agents'> {
  const agents = run.agents();
  return agents.length === 0 ? {} : { agents };
}
