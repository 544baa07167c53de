import { countsIndex, toRecordable, type EncodedHistogram } from '../metrics/histogram';
import { RunAggregator, type StepInfo } from '../metrics/aggregate';
import {
  ERROR_KIND_COUNT,
  ERROR_KINDS,
  MAX_ERROR_SAMPLES,
  type ErrorKind,
  type StepIntervalWire,
} from '../metrics/types';
import type {
  ApiResultRow,
  ErrorTally,
  LatencySummary,
  RunResult,
  RunSnapshot,
  RunSummary,
  SeriesPoint,
} from '../types';
import { flowIterations, type ToolFlows } from './tool-flows';

/** One request as a tool recorded it. */
export interface ToolSample {
  /** Index of the plan step, -1 when the label matched none. */
  step: number;
  label: string;
  /** When the request started, epoch ms. */
  startMs: number;
  /** Response time, ms (fractions kept: recorded in µs). */
  elapsedMs: number;
  ok: boolean;
  /** Why it failed (when !ok). */
  kind?: ErrorKind;
  message?: string;
  bytesSent: number;
  bytesReceived: number;
  /** Users running when the sample ended, when the tool says. */
  activeUsers?: number;
}

const KIND_INDEX = new Map<ErrorKind, number>(ERROR_KINDS.map((k, i) => [k, i]));
const round2 = (x: number): number => Math.round(x * 100) / 100;

/** A histogram of one step in one second: sparse, since most seconds fill few buckets. */
class SparseHistogram {
  private readonly counts = new Map<number, number>();
  sum = 0;
  min = Infinity;
  max = 0;

  record(valueUs: number): void {
    const v = toRecordable(valueUs);
    const i = countsIndex(v);
    this.counts.set(i, (this.counts.get(i) ?? 0) + 1);
    this.sum += v;
    if (v < this.min) this.min = v;
    if (v > this.max) this.max = v;
  }

  encode(): EncodedHistogram {
    const i = [...this.counts.keys()].sort((a, b) => a - b);
    return {
      i,
      c: i.map((k) => this.counts.get(k)!),
      sum: this.sum,
      min: i.length ? this.min : 0,
      max: this.max,
    };
  }
}

class StepBucket {
  requests = 0;
  successes = 0;
  readonly errors = new Array<number>(ERROR_KIND_COUNT).fill(0);
  readonly samples: string[][] = Array.from({ length: ERROR_KIND_COUNT }, () => []);
  bytesSent = 0;
  bytesReceived = 0;
  readonly histogram = new SparseHistogram();

  wire(): StepIntervalWire {
    return {
      requests: this.requests,
      successes: this.successes,
      errors: this.errors,
      samples: this.samples,
      bytesSent: this.bytesSent,
      bytesReceived: this.bytesReceived,
      histogram: this.histogram.encode(),
    };
  }
}

class Bucket {
  readonly steps: StepBucket[];
  activeUsers: number | undefined;
  runBytesSent = 0;
  runBytesReceived = 0;
  constructor(steps: number) {
    this.steps = Array.from({ length: steps }, () => new StepBucket());
  }
}

export interface SampleAggregatorOptions {
  /** Users the run was configured with (activeUsers when the tool does not say). */
  users: number;
  /** Seconds of load the run was configured for: wall-clock ticks emit empty seconds only up to it. */
  durationS?: number;
  /** Wait this long after a second ends before emitting it by the wall clock. Default 600 ms. */
  settleMs?: number;
  /**
   * The tool records whole milliseconds (JMeter, Taurus): percentiles, min and max are reported in
   * whole ms, i.e. the recorded values themselves (the HDR bucket of a value holds it within 0.1 %).
   * Averages keep their decimals.
   */
  wholeMilliseconds?: boolean;
  /**
   * A plan with flows whose iterations the run can count (tool-flows.ts): each second carries them,
   * and the result has a row per flow, merged from its calls' histograms as the built-in engine's.
   */
  flows?: ToolFlows | undefined;
  /**
   * Active users until the tool first reports them; default `users`. A run following a load profile
   * gives the profile's start: its seconds before the first sample are counted from the tool's start.
   */
  initialActiveUsers?: number;
}

/** Latency figures at whole milliseconds (all but the average). */
function wholeMs(l: LatencySummary): void {
  l.p50 = Math.round(l.p50);
  l.p90 = Math.round(l.p90);
  l.p95 = Math.round(l.p95);
  l.p99 = Math.round(l.p99);
  l.p999 = Math.round(l.p999);
  l.min = Math.round(l.min);
  l.max = Math.round(l.max);
}

