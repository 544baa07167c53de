/**
 * An HDR histogram of latencies in microseconds: values 1 µs .. 1 h at 3 significant digits (every
 * recorded value is kept within 0.1 % of its true value), the same bucket layout as Gil Tene's
 * HdrHistogram, so two histograms merge exactly by adding counts bucket by bucket. Fixed size, no
 * allocation on record, no sampling: memory does not grow with the number of values.
 *
 * Own implementation rather than hdr-histogram-js: this one is plain JS (no wasm start-up, no
 * per-thread wasm memory), records in a few integer operations, and serialises sparsely.
 */

/** Lowest distinguishable value, µs. */
export const LOWEST_US = 1;
/** Highest trackable value, µs (one hour). Larger values are clamped to it. */
export const HIGHEST_US = 3_600_000_000;

const SUB_BUCKET_HALF_COUNT_MAGNITUDE = 10; // 3 significant digits: 2 * 10^3 < 2^11
const SUB_BUCKET_HALF_COUNT = 1 << SUB_BUCKET_HALF_COUNT_MAGNITUDE; // 1024
const SUB_BUCKET_COUNT = SUB_BUCKET_HALF_COUNT * 2; // 2048
const SUB_BUCKET_MASK = SUB_BUCKET_COUNT - 1;
// 32 - unitMagnitude(0) - subBucketHalfCountMagnitude - 1, for Math.clz32 (values fit in 32 bits).
const LEADING_ZERO_COUNT_BASE = 32 - SUB_BUCKET_HALF_COUNT_MAGNITUDE - 1;

function bucketsNeeded(highest: number): number {
  let smallestUntrackable = SUB_BUCKET_COUNT;
  let buckets = 1;
  while (smallestUntrackable <= highest) {
    smallestUntrackable *= 2;
    buckets++;
  }
  return buckets;
}

/** Number of counters in every histogram. */
export const COUNTS_LENGTH = (bucketsNeeded(HIGHEST_US) + 1) * SUB_BUCKET_HALF_COUNT;

/** Index of the counter that holds `valueUs` (an integer in [1, HIGHEST_US]). */
export function countsIndex(valueUs: number): number {
  const bucketIndex = LEADING_ZERO_COUNT_BASE - Math.clz32(valueUs | SUB_BUCKET_MASK);
  const subBucketIndex = valueUs >>> bucketIndex;
  return ((bucketIndex + 1) << SUB_BUCKET_HALF_COUNT_MAGNITUDE) + (subBucketIndex - SUB_BUCKET_HALF_COUNT);
}

/** Lowest value that maps to counter `index`. */
export function valueFromIndex(index: number): number {
  let bucketIndex = (index >> SUB_BUCKET_HALF_COUNT_MAGNITUDE) - 1;
  let subBucketIndex = (index & (SUB_BUCKET_HALF_COUNT - 1)) + SUB_BUCKET_HALF_COUNT;
  if (bucketIndex < 0) {
    subBucketIndex -= SUB_BUCKET_HALF_COUNT;
    bucketIndex = 0;
  }
  return subBucketIndex * 2 ** bucketIndex;
}

/** Highest value that maps to counter `index` (what HdrHistogram reports for a percentile). */
export function highestEquivalentValue(index: number): number {
  const bucketIndex = Math.max(0, (index >> SUB_BUCKET_HALF_COUNT_MAGNITUDE) - 1);
  return valueFromIndex(index) + 2 ** bucketIndex - 1;
}

/** Clamp and round a latency in µs to a recordable integer. */
export function toRecordable(valueUs: number): number {
  if (!(valueUs >= LOWEST_US)) return LOWEST_US;
  if (valueUs > HIGHEST_US) return HIGHEST_US;
  return Math.round(valueUs);
}

/** Sparse wire form: sorted counter indexes and their counts (only non-zero counters). */
export interface EncodedHistogram {
  /** Counter indexes, strictly increasing. */
  i: number[];
  /** Counts, same length as `i`. */
  c: number[];
  /** Exact sum of recorded values, µs. */
  sum: number;
  /** Exact minimum, µs (0 when empty). */
  min: number;
  /** Exact maximum, µs (0 when empty). */
  max: number;
}

