import type { RunSnapshot } from '@aqa/engine';
import type { ViewShare } from '../services/lifecycle/run-lifecycle';
import type { LiveRun } from '../services/runs/live-run';
import type { RunOutput } from '../services/runs/run-output';
import type { LiveRelay } from './live-relay';

/**
 * The run output that shares a load run with the other replicas (docs/adr/0020-server-replicas.md):
 * each second's snapshot as the live stream sends it, the run's view (shared by the run lifecycle, its
 * kind's `view`) refreshed with it, and `end` once the run is stored. It stops after the database
 * output, so `end` follows the stored result.
 */
export class RelayOutput implements RunOutput {
  readonly description = 'replica relay';

  constructor(
    private readonly run: LiveRun,
    private readonly relay: LiveRelay,
    private readonly view: ViewShare,
  ) {}

  addSnapshot(snapshot: RunSnapshot): void {
    this.relay.publish(this.run.id, { type: 'snapshot', snapshot: this.run.snapshotView(snapshot) });
    this.view.refresh();
  }

  stop(): Promise<void> {
    this.relay.publish(this.run.id, { type: 'end' });
    return Promise.resolve();
  }
}
