import { type SchedulePlanKind, UNFINISHED_STATUSES } from '@aqa/plan';
import type { Db } from '../db/database';
import { lockUserForTransaction } from '../db/dialect';
import type { NewScheduleRow, ScheduleChanges, ScheduleRow } from '../db/schema';

/** A saved plan as a schedule names it: its kind, its name now, and its test type in the lists' words. */
export interface ScheduledPlan {
  id: string;
  kind: SchedulePlanKind;
  name: string;
  test_type: string;
}

/** What the last time a schedule came round left: docs/adr/0031-schedules.md "Firing". */
export type ScheduleOutcomeColumns = Pick<
  ScheduleRow,
  'last_run_at' | 'last_outcome' | 'last_run_id' | 'last_reason'
>;

const UNFINISHED: readonly string[] = UNFINISHED_STATUSES;

/** The schedules table, and what a schedule reads of the plan tables and the run tables. */
export class ScheduleRepository {
  constructor(private readonly db: Db) {}

  /**
   * Inserts the schedule unless its user already holds `limit`; false then. Counted and written in one
   * transaction holding the user's lock, as API tokens are (token.repository.ts).
   */
  insertWithinLimit(row: NewScheduleRow, limit: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      await lockUserForTransaction(trx, row.user_id);
      const { n } = await trx
        .selectFrom('schedules')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', row.user_id)
        .executeTakeFirstOrThrow();
      if (Number(n) >= limit) return false;
      await trx.insertInto('schedules').values(row).execute();
      return true;
    });
  }

  listInWorkspace(workspaceId: string): Promise<ScheduleRow[]> {
    return this.db
      .selectFrom('schedules')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .execute();
  }

  findInWorkspace(workspaceId: string, id: string): Promise<ScheduleRow | undefined> {
    return this.db
      .selectFrom('schedules')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  async updateInWorkspace(
    workspaceId: string,
    id: string,
    changes: ScheduleChanges,
  ): Promise<ScheduleRow | undefined> {
    await this.db
      .updateTable('schedules')
      .set(changes)
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .execute();
    return this.findInWorkspace(workspaceId, id);
  }

  async deleteInWorkspace(workspaceId: string, id: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('schedules')
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Deletes the schedules of a plan that is deleted (its two tables cannot hold one foreign key). */
  async deleteForPlan(workspaceId: string, planId: string): Promise<void> {
    await this.db
      .deleteFrom('schedules')
      .where('workspace_id', '=', workspaceId)
      .where('plan_id', '=', planId)
      .execute();
  }

  /** Enabled schedules whose next time is at or before `at` (ISO UTC), the most overdue first. */
  due(at: string, limit: number): Promise<ScheduleRow[]> {
    return this.db
      .selectFrom('schedules')
      .selectAll()
      .where('enabled', '=', 1)
      .where('next_run_at', '<=', at)
      .orderBy('next_run_at')
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  /**
   * Moves a due schedule on from the time `seen` to `next`, only if no one did so first: true for the one
   * replica whose update changed the row (docs/adr/0031-schedules.md "Once across replicas"). A single
   * conditional UPDATE: SQLite runs writers one at a time; PostgreSQL re-reads the row after the first
   * writer commits under READ COMMITTED, finds `next_run_at` moved, and changes nothing.
   */
  async claim(id: string, seen: string, next: string | null): Promise<boolean> {
    const result = await this.db
      .updateTable('schedules')
      .set({ next_run_at: next })
      .where('id', '=', id)
      .where('enabled', '=', 1)
      .where('next_run_at', '=', seen)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async recordOutcome(id: string, outcome: ScheduleOutcomeColumns): Promise<void> {
    await this.db.updateTable('schedules').set(outcome).where('id', '=', id).execute();
  }

  /** Which of `ids` are notification channels of the user's. */
  async ownChannels(workspaceId: string, ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('notification_channels')
      .select('id')
      .where('workspace_id', '=', workspaceId)
      .where('id', 'in', ids)
      .execute();
    return new Set(rows.map((row) => row.id));
  }

  /** The user's plan of either kind by id, or undefined: load plans first (their ids never collide, both are UUIDs). */
  async planOf(workspaceId: string, planId: string): Promise<ScheduledPlan | undefined> {
    const [plan] = await this.plansOf(workspaceId, [planId]);
    return plan;
  }

  /** The user's plans of either kind among `ids`. */
  async plansOf(workspaceId: string, ids: readonly string[]): Promise<ScheduledPlan[]> {
    if (ids.length === 0) return [];
    const load = await this.db
      .selectFrom('plans')
      .select(['id', 'name', 'test_type'])
      .where('workspace_id', '=', workspaceId)
      .where('id', 'in', ids)
      .execute();
    const functional = await this.db
      .selectFrom('functional_plans')
      .select(['id', 'name', 'kind'])
      .where('workspace_id', '=', workspaceId)
      .where('id', 'in', ids)
      .execute();
    return [
      ...load.map((row) => ({ id: row.id, kind: 'load' as const, name: row.name, test_type: row.test_type })),
      ...functional.map((row) => ({
        id: row.id,
        kind: 'functional' as const,
        name: row.name,
        test_type: row.kind,
      })),
    ];
  }

  /**
   * A run of the plan that has not ended, on any replica (the run tables are shared): its id, or
   * undefined. A schedule that comes round while one goes is skipped.
   */
  async runGoing(kind: SchedulePlanKind, planId: string): Promise<string | undefined> {
    if (kind === 'load') {
      const row = await this.db
        .selectFrom('runs')
        .select('id')
        .where('plan_id', '=', planId)
        .where('status', 'in', UNFINISHED)
        .executeTakeFirst();
      return row?.id;
    }
    const row = await this.db
      .selectFrom('functional_runs')
      .select('id')
      .where('plan_id', '=', planId)
      .where('status', '=', 'running')
      .executeTakeFirst();
    return row?.id;
  }
}
