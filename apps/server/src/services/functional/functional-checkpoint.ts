import { type CallPlace, MAX_KEPT_CALLS } from '@aqa/engine';
import type { CallResult } from '@aqa/plan';
import { WriteQueue } from '../runs/write-queue';

/*
 * A functional or UI run's checkpoint (docs/adr/0016-crash-recovery.md): every call or step it judges
 * is written to the store as the run goes, with its place in the run's tally, so that a run whose
 * server dies is rebuilt at the next start (or by another replica's sweep) with exactly what it had
 * judged — functional-recovery.ts.
 */

/** One judged call as stored. */
export interface StoredCall {
  /** Its place in the run's tally: the API's (or UI page's) index (CallPlace.index). */
  i: number;
  /** Ms since the runner started, as its tally counts it (CallPlace.atMs). */
  at: number;
  /** Ms after the run's start_time, on the server's clock, that the call reached the server. */
  ms: number;
  call: CallResult;
}

/** Where a run's judged calls are written: one row of them per write, numbered from 1. */
export interface CallStore {
  insertCalls(runId: string, seq: number, calls: string): Promise<void>;
}

/**
 * A write at most this often per run. A call judged after a quiet spell is written at once; calls
 * judged quicker than this share the next write, so a run of thousands of calls a second makes 4
 * small writes a second, whatever the store (one transaction each), and a SIGKILL loses at most the
 * calls of the last quarter second.
 */
export const CHECKPOINT_EVERY_MS = 250;

/**
 * A call past the first MAX_KEPT_CALLS is counted but not kept by the result (docs/reference/02-running.md
 * §2 "Functional result screen"): only what the tallies count is stored of it, not its evidence,
 * timings, captures or UI details.
 */
function countedOnly(call: CallResult): CallResult {
  const { evidence: _evidence, timings: _timings, captures: _captures, ui: _ui, ...counted } = call;
  return counted;
}

export class FunctionalCheckpoint {
  private readonly queue = new WriteQueue();
  private pending: StoredCall[] = [];
  private seq = 0;
  private kept = 0;
  private lastWriteMs = Number.NEGATIVE_INFINITY;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly runId: string,
    private readonly store: CallStore,
    /** Ms since the run's start_time, on the server's clock. */
    private readonly sinceStart: () => number,
    private readonly onError: (err: unknown, seq: number) => void,
    private readonly everyMs = CHECKPOINT_EVERY_MS,
  ) {}

  add(call: CallResult, place: CallPlace): void {
    if (this.closed) return;
    const full = this.kept < MAX_KEPT_CALLS;
    if (full) this.kept++;
    this.pending.push({
      i: place.index,
      at: place.atMs,
      ms: this.sinceStart(),
      call: full ? call : countedOnly(call),
    });
    if (this.timer !== null) return;
    const wait = this.lastWriteMs + this.everyMs - performance.now();
    if (wait <= 0) this.write();
    else {
      this.timer = setTimeout(() => {
        this.timer = null;
        this.write();
      }, wait);
    }
  }

  /** Writes what is pending and waits for every write: the run's final write comes after. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.write();
    await this.queue.drain();
  }

  private write(): void {
    if (this.pending.length === 0) return;
    const calls = JSON.stringify(this.pending);
    this.pending = [];
    const seq = ++this.seq;
    this.lastWriteMs = performance.now();
    this.queue.enqueue(
      () => this.store.insertCalls(this.runId, seq, calls),
      (err) => this.onError(err, seq),
    );
  }
}
