import type { Baseline, ChartDataSummary, DeletedResult, PastRun } from '@aqa/plan';
import { ConflictError, NotFoundError, ValidationError } from '../../errors';
import type { PlanRepository } from '../../repositories/plan.repository';
import type { RunRepository } from '../../repositories/run.repository';
import type { AccountUser } from '../account-user';
import { PLAN_MESSAGES } from '../plan.service';
import { RUN_MESSAGES } from '../runs/run-request';
import type { RunService } from '../runs/run.service';
import { comparability } from './comparable';

export const HISTORY_MESSAGES = {
  deleteWhileRunning: 'Stop the test before deleting its result',
  baselineOfOtherPlan: 'This run is of another plan: a baseline must be a run of the plan itself',
} as const;

/** Days of runs the dashboard summary gives, counted among days that have runs. */
const SUMMARY_DAYS = 30;

/** POST /api/save-test-result: what to change; a field left out stays as it is. */
export interface RunAnnotationChange {
  test_id: string;
  /** Blank: the run is called by its plan's name again. */
  test_name?: string | undefined;
  notes?: string | undefined;
}

/**
 * The user's stored runs as a history: deleting one (with its series and any baseline mark on it),
 * naming it and keeping notes, the totals the dashboards show, and a plan's baseline run.
 */
export class HistoryService {
  constructor(
    private readonly runs: RunRepository,
    private readonly plans: PlanRepository,
    private readonly runService: RunService,
  ) {}

  async deleteRun(user: AccountUser, id: string): Promise<DeletedResult> {
    const outcome = await this.runs.deleteFinishedInWorkspace(user.workspaceId, id);
    if (outcome === 'not_found') throw runNotFound();
    if (outcome === 'unfinished') {
      throw new ConflictError('RUN_IN_PROGRESS', HISTORY_MESSAGES.deleteWhileRunning, {
        hint: 'Stop it with POST /api/stop-test/{id}, or wait for it to finish.',
      });
    }
    return { test_id: id, deleted: true };
  }

  async annotate(user: AccountUser, change: RunAnnotationChange): Promise<PastRun> {
    const testName = change.test_name?.trim();
    const found = await this.runs.annotateInWorkspace(user.workspaceId, change.test_id, {
      ...(testName === undefined ? {} : { test_name: testName === '' ? null : testName }),
      ...(change.notes === undefined ? {} : { notes: change.notes }),
    });
    if (!found) throw runNotFound();
    return this.runService.pastRun(user, change.test_id);
  }

  async summary(user: AccountUser): Promise<ChartDataSummary> {
    const [totalPlans, counts, lastRunAt, days] = await Promise.all([
      this.plans.countInWorkspace(user.workspaceId),
      this.runs.statusCountsInWorkspace(user.workspaceId),
      this.runs.lastStartedAtInWorkspace(user.workspaceId),
      this.runs.runsByDayInWorkspace(user.workspaceId, SUMMARY_DAYS),
    ]);
    const count = (status: string) => counts[status] ?? 0;
    return {
      total_plans: totalPlans,
      total_tests: Object.values(counts).reduce<number>((sum, n) => sum + (n ?? 0), 0),
      completed_tests: count('completed'),
      // An interrupted run ended without completing, as a failed one (docs/adr/0016-crash-recovery.md).
      failed_tests: count('failed') + count('interrupted'),
      running_tests: count('running') + count('processing'),
      stopped_tests: count('stopped'),
      last_run_at: lastRunAt,
      by_day: days.reverse(),
    };
  }

  async setBaseline(user: AccountUser, planId: string, testId: string | null): Promise<Baseline> {
    const plan = await this.plans.findInWorkspace(user.workspaceId, planId);
    if (plan === undefined) throw new NotFoundError('PLAN_NOT_FOUND', PLAN_MESSAGES.notFound);
    if (testId !== null) {
      const run = await this.runs.findInWorkspace(user.workspaceId, testId);
      if (run === undefined) throw runNotFound();
      if (run.plan_id !== planId) throw baselineRefused(HISTORY_MESSAGES.baselineOfOtherPlan);
      // A stopped or interrupted run that measured requests may be the baseline too (comparable.ts).
      const verdict = comparability(
        {
          test_id: run.id,
          status: run.status,
          results_summary: run.total_requests === null ? null : { total_requests: run.total_requests },
        },
        'baseline',
      );
      if (!verdict.ok) throw baselineRefused(verdict.message);
    }
    // Written only if the run is still an ended run of the plan with figures (it may have been deleted meanwhile).
    if (!(await this.plans.setBaselineInWorkspace(user.workspaceId, planId, testId))) throw runNotFound();
    return { plan_id: planId, baseline_test_id: testId };
  }
}

function runNotFound(): NotFoundError {
  return new NotFoundError('RUN_NOT_FOUND', RUN_MESSAGES.notFound);
}

function baselineRefused(message: string): ValidationError {
  return new ValidationError([{ field: 'test_id', message }], { code: 'BASELINE_REFUSED' });
}
