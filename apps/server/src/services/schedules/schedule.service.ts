import { randomUUID } from 'node:crypto';
import {
  describeSchedule,
  nextRunTimes,
  type Schedule,
  type ScheduleCreate,
  type ScheduleList,
  type ScheduleOutcome,
  type SchedulePlanKind,
  SCHEDULE_MESSAGES,
  SCHEDULES_PER_USER,
  ScheduleCreateSchema,
  ScheduleUpdateSchema,
  type ScheduleUpdate,
} from '@aqa/plan';
import { type Clock, isoAt } from '../../clock';
import type { ScheduleRow } from '../../db/schema';
import { ConflictError, NotFoundError, ValidationError } from '../../errors';
import type { ScheduledPlan, ScheduleRepository } from '../../repositories/schedule.repository';
import type { AccountUser } from '../account-user';

function scheduleNotFound(): NotFoundError {
  return new NotFoundError('SCHEDULE_NOT_FOUND', SCHEDULE_MESSAGES.notFound);
}

/** The first time a schedule comes round after `nowMs`, or null while it is disabled. */
export function nextRunAt(
  row: Pick<ScheduleRow, 'cron' | 'timezone' | 'enabled'>,
  nowMs: number,
): string | null {
  if (row.enabled !== 1) return null;
  return nextRunTimes(row.cron, row.timezone, nowMs, 1)[0] ?? null;
}

/** A stored schedule as the API answers it, with its plan as it is now. */
function toSchedule(row: ScheduleRow, plan: ScheduledPlan | undefined, nowMs: number): Schedule {
  return {
    id: row.id,
    plan_id: row.plan_id,
    plan_kind: row.plan_kind as SchedulePlanKind,
    plan_name: plan?.name ?? '',
    test_type: plan?.test_type ?? '',
    cron: row.cron,
    timezone: row.timezone,
    description: describeSchedule(row.cron, row.timezone) ?? row.cron,
    enabled: row.enabled === 1,
    channel_ids: JSON.parse(row.channel_ids) as string[],
    next_runs: row.enabled === 1 ? nextRunTimes(row.cron, row.timezone, nowMs) : [],
    last_run:
      row.last_run_at === null
        ? null
        : {
            at: row.last_run_at,
            outcome: row.last_outcome as ScheduleOutcome,
            run_id: row.last_run_id,
            reason: row.last_reason,
          },
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/**
 * The caller's schedules (docs/adr/0031-schedules.md): another user's schedule, or a schedule of another
 * user's plan, is "not found". Firing them is the Scheduler's (scheduler.ts).
 */
export class ScheduleService {
  constructor(
    private readonly schedules: ScheduleRepository,
    private readonly now: Clock,
  ) {}

  async create(user: AccountUser, body: ScheduleCreate): Promise<Schedule> {
    const input = ScheduleCreateSchema.parse(body);
    const plan = await this.schedules.planOf(user.workspaceId, input.plan_id);
    if (plan === undefined) throw new NotFoundError('PLAN_NOT_FOUND', SCHEDULE_MESSAGES.planNotFound);
    const channels = await this.ownChannels(user, input.channel_ids);
    const nowMs = this.now();
    const at = isoAt(nowMs);
    const enabled = input.enabled ? 1 : 0;
    const row: ScheduleRow = {
      id: randomUUID(),
      user_id: user.id,
      workspace_id: user.workspaceId,
      plan_id: plan.id,
      plan_kind: plan.kind,
      cron: input.cron,
      timezone: input.timezone,
      enabled,
      next_run_at: nextRunAt({ ...input, enabled }, nowMs),
      last_run_at: null,
      last_outcome: null,
      last_run_id: null,
      last_reason: null,
      channel_ids: JSON.stringify(channels),
      created_at: at,
      updated_at: at,
    };
    if (!(await this.schedules.insertWithinLimit(row, SCHEDULES_PER_USER)))
      throw new ConflictError('TOO_MANY_SCHEDULES', SCHEDULE_MESSAGES.tooMany);
    return toSchedule(row, plan, nowMs);
  }

  async list(user: AccountUser): Promise<ScheduleList> {
    const rows = await this.schedules.listInWorkspace(user.workspaceId);
    const plans = await this.schedules.plansOf(user.workspaceId, [
      ...new Set(rows.map((row) => row.plan_id)),
    ]);
    const byId = new Map(plans.map((plan) => [plan.id, plan]));
    const nowMs = this.now();
    return { schedules: rows.map((row) => toSchedule(row, byId.get(row.plan_id), nowMs)) };
  }

  /** Changes when it runs, or turns it off and on; its next time is worked out again from now. */
  async update(user: AccountUser, id: string, body: ScheduleUpdate): Promise<Schedule> {
    const input = ScheduleUpdateSchema.parse(body);
    const row = await this.schedules.findInWorkspace(user.workspaceId, id);
    if (row === undefined) throw scheduleNotFound();
    const nowMs = this.now();
    const changed = {
      cron: input.cron ?? row.cron,
      timezone: input.timezone ?? row.timezone,
      enabled: input.enabled === undefined ? row.enabled : input.enabled ? 1 : 0,
    };
    const channels =
      input.channel_ids === undefined ? undefined : await this.ownChannels(user, input.channel_ids);
    const updated = await this.schedules.updateInWorkspace(user.workspaceId, id, {
      ...changed,
      ...(channels === undefined ? {} : { channel_ids: JSON.stringify(channels) }),
      next_run_at: nextRunAt(changed, nowMs),
      updated_at: isoAt(nowMs),
    });
    if (updated === undefined) throw scheduleNotFound();
    return toSchedule(updated, await this.schedules.planOf(user.workspaceId, updated.plan_id), nowMs);
  }

  /** The channel ids, once each, all the user's own; one that is not is refused naming the field. */
  private async ownChannels(user: AccountUser, ids: readonly string[]): Promise<string[]> {
    const unique = [...new Set(ids)];
    const mine = await this.schedules.ownChannels(user.workspaceId, unique);
    if (unique.some((id) => !mine.has(id)))
      throw new ValidationError([{ field: 'channel_ids', message: SCHEDULE_MESSAGES.unknownChannels }]);
    return unique;
  }

  async remove(user: AccountUser, id: string): Promise<void> {
    if (!(await this.schedules.deleteInWorkspace(user.workspaceId, id))) throw scheduleNotFound();
  }

  /** A deleted plan's schedules go with it. */
  async planDeleted(user: AccountUser, planId: string): Promise<void> {
    await this.schedules.deleteForPlan(user.workspaceId, planId);
  }
}
