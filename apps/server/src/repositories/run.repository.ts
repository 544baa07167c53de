import { type RunsOnDay, UNFINISHED_STATUSES } from '@aqa/plan';
import { sql } from 'kysely';
import type { Db } from '../db/database';
import type {
  NewRunPointRow,
  NewRunProcessRow,
  NewRunRow,
  RunPointRow,
  RunProcessRow,
  RunRow,
  RunUpdate,
} from '../db/schema';

/** Rows per INSERT: 4 columns each stays far below SQLite's limit on bound parameters. */
const POINTS_PER_STATEMENT = 1000;

const UNFINISHED: readonly string[] = UNFINISHED_STATUSES;

/** The step_index of the whole run's points. */
const WHOLE_RUN = -1;

/** Every column a list of runs shows: all but the plan as run and the histogram, which can be large. */
const VIEW_COLUMNS = [
  'runs.id',
  'runs.user_id',
  'runs.workspace_id',
  'runs.plan_id',
  'runs.plan_name',
  'runs.status',
  'runs.tool',
  'runs.kind',
  'runs.engine',
  'runs.engine_note',
  'runs.concurrent_users',
  'runs.duration_seconds',
  'runs.started_at',
  'runs.ended_at',
  'runs.error',
  'runs.error_details',
  'runs.error_phrase',
  'runs.summary',
  'runs.api_results',
  'runs.errors',
  'runs.total_requests',
  'runs.error_rate',
  'runs.requests_per_second',
  'runs.average_response_time',
  'runs.percentile_95',
  'runs.test_name',
  'runs.notes',
  'runs.server_id',
  'runs.agents',
  'runs.abort',
] as const;

/** A run as lists show it, with its plan's baseline (to tell whether it is this run). */
export type RunViewRow = Omit<RunRow, 'config' | 'histogram'> & { plan_baseline_run_id: string | null };

export interface RunListQuery {
  planId?: string | undefined;
  status?: string | undefined;
  limit: number;
  offset: number;
}

/** How many of the user's runs are in each stored status. */
export type StatusCounts = Partial<Record<string, number>>;

/** Runs on one UTC day (YYYY-MM-DD), as GET /api/chart-data-summary answers them. */
export type { RunsOnDay } from '@aqa/plan';

export type DeleteOutcome = 'deleted' | 'unfinished' | 'not_found';

/**
 * The runs and run_points tables. Reads name the owner (another user's run is simply not found);
 * the writes of a run in progress go by its id, which only the server's run manager holds.
 */
export class RunRepository {
  constructor(private readonly db: Db) {}

  async insert(run: NewRunRow): Promise<void> {
    await this.db.insertInto('runs').values(run).execute();
  }

  findInWorkspace(workspaceId: string, id: string): Promise<RunRow | undefined> {
    return this.db
      .selectFrom('runs')
      .selectAll()
      .where('id', '=', id)
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirst();
  }

  /** The user's runs, newest first, optionally of one plan and in one status; with the total for paging. */
  async listInWorkspace(
    workspaceId: string,
    { planId, status, limit, offset }: RunListQuery,
  ): Promise<{ rows: RunViewRow[]; total: number }> {
    let query = this.db.selectFrom('runs').where('runs.workspace_id', '=', workspaceId);
    if (planId !== undefined) query = query.where('runs.plan_id', '=', planId);
    if (status !== undefined) query = query.where('runs.status', '=', status);
    const [rows, count] = await Promise.all([
      query
        .leftJoin('plans', 'plans.id', 'runs.plan_id')
        .select([...VIEW_COLUMNS, 'plans.baseline_run_id as plan_baseline_run_id'])
        .orderBy('runs.started_at', 'desc')
        .orderBy('runs.id')
        .limit(limit)
        .offset(offset)
        .execute(),
      query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.total) };
  }

  /** One run as lists show it; undefined when the user has no run with this id. */
  findViewInWorkspace(workspaceId: string, id: string): Promise<RunViewRow | undefined> {
    return this.db
      .selectFrom('runs')
      .leftJoin('plans', 'plans.id', 'runs.plan_id')
      .select([...VIEW_COLUMNS, 'plans.baseline_run_id as plan_baseline_run_id'])
      .where('runs.id', '=', id)
      .where('runs.workspace_id', '=', workspaceId)
      .executeTakeFirst();
  }