/** The parts of a RunResult that samples determine. */
export interface SampleResultParts {
  started_at: string;
  ended_at: string;
  summary: RunSummary;
  api_results: ApiResultRow[];
  errors: Partial<Record<ErrorKind, ErrorTally>>;
  series: SeriesPoint[];
  histogram: EncodedHistogram;
  workers: number;
  unmatched: Record<string, number>;
  /** Plans with flows whose iterations were counted (SampleAggregatorOptions.flows). */
  flows?: RunResult['flows'];
}

/**
 * Turns a tool's raw samples (one per request) into the engine's per-second snapshots and result,
 * through the engine's own RunAggregator, so every figure is computed exactly as for a built-in run
 * (HDR histograms of every response time, per step and for the run).
 *
 * Seconds are counted from the start of the first request. A sample belongs to the second in which
 * its response ended; a sample that arrives after its second was emitted goes into the next one, so
 * no sample is ever lost from the totals. `tick(now)` emits the seconds that have ended (plus
 * `settleMs` for the tool to write them); `finish()` emits the rest.
 */
export class SampleAggregator {
  private readonly aggregator: RunAggregator;
  private readonly buckets = new Map<number, Bucket>();
  private readonly settleMs: number;
  private origin: number | undefined;
  private next = 0;
  private lastDataBucket = -1;
  private minStart = Infinity;
  private maxEnd = -Infinity;
  private activeUsers: number;
  private cumRunSent = 0;
  private cumRunReceived = 0;
  private hasRunBytes = false;
  readonly unmatched: Record<string, number> = {};

  constructor(
    private readonly stepInfo: StepInfo[],
    private readonly emit: (s: RunSnapshot) => void,
    private readonly options: SampleAggregatorOptions,
  ) {
    this.settleMs = options.settleMs ?? 600;
    this.activeUsers = options.initialActiveUsers ?? options.users;
    this.aggregator = new RunAggregator(stepInfo, 1, (s) => this.forward(s), {
      flows: options.flows?.flows ?? [],
    });
  }

  /** Fixes second 1's start (epoch ms); otherwise the first sample's start is used. */
  setOrigin(epochMs: number): void {
    if (this.origin === undefined) this.origin = epochMs;
  }

  get started(): boolean {
    return this.origin !== undefined;
  }

  /** Samples recorded (matched to a step). */
  count = 0;

  add(s: ToolSample): void {
    const end = s.startMs + Math.max(0, s.elapsedMs);
    if (s.step < 0 || s.step >= this.stepInfo.length) {
      this.unmatched[s.label] = (this.unmatched[s.label] ?? 0) + 1;
      return;
    }
    this.setOrigin(s.startMs);
    this.count++;
    if (s.startMs < this.minStart) this.minStart = s.startMs;
    if (end > this.maxEnd) this.maxEnd = end;
    const bucket = this.bucketFor(end);
    if (s.activeUsers !== undefined) bucket.activeUsers = s.activeUsers;
    const b = bucket.steps[s.step]!;
    b.requests++;
    if (s.ok) b.successes++;
    else {
      const k = KIND_INDEX.get(s.kind ?? 'other') ?? KIND_INDEX.get('other')!;
      b.errors[k]!++;
      const msg = s.message?.trim();
      const list = b.samples[k]!;
      if (msg && list.length < MAX_ERROR_SAMPLES && !list.includes(msg)) list.push(msg.slice(0, 500));
    }
    b.bytesSent += s.bytesSent;
    b.bytesReceived += s.bytesReceived;
    b.histogram.record(s.elapsedMs * 1000);
  }

  /** Bytes the tool reports only for the whole run (k6's data_sent / data_received), at `timeMs`. */
  addRunBytes(timeMs: number, sent: number, received: number): void {
    this.hasRunBytes = true;
    const bucket = this.bucketFor(timeMs);
    bucket.runBytesSent += sent;
    bucket.runBytesReceived += received;
  }

  /** Users running at `timeMs`, when the tool reports them apart from samples (k6's vus). */
  setActiveUsers(timeMs: number, users: number): void {
    if (this.origin === undefined) {
      this.activeUsers = users;
      return;
    }
    this.bucketFor(timeMs).activeUsers = users;
  }

  private bucketFor(timeMs: number): Bucket {
    const origin = this.origin ?? timeMs;
    const k = Math.max(this.next, Math.floor((timeMs - origin) / 1000));
    if (k > this.lastDataBucket) this.lastDataBucket = k;
    let b = this.buckets.get(k);
    if (!b) {
      b = new Bucket(this.stepInfo.length);
      this.buckets.set(k, b);
    }
    return b;
  }

