/**
 * The writes a run makes while it goes — a load run's seconds, a functional run's judged calls — one
 * after another in the order queued, so they never overlap and the run's final write, made after
 * `drain`, is always the last (docs/adr/0016-crash-recovery.md). A failed write is handed to its own
 * handler and the queue goes on: a lost checkpoint is not worth losing the run over.
 */
export class WriteQueue {
  private queue: Promise<void> = Promise.resolve();

  enqueue(write: () => Promise<void>, onError: (err: unknown) => void): void {
    this.queue = this.queue.then(write).catch(onError);
  }

  /** Settles once every write queued so far has been made (or has failed). */
  drain(): Promise<void> {
    return this.queue;
  }
}
