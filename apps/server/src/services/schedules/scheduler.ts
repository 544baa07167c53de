import type { SchedulePlanKind } from '@aqa/plan';
import type { FastifyBaseLogger } from 'fastify';
import { type Clock, isoAt } from '../../clock';
import type { ScheduleRow } from '../../db/schema';
import { AppError } from '../../errors';
import type { ScheduleOutcomeColumns, ScheduleRepository } from '../../repositories/schedule.repository';
import { nextRunAt } from './schedule.service';

/** Starts a saved plan's run as the schedule's author, in its workspace; answers the run's id, or throws why not. */
export type StartScheduledRun = (schedule: {
  userId: string;
  workspaceId: string;
  planKind: SchedulePlanKind;
  planId: string;
}) => Promise<string>;

export interface SchedulerOptions {
  /** How often a replica looks for schedules that came round, in ms. */
  tickMs: number;
  /**
   * How late a time may be fired: a time further back than this (the server was down then) is recorded
   * `missed` and not run, so a server that was off for a night does not start the night's runs at once.
   */
  catchUpMs: number;
  /** Schedules fired per look, the most overdue first; the rest wait for the next look. */
  batch: number;
}

export const DEFAULT_SCHEDULER_OPTIONS: SchedulerOptions = {
  tickMs: 15_000,
  catchUpMs: 5 * 60_000,
  batch: 100,
};

export const SCHEDULER_REASONS = {
  missed: (at: string) => `The server was not running at ${at}, so this time was not run`,
  previousGoing: (runId: string) => `The previous run of this plan (${runId}) was still going`,
  planGone: 'The plan no longer exists',
  ownerGone: "The schedule's owner no longer exists",
} as const;

/**
 * Fires schedules (docs/adr/0031-schedules.md "Firing"). Every replica looks every `tickMs`; for each
 * schedule that came round, the one whose conditional update moves its `next_run_at` on (the
 * repository's `claim`) fires it and records what happened — started, skipped because the plan's
 * previous run still goes, not started and why, or missed — so a time runs once across replicas and
 * nothing is silently dropped.
 */
export class Scheduler {
  private timer: NodeJS.Timeout | undefined;
  private looking: Promise<void> | undefined;

  constructor(
    private readonly schedules: ScheduleRepository,
    private readonly now: Clock,
    private readonly startRun: StartScheduledRun,
    private readonly log: FastifyBaseLogger,
    private readonly options: SchedulerOptions = DEFAULT_SCHEDULER_OPTIONS,
  ) {}

  start(): void {
    if (this.timer !== undefined) return;
    this.timer = setInterval(() => void this.tick(), this.options.tickMs);
    this.timer.unref();
  }

  /** Stops looking; a look under way finishes first. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.looking;
  }

  /** One look: fires what came round. Looks never overlap on one replica. */
  tick(): Promise<void> {
    this.looking ??= this.fireDue()
      .catch((err: unknown) => this.log.error({ err }, 'Could not fire the schedules that came round'))
      .finally(() => {
        this.looking = undefined;
      });
    return this.looking;
  }

  private async fireDue(): Promise<void> {
    const nowMs = this.now();
    for (const row of await this.schedules.due(isoAt(nowMs), this.options.batch)) {
      const due = row.next_run_at;
      if (due === null) continue;
      // Moved on to the first time after now: several missed times are recorded once, as the last.
      if (!(await this.schedules.claim(row.id, due, nextRunAt(row, nowMs)))) continue;
      const outcome = await this.fire(row, due, nowMs);
      await this.schedules.recordOutcome(row.id, outcome);
    }
  }

  private async fire(row: ScheduleRow, due: string, nowMs: number): Promise<ScheduleOutcomeColumns> {
    const record = (last_outcome: string, last_run_id: string | null, last_reason: string | null) => ({
      last_run_at: due,
      last_outcome,
      last_run_id,
      last_reason,
    });
    if (nowMs - Date.parse(due) > this.options.catchUpMs)
      return record('missed', null, SCHEDULER_REASONS.missed(due));
    const kind = row.plan_kind as SchedulePlanKind;
    const going = await this.schedules.runGoing(kind, row.plan_id);
    if (going !== undefined) return record('skipped', going, SCHEDULER_REASONS.previousGoing(going));
    try {
      const runId = await this.startRun({
        userId: row.user_id,
        workspaceId: row.workspace_id,
        planKind: kind,
        planId: row.plan_id,
      });
      this.log.info({ schedule: row.id, runId }, 'Scheduled run started');
      return record('started', runId, null);
    } catch (error) {
      // Refused as a run started by hand would be (limits, target guard, a plan that cannot run): said in its words.
      if (!(error instanceof AppError))
        this.log.error({ err: error, schedule: row.id }, 'Scheduled run failed to start');
      return record('not_started', null, error instanceof Error ? error.message : String(error));
    }
  }
}
