import { Histogram } from './histogram';
import {
  ERROR_KINDS,
  ERROR_KIND_COUNT,
  MAX_ERROR_SAMPLES,
  type ShardIntervalWire,
  type StepIntervalWire,
} from './types';
import type {
  ApiResultRow,
  ErrorCounts,
  FlowResultRow,
  FlowSnapshot,
  ErrorTally,
  IntervalFigures,
  LatencySummary,
  RunResult,
  RunSnapshot,
  RunSummary,
  SeriesPoint,
} from '../types';
import type { ErrorKind } from './types';
import { dataExhausted, type DataMerge } from '../executor/test-data';

const round3 = (x: number): number => Math.round(x * 1000) / 1000;
const round2 = (x: number): number => Math.round(x * 100) / 100;
const usToMs = (us: number): number => round3(us / 1000);

export function latencySummary(h: Histogram): LatencySummary {
  return {
    avg: usToMs(h.mean()),
    p50: usToMs(h.valueAtPercentile(50)),
    p90: usToMs(h.valueAtPercentile(90)),
    p95: usToMs(h.valueAtPercentile(95)),
    p99: usToMs(h.valueAtPercentile(99)),
    p999: usToMs(h.valueAtPercentile(99.9)),
    min: h.totalCount ? usToMs(h.min) : 0,
    max: usToMs(h.max),
  };
}

/** Counters of one step (or of the run) merged over shards, for an interval or cumulatively. */
class Tally {
  readonly histogram = new Histogram();
  requests = 0;
  successes = 0;
  readonly errors = new Array<number>(ERROR_KIND_COUNT).fill(0);
  readonly samples: string[][] = Array.from({ length: ERROR_KIND_COUNT }, () => []);
  bytesSent = 0;
  bytesReceived = 0;

  addWire(w: StepIntervalWire): void {
    this.requests += w.requests;
    this.successes += w.successes;
    for (let k = 0; k < ERROR_KIND_COUNT; k++) {
      this.errors[k]! += w.errors[k] ?? 0;
      this.addSamples(k, w.samples[k] ?? []);
    }
    this.bytesSent += w.bytesSent;
    this.bytesReceived += w.bytesReceived;
    this.histogram.addEncoded(w.histogram);
  }

  addTally(t: Tally): void {
    this.requests += t.requests;
    this.successes += t.successes;
    for (let k = 0; k < ERROR_KIND_COUNT; k++) {
      this.errors[k]! += t.errors[k]!;
      this.addSamples(k, t.samples[k]!);
    }
    this.bytesSent += t.bytesSent;
    this.bytesReceived += t.bytesReceived;
    this.histogram.add(t.histogram);
  }

  private addSamples(k: number, msgs: string[]): void {
    const mine = this.samples[k]!;
    for (const m of msgs) {
      if (mine.length >= MAX_ERROR_SAMPLES) return;
      if (!mine.includes(m)) mine.push(m);
    }
  }

  get failures(): number {
    return this.requests - this.successes;
  }

  errorCounts(): ErrorCounts {
    const out: ErrorCounts = {};
    for (let k = 0; k < ERROR_KIND_COUNT; k++)
      if (this.errors[k]! > 0) out[ERROR_KINDS[k]!] = this.errors[k]!;
    return out;
  }

  errorTallies(): Partial<Record<ErrorKind, ErrorTally>> {
    const out: Partial<Record<ErrorKind, ErrorTally>> = {};
    for (let k = 0; k < ERROR_KIND_COUNT; k++) {
      if (this.errors[k]! > 0)
        out[ERROR_KINDS[k]!] = { count: this.errors[k]!, samples: [...this.samples[k]!] };
    }
    return out;
  }

