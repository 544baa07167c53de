import { readTestData, shuffledRows, type DataShare, type PerfPlan } from '@aqa/plan';
import type { TemplateScope } from '../call/template';
import { WHOLE_RUN, type SequenceSplit } from './sequence';

/*
 * A performance plan's test data in the engine (docs/adr/0027-load-profiles.md "Test data"). The
 * CSV files are read once, in the caller's thread (`prepareTestData`), and each worker gets the rows.
 * Each iteration takes the next row of every source:
 * - `share: "all"`: the row of run-wide index i = offset + stride·j, where j comes from one counter
 *   per source in shared memory (Atomics.add), so every worker thread of the machine draws from the
 *   same sequence and no row is given twice within a pass; machines split the index space by the
 *   stride of `{{sequence_number,N}}` (executor/sequence.ts).
 * - `share: "user"`: each virtual user reads its own cursor from row 0.
 * At the end of the rows a looping source starts over; a non-looping one ends the user (or, in the
 * open model, the iteration is not started), and the run counts it and says so.
 */

/** One source as the workers get it: read, checked and (random_order) shuffled by the caller's thread. */
export interface PreparedSource {
  path: string;
  names: string[];
  rows: string[][];
  loop: boolean;
  share: DataShare;
}

/** What the caller's thread hands each worker (structured-cloned; the buffer is shared). */
export interface ShardDataInit {
  sources: PreparedSource[];
  /** One 64-bit counter per source, for `share: "all"`. */
  buffer: SharedArrayBuffer;
  split: SequenceSplit;
}

/**
 * The plan's data sources for the workers, or null for a plan without any. `seed` fixes the order of
 * `random_order` sources; each is shuffled once and that order holds for every pass.
 */
export function prepareTestData(
  plan: PerfPlan,
  seed: number,
  split: SequenceSplit = WHOLE_RUN,
): ShardDataInit | null {
  const tables = readTestData(plan);
  if (tables.length === 0) return null;
  const sources = tables.map((t, k) => ({
    path: t.path,
    names: t.names,
    rows: t.random_order ? shuffledRows(t.rows, (seed + k * 0x9e3779b9) >>> 0) : t.rows,
    loop: t.loop,
    share: t.share,
  }));
  return { sources, buffer: new SharedArrayBuffer(8 * sources.length), split };
}

/** What a virtual user keeps for the data: its own cursors (`share: "user"`) and its variables. */
export interface DataReader {
  vars: (string | undefined)[];
  cursors: number[];
}

/** One shard's view of the run's test data. */
export class ShardData {
  private readonly counters: BigInt64Array;
  /** Per source, the variable slot of each column; -1 for a column no template reads. */
  private readonly slots: number[][];
  /** Per source: users ended (or open-model iterations not started) for want of a row, since the last report. */
  private readonly ended: number[];
  private endedAny = false;

  constructor(
    readonly init: ShardDataInit,
    scope: TemplateScope,
  ) {
    this.counters = new BigInt64Array(init.buffer, 0, init.sources.length);
    this.slots = init.sources.map((s) => s.names.map((name) => scope.variables.indexOf(name)));
    this.ended = init.sources.map(() => 0);
  }

  get sourceCount(): number {
    return this.init.sources.length;
  }

  /**
   * Gives the user the next row of every source; false when a non-looping source has none left
   * (the user ends: counted for the report).
   */
  take(user: DataReader): boolean {
    const sources = this.init.sources;
    for (let k = 0; k < sources.length; k++) {
      const s = sources[k]!;
      const n = s.rows.length;
      let i: number;
      if (s.share === 'all') {
        const { offset, stride } = this.init.split;
        i = offset + stride * Number(Atomics.add(this.counters, k, 1n));
      } else i = user.cursors[k]!++;
      if (i >= n) {
        if (!s.loop) {
          this.ended[k]!++;
          this.endedAny = true;
          return false;
        }
        i %= n;
      }
      const row = s.rows[i]!;
      const slots = this.slots[k]!;
      for (let c = 0; c < slots.length; c++) {
        const slot = slots[c]!;
        if (slot >= 0) user.vars[slot] = row[c];
      }
    }
    return true;
  }

  /** Counts since the last report, by source; undefined when none ran out. */
  drain(): number[] | undefined {
    if (!this.endedAny) return undefined;
    const out = this.ended.slice();
    this.ended.fill(0);
    this.endedAny = false;
    return out;
  }
}

/** A source that ran out in a run, as the result says it. */
export interface DataExhausted {
  path: string;
  rows: number;
  share: DataShare;
  /** Users that ended (closed model) or iterations not started (open model) for want of a row. */
  ended: number;
  message: string;
}

/** The result's words for the sources that ran out (`ended` by source index). */
export function dataExhausted(
  sources: readonly PreparedSource[],
  ended: readonly number[],
  openModel: boolean,
): DataExhausted[] {
  const out: DataExhausted[] = [];
  sources.forEach((s, k) => {
    const n = ended[k] ?? 0;
    if (n === 0) return;
    const what = openModel
      ? `${n} iteration${n === 1 ? ' was' : 's were'} not started`
      : `${n} user${n === 1 ? '' : 's'} ended there`;
    const after =
      s.share === 'all' ? `after its ${s.rows.length} rows` : `after its ${s.rows.length} rows for each user`;
    out.push({
      path: s.path,
      rows: s.rows.length,
      share: s.share,
      ended: n,
      message: `test data ${JSON.stringify(s.path)} ran out ${after} (loop: false): ${what}`,
    });
  });
  return out;
}
