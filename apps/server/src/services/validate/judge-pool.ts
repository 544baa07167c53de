import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import type { UrlEntry } from '@aqa/plan';
import type { ReceivedResponse } from './http-exchange';
import type { EntryVerdict } from './judge-entry';
import type { JudgeReply, JudgeRequest } from './judge.worker';

/*
 * Validate judges each answer in a worker thread (docs/adr/0022-linear-time-patterns.md): patterns run
 * in linear time, but an XPath or a JSONPath with several descents costs a power of the answer's size,
 * and a Validate request carries up to 500 answers of up to 5 MB. On the server's event loop that would
 * hold every other request. A few threads, shared by every Validate pass, each judge one answer at a
 * time; one that takes longer than its limit is terminated (a fresh one takes the next answer).
 */

export interface JudgePoolOptions {
  /** Worker threads: answers beyond these wait, in the order they came. */
  workers: number;
  /** How long judging one answer may take, from when a thread takes it. */
  limitMs: number;
}

export const DEFAULT_JUDGE_POOL_OPTIONS: JudgePoolOptions = {
  workers: Math.max(1, Math.min(2, availableParallelism())),
  limitMs: 5_000,
};

/** How judging an answer ended: its verdict, or why there is none, in words. */
export type JudgeOutcome = { ok: true; verdict: EntryVerdict } | { ok: false; reason: string };

interface Task {
  id: number;
  request: Omit<JudgeRequest, 'id'>;
  /** performance.now() after which the answer is not judged at all (the pass's own limit). */
  deadline: number;
  resolve: (outcome: JudgeOutcome) => void;
  timer?: NodeJS.Timeout;
}

interface Slot {
  worker: Worker | undefined;
  ready: boolean;
  current: Task | undefined;
}

/** The bundled dist/validate-worker.mjs beside dist/main.mjs, or (TypeScript source) a tsx bootstrap. */
function workerEntry(): URL {
  const here = import.meta.url;
  return here.endsWith('.ts')
    ? new URL('./judge-worker-dev.mjs', here)
    : new URL('./validate-worker.mjs', here);
}

export class JudgePool {
  private readonly slots: Slot[];
  private readonly queue: Task[] = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: JudgePoolOptions = DEFAULT_JUDGE_POOL_OPTIONS) {
    this.slots = Array.from({ length: Math.max(1, options.workers) }, () => ({
      worker: undefined,
      ready: false,
      current: undefined,
    }));
  }

  /** Judges one answer against its entry, by `deadline` (performance.now()) at the latest. */
  judge(entry: UrlEntry, response: ReceivedResponse, deadline: number): Promise<JudgeOutcome> {
    if (this.closed) return Promise.resolve({ ok: false, reason: 'the server is shutting down' });
    // The body's own copy, moved to the thread: a pooled Buffer shares its memory with others.
    const body = new Uint8Array(response.body);
    return new Promise((resolve) => {
      this.queue.push({
        id: this.nextId++,
        request: { entry, response: { ...response, body } },
        deadline,
        resolve,
      });
      this.pump();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const task of this.queue.splice(0))
      task.resolve({ ok: false, reason: 'the server is shutting down' });
    const workers: Worker[] = [];
    for (const slot of this.slots) {
      if (slot.current) {
        clearTimeout(slot.current.timer);
        slot.current.resolve({ ok: false, reason: 'the server is shutting down' });
        slot.current = undefined;
      }
      if (slot.worker) workers.push(slot.worker);
      slot.worker = undefined;
    }
    await Promise.all(workers.map((worker) => worker.terminate()));
  }

  private pump(): void {
    if (this.closed) return;
    for (const slot of this.slots) {
      if (slot.current) continue;
      const task = this.queue.shift();
      if (!task) break;
      this.start(slot, task);
    }
    for (const slot of this.slots) if (!slot.current) slot.worker?.unref();
  }

  private start(slot: Slot, task: Task): void {
    slot.current = task;
    if (!slot.worker) this.spawn(slot);
    const worker = slot.worker!;
    worker.ref();
    if (slot.ready) this.send(slot, task);
  }

  private spawn(slot: Slot): void {
    const worker = new Worker(workerEntry());
    slot.worker = worker;
    slot.ready = false;
    worker.on('message', (message: JudgeReply | { ready: true }) => {
      if (slot.worker !== worker) return;
      if ('ready' in message) {
        slot.ready = true;
        if (slot.current) this.send(slot, slot.current);
        return;
      }
      const task = slot.current;
      if (task === undefined || task.id !== message.id) return;
      this.finish(
        slot,
        message.ok ? { ok: true, verdict: message.verdict } : { ok: false, reason: message.message },
      );
    });
    const lost = (why: string): void => {
      if (slot.worker !== worker) return;
      slot.worker = undefined;
      if (slot.current) this.finish(slot, { ok: false, reason: why });
    };
    worker.on('error', (error) => lost(`the judging thread failed: ${error.message}`));
    worker.on('exit', (code) => lost(`the judging thread ended (exit code ${code})`));
  }

  private send(slot: Slot, task: Task): void {
    const left = task.deadline - performance.now();
    if (left <= 0) {
      this.finish(slot, { ok: false, reason: 'the whole validation ran out of time before it was judged' });
      return;
    }
    const limitMs = Math.min(this.options.limitMs, left);
    task.timer = setTimeout(() => {
      // Held by a check that does not end: the thread goes, a fresh one takes the next answer.
      const worker = slot.worker;
      slot.worker = undefined;
      void worker?.terminate();
      this.finish(
        slot,
        limitMs < this.options.limitMs
          ? { ok: false, reason: 'the whole validation ran out of time while it was judged' }
          : {
              ok: false,
              reason: `judging the answer took longer than ${Math.round(limitMs / 1000)} s (a check too costly for it: an XPath or JSONPath that visits too many nodes)`,
            },
      );
    }, limitMs);
    slot.worker?.postMessage({ id: task.id, ...task.request } satisfies JudgeRequest, [
      task.request.response.body.buffer as ArrayBuffer,
    ]);
  }

  private finish(slot: Slot, outcome: JudgeOutcome): void {
    const task = slot.current;
    if (!task) return;
    clearTimeout(task.timer);
    slot.current = undefined;
    task.resolve(outcome);
    this.pump();
  }
}
