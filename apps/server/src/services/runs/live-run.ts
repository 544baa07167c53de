import type { EncodedHistogram, RunSnapshot } from '@aqa/engine';
import { LiveStreamOutput } from './live-stream-output';
import { latencyOf, Tally } from './live-tally';
import type { ApiResult, LiveSnapshot, ResultSummary } from '@aqa/plan';
import { progressOf, type RunRecord, type StepInfo } from './run-model';
import type { RunEnding, RunFigures } from './run-output';
import type { RunnerHandle } from './runner';

const round2 = (x: number): number => Math.round(x * 100) / 100;
const round3 = (x: number): number => Math.round(x * 1000) / 1000;

/**
 * A run in progress, in memory: its runner, the latest snapshot, cumulative figures (whole run and
 * per step, merged exactly from each second's histograms) and its live-stream subscribers. It leaves
 * the registry once its final result is stored.
 */
export class LiveRun {
  private readonly meta: RunRecord;
  private latest: RunSnapshot | null = null;
  /** Epoch ms when the load started, known from the first snapshot (workers take a moment to start). */
  private loadStartMs: number | null = null;
  private readonly whole = new Tally();
  private readonly stepTallies: Tally[];
  private ending: RunEnding | null = null;
  private processing = false;
  readonly stream: LiveStreamOutput;
  /** Why the server (not the user) stopped it, stored as the run's error; null for a user's stop. */
  stopReason: string | null = null;
  private stopping: Promise<void> | null = null;
  private resolveStored!: () => void;
  /** Settles once the final result is stored (or could not be). */
  readonly stored = new Promise<void>((resolve) => (this.resolveStored = resolve));

  constructor(
    record: RunRecord,
    readonly handle: RunnerHandle,
  ) {
    this.meta = record;
    this.stepTallies = record.config.steps.map(() => new Tally());
    this.stream = new LiveStreamOutput((s) => this.snapshotView(s));
  }

  get id(): string {
    return this.meta.id;
  }

  get userId(): string {
    return this.meta.user_id;
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
    this.latest = snapshot;
    this.whole.add(snapshot);
    for (const step of snapshot.steps) this.stepTallies[step.step]?.add(step);
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

  /** Stops the runner once, however many callers ask; resolves when the runner has ended. */
  stop(): Promise<void> {
    this.stopping ??= this.handle.stop();
    return this.stopping;
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
      errors: this.whole.errorsByKind(),
      histogram: null,
    };
  }

  /** Cumulative figures so far (for the database's checkpoints while the run goes). */
  figures(): RunFigures {
    const histogram = this.whole.histogram.encode();
    return {
      summary: this.summary(histogram),
      api_results: this.apiResults(),
      errors: this.whole.errorsByKind(),
      histogram,
    };
  }

  /** The run's merged histogram so far (the final one once finished). */
  histogram() {
    return this.ending?.histogram ?? this.whole.histogram.encode();
  }

  /**
   * Cumulative figures since the start; null before the first snapshot. `encoded` is the whole run's
   * histogram when the caller has encoded it already.
   */
  summary(encoded: EncodedHistogram = this.whole.histogram.encode()): ResultSummary | null {
    const s = this.latest;
    if (s === null) return null;
    const t = this.whole;
    const seconds = Math.max(s.elapsedS, 0.001);
    const latency = latencyOf(encoded);
    return {
      concurrent_users: this.meta.concurrent_users,
      requests_per_second: round2(t.requests / seconds),
      average_response_time: latency.avg,
      error_rate: t.errorRate,
      total_requests: t.requests,
      successful_requests: t.successes,
      failed_requests: t.failures,
      percentile_50: latency.p50,
      percentile_90: latency.p90,
      percentile_95: latency.p95,
      percentile_99: latency.p99,
      percentile_999: latency.p999,
      min_response_time: latency.min,
      max_response_time: latency.max,
      avg_bandwidth: round2(t.bytesReceived / 1024 / seconds),
      test_duration: round3(s.elapsedS),
    };
  }

  apiResults(): ApiResult[] {
    if (this.latest === null) return [];
    return this.steps.map((step, i) => {
      const t = this.stepTallies[i]!;
      const latency = latencyOf(t.histogram.encode());
      return {
        name: step.name,
        label: step.label,
        url: step.url,
        method: step.method,
        total_requests: t.requests,
        successful_requests: t.successes,
        failed_requests: t.failures,
        average_response_time: latency.avg,
        percentile_95: latency.p95,
        percentile_99: latency.p99,
        error_rate: t.errorRate,
        errors_by_kind: t.errorsByKind(),
      };
    });
  }

  snapshotView(s: RunSnapshot): LiveSnapshot {
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
      },
      steps: s.steps.map((step) => {
        const info = this.steps[step.step];
        const t = this.stepTallies[step.step];
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
    };
  }
}
