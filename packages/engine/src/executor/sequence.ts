/**
 * `{{sequence_number,N}}` (the plan's template contract, @aqa/plan template.ts): every VU iteration
 * takes the next run-wide iteration index i (0-based) and every `{{sequence_number,N}}` of that
 * iteration is (i mod N) + 1 — one value per iteration, so a POST and a later GET of the same
 * iteration agree, and the values cycle 1..N.
 *
 * Exactness across users and workers: every worker thread of a machine draws i from one counter in
 * shared memory (atomic compare-and-swap), so within any N consecutive iterations of the run no
 * value repeats, however unevenly users and workers progress. Across machines (docs/design.md §8) the
 * index space is split by stride: group `offset` of `stride` owns i = offset + stride·j.
 */
export interface SequenceSplit {
  /** This group's residue, 0 ≤ offset < stride. */
  offset: number;
  stride: number;
}

export const WHOLE_RUN: SequenceSplit = { offset: 0, stride: 1 };

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/** The shared iteration counter of one machine's shards. */
export class IterationCounter {
  private readonly int32: Int32Array | null;
  private readonly big: BigInt64Array | null;
  /** The local counter wraps here: a multiple of every N's period, so wrapping changes no value. */
  private readonly wrap: number;

  constructor(
    /**
     * The periods the index is read modulo (it may wrap at their least common multiple); null: the
     * index is read as it is and never wraps (a non-looping data source's row, executor/test-data.ts).
     */
    moduli: readonly number[] | null,
    buffer: SharedArrayBuffer,
    private readonly split: SequenceSplit = WHOLE_RUN,
  ) {
    let lcm = moduli === null ? Infinity : 1;
    for (const n of moduli ?? []) {
      lcm = (lcm / gcd(lcm, n)) * n;
      if (lcm > 2 ** 30) break;
    }
    this.wrap = lcm;
    if (lcm <= 2 ** 30) {
      this.int32 = new Int32Array(buffer, 0, 1);
      this.big = null;
    } else {
      this.int32 = null;
      this.big = new BigInt64Array(buffer, 0, 1);
    }
  }

  /** Shared memory for one counter; hand the same buffer to every worker of the machine. */
  static allocate(): SharedArrayBuffer {
    return new SharedArrayBuffer(8);
  }

  /** The next run-wide iteration index owned by this group. Lock-free. */
  next(): number {
    let j: number;
    if (this.int32 !== null) {
      const a = this.int32;
      let cur: number;
      do {
        cur = Atomics.load(a, 0);
      } while (Atomics.compareExchange(a, 0, cur, cur + 1 >= this.wrap ? 0 : cur + 1) !== cur);
      j = cur;
    } else {
      j = Number(Atomics.add(this.big!, 0, 1n));
    }
    return this.split.offset + this.split.stride * j;
  }

  /**
   * How many of this group's own indexes come before run-wide index `i` (i = offset + stride·j gives
   * j): one machine's count of its iterations, where `i` is the run's.
   */
  ownCount(i: number): number {
    return (i - this.split.offset) / this.split.stride;
  }
}

/** Value of `{{sequence_number,N}}` for run-wide iteration index i. */
export function sequenceValue(i: number, n: number): number {
  return (i % n) + 1;
}
