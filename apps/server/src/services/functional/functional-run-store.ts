import type { CallResult, FunctionalStatus, FunctionalSummary, Phrase } from '@aqa/plan';
import type { FunctionalRunUpdate, NewFunctionalRunRow } from '../../db/schema';
import type { FunctionalRunRepository } from '../../repositories/functional.repository';
import type { RunStore } from '../lifecycle/run-store';
import type { FunctionalRunEnding, RunNotices } from '../message.service';
import type { MessageText } from '../message-text';
import type { FunctionalPlanService } from './functional-plan.service';
import { headOf, LISTED_CALLS, type StoredCalls } from './functional-rows';

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
  /** Its owner's message, as its kind's adapter words it. */
  notice: FunctionalRunEnding;
}

/** How a run ended, in the terms its row and its message share. */
export interface FunctionalEnding {
  status: Exclude<FunctionalStatus, 'running'>;
  error: string | null;
  /** `error` as a phrase (docs/adr/0025-phrases.md); null when it has none. */
  error_phrase: Phrase | null;
  summary: FunctionalSummary;
  calls: StoredCalls;
  endTime: string;
}

/** The screenshot ids the calls link to (a UI step's). */
export function screenshotIdsOf(calls: readonly CallResult[]): string[] {
  return calls.flatMap((call) => call.ui?.screenshots.map((shot) => shot.id) ?? []);
}

/**
 * A run's ending in its table's terms, and its owner's message: the run's row keeps its calls and the
 * head the list shows (LISTED_CALLS), the screenshots its calls link to stay.
 */
export function functionalRunEnded(
  run: { id: string; userId: string; workspaceId: string; planId: string | null; name: string },
  { status, error, error_phrase, summary, calls, endTime }: FunctionalEnding,
): FunctionalRunEnded {
  return {
    changes: {
      status,
      end_time: endTime,
      error,
      error_phrase: error_phrase === null ? null : JSON.stringify(error_phrase),
      summary: JSON.stringify(summary),
      result: JSON.stringify(calls),
      head: JSON.stringify(headOf(calls, LISTED_CALLS)),
    },
    linkedScreenshots: screenshotIdsOf(calls.validation_results),
    planId: run.planId,
    notice: {
      id: run.id,
      userId: run.userId,
      workspaceId: run.workspaceId,
      name: run.name,
      status,
      summary,
      error,
      error_phrase,
    },
  };
}

/**
 * The `functional_runs` table as the run lifecycle writes it (docs/run-lifecycle.md §2). A run's status
 * is also its saved plan's: `running` as it starts, its final status once stored.
 */
export class FunctionalRunStore implements RunStore<
  FunctionalRunStarted,
  FunctionalRunEnded,
  FunctionalRunEnding
> {
  readonly table = 'functional_runs' as const;

  constructor(
    private readonly runs: FunctionalRunRepository,
    private readonly plans: FunctionalPlanService,
    /** Told of every run that ends, once it is stored (docs/reference/02-running.md §2 "Messages"). */
    private readonly notices: RunNotices,
  ) {}

  async insertStarted(row: FunctionalRunStarted, serverId: string | null): Promise<void> {
    await this.runs.insert({ ...row, server_id: serverId });
    if (row.plan_id !== null) await this.plans.setStatus(row.workspace_id, row.plan_id, 'running');
  }

  async storeEnding(id: string, ended: FunctionalRunEnded, unfinishedOnly = false): Promise<boolean> {
    const mine = await this.runs.end(id, ended.changes, ended.linkedScreenshots, unfinishedOnly);
    if (!mine) return false;
    if (ended.planId !== null)
      await this.plans.setStatus(ended.notice.workspaceId, ended.planId, ended.notice.status);
    return true;
  }

  async notify(
    id: string,
    { notice }: FunctionalRunEnded,
    message: (run: FunctionalRunEnding) => MessageText,
  ): Promise<void> {
    await this.notices.runEnded(
      { table: this.table, id, userId: notice.userId, workspaceId: notice.workspaceId },
      () => message(notice),
    );
  }
}
