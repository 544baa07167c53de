import { Worker } from 'node:worker_threads';
import type { ImportAnswer, ImportJob } from './import-job';
import type { JobReply, JobRequest } from './import.worker';

/**
 * One worker thread, started on the first import and kept for the next ones, that runs imports one at
 * a time (the others wait their turn). A job that runs past the time limit, or needs more memory than
 * the worker may use, ends the worker; the next job starts a fresh one.
 */

export interface ImportPoolOptions {
  /** How long one import may run, from when it starts. */
  timeoutMs: number;
  /** The worker's heap limit; a document that needs more is refused rather than slowing the server. */
  maxHeapMb: number;
}

export const DEFAULT_IMPORT_POOL_OPTIONS: ImportPoolOptions = { timeoutMs: 25_000, maxHeapMb: 1024 };

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

export type JobOutcome =
  { ok: true; answer: ImportAnswer } | { ok: false; error: Extract<JobReply, { ok: false }>['error'] };

interface Pending {
  id: number;
  job: ImportJob;
  resolve: (outcome: JobOutcome) => void;
  reject: (error: Error) => void;
  timer?: NodeJS.Timeout;
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

export class ImportPool {
  private worker: Worker | undefined;
  /** Whether the worker has loaded its code; the time limit counts from then, not from start-up. */
  private ready = false;
  private readonly queue: Pending[] = [];
  private current: Pending | undefined;
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: ImportPoolOptions = DEFAULT_IMPORT_POOL_OPTIONS) {}

  /** Runs the job in the worker. Its byte arrays are moved to the worker and unusable afterwards. */
  run(job: ImportJob): Promise<JobOutcome> {
    if (this.closed) return Promise.reject(new ImportWorkerError('closed', 'The server is shutting down'));
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, job, resolve, reject });
      this.pump();
    });
  }

  /** Imports waiting or running. */
  get pending(): number {
    return this.queue.length + (this.current ? 1 : 0);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0))
      job.reject(new ImportWorkerError('closed', 'The server is shutting down'));
    this.current?.reject(new ImportWorkerError('closed', 'The server is shutting down'));
    this.current = undefined;
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.terminate();
  }

  private pump(): void {
    if (this.current || this.closed) return;
    const next = this.queue.shift();
    if (!next) {
      this.worker?.unref();
      return;
    }
    this.current = next;
    const worker = this.ensureWorker();
    worker.ref();
    if (this.ready) this.startClock(next);
    const { job } = next;
    const transfer = [job.file, ...(job.files ?? []), ...(job.environment ? [job.environment] : [])].map(
      (f) => f.bytes.buffer as ArrayBuffer,
    );
    const request: JobRequest = { id: next.id, job };
    worker.postMessage(request, transfer);
  }

  private startClock(job: Pending): void {
    const seconds = Number((this.options.timeoutMs / 1000).toFixed(1));
    job.timer = setTimeout(() => {
      this.fail(
        job,
        new ImportWorkerError(
          'timeout',
          `took longer than ${seconds} s to import and was stopped; the document is too large or too complex`,
        ),
      );
    }, this.options.timeoutMs);
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    this.ready = false;
    const worker = new Worker(workerEntry(), {
      resourceLimits: { maxOldGenerationSizeMb: this.options.maxHeapMb },
    });
    worker.on('message', (reply: JobReply | { ready: true }) => {
      if ('ready' in reply) {
        this.ready = true;
        if (this.current && this.current.timer === undefined) this.startClock(this.current);
        return;
      }
      const current = this.current;
      if (!current || current.id !== reply.id) return;
      clearTimeout(current.timer);
      this.current = undefined;
      current.resolve(reply.ok ? { ok: true, answer: reply.answer } : { ok: false, error: reply.error });
      this.pump();
    });
    worker.on('error', (error: Error & { code?: string }) => {
      if (this.worker !== worker) return;
      const memory = error.code === 'ERR_WORKER_OUT_OF_MEMORY';
      const failure = new ImportWorkerError(
        memory ? 'memory' : 'crashed',
        memory
          ? `needs more than ${this.options.maxHeapMb} MB of memory to import, so it was stopped`
          : 'could not be imported: the import stopped unexpectedly',
        { cause: error },
      );
      this.worker = undefined;
      if (this.current) this.fail(this.current, failure, false);
    });
    worker.on('exit', () => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      if (this.current)
        this.fail(
          this.current,
          new ImportWorkerError('crashed', 'could not be imported: the import stopped unexpectedly'),
          false,
        );
    });
    this.worker = worker;
    return worker;
  }

  /** Ends the job with an error; the worker is replaced, since it may be stuck in the job. */
  private fail(job: Pending, error: ImportWorkerError, terminate = true): void {
    if (this.current !== job) return;
    clearTimeout(job.timer);
    this.current = undefined;
    const worker = this.worker;
    if (terminate && worker) {
      this.worker = undefined;
      void worker.terminate();
    }
    job.reject(error);
    this.pump();
  }
}
