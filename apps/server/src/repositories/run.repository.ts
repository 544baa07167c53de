import type { Db } from '../db/database';
import type { NewRunPointRow, NewRunRow, RunPointRow, RunRow, RunUpdate } from '../db/schema';

/** Rows per INSERT: 4 columns each stays far below SQLite's limit on bound parameters. */
const POINTS_PER_STATEMENT = 1000;

const UNFINISHED = ['running', 'processing'];

/**
 * The runs and run_points tables. Reads name the owner (another user's run is simply not found);
 * the writes of a run in progress go by its id, which only the server's run manager holds.
 */
export class RunRepository {
  constructor(private readonly db: Db) {}

  async insert(run: NewRunRow): Promise<void> {
    await this.db.insertInto('runs').values(run).execute();
  }

  findForUser(userId: string, id: string): Promise<RunRow | undefined> {
    return this.db
      .selectFrom('runs')
      .selectAll()
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  /** The user's runs, newest first, optionally of one plan; with the total for paging. */
  async listForUser(
    userId: string,
    { planId, limit, offset }: { planId?: string | undefined; limit: number; offset: number },
  ): Promise<{ rows: RunRow[]; total: number }> {
    let query = this.db.selectFrom('runs').where('user_id', '=', userId);
    if (planId !== undefined) query = query.where('plan_id', '=', planId);
    const [rows, count] = await Promise.all([
      query.selectAll().orderBy('started_at', 'desc').orderBy('id').limit(limit).offset(offset).execute(),
      query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.total) };
  }

  async update(id: string, changes: RunUpdate): Promise<void> {
    await this.db.updateTable('runs').set(changes).where('id', '=', id).execute();
  }

  /** One second's points of a run (whole run and each step), in one transaction. */
  async insertPoints(points: NewRunPointRow[]): Promise<void> {
    if (points.length === 0) return;
    await this.db.transaction().execute(async (trx) => {
      for (let i = 0; i < points.length; i += POINTS_PER_STATEMENT) {
        await trx
          .insertInto('run_points')
          .values(points.slice(i, i + POINTS_PER_STATEMENT))
          .onConflict((oc) => oc.columns(['run_id', 'step_index', 'second']).doNothing())
          .execute();
      }
    });
  }

  /** The run's points, by step (whole run first) and second. */
  pointsOf(runId: string): Promise<RunPointRow[]> {
    return this.db
      .selectFrom('run_points')
      .selectAll()
      .where('run_id', '=', runId)
      .orderBy('step_index')
      .orderBy('second')
      .execute();
  }

  /** Marks every run still running or processing as failed; returns how many there were. */
  async failUnfinished(error: string, endedAt: string): Promise<number> {
    const result = await this.db
      .updateTable('runs')
      .set({ status: 'failed', error, ended_at: endedAt })
      .where('status', 'in', UNFINISHED)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }
}
