import type { RunSnapshot } from '@aqa/engine';
import type { LiveSnapshot } from '@aqa/plan';
import type { RunOutput } from './run-output';

export type LiveEvent = { type: 'snapshot'; snapshot: LiveSnapshot } | { type: 'end' };
export type LiveListener = (event: LiveEvent) => void;

/**
 * Fans each second's snapshot out to the run's live-stream subscribers (GET /api/test-stream), and
 * tells them when the run is over. The view is built once per second, and only when someone listens.
 */
export class LiveStreamOutput implements RunOutput {
  readonly description = 'live stream';
  private readonly listeners = new Set<LiveListener>();
  private ended = false;

  constructor(private readonly view: (snapshot: RunSnapshot) => LiveSnapshot) {}

  /** Returns the unsubscribe function, or null when the run is already over (no event will follow). */
  subscribe(listener: LiveListener): (() => void) | null {
    if (this.ended) return null;
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  get subscribers(): number {
    return this.listeners.size;
  }

  addSnapshot(snapshot: RunSnapshot): void {
    if (this.listeners.size === 0) return;
    this.emit({ type: 'snapshot', snapshot: this.view(snapshot) });
  }

  stop(): Promise<void> {
    this.ended = true;
    this.emit({ type: 'end' });
    this.listeners.clear();
    return Promise.resolve();
  }

  private emit(event: LiveEvent): void {
    for (const listener of [...this.listeners]) {
      // One broken subscriber must not cost the others their events.
      try {
        listener(event);
      } catch {
        this.listeners.delete(listener);
      }
    }
  }
}
