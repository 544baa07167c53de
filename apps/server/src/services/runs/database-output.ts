import type { RunSnapshot } from '@aqa/engine';
import type { NewRunPointRow, RunUpdate } from '../../db/schema';
import type { RunRepository } from '../../repositories/run.repository';
import { flowSecondOf, type RunPointData, type StepPointData } from './run-model';
import type { RunFigures, RunOutput } from './run-output';
import { WriteQueue } from './write-queue';

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
    histogram: s.histogram,
    ...(s.iterations === undefined
      ? {}
      : { iterations: s.iterations, dropped_iterations: s.droppedIterations ?? 0 }),
    // Each flow's iterations of the second (the chart's lines), and its calls' requests and latency (the CSV report).
    ...(s.flows === undefined ? {} : { flows: s.flows.map(flowSecondOf) }),
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
      histogram: step.histogram,
    };
    rows.push({ run_id: runId, step_index: step.step, second: s.second, data: JSON.stringify(data) });
  }
  return rows;
}

/** The run row's columns that hold its figures (the same for an ending and for a rebuilt interrupted run). */
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
 * Stores the run as it goes: each second's points as they arrive (one transaction per second, written one
 * after another so they never overlap). Its stop drains the queue before the run lifecycle stores the
 * ending on the run's row (load-run-store.ts), so the final write is always the last. The points carry each second's histograms, so a run
 * whose server dies mid-run is rebuilt from them exactly at the next start (interrupted-run.ts); the
 * row also learns when the load really started, from the first second, for that rebuild.
 */
export class DatabaseOutput implements RunOutput {
  readonly description = 'database';
  private readonly queue = new WriteQueue();
  private started = false;

  constructor(
    private readonly runId: string,
    private readonly runs: RunRepository,
    private readonly log: OutputLogger,
  ) {}

  addSnapshot(snapshot: RunSnapshot): void {
    if (!this.started) {
      this.started = true;
      const startedAt = new Date(Date.now() - snapshot.elapsedS * 1000).toISOString();
      this.enqueue(() => this.runs.update(this.runId, { started_at: startedAt }), snapshot.second);
    }
    const rows = pointRows(this.runId, snapshot);
    this.enqueue(() => this.runs.insertPoints(rows), snapshot.second);
  }

  private enqueue(write: () => Promise<void>, second: number): void {
    this.queue.enqueue(write, (err) =>
      this.log.error({ err, second }, 'Could not store a second of the run'),
    );
  }

  /** Finishes the seconds queued; the ending, the run's last write, is the run lifecycle's (LoadRunStore). */
  async stop(): Promise<void> {
    await this.queue.drain();
  }
}
