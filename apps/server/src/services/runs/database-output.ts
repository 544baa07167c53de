import type { RunSnapshot } from '@aqa/engine';
import type { NewRunPointRow, RunUpdate } from '../../db/schema';
import type { RunRepository } from '../../repositories/run.repository';
import type { RunPointData, StepPointData } from './run-model';
import type { RunEnding, RunFigures, RunOutput } from './run-output';

export interface OutputLogger {
  error(obj: object, msg?: string): void;
}

/** A snapshot as run_points rows: the whole run (step -1) and each step, for its second. */
export function pointRows(runId: string, s: RunSnapshot): NewRunPointRow[] {
  const whole: RunPointData = {
    elapsed_s: s.elapsedS,
    active_users: s.activeUsers,
    requests: s.requests,
    successes: s.successes,
    failures: s.failures,
    errors: s.errors,
    requests_per_second: s.requestsPerSecond,
    error_rate: s.errorRate,
    bandwidth_kbs: s.bandwidthKBs,
    bytes_sent: s.bytesSent,
    bytes_received: s.bytesReceived,
    generator_busy: s.generatorBusy,
    latency: s.latency,
  };
  const rows: NewRunPointRow[] = [
    { run_id: runId, step_index: -1, second: s.second, data: JSON.stringify(whole) },
  ];
  for (const step of s.steps) {
    const data: StepPointData = {
      requests: step.requests,
      failures: step.failures,
      errors: step.errors,
      requests_per_second: step.requestsPerSecond,
      error_rate: step.errorRate,
      latency: step.latency,
    };
    rows.push({ run_id: runId, step_index: step.step, second: s.second, data: JSON.stringify(data) });
  }
  return rows;
}

/** The run row's columns that hold its figures (the same for a checkpoint and for the ending). */
export function figureColumns(figures: RunFigures): RunUpdate {
  const summary = figures.summary;
  return {
    summary: summary === null ? null : JSON.stringify(summary),
    api_results: JSON.stringify(figures.api_results),
    errors: JSON.stringify(figures.errors),
    histogram: figures.histogram === null ? null : JSON.stringify(figures.histogram),
    total_requests: summary?.total_requests ?? null,
    error_rate: summary?.error_rate ?? null,
    requests_per_second: summary?.requests_per_second ?? null,
    average_response_time: summary?.average_response_time ?? null,
    percentile_95: summary?.percentile_95 ?? null,
  };
}

/**
 * While a run goes, its figures so far are written to its row every few seconds (a checkpoint), so a
 * server that dies mid-run (SIGKILL, power loss) leaves a run that start-up marks "interrupted" with
 * what it measured up to the last checkpoint — comparable and baselinable as a partial run
 * (docs/reference/02-running.md §4) — instead of one with per-second points and no summary.
 */
export interface RunCheckpoint {
  /** Snapshots (seconds) between two checkpoints. */
  everySnapshots: number;
  /** The figures so far; read when the checkpoint is queued, so it is the state after that second. */
  figures: () => RunFigures;
}

/**
 * Stores the run: each second's points as they arrive (one transaction per second, written one
 * after another so they never overlap), a checkpoint of its figures every few seconds, then the final
 * result on the run's row. Everything goes through one queue, so the final write is always the last.
 */
export class DatabaseOutput implements RunOutput {
  readonly description = 'database';
  private queue: Promise<void> = Promise.resolve();
  private snapshots = 0;

  constructor(
    private readonly runId: string,
    private readonly runs: RunRepository,
    private readonly log: OutputLogger,
    private readonly checkpoint?: RunCheckpoint,
  ) {}

  addSnapshot(snapshot: RunSnapshot): void {
    const rows = pointRows(this.runId, snapshot);
    this.queue = this.queue
      .then(() => this.runs.insertPoints(rows))
      .catch((err: unknown) => {
        // A lost second of the chart is not worth losing the run over.
        this.log.error({ err, second: snapshot.second }, 'Could not store a second of the run');
      });
    this.snapshots++;
    const checkpoint = this.checkpoint;
    if (checkpoint !== undefined && this.snapshots % checkpoint.everySnapshots === 0) {
      const columns = figureColumns(checkpoint.figures());
      this.queue = this.queue
        .then(() => this.runs.update(this.runId, columns))
        .catch((err: unknown) => {
          // The final write still stores the whole result; only a crash before it would miss this.
          this.log.error({ err, second: snapshot.second }, 'Could not store a checkpoint of the run');
        });
    }
  }

  async stop(ending: RunEnding): Promise<void> {
    await this.queue;
    await this.runs.update(this.runId, {
      status: ending.status,
      started_at: ending.started_at,
      ended_at: ending.ended_at,
      error: ending.error,
      error_details: ending.error_details,
      ...figureColumns(ending),
    });
  }
}
