import type { EncodedHistogram, RunSnapshot } from '@aqa/engine';
import type { LiveRun } from '../services/runs/live-run';
import type { RunRecord } from '../services/runs/run-model';
import type { RunOutput } from '../services/runs/run-output';
import type { LiveRelay, SharedView } from './live-relay';

/** A load run's view in Redis: what get-test-result and chart-data answer on another replica. */
export interface LoadRunView {
  record: RunRecord;
  histogram: EncodedHistogram | null;
}

/**
 * The run output that shares a load run with the other replicas (docs/adr/0020-server-replicas.md):
 * each second's snapshot as the live stream sends it, the run's view refreshed each second, and `end`
 * once the run is stored. It stops after the database output, so `end` follows the stored result.
 */
export class RelayOutput implements RunOutput {
  readonly description = 'replica relay';
  private readonly view: SharedView;

  constructor(
    private readonly run: LiveRun,
    private readonly relay: LiveRelay,
  ) {
    this.view = relay.shareView(run.id, (): LoadRunView => ({
      record: run.toRecord(),
      histogram: run.histogram(),
    }));
  }

  addSnapshot(snapshot: RunSnapshot): void {
    this.relay.publish(this.run.id, { type: 'snapshot', snapshot: this.run.snapshotView(snapshot) });
    this.view.refresh();
  }

  stop(): Promise<void> {
    this.view.stop();
    this.relay.publish(this.run.id, { type: 'end' });
    return Promise.resolve();
  }
}
