import type { EncodedHistogram } from '@aqa/engine';
import type { ApiResult, ResultSummary } from '@aqa/plan';
import { latencyOf, Tally, type TallyInput } from './live-tally';
import type { StepInfo } from './run-model';
import type { RunFigures } from './run-output';

const round2 = (x: number): number => Math.round(x * 100) / 100;
const round3 = (x: number): number => Math.round(x * 1000) / 1000;

/**
 * A run's cumulative figures, whole run and per step, merged exactly from its seconds' histograms.
 * A live run feeds it each snapshot; an interrupted one is rebuilt by feeding it its stored points
 * (interrupted-run.ts), so both give the same figures for the same seconds.
 */
export class RunTally {
  readonly whole = new Tally();
  private readonly steps: Tally[];
  /** End of the last second added, seconds since the load started; null before the first. */
  elapsedS: number | null = null;
  /** Open-model load profile only: iterations started and dropped so far (docs/adr/0027-load-profiles.md). */
  private iterations: { started: number; dropped: number } | undefined;
  /** Plans with flows only: iterations per flow so far, in the plan's order (docs/adr/0027-load-profiles.md "Flows"). */
  private flows: { name: string; iterations: number }[] | undefined;

  constructor(
    private readonly concurrentUsers: number,
    private readonly stepInfos: readonly StepInfo[],
  ) {
    this.steps = stepInfos.map(() => new Tally());
  }

  /** One second of the whole run, ending `elapsedS` after the start. */
  addWhole(figures: TallyInput, elapsedS: number): void {
    this.whole.add(figures);
    this.elapsedS = elapsedS;
  }

  /** One second's open-model iterations, started and dropped (runs without a profile have none). */
  addIterations(started: number, dropped: number): void {
    this.iterations ??= { started: 0, dropped: 0 };
    this.iterations.started += started;
    this.iterations.dropped += dropped;
  }

  /** One second's iterations per flow (plans without flows have none). */
  addFlows(flows: readonly { name: string; iterations: number }[]): void {
    this.flows ??= flows.map((f) => ({ name: f.name, iterations: 0 }));
    flows.forEach((f, i) => {
      const kept = this.flows?.[i];
      if (kept !== undefined) kept.iterations += f.iterations;
    });
  }

  /** The iterations per flow so far (a copy); undefined for a plan without flows. */
  flowsSoFar(): { name: string; iterations: number }[] | undefined {
    return this.flows?.map((f) => ({ ...f }));
  }

  /** One second of the step at `index` in the plan's urls (an unknown index is ignored). */
  addStep(index: number, figures: TallyInput): void {
    this.steps[index]?.add(figures);
  }

  step(index: number): Tally | undefined {
    return this.steps[index];
  }

  /** The cumulative figures as a run's row stores them. */
  figures(): RunFigures {
    const histogram = this.whole.histogram.encode();
    return {
      summary: this.summary(histogram),
      api_results: this.apiResults(),
      errors: this.whole.errorsByKind(),
      histogram,
    };
  }

  /** Null before the first second; `encoded` is the whole run's histogram when the caller has it. */
  summary(encoded: EncodedHistogram = this.whole.histogram.encode()): ResultSummary | null {
    if (this.elapsedS === null) return null;
    const t = this.whole;
    const seconds = Math.max(this.elapsedS, 0.001);
    const latency = latencyOf(encoded);
    return {
      concurrent_users: this.concurrentUsers,
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
      test_duration: round3(this.elapsedS),
      ...(this.iterations === undefined
        ? {}
        : { iterations_started: this.iterations.started, iterations_dropped: this.iterations.dropped }),
      ...(this.flows === undefined ? {} : { flows: this.flowsSoFar() }),
    };
  }

  apiResults(): ApiResult[] {
    if (this.elapsedS === null) return [];
    return this.stepInfos.map((step, i) => {
      const t = this.steps[i]!;
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
}
