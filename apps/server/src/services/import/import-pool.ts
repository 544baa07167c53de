import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { ImportAnswer, ImportJob, JsonAnswer } from './import-job';
import type { JobReply, JobRequest } from './import.worker';

/**
 * A few worker threads, started on demand and kept for the next imports, with a bounded queue in front
 * (docs/design.md §11 "Bad input"). Each worker runs one import at a time, so one slow document holds
 * one worker and other users' imports go to the others. The queue is bounded in all and per user: a user
 * who already has `perUser` imports waiting or running, or an import that finds the queue full, is
 * refused with an estimate of when to try again. A free worker takes the waiting import of the user who
 * has the fewest running, so one user's burst does not hold back the others.
 *
 * A job that runs past the time limit, or needs more memory than a worker may use, ends its worker; the
 * next job on that slot starts a fresh one. So does a job after which the worker's heap is larger than
 * `retireHeapMb`: V8 keeps the memory a large document grew its heap to, so a worker kept after one would
 * hold it until the server stops (docs/adr/0024-memory-bounds.md).
 */

export interface ImportPoolOptions {
  /** How long one import may run, from when it starts. */
  timeoutMs: number;
  /** Each worker's heap limit; a document that needs more is refused rather than slowing the server. */
  maxHeapMb: number;
  /** Worker threads: imports beyond these wait in the queue. */
  workers: number;
  /** Imports waiting for a worker, all users together (Config.importQueue.length). */
  queueLength: number;
  /** Imports one user may have waiting or running (Config.importQueue.perUser). */
  perUser: number;
  /** A worker whose heap is larger than this after a job, in MB, is ended rather than kept. */
  retireHeapMb: number;
}

export const DEFAULT_IMPORT_POOL_OPTIONS: ImportPoolOptions = {
  timeoutMs: 25_000,
  maxHeapMb: 1024,
  // At least two, so a slow import never holds every worker; at most four, as each may use maxHeapMb.
  workers: Math.max(2, Math.min(4, availableParallelism())),
  queueLength: 16,
  perUser: 2,
  // A fresh worker's heap is about 10 MB; small documents leave it well under this.
  retireHeapMb: 64,
};

/** Why a job did not produce an answer or an ImportError. */
export class ImportWorkerError extends Error {
  override readonly name = 'ImportWorkerError';

