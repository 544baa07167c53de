import {
  ERROR_KINDS,
  Histogram,
  type EncodedHistogram,
  type ErrorKind,
  type IntervalFigures,
  type LatencySummary,
} from '@aqa/engine';

const round3 = (x: number): number => Math.round(x * 1000) / 1000;
const usToMs = (us: number): number => round3(us / 1000);

/**
 * A cumulative latency histogram kept sparse (only the counters that were hit), so a live run costs
 * memory in proportion to distinct latencies seen, not 23,552 counters per step. Merges the
 * engine's per-second histograms exactly.
 */
export class SparseHistogram {
  private readonly counts = new Map<number, number>();
  private sum = 0;
  private min = Infinity;
  private max = 0;

  add(e: EncodedHistogram): void {
    const n = e.i.length;
    if (n === 0) return;
    for (let k = 0; k < n; k++) {
      const index = e.i[k]!;
      this.counts.set(index, (this.counts.get(index) ?? 0) + e.c[k]!);
    }
    this.sum += e.sum;
    if (e.min < this.min) this.min = e.min;
    if (e.max > this.max) this.max = e.max;
  }

  encode(): EncodedHistogram {
    const i = [...this.counts.keys()].sort((a, b) => a - b);
    return {
      i,
      c: i.map((index) => this.counts.get(index)!),
      sum: this.sum,
      min: this.counts.size > 0 ? this.min : 0,
      max: this.max,
    };
  }
}

/** One reusable dense histogram for percentile queries; callers use it synchronously. */
const scratch = new Histogram();

export function latencyOf(encoded: EncodedHistogram): LatencySummary {
  scratch.reset();
  scratch.addEncoded(encoded);
  const h = scratch;
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

/** What a tally reads of one second: a snapshot's figures, or a stored point's (interrupted-run.ts). */
export type TallyInput = Pick<
  IntervalFigures,
  'requests' | 'successes' | 'bytesSent' | 'bytesReceived' | 'errors' | 'histogram'
>;

/** Counters of the run (or of one step) since it started, summed from the per-second snapshots. */
export class Tally {
  requests = 0;
  successes = 0;
  bytesSent = 0;
  bytesReceived = 0;
  readonly errors = new Map<ErrorKind, number>();
  readonly histogram = new SparseHistogram();

  add(f: TallyInput): void {
    this.requests += f.requests;
    this.successes += f.successes;
    this.bytesSent += f.bytesSent;
    this.bytesReceived += f.bytesReceived;
    for (const kind of ERROR_KINDS) {
      const n = f.errors[kind];
      if (n !== undefined && n > 0) this.errors.set(kind, (this.errors.get(kind) ?? 0) + n);
    }
    this.histogram.add(f.histogram);
  }

  get failures(): number {
    return this.requests - this.successes;
  }

  get errorRate(): number {
    return this.requests === 0 ? 0 : Math.round((this.failures / this.requests) * 10000) / 100;
  }

  /** Errors by kind with no sample messages: the per-second snapshots carry counts only. */
  errorsByKind(): Partial<Record<ErrorKind, { count: number; samples: string[] }>> {
    const out: Partial<Record<ErrorKind, { count: number; samples: string[] }>> = {};
    for (const [kind, count] of this.errors) out[kind] = { count, samples: [] };
    return out;
  }
}
