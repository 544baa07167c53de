import type { TestKind } from '@aqa/plan';

/** Who stops a run: its user (or another replica on the user's behalf), or this server shutting down. */
export type StoppedBy = 'user' | 'shutdown';

/**
 * A run going on this server as the lifecycle holds it, whatever its kind (docs/run-lifecycle.md): what
 * the limits count, what a stop, a stop asked by another replica and the shutdown reach.
 */
export interface LiveEntry {
  readonly id: string;
  readonly userId: string;
  /** Whose run it is (docs/adr/0035-workspaces-and-roles.md): who may see and stop it. */
  readonly workspaceId: string;
  readonly kind: TestKind;
  /** Epoch ms by which the run is planned to end; null for a run with no planned length (API, script, UI). */
  plannedEndMs(): number | null;
  /**
   * Stops the run, once however many ask, and resolves once its ending is stored; a stop by `shutdown`
   * stores the server's reason as the run's error.
   */
  stop(by: StoppedBy): Promise<void>;
}

/**
 * A place under the run limits, held from the start's first check until the run is stored: reserved while
 * the start is prepared, then occupied by the run.
 */
export interface Place {
  /** The run holds the place from now on, found by its id by every request to this server. */
  occupy(run: LiveEntry): void;
  /** Gives the place back (the run, if it occupied it, leaves). Once; later calls do nothing. */
  release(): void;
}

/**
 * The places on this server (docs/run-lifecycle.md): runs going, of every kind, and starts being
 * prepared, so that two simultaneous requests cannot both take the last free place under the limits.
 */
export class LiveRuns {
  private readonly runs = new Map<string, LiveEntry>();
  /** Places reserved and not yet occupied, each settling when it is occupied or released. */
  private readonly preparing = new Map<symbol, { userId: string; settled: Promise<void> }>();

  get(id: string): LiveEntry | undefined {
    return this.runs.get(id);
  }

  all(): LiveEntry[] {
    return [...this.runs.values()];
  }

  /** The runs of a workspace going on this server. */
  ofWorkspace(workspaceId: string): LiveEntry[] {
    return this.all().filter((run) => run.workspaceId === workspaceId);
  }

  ofUser(userId: string): LiveEntry[] {
    return this.all().filter((run) => run.userId === userId);
  }

  /** Places held (runs going or being started), by the user and on the whole server. */
  counts(userId: string): { user: number; server: number } {
    let userPreparing = 0;
    for (const place of this.preparing.values()) if (place.userId === userId) userPreparing++;
    return {
      user: this.ofUser(userId).length + userPreparing,
      server: this.runs.size + this.preparing.size,
    };
  }

  /** Settles once every start being prepared now has occupied or given back its place. */
  async startsPrepared(): Promise<void> {
    await Promise.all([...this.preparing.values()].map((place) => place.settled));
  }

  /** Holds a place for a run of the user being prepared. */
  reserve(userId: string): Place {
    const key = Symbol(userId);
    let settle!: () => void;
    const settled = new Promise<void>((resolve) => (settle = resolve));
    this.preparing.set(key, { userId, settled });
    let occupant: string | null = null;
    let released = false;
    const leavePreparing = () => {
      this.preparing.delete(key);
      settle();
    };
    return {
      occupy: (run) => {
        if (released || occupant !== null) throw new Error('A place holds one run, until it is released');
        occupant = run.id;
        this.runs.set(run.id, run);
        leavePreparing();
      },
      release: () => {
        if (released) return;
        released = true;
        if (occupant !== null) this.runs.delete(occupant);
        leavePreparing();
      },
    };
  }
}
