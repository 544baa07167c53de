import type { LiveRun } from './live-run';

/**
 * The runs in progress on this server, in memory, plus the starts being prepared (reserved), so
 * that two simultaneous requests cannot both take the last free place under the limits.
 */
export class RunRegistry {
  private readonly runs = new Map<string, LiveRun>();
  private readonly reserved = new Map<string, number>();

  get(id: string): LiveRun | undefined {
    return this.runs.get(id);
  }

  all(): LiveRun[] {
    return [...this.runs.values()];
  }

  ofUser(userId: string): LiveRun[] {
    return this.all().filter((run) => run.userId === userId);
  }

  add(run: LiveRun): void {
    this.runs.set(run.id, run);
  }

  remove(id: string): void {
    this.runs.delete(id);
  }

  /** Runs going or being started, for the user and for the whole server. */
  counts(userId: string): { user: number; server: number } {
    let reservedAll = 0;
    for (const n of this.reserved.values()) reservedAll += n;
    return {
      user: this.ofUser(userId).length + (this.reserved.get(userId) ?? 0),
      server: this.runs.size + reservedAll,
    };
  }

  /** Holds a place for a run being prepared; the returned function gives it back (call it once). */
  reserve(userId: string): () => void {
    this.reserved.set(userId, (this.reserved.get(userId) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.reserved.get(userId) ?? 1) - 1;
      if (left > 0) this.reserved.set(userId, left);
      else this.reserved.delete(userId);
    };
  }
}
