import type { FlowSnapshot, RunSnapshot } from '@aqa/engine';
import type {
  ApiResult,
  LiveFlowSecond,
  LiveFlowTotals,
  LiveSnapshot,
  ResultSummary,
  RunAgent,
  Said,
} from '@aqa/plan';
import { said } from '@aqa/plan';
import type { LiveEntry, StoppedBy } from '../lifecycle/run-lifecycle';
import { LiveStreamOutput } from './live-stream-output';
import { progressOf, type RunRecord, type StepInfo } from './run-model';
import type { RunEnding } from './run-output';
import { RunTally } from './run-tally';
import type { RunnerHandle } from './runner';

/** The error of a run the server stopped as it shut down. */
export const STOPPED_BY_SHUTDOWN_SAID = said('run.stoppedByShutdown');

/**
 * A load run in progress, in memory: its runner, cumulative figures (whole run and
 * per step, merged exactly from each second's histograms) and its live-stream subscribers. It holds its
 * place in the run lifecycle (docs/run-lifecycle.md) until its final result is stored.
 */
export class LiveRun implements LiveEntry {
  readonly kind = 'load' as const;
  private readonly meta: RunRecord;
  /** Epoch ms when the load started, known from the first snapshot (workers take a moment to start). */
  private loadStartMs: number | null = null;
  private readonly tally: RunTally;
  private ending: RunEnding | null = null;
  private processing = false;
  readonly stream: LiveStreamOutput;
  /** Why the server (not the user) stopped it, stored as the run's error; null for a user's stop. */
  stopReason: Said | null = null;
  private stopping: Promise<void> | null = null;
  private resolveStored!: () => void;
  /** Settles once the final result is stored (or could not be). */
  readonly stored = new Promise<void>((resolve) => (this.resolveStored = resolve));

  constructor(
    record: RunRecord,
    readonly handle: RunnerHandle,
  ) {
    this.meta = record;
    this.tally = new RunTally(record.concurrent_users, record.config.steps);
    this.stream = new LiveStreamOutput((s) => this.snapshotView(s));
  }

  get id(): string {
    return this.meta.id;
  }

  get userId(): string {
    return this.meta.user_id;
  }

  get workspaceId(): string {
    return this.meta.workspace_id;
  }

  /** When the load started, or when the run was accepted while its workers are still starting. */
  get startedAtMs(): number {
    return this.loadStartMs ?? Date.parse(this.meta.started_at);
  }

  get durationSeconds(): number {
    return this.meta.duration_seconds;
  }

  get steps(): StepInfo[] {
    return this.meta.config.steps;
  }

  /** Folds one second into the cumulative figures; called before the outputs see it. */
  add(snapshot: RunSnapshot): void {
    this.loadStartMs ??= Date.now() - snapshot.elapsedS * 1000;
    this.tally.addWhole(snapshot, snapshot.elapsedS);
    if (snapshot.iterations !== undefined)
      this.tally.addIterations(snapshot.iterations, snapshot.droppedIterations ?? 0);
    if (snapshot.flows !== undefined) this.tally.addFlows(snapshot.flows);
    for (const step of snapshot.steps) this.tally.addStep(step.step, step);
  }

  /** The load has ended; the result is being gathered and stored. */
  markProcessing(): void {
    this.processing = true;
  }

  finish(ending: RunEnding): void {
    this.ending = ending;
  }

  markStored(): void {
    this.resolveStored();
  }

  plannedEndMs(): number {
    return this.startedAtMs + this.durationSeconds * 1000;
  }

  /** Stops the runner once, however many callers ask; resolves once the final result is stored. */
  async stop(by: StoppedBy): Promise<void> {
    if (by === 'shutdown') this.stopReason = STOPPED_BY_SHUTDOWN_SAID;
    this.stopping ??= this.handle.stop();
    await this.stopping;
    await this.stored;
  }

