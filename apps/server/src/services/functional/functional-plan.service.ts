import { randomUUID } from 'node:crypto';
import type { FunctionalPlan } from '@aqa/plan';
import { type Clock, isoAt } from '../../clock';
import { NotFoundError } from '../../errors';
import { planChanged } from '../plan.service';
import type { FunctionalPlanRepository } from '../../repositories/functional.repository';
import type { AccountUser } from '../account-user';
import { refuseFunctionalPlanPatterns } from '../pattern-refusal';
import { NEVER_RUN_STATUS, planColumns, type SavedFunctionalPlan, toSavedPlan } from './functional-rows';

export const FUNCTIONAL_PLAN_MESSAGES = {
  deleted: 'Test plan deleted',
  notFound: 'Test plan not found',
} as const;

export function functionalPlanNotFound(): NotFoundError {
  return new NotFoundError('PLAN_NOT_FOUND', FUNCTIONAL_PLAN_MESSAGES.notFound);
}

/**
 * Saved functional plans (docs/reference/02-running.md §7), always those of the signed-in user:
 * another user's plan is "not found", never "forbidden", exactly as performance plans. The server
 * owns the id, the owner, the times and the status (the last run's); a body's own are ignored.
 */
export class FunctionalPlanService {
  constructor(
    private readonly plans: FunctionalPlanRepository,
    private readonly now: Clock,
  ) {}

  async save(user: AccountUser, plan: FunctionalPlan): Promise<SavedFunctionalPlan> {
    await refuseFunctionalPlanPatterns(plan);
    const at = isoAt(this.now());
    const row = await this.plans.insert({
      id: randomUUID(),
      user_id: user.id,
      workspace_id: user.workspaceId,
      ...planColumns(plan),
      status: NEVER_RUN_STATUS,
      created_at: at,
      updated_at: at,
    });
    return toSavedPlan(row, user.email);
  }

  /**
   * Replaces the plan (PUT): fields the body leaves out take their defaults; the status is kept. A body
   * that names the version it was made from is refused (409) when the plan moved on since
   * (docs/reference/01-authoring.md §7 "Plan versions").
   */
  async update(user: AccountUser, id: string, plan: FunctionalPlan): Promise<SavedFunctionalPlan> {
    await refuseFunctionalPlanPatterns(plan);
    const row = await this.plans.updateInWorkspace(
      user.workspaceId,
      id,
      { ...planColumns(plan), updated_at: isoAt(this.now()) },
      plan.version,
    );
    if (row === undefined) {
      if (plan.version !== undefined && (await this.plans.existsInWorkspace(user.workspaceId, id)))
        throw planChanged();
      throw functionalPlanNotFound();
    }
    return toSavedPlan(row, user.email);
  }

  async list(user: AccountUser): Promise<SavedFunctionalPlan[]> {
    const rows = await this.plans.listInWorkspace(user.workspaceId);
    return rows.map((row) => toSavedPlan(row, user.email));
  }

  async get(user: AccountUser, id: string): Promise<SavedFunctionalPlan> {
    const row = await this.plans.findInWorkspace(user.workspaceId, id);
    if (row === undefined) throw functionalPlanNotFound();
    return toSavedPlan(row, user.email);
  }

  /** Refuses (not found) an id that is not a plan of the user; the plan itself is not read. */
  async assertOwned(user: AccountUser, id: string): Promise<void> {
    if (!(await this.plans.existsInWorkspace(user.workspaceId, id))) throw functionalPlanNotFound();
  }

  async delete(user: AccountUser, id: string): Promise<void> {
    if (!(await this.plans.deleteInWorkspace(user.workspaceId, id))) throw functionalPlanNotFound();
  }

  /** A run's status becomes its plan's (the dashboard's Status column); a deleted plan is left alone. */
  async setStatus(workspaceId: string, id: string, status: string): Promise<void> {
    await this.plans.setStatusInWorkspace(workspaceId, id, status);
  }
}
