import type { RunTable, ServerInstanceRepository } from '../repositories/server-instance.repository';
import type { LiveRelay } from './live-relay';
import type { ServerInstances } from './server-instances';

/** How often a replica that asked another to stop a run looks whether it has ended. */
const STOP_POLL_MS = 200;
/** A stop asked of another replica is answered within this time (the owner stores the partial result first). */
export const REMOTE_STOP_WAIT_MS = 20_000;

/**
 * What the run services need of the other replicas (docs/adr/0020-server-replicas.md): this server's id
 * (stored with each run it starts), which servers are alive, and, when REDIS_URL is set, the relay of
 * live runs. Without Redis this server is the only one (a second refuses to start), so `relay` is null.
 */
export class Replicas {
  constructor(
    readonly instances: ServerInstances,
    readonly relay: LiveRelay | null,
    private readonly store: ServerInstanceRepository,
  ) {}

  get serverId(): string {
    return this.instances.id;
  }

  /** The ids of the servers alive now, this one included. */
  aliveIds(): Promise<Set<string>> {
    return this.instances.aliveIds();
  }

  /**
   * The user's load and functional runs going on other live replicas (their DB rows still unfinished):
   * with this server's own, they count against MAX_RUNS_PER_USER.
   */
  async runningElsewhere(userId: string): Promise<number> {
    if (this.relay === null) return 0;
    const alive = await this.aliveIds();
    alive.delete(this.serverId);
    if (alive.size === 0) return 0;
    return this.store.unfinishedRunsOn(userId, [...alive]);
  }

  /** The run's stored status, checked until it is no longer unfinished or `timeoutMs` has passed. */
  async waitUntilEnded(table: RunTable, id: string, timeoutMs = REMOTE_STOP_WAIT_MS): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (!(await this.store.isUnfinished(table, id))) return;
      await new Promise((resolve) => setTimeout(resolve, STOP_POLL_MS));
    }
  }

  /** The server that started each of these load runs (null for runs before migration 0013). */
  serversOfRuns(runIds: string[]): Promise<Map<string, string | null>> {
    return this.store.serversOfRuns(runIds);
  }
}