  /** Rates are per second over `seconds`, never less than 1 s, so a run's short tail does not read as a spike. */
  figures(seconds: number): IntervalFigures {
    const s = Math.max(seconds, 1);
    return {
      requests: this.requests,
      successes: this.successes,
      failures: this.failures,
      errors: this.errorCounts(),
      bytesSent: this.bytesSent,
      bytesReceived: this.bytesReceived,
      requestsPerSecond: round2(this.requests / s),
      errorRate: this.requests ? round2((this.failures / this.requests) * 100) : 0,
      bandwidthKBs: round2(this.bytesReceived / 1024 / s),
      latency: latencySummary(this.histogram),
      histogram: this.histogram.encode(),
    };
  }
}

/** A flow as the result names it: its steps by index, for the per-flow figures. */
export interface FlowInfo {
  name: string;
  weight: number;
  steps: number[];
}

export interface StepInfo {
  name: string;
  label: string;
  url: string;
  method: string;
}

interface Pending {
  steps: Tally[];
  /** Highest event-loop utilisation of any shard in the interval. */
  busy: number;
  activeUsers: number;
  endMs: number;
  reported: Set<number>;
  /** Open-model iterations started and dropped (undefined: no shard counts them). */
  iterations?: IterationCounts;
  /** Open model: the started iterations' schedule lag (µs). */
  lag?: Histogram;
  /** Plans with flows: iterations begun per flow. */
  flows?: number[];
}

/**
 * Open-model iterations of a load profile (docs/adr/0027-load-profiles.md, "The schedule"), added up
 * like requests.
 */
interface IterationCounts {
  started: number;
  dropped: number;
}

/** What a run merges beside its steps: its flows and its test data (docs/adr/0027-load-profiles.md). */
export interface RunAggregatorOptions {
  /** The plan's flows ("Flows"); absent or empty for a plan without flows. */
  flows?: readonly FlowInfo[];
  /**
   * The plan's data sources ("Test data"), for the users (open model: iterations) each ended for want
   * of a row, which the shards report as `dataEnded`; absent for a plan without data.
   */
  data?: DataMerge | undefined;
}

/**
 * Merges the shards' per-interval reports into one stream of per-second snapshots and keeps the
 * cumulative per-step histograms for the final summary. Runs on the caller's thread; its work is
 * proportional to the number of non-empty histogram buckets, never to the number of requests.
 */
export class RunAggregator {
  private readonly pending = new Map<number, Pending>();
  private readonly lastInterval: number[];
  private readonly finished: boolean[];
  private readonly activeByShard: number[];
  private readonly abandoned = new Set<number>();
  private nextToEmit = 0;
  readonly cumulative: Tally[];
  readonly series: SeriesPoint[] = [];
  private lastEmittedEndMs = 0;
  private endMs = 0;
  /** Open-model iterations over the run; undefined until a shard reports them. */
  private iterations: IterationCounts | undefined;
  private readonly lag = new Histogram();
  /** Plans with flows: iterations begun per flow over the run, indexed like `flows`. */
  private readonly flowIterations: number[];
  private readonly flows: readonly FlowInfo[];
  private readonly data: RunAggregatorOptions['data'];
  /** Plans with data: by source, the users (or iterations) that found no row, over the run. */
  private readonly dataEnded: number[];

  constructor(
    private readonly stepInfo: StepInfo[],
    shards: number,
    private readonly emit: (s: RunSnapshot) => void,
    options: RunAggregatorOptions = {},
  ) {
    this.lastInterval = new Array<number>(shards).fill(-1);
    this.finished = new Array<boolean>(shards).fill(false);
    this.activeByShard = new Array<number>(shards).fill(0);
    this.cumulative = stepInfo.map(() => new Tally());
    this.flows = options.flows ?? [];
    this.flowIterations = this.flows.map(() => 0);
    this.data = options.data;
    this.dataEnded = new Array<number>(options.data?.count ?? 0).fill(0);
  }

