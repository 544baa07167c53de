import type { RunSnapshot } from './types';

/** The snapshots of a run as an async iterable: one consumer, unconsumed ones buffered, ends on close(). */
export class SnapshotQueue implements AsyncIterable<RunSnapshot> {
  private readonly items: RunSnapshot[] = [];
  private waiters: ((r: IteratorResult<RunSnapshot>) => void)[] = [];
  private closed = false;

  push(s: RunSnapshot): void {
    if (this.closed) return;
    const w = this.waiters.shift();
    if (w) w({ value: s, done: false });
    else this.items.push(s);
  }

  close(): void {
    this.closed = true;
    for (const w of this.waiters) w({ value: undefined, done: true });
    this.waiters = [];
  }

  [Symbol.asyncIterator](): AsyncIterator<RunSnapshot> {
    return {
      next: () => {
        const s = this.items.shift();
        if (s) return Promise.resolve({ value: s, done: false });
        if (this.closed) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => this.waiters.push(resolve));
      },
    };
  }
}
