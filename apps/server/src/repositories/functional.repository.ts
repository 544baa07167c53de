import { sql } from 'kysely';
import type { Db } from '../db/database';
import type {
  FunctionalPlanRow,
  FunctionalPlanUpdate,
  FunctionalRunRow,
  FunctionalRunUpdate,
  NewFunctionalPlanRow,
  NewFunctionalRunRow,
  NewFunctionalScreenshotRow,
} from '../db/schema';

/**
 * The functional_plans table. As with performance plans, every read and write names the owner, so
 * another user's plan is simply not found. Each write is one statement.
 */
export class FunctionalPlanRepository {
  constructor(private readonly db: Db) {}

  insert(plan: NewFunctionalPlanRow): Promise<FunctionalPlanRow> {
    return this.db.insertInto('functional_plans').values(plan).returningAll().executeTakeFirstOrThrow();
  }

  findInWorkspace(workspaceId: string, id: string): Promise<FunctionalPlanRow | undefined> {
    return this.db
      .selectFrom('functional_plans')
      .selectAll()
      .where('id', '=', id)
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirst();
  }

  /** Whether the user has the plan, without reading its body. */
  async existsInWorkspace(workspaceId: string, id: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('functional_plans')
      .select('id')
      .where('id', '=', id)
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Newest first; ties broken by id so the order is stable. */
  listInWorkspace(workspaceId: string): Promise<FunctionalPlanRow[]> {
    return this.db
      .selectFrom('functional_plans')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  }

  /**
   * Replaces the plan and moves its version on by one; undefined when the user has no such plan, or —
   * when `version` is given — when the stored plan is no longer at that version (one statement, as the
   * performance plans' update).
   */
  updateInWorkspace(
    workspaceId: string,
    id: string,
    changes: FunctionalPlanUpdate,
    version?: number,
  ): Promise<FunctionalPlanRow | undefined> {
    let query = this.db
      .updateTable('functional_plans')
      .set({ ...changes, version: sql<number>`version + 1` })
      .where('id', '=', id)
      .where('workspace_id', '=', workspaceId);
    if (version !== undefined) query = query.where('version', '=', version);
    return query.returningAll().executeTakeFirst();
  }

  /** Sets the plan's status; a plan the user no longer has is left alone. */
  async setStatusInWorkspace(workspaceId: string, id: string, status: string): Promise<void> {
    await this.db
      .updateTable('functional_plans')
      .set({ status })
      .where('id', '=', id)
      .where('workspace_id', '=', workspaceId)
      .execute();
  }

  async deleteInWorkspace(workspaceId: string, id: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('functional_plans')
      .where('id', '=', id)
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }
}

/** A run's columns but its stored calls (`result`, and `head`, the list's copy of the first few). */
const RUN_FACTS = [
  'id',
  'user_id',
  'workspace_id',
  'plan_id',
  'test_name',
  'description',
  'status',
  'test_type',
  'source',
  'kind',
  'config',
  'start_time',
  'end_time',
  'error',
  'error_phrase',
  'summary',
  'server_id',
] as const;

/** The functional_runs table; every read and write names the owner, except start-up recovery. */
export class FunctionalRunRepository {
  constructor(private readonly db: Db) {}

  async insert(run: NewFunctionalRunRow): Promise<void> {
    await this.db.insertInto('functional_runs').values(run).execute();
  }

  /** The whole run; `head`, the list's copy of its first calls, is left out. */
  findInWorkspace(workspaceId: string, id: string): Promise<Omit<FunctionalRunRow, 'head'> | undefined> {
    return this.db
      .selectFrom('functional_runs')
      .select([...RUN_FACTS, 'result'])
      .where('id', '=', id)
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirst();
  }

  /** The stored status of the user's run, without its result; undefined when they have no such run. */
  async findStatusInWorkspace(workspaceId: string, id: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('functional_runs')
      .select('status')
      .where('id', '=', id)
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirst();
    return row?.status;
  }

  /**
   * The user's runs, newest first (ties broken by id), each with only the calls the list shows: `result`
   * holds the run's `head`, written when it ended, so no run's thousands of calls are read. With
   * `limit`, only the newest that many runs.
   */
  listHeadsInWorkspace(workspaceId: string, limit?: number): Promise<Omit<FunctionalRunRow, 'head'>[]> {
    let query = this.db
      .selectFrom('functional_runs')
      .select([...RUN_FACTS, 'head as result'])
      .where('workspace_id', '=', workspaceId)
      .orderBy('start_time', 'desc')
      .orderBy('id', 'desc');
    if (limit !== undefined) query = query.limit(limit);
    return query.execute();
  }

  /** Runs a dead server left running (start-up recovery; every user's). */
  unfinished(): Promise<FunctionalRunRow[]> {
    return this.db.selectFrom('functional_runs').selectAll().where('status', '=', 'running').execute();
  }