  /** Emits every second that ended before `nowMs − settleMs` (seconds after the run's duration only if they hold data). */
  tick(nowMs: number): void {
    if (this.origin === undefined) return;
    const limit = this.options.durationS !== undefined ? Math.ceil(this.options.durationS) : Infinity;
    while (nowMs >= this.origin + (this.next + 1) * 1000 + this.settleMs) {
      if (this.next >= limit && !this.buckets.has(this.next)) break;
      this.emitBucket(this.next, false);
    }
  }

  /** Emits every remaining second; the last one ends at the last response. */
  finish(): void {
    if (this.origin === undefined) return;
    while (this.next <= this.lastDataBucket) this.emitBucket(this.next, this.next === this.lastDataBucket);
  }

  private emitBucket(k: number, final: boolean): void {
    const b = this.buckets.get(k) ?? new Bucket(this.stepInfo.length);
    this.buckets.delete(k);
    this.next = k + 1;
    if (b.activeUsers !== undefined) this.activeUsers = b.activeUsers;
    let endMs = (k + 1) * 1000;
    if (final && this.maxEnd > -Infinity) {
      const lastEnd = this.maxEnd - this.origin!;
      if (lastEnd > k * 1000 && lastEnd < endMs) endMs = lastEnd;
    }
    this.pendingRunBytes = { sent: b.runBytesSent, received: b.runBytesReceived };
    this.aggregator.add({
      shard: 0,
      interval: k,
      final,
      endMs,
      activeUsers: this.activeUsers,
      busy: 0,
      steps: b.steps.map((s) => s.wire()),
      ...(this.options.flows === undefined
        ? {}
        : { flows: flowIterations(this.options.flows, (step) => b.steps[step]?.requests ?? 0) }),
    });
  }

  private pendingRunBytes = { sent: 0, received: 0 };

  /** Adds run-level bytes (k6) to the snapshot the aggregator made, then passes it on. */
  private forward(s: RunSnapshot): void {
    if (this.options.wholeMilliseconds) {
      wholeMs(s.latency);
      for (const st of s.steps) wholeMs(st.latency);
      const point = this.aggregator.series[this.aggregator.series.length - 1];
      if (point && point.second === s.second) {
        point.latency = s.latency;
        point.steps.forEach((st, i) => (st.latency = s.steps[i]!.latency));
      }
    }
    if (this.hasRunBytes) {
      const { sent, received } = this.pendingRunBytes;
      this.cumRunSent += sent;
      this.cumRunReceived += received;
      s.bytesSent += sent;
      s.bytesReceived += received;
      s.bandwidthKBs = round2(s.bytesReceived / 1024 / Math.max(s.intervalS, 1));
      s.totals.bytesSent += this.cumRunSent;
      s.totals.bytesReceived += this.cumRunReceived;
      const point = this.aggregator.series[this.aggregator.series.length - 1];
      if (point && point.second === s.second) point.bandwidthKBs = s.bandwidthKBs;
    }
    this.emit(s);
  }

  /** The result's figures (call after finish()). */
  result(endedAt: Date = new Date()): SampleResultParts {
    const durationS = this.maxEnd > this.minStart ? (this.maxEnd - this.minStart) / 1000 : 0;
    const { summary, api_results, errors, histogram } = this.aggregator.summary(
      this.options.users,
      durationS,
    );
    if (this.options.wholeMilliseconds) {
      for (const key of [
        'percentile_50',
        'percentile_90',
        'percentile_95',
        'percentile_99',
        'percentile_999',
        'min_response_time',
        'max_response_time',
      ] as const)
        summary[key] = Math.round(summary[key]);
      for (const r of api_results) {
        for (const key of [
          'percentile_50',
          'percentile_95',
          'percentile_99',
          'min_response_time',
          'max_response_time',
        ] as const)
          r[key] = Math.round(r[key]);
      }
    }
    const flows = this.aggregator.flowResults();
    if (flows !== undefined && this.options.wholeMilliseconds) for (const f of flows) wholeMs(f.latency);
    if (this.hasRunBytes) {
      summary.bytes_sent += this.cumRunSent;
      summary.bytes_received += this.cumRunReceived;
      summary.avg_bandwidth = round2(summary.bytes_received / 1024 / (durationS > 0 ? durationS : 1));
    }
    return {
      started_at: new Date(Number.isFinite(this.minStart) ? this.minStart : endedAt.getTime()).toISOString(),
      ended_at: new Date(Number.isFinite(this.maxEnd) ? this.maxEnd : endedAt.getTime()).toISOString(),
      summary,
      api_results,
      errors,
      series: this.aggregator.series,
      histogram: histogram.encode(),
      workers: 1,
      unmatched: { ...this.unmatched },
      ...(flows === undefined ? {} : { flows }),
    };
  }
}