  add(w: ShardIntervalWire): void {
    // A shard given up for lost: what it still sends would change intervals already emitted.
    if (this.abandoned.has(w.shard)) return;
    let p = this.pending.get(w.interval);
    if (!p) {
      p = {
        steps: this.stepInfo.map(() => new Tally()),
        busy: 0,
        activeUsers: 0,
        endMs: 0,
        reported: new Set(),
      };
      this.pending.set(w.interval, p);
    }
    w.steps.forEach((s, i) => {
      p.steps[i]?.addWire(s);
      this.cumulative[i]?.addWire(s);
    });
    if (w.iterations !== undefined || w.dropped !== undefined) {
      const started = w.iterations ?? 0;
      const dropped = w.dropped ?? 0;
      p.iterations ??= { started: 0, dropped: 0 };
      p.iterations.started += started;
      p.iterations.dropped += dropped;
      this.iterations ??= { started: 0, dropped: 0 };
      this.iterations.started += started;
      this.iterations.dropped += dropped;
      if (w.lag !== undefined) {
        (p.lag ??= new Histogram()).addEncoded(w.lag);
        this.lag.addEncoded(w.lag);
      }
    }
    if (w.flows !== undefined && this.flows.length > 0) {
      const perFlow = (p.flows ??= this.flows.map(() => 0));
      for (let f = 0; f < this.flows.length; f++) {
        const n = w.flows[f] ?? 0;
        perFlow[f]! += n;
        this.flowIterations[f]! += n;
      }
    }
    // By source, as the plan lists them; a report of more sources than the plan has counts for none.
    if (w.dataEnded !== undefined)
      for (let k = 0; k < this.dataEnded.length; k++) this.dataEnded[k]! += w.dataEnded[k] ?? 0;
    p.reported.add(w.shard);
    p.busy = Math.max(p.busy, w.busy);
    p.endMs = Math.max(p.endMs, w.endMs);
    this.endMs = Math.max(this.endMs, w.endMs);
    this.activeByShard[w.shard] = w.activeUsers;
    this.lastInterval[w.shard] = w.interval;
    if (w.final) this.finished[w.shard] = true;
    this.flush(false);
  }

  /**
   * These shards will never report again (a load agent was lost, docs/adr/0021-load-agents.md): the
   * stream goes on without waiting for them, what they reported stays counted once, and anything they
   * send later is ignored.
   */
  abandonShards(shards: readonly number[]): void {
    for (const shard of shards) {
      if (shard < 0 || shard >= this.finished.length) continue;
      this.abandoned.add(shard);
      this.finished[shard] = true;
      this.activeByShard[shard] = 0;
    }
    this.flush(false);
  }

  /** Emits every interval that all shards have reported (or all of them when `all`). */
  flush(all: boolean): void {
    for (;;) {
      const k = this.nextToEmit;
      const p = this.pending.get(k);
      const complete = this.lastInterval.every((last, shard) => last >= k || this.finished[shard]);
      if (!p) {
        // An interval no shard reported (all finished earlier) ends the stream.
        if (complete && this.pending.size > 0 && [...this.pending.keys()].some((x) => x > k)) {
          this.nextToEmit++;
          continue;
        }
        return;
      }
      if (!complete && !all) return;
      this.pending.delete(k);
      this.nextToEmit++;
      this.emitInterval(k, p);
    }
  }

