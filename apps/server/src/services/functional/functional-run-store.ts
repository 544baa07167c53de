import type { FunctionalRunUpdate, NewFunctionalRunRow } from '../../db/schema';
import type { FunctionalRunRepository } from '../../repositories/functional.repository';
import type { RunStore } from '../lifecycle/run-store';
import type { FunctionalRunEnding, RunNotices } from '../message.service';
import type { FunctionalPlanService } from './functional-plan.service';

/** The row of an API, script or UI run as it starts (its server is the lifecycle's to say). */
export type FunctionalRunStarted = Omit<NewFunctionalRunRow, 'server_id' | 'plan_id'> & {
  plan_id: string | null;
};

/** How an API, script or UI run ended, as its row stores it and its message tells it. */
export interface FunctionalRunEnded {
  /** The run row's columns its ending writes. */
  changes: FunctionalRunUpdate;
  /** The screenshots its kept calls link to: the others go with its ending. */
  linkedScreenshots: readonly string[];
  /** Its saved plan, whose status becomes the run's; null for a plan run unsaved. */
  planId: string | null;
  /** Its owner's message. */
  notice: FunctionalRunEnding;
}

/**
 * The `functional_runs` table as the run lifecycle writes it (docs/run-lifecycle.md §2). A run's status
 * is also its saved plan's: `running` as it starts, its final status once stored.
 */
export class FunctionalRunStore implements RunStore<FunctionalRunStarted, FunctionalRunEnded> {
  readonly table = 'functional_runs' as const;

  constructor(
    private readonly runs: FunctionalRunRepository,
    private readonly plans: FunctionalPlanService,
    /** Told of every run that ends, once it is stored (docs/reference/02-running.md §2 "Messages"). */
    private readonly notices: RunNotices,
  ) {}

  async insertStarted(row: FunctionalRunStarted, serverId: string | null): Promise<void> {
    await this.runs.insert({ ...row, server_id: serverId });
    if (row.plan_id !== null) await this.plans.setStatus(row.user_id, row.plan_id, 'running');
  }

  async storeEnding(id: string, ended: FunctionalRunEnded, unfinishedOnly = false): Promise<boolean> {
    const mine = await this.runs.end(id, ended.changes, ended.linkedScreenshots, unfinishedOnly);
    if (!mine) return false;
    if (ended.planId !== null)
      await this.plans.setStatus(ended.notice.userId, ended.planId, ended.notice.status);
    return true;
  }

  async notify(_id: string, ended: FunctionalRunEnded): Promise<void> {
    await this.notices.functionalRunEnded(ended.notice);
  }
}