  /** Writes a row of the calls a running run has judged (docs/adr/0016-crash-recovery.md). */
  async insertCalls(runId: string, seq: number, calls: string): Promise<void> {
    await this.db.insertInto('functional_run_calls').values({ run_id: runId, seq, calls }).execute();
  }

  /** The rows of judged calls a run has written, in the order written (JSON text each). */
  async callsOf(runId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('functional_run_calls')
      .select('calls')
      .where('run_id', '=', runId)
      .orderBy('seq')
      .execute();
    return rows.map((row) => row.calls);
  }

  /**
   * Stores a run's ending, and in the same transaction removes its checkpointed calls and every
   * screenshot of it that none of its kept calls links to (a step stopped or cut short after its
   * screenshot). With `unfinishedOnly`, only while the run is still running: of two replicas ending it
   * at once, one does (docs/adr/0020-server-replicas.md). True when this call ended it.
   */
  end(
    id: string,
    changes: FunctionalRunUpdate,
    linkedScreenshots: readonly string[],
    unfinishedOnly = false,
  ): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      let update = trx.updateTable('functional_runs').set(changes).where('id', '=', id);
      if (unfinishedOnly) update = update.where('status', '=', 'running');
      const ended = await update.executeTakeFirst();
      if (ended.numUpdatedRows === 0n) return false;
      await trx.deleteFrom('functional_run_calls').where('run_id', '=', id).execute();
      let unlinked = trx.deleteFrom('functional_screenshots').where('run_id', '=', id);
      if (linkedScreenshots.length > 0) unlinked = unlinked.where('id', 'not in', [...linkedScreenshots]);
      await unlinked.execute();
      return true;
    });
  }

  /**
   * Stored evidence linked to nothing (docs/adr/0016-crash-recovery.md): screenshots of runs that no
   * longer exist (a store edited with its foreign keys off), screenshots of runs a restart ended before
   * their calls were checkpointed (those have no result), and checkpointed calls of runs no longer
   * running. Answers how many rows of each went.
   */
  async collectOrphans(): Promise<{ screenshots: number; calls: number }> {
    const gone = await this.db
      .deleteFrom('functional_screenshots')
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('functional_runs as r')
              .select('r.id')
              .whereRef('r.id', '=', 'functional_screenshots.run_id'),
          ),
        ),
      )
      .executeTakeFirst();
    const unlinked = await this.db
      .deleteFrom('functional_screenshots')
      .where('run_id', 'in', (eb) =>
        eb
          .selectFrom('functional_runs')
          .select('id')
          .where('status', '!=', 'running')
          .where('result', 'is', null),
      )
      .executeTakeFirst();
    const calls = await this.db
      .deleteFrom('functional_run_calls')
      .where('run_id', 'not in', (eb) =>
        eb.selectFrom('functional_runs').select('id').where('status', '=', 'running'),
      )
      .executeTakeFirst();
    return {
      screenshots: Number(gone.numDeletedRows + unlinked.numDeletedRows),
      calls: Number(calls.numDeletedRows),
    };
  }

  /** Deletes an ended run; false when the user has no such run or it is still running. */
  async deleteEndedInWorkspace(workspaceId: string, id: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('functional_runs')
      .where('id', '=', id)
      .where('workspace_id', '=', workspaceId)
      .where('status', '!=', 'running')
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }
}

/**
 * The functional_screenshots table: a UI run's JPEGs (docs/design.md §9 "UI tests"). They are written
 * while the run is live and read only through the run's owner; they go with the run (ON DELETE CASCADE),
 * and those its stored steps do not link to go when it ends (FunctionalRunRepository#end).
 */
export class FunctionalScreenshotRepository {
  constructor(private readonly db: Db) {}

  async insert(shot: NewFunctionalScreenshotRow): Promise<void> {
    await this.db.insertInto('functional_screenshots').values(shot).execute();
  }

  /** The JPEG of a screenshot of the user's run; undefined when either is not theirs or not there. */
  async findJpegInWorkspace(workspaceId: string, runId: string, id: string): Promise<Buffer | undefined> {
    const row = await this.db
      .selectFrom('functional_screenshots as s')
      .innerJoin('functional_runs as r', 'r.id', 's.run_id')
      .select('s.jpeg')
      .where('s.id', '=', id)
      .where('s.run_id', '=', runId)
      .where('r.workspace_id', '=', workspaceId)
      .executeTakeFirst();
    if (row === undefined) return undefined;
    // libsql reads a blob as an ArrayBuffer, node-postgres a bytea as a Buffer.
    return row.jpeg instanceof Uint8Array ? Buffer.from(row.jpeg) : Buffer.from(row.jpeg);
  }
}