  constructor(
    readonly reason: 'timeout' | 'memory' | 'crashed' | 'closed',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A job refused before it was queued: the queue is full, or the user has their share in it. */
export class ImportQueueFullError extends Error {
  override readonly name = 'ImportQueueFullError';

  constructor(
    readonly reason: 'full' | 'user',
    /** Whole seconds until a place is likely free: the estimate sent as Retry-After. */
    readonly retryAfterS: number,
  ) {
    super(reason === 'full' ? 'The import queue is full' : 'The user has their share of the import queue');
  }
}

export type JobOutcome =
  | { ok: true; answer: ImportAnswer }
  | { ok: true; json: JsonAnswer }
  | { ok: false; error: Extract<JobReply, { ok: false }>['error'] };

interface Pending {
  id: number;
  owner: string;
  job: ImportJob;
  resolve: (outcome: JobOutcome) => void;
  reject: (error: Error) => void;
  /** When the job started on a worker (performance.now()); unset while it waits. */
  startedAt?: number;
  timer?: NodeJS.Timeout;
}

/** One worker thread and the job it runs. */
interface Slot {
  worker: Worker | undefined;
  /** Whether the worker has loaded its code; the time limit counts from then, not from start-up. */
  ready: boolean;
  current: Pending | undefined;
}

/**
 * The worker's entry: the bundled dist/import-worker.mjs next to dist/main.mjs in production; under
 * vitest and `tsx watch` (this file is then TypeScript source), a bootstrap that has tsx compile the
 * worker's source in the thread.
 */
function workerEntry(): URL {
  const here = import.meta.url;
  return here.endsWith('.ts')
    ? new URL('./import-worker-dev.mjs', here)
    : new URL('./import-worker.mjs', here);
}

/** What an import is assumed to take until some have been measured. */
const FIRST_ESTIMATE_MS = 2000;

export class ImportPool {
  private readonly slots: Slot[];
  private readonly queue: Pending[] = [];
  private nextId = 1;
  private closed = false;
  /** A moving average of how long imports take, for the Retry-After estimate. */
  private averageMs = FIRST_ESTIMATE_MS;

  constructor(private readonly options: ImportPoolOptions = DEFAULT_IMPORT_POOL_OPTIONS) {
    this.slots = Array.from({ length: Math.max(1, options.workers) }, () => ({
      worker: undefined,
      ready: false,
      current: undefined,
    }));
  }

  /**
   * Runs the job in a worker for `owner` (the user). Its byte arrays are moved to the worker and unusable
   * afterwards. Throws ImportQueueFullError, without queueing, when there is no place for it.
   */
  run(job: ImportJob, owner: string): Promise<JobOutcome> {
    if (this.closed) return Promise.reject(new ImportWorkerError('closed', 'The server is shutting down'));
    const mine = this.running().filter((p) => p.owner === owner).length + this.waiting(owner);
    if (mine >= this.options.perUser) throw new ImportQueueFullError('user', this.retryAfter(owner));
    if (this.queue.length >= this.options.queueLength && !this.slots.some((s) => !s.current)) {
      throw new ImportQueueFullError('full', this.retryAfter());
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, owner, job, resolve, reject });
      this.pump();
    });
  }

  /** Imports waiting or running. */
  get pending(): number {
    return this.queue.length + this.running().length;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0))
      job.reject(new ImportWorkerError('closed', 'The server is shutting down'));
    const workers: Worker[] = [];
    for (const slot of this.slots) {
      slot.current?.reject(new ImportWorkerError('closed', 'The server is shutting down'));
      clearTimeout(slot.current?.timer);
      slot.current = undefined;
      if (slot.worker) workers.push(slot.worker);
      slot.worker = undefined;
    }
    await Promise.all(workers.map((worker) => worker.terminate()));
  }

  private running(): Pending[] {
    return this.slots.flatMap((slot) => (slot.current ? [slot.current] : []));
  }

  private waiting(owner: string): number {
    return this.queue.filter((p) => p.owner === owner).length;
  }

  /**
   * Whole seconds until a place is likely free: for a user, until one of their imports ends; otherwise
   * until the queue moves (any running import ends). From the average import time and how long the
   * running ones have run; at least 1.
   */
  retryAfter(owner?: string): number {
    const now = performance.now();
    const left = (p: Pending) => Math.max(0, this.averageMs - (now - (p.startedAt ?? now)));
    const running = this.running().filter((p) => owner === undefined || p.owner === owner);
    let ms: number;
    if (running.length > 0) ms = Math.min(...running.map(left));
    else {
      // Only waiting imports of this user: those ahead of the first one go first, a worker-full at a time.
      const ahead = this.queue.findIndex((p) => p.owner === owner);
      ms = (Math.floor(Math.max(0, ahead) / this.slots.length) + 1) * this.averageMs;
    }
    return Math.max(1, Math.ceil(ms / 1000));
  }

  private pump(): void {
    if (this.closed) return;
    for (const slot of this.slots) {
      if (slot.current) continue;
      const next = this.takeNext();
      if (!next) break;
      this.start(slot, next);
    }
    for (const slot of this.slots) if (!slot.current) slot.worker?.unref();
  }

  /** The waiting job of the user with the fewest running, first come first served among equals. */
  private takeNext(): Pending | undefined {
    if (this.queue.length === 0) return undefined;
    const runningBy = new Map<string, number>();
    for (const p of this.running()) runningBy.set(p.owner, (runningBy.get(p.owner) ?? 0) + 1);
    let best = 0;
    for (let i = 1; i < this.queue.length; i++) {
      const load = (p: Pending | undefined) => runningBy.get(p?.owner ?? '') ?? 0;
      if (load(this.queue[i]) < load(this.queue[best])) best = i;
    }
    return this.queue.splice(best, 1)[0];
  }

  private start(slot: Slot, next: Pending): void {
    slot.current = next;
    const worker = this.ensureWorker(slot);
    worker.ref();
    if (slot.ready) this.startClock(slot, next);
    const { job } = next;
    // Bytes in memory are moved; a stored upload is only its path, read in the worker.
    const transfer = [
      job.file,
      ...(job.files ?? []),
      ...(job.environment ? [job.environment] : []),
      ...(job.data ? [job.data] : []),
    ].flatMap((f) => ('bytes' in f ? [f.bytes.buffer as ArrayBuffer] : []));
    const request: JobRequest = { id: next.id, job };
    worker.postMessage(request, transfer);
  }

  private startClock(slot: Slot, job: Pending): void {
    job.startedAt = performance.now();
    const seconds = Number((this.options.timeoutMs / 1000).toFixed(1));
    job.timer = setTimeout(() => {
      this.fail(
        slot,
        job,
        new ImportWorkerError(
          'timeout',
          `took longer than ${seconds} s to import and was stopped; the document is too large or too complex`,
        ),
      );
    }, this.options.timeoutMs);
  }

  private ensureWorker(slot: Slot): Worker {
    if (slot.worker) return slot.worker;
    slot.ready = false;
    const worker = new Worker(workerEntry(), {
      resourceLimits: { maxOldGenerationSizeMb: this.options.maxHeapMb },
    });
    worker.on('message', (reply: JobReply | { ready: true }) => {
      if (slot.worker !== worker) return;
      if ('ready' in reply) {
        slot.ready = true;
        if (slot.current && slot.current.timer === undefined) this.startClock(slot, slot.current);
        return;
      }
      const current = slot.current;
      if (!current || current.id !== reply.id) return;
      clearTimeout(current.timer);
      this.measured(current);
      slot.current = undefined;
      if (reply.heapMb > this.options.retireHeapMb) {
        slot.worker = undefined;
        void worker.terminate();
      }
      current.resolve(
        !reply.ok
          ? { ok: false, error: reply.error }
          : 'json' in reply
            ? { ok: true, json: reply.json }
            : { ok: true, answer: reply.answer },
      );
      this.pump();
    });
    worker.on('error', (error: Error & { code?: string }) => {
      if (slot.worker !== worker) return;
      const memory = error.code === 'ERR_WORKER_OUT_OF_MEMORY';
      const failure = new ImportWorkerError(
        memory ? 'memory' : 'crashed',
        memory
          ? `needs more than ${this.options.maxHeapMb} MB of memory to import, so it was stopped`
          : 'could not be imported: the import stopped unexpectedly',
        { cause: error },
      );
      slot.worker = undefined;
      if (slot.current) this.fail(slot, slot.current, failure, false);
    });
    worker.on('exit', () => {
      if (slot.worker !== worker) return;
      slot.worker = undefined;
      if (slot.current)
        this.fail(
          slot,
          slot.current,
          new ImportWorkerError('crashed', 'could not be imported: the import stopped unexpectedly'),
          false,
        );
    });
    slot.worker = worker;
    return worker;
  }

  /** Folds a finished job's time into the average (a stopped one counts too: it held its worker). */
  private measured(job: Pending): void {
    if (job.startedAt === undefined) return;
    this.averageMs = 0.7 * this.averageMs + 0.3 * (performance.now() - job.startedAt);
  }

  /** Ends the job with an error; the worker is replaced, since it may be stuck in the job. */
  private fail(slot: Slot, job: Pending, error: ImportWorkerError, terminate = true): void {
    if (slot.current !== job) return;
    clearTimeout(job.timer);
    this.measured(job);
    slot.current = undefined;
    const worker = slot.worker;
    if (terminate && worker) {
      slot.worker = undefined;
      void worker.terminate();
    }
    job.reject(error);
    this.pump();
  }
}