  /** The run as a record: final once finish() was called, otherwise live cumulative figures. */
  toRecord(): RunRecord {
    if (this.ending !== null) {
      const { histogram: _histogram, ...ending } = this.ending;
      return { ...this.meta, ...ending, histogram: null };
    }
    return {
      ...this.meta,
      // Elapsed time and progress count from the start of the load: until the first second is
      // measured, the run is starting now.
      started_at: new Date(this.loadStartMs ?? Date.now()).toISOString(),
      status: this.processing ? 'processing' : 'running',
      summary: this.summary(),
      api_results: this.apiResults(),
      errors: this.tally.whole.errorsByKind(),
      histogram: null,
      agents: this.agents(),
    };
  }

  /** The load agents of a run on agents, as they are now (docs/adr/0021-load-agents.md); else empty. */
  agents(): RunAgent[] {
    return this.handle.agents?.() ?? [];
  }

  /** The run's merged histogram so far (the final one once finished). */
  histogram() {
    return this.ending?.histogram ?? this.tally.whole.histogram.encode();
  }

  /** Cumulative figures since the start; null before the first snapshot. */
  summary(): ResultSummary | null {
    return this.tally.summary();
  }

  apiResults(): ApiResult[] {
    return this.tally.apiResults();
  }

  /** The stream's view of a second, the tally having folded it in already (add() runs before the outputs). */
  snapshotView(s: RunSnapshot): LiveSnapshot {
    const flowTotals = this.tally.flowsSoFar();
    return {
      second: s.second,
      elapsed_seconds: s.elapsedS,
      progress: progressOf(s.elapsedS, this.meta.duration_seconds),
      active_users: s.activeUsers,
      requests_per_second: s.requestsPerSecond,
      error_rate: s.errorRate,
      latency: s.latency,
      totals: {
        requests: s.totals.requests,
        successes: s.totals.successes,
        failures: s.totals.failures,
        bytes_received: s.totals.bytesReceived,
        ...(s.totals.iterations === undefined
          ? {}
          : { iterations: s.totals.iterations, dropped_iterations: s.totals.droppedIterations ?? 0 }),
        ...(flowTotals === undefined ? {} : { flows: liveFlowTotals(flowTotals, s.flows) }),
      },
      steps: s.steps.map((step) => {
        const info = this.steps[step.step];
        const t = this.tally.step(step.step);
        return {
          index: step.step,
          name: info?.name ?? step.label,
          method: info?.method ?? '',
          url: info?.url ?? '',
          requests_per_second: step.requestsPerSecond,
          error_rate: step.errorRate,
          latency: { avg: step.latency.avg, p95: step.latency.p95 },
          totals: { requests: t?.requests ?? 0, failures: t?.failures ?? 0 },
        };
      }),
      ...(s.iterations === undefined
        ? {}
        : { iterations: s.iterations, dropped_iterations: s.droppedIterations ?? 0 }),
      ...(s.scheduleLag === undefined
        ? {}
        : { schedule_lag: { avg: s.scheduleLag.avg, p95: s.scheduleLag.p95, p99: s.scheduleLag.p99 } }),
      ...(s.flows === undefined ? {} : { flows: s.flows.map(liveFlowSecond) }),
      agents: this.agents(),
    };
  }
}

/**
 * A flow's second on the stream (docs/adr/0027-load-profiles.md "Flows"): its iterations and, when the
 * built-in engine measured them, its calls' requests, failures and latency in the second.
 */
function liveFlowSecond(f: FlowSnapshot): LiveFlowSecond {
  return {
    name: f.name,
    iterations: f.iterations,
    ...(f.requests === undefined ? {} : { requests: f.requests, failures: f.failures ?? 0 }),
    ...(f.latency === undefined
      ? {}
      : { latency: { avg: f.latency.avg, p95: f.latency.p95, p99: f.latency.p99 } }),
  };
}

/** Each flow's iterations so far, with its calls' requests and failures so far where the engine counts them. */
function liveFlowTotals(
  totals: readonly { name: string; iterations: number }[],
  second: readonly FlowSnapshot[] | undefined,
): LiveFlowTotals[] {
  return totals.map((t, i) => {
    const f = second?.[i];
    return f?.totalRequests === undefined
      ? t
      : { ...t, requests: f.totalRequests, failures: f.totalFailures ?? 0 };
  });
}
