import { FINAL_STATUSES } from '@aqa/plan';
import { sql } from 'kysely';
import type { Db } from '../db/database';
import type { NewPlanRow, PlanRow, PlanUpdate } from '../db/schema';

/**
 * The plans table. Every read and write names the owner, so a plan of another user is simply not
 * found: no method can reach a row without its workspace_id (docs/adr/0035-workspaces-and-roles.md). Each write is one statement (atomic).
 */
export class PlanRepository {
  constructor(private readonly db: Db) {}

  async insert(plan: NewPlanRow): Promise<PlanRow> {
    return this.db.insertInto('plans').values(plan).returningAll().executeTakeFirstOrThrow();
  }

  findInWorkspace(workspaceId: string, id: string): Promise<PlanRow | undefined> {
    return this.db
      .selectFrom('plans')
      .selectAll()
      .where('id', '=', id)
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirst();
  }

  /** The user's plans, newest first (ties broken by id so pages never overlap). */
  listInWorkspace(
    workspaceId: string,
    page: { limit?: number | undefined; offset: number },
  ): Promise<PlanRow[]> {
    return (
      this.db
        .selectFrom('plans')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        // SQLite accepts OFFSET only after a LIMIT; PostgreSQL refuses SQLite's -1 for "no limit", so
        // "no limit" is the largest number both read.
        .limit(page.limit ?? Number.MAX_SAFE_INTEGER)
        .offset(page.offset)
        .execute()
    );
  }

  async countInWorkspace(workspaceId: string): Promise<number> {
    const row = await this.db
      .selectFrom('plans')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /**
   * Replaces the plan's fields and moves its version on by one; undefined when the user has no plan with
   * this id, or — when `version` is given — when the stored plan is no longer at that version. One
   * statement, so of two updates made from the same version exactly one is written.
   */
  async updateInWorkspace(
    workspaceId: string,
    id: string,
    changes: PlanUpdate,
    version?: number,
  ): Promise<PlanRow | undefined> {
    let query = this.db
      .updateTable('plans')
      .set({ ...changes, version: sql<number>`version + 1` })
      .where('id', '=', id)
      .where('workspace_id', '=', workspaceId);
    if (version !== undefined) query = query.where('version', '=', version);
    return query.returningAll().executeTakeFirst();
  }

  /**
   * Marks one of the plan's ended runs that measured requests (completed, or stopped or failed part-way)
   * as its baseline, or with null clears it. One statement that checks the run as it writes, so a run
   * deleted meanwhile can never be left as a baseline. False when nothing was written (no such plan, or
   * the run is not such a run of it).
   */
  async setBaselineInWorkspace(workspaceId: string, id: string, runId: string | null): Promise<boolean> {
    let query = this.db
      .updateTable('plans')
      .set({ baseline_run_id: runId })
      .where('id', '=', id)
      .where('workspace_id', '=', workspaceId);
    if (runId !== null) {
      query = query.where((eb) =>
        eb.exists(
          eb
            .selectFrom('runs')
            .select('runs.id')
            .where('runs.id', '=', runId)
            .whereRef('runs.plan_id', '=', 'plans.id')
            // The rule of services/history/comparable.ts, re-checked as the baseline is written.
            .where('runs.status', 'in', FINAL_STATUSES)
            .where('runs.total_requests', '>', 0),
        ),
      );
    }
    const result = await query.executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async deleteInWorkspace(workspaceId: string, id: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('plans')
      .where('id', '=', id)
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }
}