  private emitInterval(k: number, p: Pending): void {
    const whole = new Tally();
    for (const t of p.steps) whole.addTally(t);
    const endMs = Math.max(p.endMs, this.lastEmittedEndMs);
    const intervalS = Math.max(0.001, (endMs - this.lastEmittedEndMs) / 1000);
    this.lastEmittedEndMs = endMs;
    const activeUsers = this.activeByShard.reduce((a, b) => a + b, 0);
    const figures = whole.figures(intervalS);
    const steps = p.steps.map((t, i) => ({
      step: i,
      label: this.stepInfo[i]!.label,
      ...t.figures(intervalS),
    }));
    const totals = this.totals();
    const iterations =
      p.iterations === undefined
        ? {}
        : {
            iterations: p.iterations.started,
            droppedIterations: p.iterations.dropped,
            scheduleLag: latencySummary(p.lag ?? new Histogram()),
          };
    const flows = this.flows.length === 0 ? {} : { flows: this.flowSeconds(p) };
    const snap: RunSnapshot = {
      ...figures,
      second: k + 1,
      elapsedS: round3(endMs / 1000),
      intervalS: round3(intervalS),
      activeUsers,
      ...iterations,
      ...flows,
      generatorBusy: round2(p.busy),
      steps,
      totals,
    };
    this.series.push({
      second: snap.second,
      elapsedS: snap.elapsedS,
      activeUsers,
      ...iterations,
      generatorBusy: round2(p.busy),
      requests: figures.requests,
      failures: figures.failures,
      requestsPerSecond: figures.requestsPerSecond,
      errorRate: figures.errorRate,
      bandwidthKBs: figures.bandwidthKBs,
      latency: figures.latency,
      steps: steps.map((s) => ({
        step: s.step,
        requests: s.requests,
        failures: s.failures,
        latency: s.latency,
      })),
    });
    this.emit(snap);
  }

  /**
   * Each flow's second (docs/adr/0027-load-profiles.md "Flows"): its iterations, and its calls' requests,
   * failures and latency merged exactly from the second's histograms of those calls, with their
   * requests and failures so far — what the live screen's flow table shows.
   */
  private flowSeconds(p: Pending): FlowSnapshot[] {
    return this.flows.map((f, i) => {
      const second = new Tally();
      let totalRequests = 0;
      let totalSuccesses = 0;
      for (const step of f.steps) {
        const t = p.steps[step];
        if (t !== undefined) second.addTally(t);
        const c = this.cumulative[step];
        if (c !== undefined) {
          totalRequests += c.requests;
          totalSuccesses += c.successes;
        }
      }
      return {
        name: f.name,
        iterations: p.flows?.[i] ?? 0,
        requests: second.requests,
        failures: second.failures,
        latency: latencySummary(second.histogram),
        totalRequests,
        totalFailures: totalRequests - totalSuccesses,
      };
    });
  }

  private totals(): RunSnapshot['totals'] {
    let requests = 0;
    let successes = 0;
    let bytesSent = 0;
    let bytesReceived = 0;
    for (const t of this.cumulative) {
      requests += t.requests;
      successes += t.successes;
      bytesSent += t.bytesSent;
      bytesReceived += t.bytesReceived;
    }
    return {
      requests,
      successes,
      failures: requests - successes,
      bytesSent,
      bytesReceived,
      ...(this.iterations === undefined
        ? {}
        : { iterations: this.iterations.started, droppedIterations: this.iterations.dropped }),
    };
  }

  /**
   * Open model: iterations started and dropped over the run, and the started ones' schedule lag
   * (start − due, ms); undefined when no shard counted iterations.
   */
  iterationSummary(): { started: number; dropped: number; schedule_lag: LatencySummary } | undefined {
    if (this.iterations === undefined) return undefined;
    return { ...this.iterations, schedule_lag: latencySummary(this.lag) };
  }

  /**
   * The figures of a run's result once every shard has ended (the built-in engine's, run.ts, and a run
   * on load agents, merged the same way): over the length the shards measured.
   */
  resultFigures(
    concurrentUsers: number,
  ): Pick<
    RunResult,
    'summary' | 'api_results' | 'errors' | 'series' | 'histogram' | 'iterations' | 'flows' | 'data_exhausted'
  > {
    const { summary, api_results, errors, histogram } = this.summary(concurrentUsers, this.endMs / 1000);
    const iterations = this.iterationSummary();
    const flows = this.flowResults();
    const exhausted =
      this.data === undefined || this.dataEnded.every((n) => n === 0)
        ? []
        : dataExhausted(this.data.sources(), this.dataEnded, this.data.openModel);
    return {
      summary,
      api_results,
      errors,
      series: this.series,
      histogram: histogram.encode(),
      ...(iterations === undefined ? {} : { iterations }),
      ...(flows === undefined ? {} : { flows }),
      ...(exhausted.length === 0 ? {} : { data_exhausted: exhausted }),
    };
  }

