import { UNFINISHED_STATUSES } from '@aqa/plan';
import type { Db } from '../db/database';
import type { ServerInstanceRow } from '../db/schema';

/** A run still going: its server owns it until it is stored (docs/adr/0020-server-replicas.md). */
const UNFINISHED: readonly string[] = UNFINISHED_STATUSES;

/** The tables of runs a replica may own (load runs and functional runs). */
export type RunTable = 'runs' | 'functional_runs';
const RUN_TABLES: readonly RunTable[] = ['runs', 'functional_runs'];

/**
 * The server_instances table, and what the replicas read of the runs tables to tell whose runs are
 * whose (docs/adr/0020-server-replicas.md). The cluster code holds no query of its own.
 */
export class ServerInstanceRepository {
  constructor(private readonly db: Db) {}

  all(): Promise<ServerInstanceRow[]> {
    return this.db.selectFrom('server_instances').selectAll().execute();
  }

  async insert(row: ServerInstanceRow): Promise<void> {
    await this.db.insertInto('server_instances').values(row).execute();
  }

  /** Says the server was seen at `at`; false when its row is missing. */
  async touch(id: string, at: string): Promise<boolean> {
    const updated = await this.db
      .updateTable('server_instances')
      .set({ last_seen_at: at })
      .where('id', '=', id)
      .executeTakeFirst();
    return updated.numUpdatedRows > 0n;
  }

  async remove(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db.deleteFrom('server_instances').where('id', 'in', ids).execute();
  }

  /** The servers that own an unfinished run of either table, or a recorded tool process of a load run. */
  async owningServerIds(): Promise<Set<string>> {
    const owning = new Set<string>();
    for (const table of RUN_TABLES) {
      const rows = await this.db
        .selectFrom(table)
        .select('server_id')
        .distinct()
        .where('status', 'in', UNFINISHED)
        .where('server_id', 'is not', null)
        .execute();
      for (const row of rows) if (row.server_id !== null) owning.add(row.server_id);
    }
    const withProcesses = await this.db
      .selectFrom('run_processes')
      .innerJoin('runs', 'runs.id', 'run_processes.run_id')
      .select('runs.server_id')
      .distinct()
      .execute();
    for (const row of withProcesses) if (row.server_id !== null) owning.add(row.server_id);
    return owning;
  }

  /** How many of the user's runs (both tables) are unfinished on one of `serverIds`. */
  async unfinishedRunsOn(userId: string, serverIds: string[]): Promise<number> {
    if (serverIds.length === 0) return 0;
    let count = 0;
    for (const table of RUN_TABLES) {
      const row = await this.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('user_id', '=', userId)
        .where('status', 'in', UNFINISHED)
        .where('server_id', 'in', serverIds)
        .executeTakeFirst();
      count += Number(row?.count ?? 0);
    }
    return count;
  }

  /** Whether the run is still unfinished (a missing run is not). */
  async isUnfinished(table: RunTable, id: string): Promise<boolean> {
    const row = await this.db.selectFrom(table).select('status').where('id', '=', id).executeTakeFirst();
    return row !== undefined && UNFINISHED.includes(row.status);
  }

  /** The server that started each of these load runs (null for runs before migration 0013). */
  async serversOfRuns(runIds: string[]): Promise<Map<string, string | null>> {
    if (runIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('runs')
      .select(['id', 'server_id'])
      .where('id', 'in', runIds)
      .execute();
    return new Map(rows.map((row) => [row.id, row.server_id]));
  }
}