export class Histogram {
  /** Float64 so that counts and totals stay exact up to 2^53 after any number of merges. */
  readonly counts = new Float64Array(COUNTS_LENGTH);
  totalCount = 0;
  /** Exact sum of recorded values, µs. */
  sum = 0;
  /** Exact minimum and maximum, µs (the buckets keep 3 digits; these keep the recorded values). */
  min = Infinity;
  max = 0;
  private lowIndex = COUNTS_LENGTH;
  private highIndex = -1;

  /** Records one value in µs. Must not allocate: this is on the request hot path. */
  record(valueUs: number): void {
    const v = toRecordable(valueUs);
    const idx = countsIndex(v);
    this.counts[idx]! += 1;
    this.totalCount++;
    this.sum += v;
    if (v < this.min) this.min = v;
    if (v > this.max) this.max = v;
    if (idx < this.lowIndex) this.lowIndex = idx;
    if (idx > this.highIndex) this.highIndex = idx;
  }

  reset(): void {
    if (this.highIndex >= 0) this.counts.fill(0, this.lowIndex, this.highIndex + 1);
    this.totalCount = 0;
    this.sum = 0;
    this.min = Infinity;
    this.max = 0;
    this.lowIndex = COUNTS_LENGTH;
    this.highIndex = -1;
  }

  /** Adds every count of `other` to this one: the result is exactly the histogram of both value sets. */
  add(other: Histogram): void {
    if (other.totalCount === 0) return;
    for (let i = other.lowIndex; i <= other.highIndex; i++) {
      const c = other.counts[i]!;
      if (c !== 0) this.counts[i]! += c;
    }
    this.absorbStats(other.totalCount, other.sum, other.min, other.max, other.lowIndex, other.highIndex);
  }

  addEncoded(e: EncodedHistogram): void {
    const n = e.i.length;
    if (n === 0) return;
    let total = 0;
    for (let k = 0; k < n; k++) {
      const c = e.c[k]!;
      this.counts[e.i[k]!]! += c;
      total += c;
    }
    this.absorbStats(total, e.sum, e.min, e.max, e.i[0]!, e.i[n - 1]!);
  }

  private absorbStats(total: number, sum: number, min: number, max: number, lo: number, hi: number): void {
    this.totalCount += total;
    this.sum += sum;
    if (min < this.min) this.min = min;
    if (max > this.max) this.max = max;
    if (lo < this.lowIndex) this.lowIndex = lo;
    if (hi > this.highIndex) this.highIndex = hi;
  }

  encode(): EncodedHistogram {
    const i: number[] = [];
    const c: number[] = [];
    for (let k = this.lowIndex; k <= this.highIndex; k++) {
      const n = this.counts[k]!;
      if (n !== 0) {
        i.push(k);
        c.push(n);
      }
    }
    return { i, c, sum: this.sum, min: this.totalCount ? this.min : 0, max: this.max };
  }

  static decode(e: EncodedHistogram): Histogram {
    const h = new Histogram();
    h.addEncoded(e);
    return h;
  }

  /**
   * Value at a percentile (0..100), µs, as HdrHistogram computes it: the highest value equivalent to
   * the bucket holding the ceil(p% × count)-th value, clamped to the exact min/max. 0 when empty.
   */
  valueAtPercentile(percentile: number): number {
    if (this.totalCount === 0) return 0;
    const p = Math.min(Math.max(percentile, 0), 100);
    const target = Math.max(1, Math.ceil((p / 100) * this.totalCount - 1e-9));
    let seen = 0;
    for (let k = this.lowIndex; k <= this.highIndex; k++) {
      seen += this.counts[k]!;
      if (seen >= target) {
        const v = highestEquivalentValue(k);
        return Math.min(Math.max(v, this.min), this.max);
      }
    }
    return this.max;
  }

  /** Mean of the recorded values, µs (exact). */
  mean(): number {
    return this.totalCount === 0 ? 0 : this.sum / this.totalCount;
  }

  /** Count of recorded values ≤ `valueUs`, at bucket resolution. */
  countAtOrBelow(valueUs: number): number {
    if (this.totalCount === 0) return 0;
    const limit = countsIndex(toRecordable(valueUs));
    let seen = 0;
    for (let k = this.lowIndex; k <= Math.min(limit, this.highIndex); k++) seen += this.counts[k]!;
    return seen;
  }
}