  /**
   * Plans with flows (docs/adr/0027-load-profiles.md "3. Flows"): each flow's iterations and share of
   * them, and its requests and latency merged exactly from its steps' histograms; undefined without flows.
   */
  flowResults(): FlowResultRow[] | undefined {
    if (this.flows.length === 0) return undefined;
    const all = this.flowIterations.reduce((a, b) => a + b, 0);
    return this.flows.map((f, i) => {
      const t = new Tally();
      for (const step of f.steps) {
        const c = this.cumulative[step];
        if (c !== undefined) t.addTally(c);
      }
      const iterations = this.flowIterations[i]!;
      return {
        name: f.name,
        weight: f.weight,
        iterations,
        share: all ? round2((iterations / all) * 100) : 0,
        total_requests: t.requests,
        successful_requests: t.successes,
        failed_requests: t.failures,
        error_rate: t.requests ? round2((t.failures / t.requests) * 100) : 0,
        latency: latencySummary(t.histogram),
      };
    });
  }

  /** Run length measured by the shards, ms. */
  get durationMs(): number {
    return this.endMs;
  }

  summary(
    concurrentUsers: number,
    durationS: number,
  ): {
    summary: RunSummary;
    api_results: ApiResultRow[];
    errors: Partial<Record<ErrorKind, ErrorTally>>;
    histogram: Histogram;
  } {
    const whole = new Tally();
    for (const t of this.cumulative) whole.addTally(t);
    const h = whole.histogram;
    const d = durationS > 0 ? durationS : 1;
    const summary: RunSummary = {
      total_requests: whole.requests,
      successful_requests: whole.successes,
      failed_requests: whole.failures,
      requests_per_second: round2(whole.requests / d),
      average_response_time: usToMs(h.mean()),
      percentile_50: usToMs(h.valueAtPercentile(50)),
      percentile_90: usToMs(h.valueAtPercentile(90)),
      percentile_95: usToMs(h.valueAtPercentile(95)),
      percentile_99: usToMs(h.valueAtPercentile(99)),
      percentile_999: usToMs(h.valueAtPercentile(99.9)),
      min_response_time: h.totalCount ? usToMs(h.min) : 0,
      max_response_time: usToMs(h.max),
      avg_bandwidth: round2(whole.bytesReceived / 1024 / d),
      error_rate: whole.requests ? round2((whole.failures / whole.requests) * 100) : 0,
      test_duration: round3(durationS),
      concurrent_users: concurrentUsers,
      bytes_sent: whole.bytesSent,
      bytes_received: whole.bytesReceived,
    };
    const api_results: ApiResultRow[] = this.cumulative.map((t, i) => {
      const info = this.stepInfo[i]!;
      const sh = t.histogram;
      return {
        name: info.name,
        label: info.label,
        url: info.url,
        method: info.method,
        total_requests: t.requests,
        successful_requests: t.successes,
        failed_requests: t.failures,
        average_response_time: usToMs(sh.mean()),
        percentile_50: usToMs(sh.valueAtPercentile(50)),
        percentile_95: usToMs(sh.valueAtPercentile(95)),
        percentile_99: usToMs(sh.valueAtPercentile(99)),
        min_response_time: sh.totalCount ? usToMs(sh.min) : 0,
        max_response_time: usToMs(sh.max),
        error_rate: t.requests ? round2((t.failures / t.requests) * 100) : 0,
        errors: t.errorTallies(),
      };
    });
    return { summary, api_results, errors: whole.errorTallies(), histogram: h };
  }
}