  /** Names a run and keeps notes on it; false when the user has no run with this id. */
  async annotateInWorkspace(
    workspaceId: string,
    id: string,
    changes: { test_name?: string | null; notes?: string },
  ): Promise<boolean> {
    if (changes.test_name === undefined && changes.notes === undefined) {
      return (await this.findInWorkspace(workspaceId, id)) !== undefined;
    }
    const result = await this.db
      .updateTable('runs')
      .set(changes)
      .where('id', '=', id)
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /**
   * Deletes a finished run, its points and any plan's baseline mark on it, all or nothing. A run
   * still going is left alone: its runner would keep writing points for a run that no longer exists.
   */
  deleteFinishedInWorkspace(workspaceId: string, id: string): Promise<DeleteOutcome> {
    return this.db.transaction().execute(async (trx): Promise<DeleteOutcome> => {
      const run = await trx
        .selectFrom('runs')
        .select('status')
        .where('id', '=', id)
        .where('workspace_id', '=', workspaceId)
        .executeTakeFirst();
      if (run === undefined) return 'not_found';
      if (UNFINISHED.includes(run.status)) return 'unfinished';
      await trx
        .updateTable('plans')
        .set({ baseline_run_id: null })
        .where('baseline_run_id', '=', id)
        .execute();
      await trx.deleteFrom('run_points').where('run_id', '=', id).execute();
      await trx.deleteFrom('runs').where('id', '=', id).where('workspace_id', '=', workspaceId).execute();
      return 'deleted';
    });
  }

  /** How many runs the user has in each stored status. */
  async statusCountsInWorkspace(workspaceId: string): Promise<StatusCounts> {
    const rows = await this.db
      .selectFrom('runs')
      .select(['status', (eb) => eb.fn.countAll<number>().as('count')])
      .where('workspace_id', '=', workspaceId)
      .groupBy('status')
      .execute();
    return Object.fromEntries(rows.map((row) => [row.status, Number(row.count)]));
  }

  /** When the user's latest run started; null when they have none. */
  async lastStartedAtInWorkspace(workspaceId: string): Promise<string | null> {
    const row = await this.db
      .selectFrom('runs')
      .select('started_at')
      .where('workspace_id', '=', workspaceId)
      .orderBy('started_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row?.started_at ?? null;
  }

  /** The user's runs by UTC day of their start: the latest `days` days that have runs, newest first. */
  async runsByDayInWorkspace(workspaceId: string, days: number): Promise<RunsOnDay[]> {
    const day = sql<string>`substr(started_at, 1, 10)`;
    const rows = await this.db
      .selectFrom('runs')
      .select([
        day.as('date'),
        (eb) => eb.fn.countAll<number>().as('total'),
        // case … end rather than sum(status = …): PostgreSQL does not add up booleans.
        sql<number>`sum(case when status = 'completed' then 1 else 0 end)`.as('completed'),
        sql<number>`sum(case when status in ('failed', 'interrupted') then 1 else 0 end)`.as('failed'),
      ])
      .where('workspace_id', '=', workspaceId)
      .groupBy(day)
      .orderBy(day, 'desc')
      .limit(days)
      .execute();
    return rows.map((row) => ({
      date: row.date,
      total: Number(row.total),
      completed: Number(row.completed),
      failed: Number(row.failed),
    }));
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

  /** The whole run's points (no per-step ones), by second. */
  wholeRunPointsOf(runId: string): Promise<RunPointRow[]> {
    return this.db
      .selectFrom('run_points')
      .selectAll()
      .where('run_id', '=', runId)
      .where('step_index', '=', WHOLE_RUN)
      .orderBy('second')
      .execute();
  }

  /** Runs a previous server process left running or processing (at start-up: none of them can finish). */
  unfinished(): Promise<RunRow[]> {
    return this.db.selectFrom('runs').selectAll().where('status', 'in', UNFINISHED).execute();
  }

  /** Stores the ending of a run left unfinished, unless it has ended meanwhile; false then. */
  async endUnfinished(id: string, changes: RunUpdate): Promise<boolean> {
    const result = await this.db
      .updateTable('runs')
      .set(changes)
      .where('id', '=', id)
      .where('status', 'in', UNFINISHED)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Records a tool process a run started (docs/adr/0016-crash-recovery.md). */
  async recordProcess(row: NewRunProcessRow): Promise<void> {
    await this.db
      .insertInto('run_processes')
      .values(row)
      .onConflict((oc) => oc.doNothing())
      .execute();
  }

  /** The tool processes still recorded: at start-up, those a server that died could not stop. */
  processes(): Promise<RunProcessRow[]> {
    return this.db.selectFrom('run_processes').selectAll().orderBy('started_at').execute();
  }

  /** Forgets the run's tool processes (its run has ended, or they were ended at start-up). */
  async forgetProcesses(runId: string): Promise<void> {
    await this.db.deleteFrom('run_processes').where('run_id', '=', runId).execute();
  }
}
