import type { FastifyBaseLogger } from 'fastify';
import type { RunFamily } from '../services/lifecycle/run-lifecycle';

/** How often each replica looks for runs whose server died (docs/adr/0020-server-replicas.md). */
export const SWEEP_MS = 10_000;

export interface Recovery {
  /** Ends the runs of dead servers as the start-up recovery does; answers how many this call ended. */
  recoverInterrupted(): Promise<Record<RunFamily, number>>;
}

/**
 * Every live replica, every SWEEP_MS, ends the load and functional runs of servers not seen for
 * ALIVE_WITHIN_MS (docs/adr/0020-server-replicas.md): a run never stays "running" because its replica
 * died while others keep serving. Recovery updates only unfinished rows, so replicas sweeping at once
 * end each run once.
 */
export class DeadServerSweeper {
  private readonly timer: NodeJS.Timeout;
  private sweeping: Promise<void> | null = null;
  private stopped = false;

  constructor(
    /** The run lifecycle's recovery, for runs of every kind (docs/run-lifecycle.md). */
    private readonly recoveries: { recovery: Recovery; pruneDead: () => Promise<void> },
    private readonly log: FastifyBaseLogger,
    everyMs = SWEEP_MS,
  ) {
    this.timer = setInterval(() => void this.sweep(), everyMs);
    this.timer.unref();
  }

  /** One sweep; a sweep still going is waited for rather than doubled. */
  sweep(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.sweeping ??= this.sweepOnce().finally(() => {
      this.sweeping = null;
    });
    return this.sweeping;
  }

  /** At shutdown: no new sweep; the one going finishes. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.sweeping;
  }

  private async sweepOnce(): Promise<void> {
    try {
      const { load, functional } = await this.recoveries.recovery.recoverInterrupted();
      if (load + functional > 0) {
        this.log.warn(
          { runs: load, functionalRuns: functional },
          'Runs of a server replica that stopped answering were ended as interrupted',
        );
      }
      await this.recoveries.pruneDead();
    } catch (err) {
      this.log.error({ err }, 'Could not look for the runs of dead server replicas');
    }
  }
}
