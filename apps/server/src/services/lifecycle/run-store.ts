import { randomBytes } from 'node:crypto';
import { TEST_KINDS, type TestKind } from '@aqa/plan';
import type { RunTable } from '../../repositories/server-instance.repository';
import type { MessageText } from '../message-text';

/**
 * One table of runs as the run lifecycle writes it (docs/run-lifecycle.md §2): load runs in `runs`, API,
 * script and UI runs in `functional_runs`. The two tables name their columns differently
 * (`started_at`/`plan_name` against `start_time`/`test_name`), so each is written once, in its
 * repository's terms, by its own store (`runs/load-run-store.ts`, `functional/functional-run-store.ts`);
 * the lifecycle calls them in the same order for every kind.
 */
export interface RunStore<Started, Ended, Outcome> {
  /** The table, as the other replicas are asked about it (docs/adr/0020-server-replicas.md). */
  readonly table: RunTable;
  /** Inserts the row of a run that starts now on the server `serverId` (null: before scale-out). */
  insertStarted(started: Started, serverId: string | null): Promise<void>;
  /**
   * Stores the run's ending, its last write. With `unfinishedOnly`, only while its stored status is
   * still unfinished, so that of two replicas ending a dead server's run one does (docs/adr/0016-crash-recovery.md).
   * True when this call ended it.
   */
  storeEnding(id: string, ended: Ended, unfinishedOnly?: boolean): Promise<boolean>;
  /**
   * Tells the run's owner it ended: its one message (docs/reference/02-running.md §2 "Messages"), in the
   * words of its kind's adapter (`message`, run-kind.ts). Never rejects.
   */
  notify(id: string, ended: Ended, message: (outcome: Outcome) => MessageText): Promise<void>;
}

/** A new run's id: its kind's prefix (`TEST_KINDS`), then 96 random bits. */
export function newRunId(kind: TestKind): string {
  return `${TEST_KINDS[kind].idPrefix}${randomBytes(12).toString('base64url')}`;
}
