import { readTestData, shuffledRows, type DataShare, type LoadModel, type PerfPlan } from '@aqa/plan';
import type { TemplateScope } from '../call/template';
import { IterationCounter, WHOLE_RUN, type SequenceSplit } from './sequence';

/*
 * A performance plan's test data in the engine (docs/adr/0027-load-profiles.md "Test data"). The
 * CSV files are read once, in the caller's thread (`prepareTestData`), and each worker gets the rows.
 * Each iteration takes the next row of every source:
 * - `share: "all"`: the row of run-wide index i = offset + stride·j, where j comes from one
 *   IterationCounter in shared memory for all such sources, so every worker thread of the machine
 *   draws from the same sequence and no row is given twice within a pass; machines (load agents) split
 *   the index space by the stride of `{{sequence_number,N}}` (executor/sequence.ts), each taking
 *   rows offset, offset + stride, … (docs/adr/0027-load-profiles.md "Test data").
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
  /** The IterationCounter of the `share: "all"` sources' run-wide row index, one for them all. */
  buffer: SharedArrayBuffer;
  split: SequenceSplit;
}

/** A data source as a run's result names it: no rows, only how many (the server of agents has no others). */
export interface DataSourceInfo {
  path: string;
  rows: number;
  share: DataShare;
}

/**
 * The plan's data sources for the workers, or null for a plan without any. `seed` fixes the order of
 * `random_order` sources; each is shuffled once and that order holds for every pass. Every machine of a
 * run is given the same seed, so each shuffles the same permutation and takes its stride of it.
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
  return { sources, buffer: IterationCounter.allocate(), split };
}

/** What a run's merge is told of its data (RunAggregatorOptions.data). */
export interface DataMerge {
  /** How many sources the plan has: the shards' `dataEnded` are counted by them. */
  count: number;
  /** Each source by its path, rows and share; asked only once a source ran out. */
  sources: () => readonly DataSourceInfo[];
  /** Whether a run that found no row is an open-model iteration rather than a user. */
  openModel: boolean;
}

/**
 * The merge's view of a plan's `count` data sources; undefined without any. `read` gives them with
 * their rows — the prepared ones (run.ts), or the plan's read again (`readTestData`) by the server's
 * merge of load agents, which then reads a CSV of up to 10 MB only when a source ran out.
 */
export function dataMergeOf(
  count: number,
  read: () => readonly { path: string; rows: readonly unknown[]; share: DataShare }[],
  model: LoadModel | undefined,
): DataMerge | undefined {
  if (count === 0) return undefined;
  let sources: DataSourceInfo[] | undefined;
  return {
    count,
    sources: () => (sources ??= read().map((s) => ({ path: s.path, rows: s.rows.length, share: s.share }))),
    openModel: model === 'arrival_rate',
  };
}

/** What a virtual user keeps for the data: its own cursors (`share: "user"`) and its variables. */
export interface DataReader {
  vars: (string | undefined)[];
  cursors: number[];
}

/** One shard's view of the run's test data. */
export class ShardData {
  /**
   * The run-wide row index of every `share: "all"` source: one index an iteration, so the sources
   * advance together and one that ran out ends every later iteration of this machine too.
   */
  private readonly counter: IterationCounter;
  /** Indexes of the `share: "user"` sources, then of the `share: "all"` ones. */
  private readonly own: number[] = [];
  private readonly shared: number[] = [];
  /** Per source, the row the current take gives (reused: take is synchronous). */
  private readonly at: number[];
  /** Per source, the variable slot of each column; -1 for a column no template reads. */
  private readonly slots: number[][];
  /** Per source: users ended (or open-model iterations not started) for want of a row, since the last report. */
  private readonly ended: number[];
  private endedAny = false;

  constructor(
    readonly init: ShardDataInit,
    scope: TemplateScope,
  ) {
    init.sources.forEach((s, k) => (s.share === 'all' ? this.shared : this.own).push(k));
    const shared = this.shared.map((k) => init.sources[k]!);
    // The index may wrap only when every shared source loops: at a multiple of each one's rows, so a
    // wrap changes no row; a non-looping one must see the index go past its end.
    const moduli = shared.some((s) => !s.loop) ? null : shared.map((s) => s.rows.length);
    this.counter = new IterationCounter(moduli, init.buffer, init.split);
    this.at = init.sources.map(() => 0);
    this.slots = init.sources.map((s) => s.names.map((name) => scope.variables.indexOf(name)));
    this.ended = init.sources.map(() => 0);
  }

  get sourceCount(): number {
    return this.init.sources.length;
  }

  /**
   * Gives the user the next row of every source; false when a non-looping source has none left
   * (the user ends: counted for the report). The user's own sources are read first, so a user that
   * ends on one of them draws no shared row that another user would then miss.
   */
  take(user: DataReader): boolean {
    const sources = this.init.sources;
    for (const k of this.own) {
      const row = this.rowAt(k, user.cursors[k]!++);
      if (row < 0) return false;
      this.at[k] = row;
    }
    if (this.shared.length > 0) {
      const i = this.counter.next();
      for (const k of this.shared) {
        const row = this.rowAt(k, i);
        if (row < 0) return false;
        this.at[k] = row;
      }
    }
    for (let k = 0; k < sources.length; k++) {
      const row = sources[k]!.rows[this.at[k]!]!;
      const slots = this.slots[k]!;
      for (let c = 0; c < slots.length; c++) {
        const slot = slots[c]!;
        if (slot >= 0) user.vars[slot] = row[c];
      }
    }
    return true;
  }

  /** Row `i` of source `k`, wrapped when it loops; -1 (counted) past the end of one that does not. */
  private rowAt(k: number, i: number): number {
    const s = this.init.sources[k]!;
    if (i < s.rows.length) return i;
    if (s.loop) return i % s.rows.length;
    this.ended[k]!++;
    this.endedAny = true;
    return -1;
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
  sources: readonly DataSourceInfo[],
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
    const after = s.share === 'all' ? `after its ${s.rows} rows` : `after its ${s.rows} rows for each user`;
    out.push({
      path: s.path,
      rows: s.rows,
      share: s.share,
      ended: n,
      message: `test data ${JSON.stringify(s.path)} ran out ${after} (loop: false): ${what}`,
    });
  });
  return out;
}
