import type { EncodedHistogram, RunSnapshot } from '@aqa/engine';
import type { LiveRun } from '../services/runs/live-run';
import type { RunRecord } from '../services/runs/run-model';
import type { RunOutput } from '../services/runs/run-output';
import type { LiveRelay } from './live-relay';

/** How often the owner refreshes a run's view in Redis, whether or not a second was measured. */
const VIEW_REFRESH_MS = 1000;

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
  private readonly refreshing: NodeJS.Timeout;

  constructor(
    private readonly run: LiveRun,
    private readonly relay: LiveRelay,
  ) {
    this.refresh();
    this.refreshing = setInterval(() => this.refresh(), VIEW_REFRESH_MS);
    this.refreshing.unref();
  }

  addSnapshot(snapshot: RunSnapshot): void {
    this.relay.publish(this.run.id, { type: 'snapshot', snapshot: this.run.snapshotView(snapshot) });
    this.refresh();
  }

  stop(): Promise<void> {
    clearInterval(this.refreshing);
    this.relay.dropView(this.run.id);
    this.relay.publish(this.run.id, { type: 'end' });
    return Promise.resolve();
  }

  private refresh(): void {
    const view: LoadRunView = { record: this.run.toRecord(), histogram: this.run.histogram() };
    this.relay.writeView(this.run.id, view);
  }
}
