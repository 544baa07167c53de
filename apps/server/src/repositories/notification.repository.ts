import type { Db } from '../db/database';
import { lockUserForTransaction } from '../db/dialect';
import type { NotificationAttemptRow, NotificationChannelRow, NotificationDeliveryRow } from '../db/schema';
import type { RunTable } from './server-instance.repository';

/** The plan families a channel is chosen for: load plans (`plans`) and API, script and UI plans (`functional_plans`). */
export type PlanFamily = 'load' | 'functional';

/** What a notice says of an ended run, read from its table (docs/adr/0032-notifications-out.md). */
export interface RunFacts {
  id: string;
  planId: string | null;
  kind: string;
  status: string;
  startedAt: string;
  endedAt: string | null;
  /** JSON of its summary, or null. */
  summary: string | null;
}

/** An earlier run of the same plan and the kind of its message (completed, threshold_failed, …). */
export interface EarlierRun {
  status: string;
  summary: string | null;
  messageKind: string | null;
}

/**
 * The notification tables (migration 0024): channels, each plan's choice of them, the outbox of
 * deliveries and their attempts; and the few facts of a run a notice reads from the run tables.
 */
export class NotificationRepository {
  constructor(private readonly db: Db) {}

  /** Inserts the channel unless its user has `limit` already (counted under the user's lock); false then. */
  insertChannelWithinLimit(row: NotificationChannelRow, limit: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      await lockUserForTransaction(trx, row.user_id);
      const { n } = await trx
        .selectFrom('notification_channels')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', row.user_id)
        .executeTakeFirstOrThrow();
      if (Number(n) >= limit) return false;
      await trx.insertInto('notification_channels').values(row).execute();
      return true;
    });
  }

  listChannels(workspaceId: string): Promise<NotificationChannelRow[]> {
    return this.db
      .selectFrom('notification_channels')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .execute();
  }

  findChannel(workspaceId: string, id: string): Promise<NotificationChannelRow | undefined> {
    return this.db
      .selectFrom('notification_channels')
      .selectAll()
      .where('id', '=', id)
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirst();
  }

  /** Deletes the channel with its plan choices, deliveries and attempts; false when the user has none such. */
  deleteChannel(workspaceId: string, id: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const found = await trx
        .selectFrom('notification_channels')
        .select('id')
        .where('id', '=', id)
        .where('workspace_id', '=', workspaceId)
        .executeTakeFirst();
      if (found === undefined) return false;
      const deliveries = trx.selectFrom('notification_deliveries').select('id').where('channel_id', '=', id);
      await trx.deleteFrom('notification_attempts').where('delivery_id', 'in', deliveries).execute();
      await trx.deleteFrom('notification_deliveries').where('channel_id', '=', id).execute();
      await trx.deleteFrom('notification_plan_channels').where('channel_id', '=', id).execute();
      await trx.deleteFrom('notification_channels').where('id', '=', id).execute();
      return true;
    });
  }

  /** Whether the user owns the plan of that family. */
  async ownsPlan(workspaceId: string, family: PlanFamily, planId: string): Promise<boolean> {
    const table = family === 'load' ? 'plans' : 'functional_plans';
    const row = await this.db
      .selectFrom(table)
      .select('id')
      .where('id', '=', planId)
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirst();
    return row !== undefined;
  }

  async planChannelIds(workspaceId: string, family: PlanFamily, planId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('notification_plan_channels')
      .select('channel_id')
      .where('workspace_id', '=', workspaceId)
      .where('plan_kind', '=', family)
      .where('plan_id', '=', planId)
      .orderBy('channel_id')
      .execute();
    return rows.map((row) => row.channel_id);
  }

  /** Replaces the plan's channels (each already checked to be the user's). */
  async setPlanChannels(
    workspaceId: string,
    actorId: string,
    family: PlanFamily,
    planId: string,
    ids: readonly string[],
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .deleteFrom('notification_plan_channels')
        .where('workspace_id', '=', workspaceId)
        .where('plan_kind', '=', family)
        .where('plan_id', '=', planId)
        .execute();
      if (ids.length === 0) return;
      await trx
        .insertInto('notification_plan_channels')
        .values(
          ids.map((channel_id) => ({
            user_id: actorId,
            workspace_id: workspaceId,
            plan_kind: family,
            plan_id: planId,
            channel_id,
          })),
        )
        .execute();
    });
  }

  /** The channels chosen for the plan, of their owner. */
  planChannels(workspaceId: string, family: PlanFamily, planId: string): Promise<NotificationChannelRow[]> {
    return this.db
      .selectFrom('notification_plan_channels as p')
      .innerJoin('notification_channels as c', 'c.id', 'p.channel_id')
      .selectAll('c')
      .where('p.workspace_id', '=', workspaceId)
      .where('c.workspace_id', '=', workspaceId)
      .where('p.plan_kind', '=', family)
      .where('p.plan_id', '=', planId)
      .orderBy('c.id')
      .execute();
  }

  /**
   * The channels of the schedule that started the run (docs/adr/0031-schedules.md), of their owner: the
   * schedule's row names the run it started, written as soon as the start returned — before the run,
   * which starts a worker and makes its calls first, can end.
   */
  async scheduleChannels(workspaceId: string, runId: string): Promise<NotificationChannelRow[]> {
    const schedules = await this.db
      .selectFrom('schedules')
      .select('channel_ids')
      .where('workspace_id', '=', workspaceId)
      .where('last_run_id', '=', runId)
      .where('last_outcome', '=', 'started')
      .execute();
    const ids = [...new Set(schedules.flatMap((row) => JSON.parse(row.channel_ids) as string[]))];
    if (ids.length === 0) return [];
    return this.db
      .selectFrom('notification_channels')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('id', 'in', ids)
      .orderBy('id')
      .execute();
  }

  /** The facts of an ended run of the user's, from its table. */
  async runFacts(table: RunTable, workspaceId: string, id: string): Promise<RunFacts | undefined> {
    if (table === 'runs') {
      const row = await this.db
        .selectFrom('runs')
        .select(['id', 'plan_id', 'kind', 'status', 'started_at', 'ended_at', 'summary'])
        .where('id', '=', id)
        .where('workspace_id', '=', workspaceId)
        .executeTakeFirst();
      return row === undefined
        ? undefined
        : {
            id: row.id,
            planId: row.plan_id,
            kind: row.kind,
            status: row.status,
            startedAt: row.started_at,
            endedAt: row.ended_at,
            summary: row.summary,
          };
    }
    const row = await this.db
      .selectFrom('functional_runs')
      .select(['id', 'plan_id', 'kind', 'status', 'start_time', 'end_time', 'summary'])
      .where('id', '=', id)
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirst();
    return row === undefined
      ? undefined
      : {
          id: row.id,
          planId: row.plan_id,
          kind: row.kind,
          status: row.status,
          startedAt: row.start_time,
          endedAt: row.end_time,
          summary: row.summary,
        };
  }

  /**
   * The run of the same plan that ended before this one (started before it), skipping runs stopped by
   * hand and runs still going; with the kind of its message.
   */
  async earlierRun(
    table: RunTable,
    workspaceId: string,
    planId: string,
    run: RunFacts,
  ): Promise<EarlierRun | undefined> {
    const skipped = ['stopped', 'running', 'processing'];
    if (table === 'runs') {
      const row = await this.db
        .selectFrom('runs')
        .leftJoin('messages', 'messages.run_id', 'runs.id')
        .select(['runs.status', 'runs.summary', 'messages.kind as messageKind'])
        .where('runs.workspace_id', '=', workspaceId)
        .where('runs.plan_id', '=', planId)
        .where('runs.id', '!=', run.id)
        .where('runs.started_at', '<=', run.startedAt)
        .where('runs.status', 'not in', skipped)
        .orderBy('runs.started_at', 'desc')
        .orderBy('runs.id', 'desc')
        .executeTakeFirst();
      return row;
    }
    return this.db
      .selectFrom('functional_runs')
      .leftJoin('messages', 'messages.functional_run_id', 'functional_runs.id')
      .select(['functional_runs.status', 'functional_runs.summary', 'messages.kind as messageKind'])
      .where('functional_runs.workspace_id', '=', workspaceId)
      .where('functional_runs.plan_id', '=', planId)
      .where('functional_runs.id', '!=', run.id)
      .where('functional_runs.start_time', '<=', run.startedAt)
      .where('functional_runs.status', 'not in', skipped)
      .orderBy('functional_runs.start_time', 'desc')
      .orderBy('functional_runs.id', 'desc')
      .executeTakeFirst();
  }

  async insertDelivery(row: NotificationDeliveryRow): Promise<void> {
    await this.db.insertInto('notification_deliveries').values(row).execute();
  }

  findDelivery(id: string): Promise<NotificationDeliveryRow | undefined> {
    return this.db.selectFrom('notification_deliveries').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Deliveries still to attempt (pending or retrying), oldest first: what a start-up resumes. */
  unsentDeliveries(): Promise<NotificationDeliveryRow[]> {
    return this.db
      .selectFrom('notification_deliveries')
      .selectAll()
      .where('status', 'in', ['pending', 'retrying'])
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  /**
   * Takes the delivery's attempt number `attempt` (counting it), unless another process has taken it or
   * the delivery is no longer to send; false then. Several replicas resuming the same outbox attempt
   * each number once.
   */
  async claimAttempt(id: string, attempt: number, at: string): Promise<boolean> {
    const result = await this.db
      .updateTable('notification_deliveries')
      .set({ attempts: attempt, updated_at: at })
      .where('id', '=', id)
      .where('attempts', '=', attempt - 1)
      .where('status', 'in', ['pending', 'retrying'])
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Logs an attempt and moves its delivery on (retrying with its next time, sent or failed). */
  async recordAttempt(
    attempt: NotificationAttemptRow,
    status: 'retrying' | 'sent' | 'failed',
    nextAttemptAt: string | null,
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('notification_attempts').values(attempt).execute();
      await trx
        .updateTable('notification_deliveries')
        .set({ status, next_attempt_at: nextAttemptAt, updated_at: attempt.ended_at })
        .where('id', '=', attempt.delivery_id)
        .execute();
    });
  }

  /** The channel's last `limit` deliveries, newest first. */
  listDeliveries(channelId: string, limit: number): Promise<NotificationDeliveryRow[]> {
    return this.db
      .selectFrom('notification_deliveries')
      .selectAll()
      .where('channel_id', '=', channelId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }

  attemptsOf(deliveryIds: readonly string[]): Promise<NotificationAttemptRow[]> {
    if (deliveryIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('notification_attempts')
      .selectAll()
      .where('delivery_id', 'in', deliveryIds)
      .orderBy('delivery_id')
      .orderBy('attempt')
      .execute();
  }

  /** Each of the channels' newest delivery with its newest attempt, by channel id (one query per channel: at most 50). */
  async lastDeliveries(
    channelIds: readonly string[],
  ): Promise<
    Map<string, { delivery: NotificationDeliveryRow; attempt: NotificationAttemptRow | undefined }>
  > {
    const newest = new Map<string, NotificationDeliveryRow>();
    for (const channelId of channelIds) {
      const [row] = await this.listDeliveries(channelId, 1);
      if (row !== undefined) newest.set(channelId, row);
    }
    const attempts = await this.attemptsOf([...newest.values()].map((d) => d.id));
    const lastAttempt = new Map<string, NotificationAttemptRow>();
    for (const attempt of attempts) lastAttempt.set(attempt.delivery_id, attempt);
    return new Map(
      [...newest].map(([channel, delivery]) => [
        channel,
        { delivery, attempt: lastAttempt.get(delivery.id) },
      ]),
    );
  }
}
