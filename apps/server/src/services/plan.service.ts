import { randomUUID } from 'node:crypto';
import { scriptFileName } from '@aqa/converters';
import {
  type PerfPlan,
  PLAN_CHANGED_CODE,
  PLAN_VERSION_ERRORS,
  thresholdScopeProblems,
  withProfileTotals,
} from '@aqa/plan';
import { type Clock, isoAt } from '../clock';
import type { NewPlanRow } from '../db/schema';
import { planSearchText } from '../db/search-text';
import { ConflictError, NotFoundError, ValidationError } from '../errors';
import type { PlanRepository } from '../repositories/plan.repository';
import type { AccountUser } from './account-user';
import { refusePerfPlanPatterns } from './pattern-refusal';
import { DEFAULT_TEST_TYPE, planBody, rowToPlan, type SavedPlan, toSavedPlan } from './saved-plan';
import { isGeneratedScript, type Script, scriptFor } from './script.service';

export const PLAN_MESSAGES = {
  saved: 'Test plan saved successfully',
  updated: 'Test plan updated successfully',
  deleted: 'Test plan deleted',
  notFound: 'Test plan not found',
} as const;

export interface PlanPage {
  plans: SavedPlan[];
  /** Every plan of the user, before paging. */
  total: number;
}

/** The script as a download: the generator's for the plan, or the user's own when they edited it. */
export type DownloadedScript = Omit<Script, 'tool'>;

/**
 * Saved performance plans (docs/reference/01-authoring.md §7), always those of the signed-in user: another user's plan is
 * "not found", never "forbidden", so ids of other users' plans cannot be probed.
 *
 * The script: a plan saved with a script keeps it; one saved without gets the generator's script for
 * its tool. A sent script that differs from the generator's output is marked script_edited, and
 * download then returns it as saved; otherwise download generates afresh, so a plan saved before a
 * generator fix downloads the fixed script.
 */
export class PlanService {
  constructor(
    private readonly plans: PlanRepository,
    private readonly now: Clock,
  ) {}

  async save(user: AccountUser, plan: PerfPlan): Promise<SavedPlan> {
    refuseUnknownScopes(plan);
    await refusePerfPlanPatterns(plan.urls);
    const at = isoAt(this.now());
    const row = await this.plans.insert({
      id: randomUUID(),
      user_id: user.id,
      workspace_id: user.workspaceId,
      ...columns(plan),
      created_at: at,
      updated_at: at,
    });
    return toSavedPlan(row, user.email);
  }

  /**
   * Replaces the plan (PUT): fields the body leaves out take their defaults. A body that names the
   * version it was made from is refused (409) when the plan moved on since (docs/reference/01-authoring.md
   * §7 "Plan versions").
   */
  async update(user: AccountUser, id: string, plan: PerfPlan): Promise<SavedPlan> {
    refuseUnknownScopes(plan);
    await refusePerfPlanPatterns(plan.urls);
    const row = await this.plans.updateInWorkspace(
      user.workspaceId,
      id,
      { ...columns(plan), updated_at: isoAt(this.now()) },
      plan.version,
    );
    if (row === undefined) {
      if (
        plan.version !== undefined &&
        (await this.plans.findInWorkspace(user.workspaceId, id)) !== undefined
      ) {
        throw planChanged();
      }
      throw notFound();
    }
    return toSavedPlan(row, user.email);
  }

  async list(user: AccountUser, page: { limit?: number | undefined; offset: number }): Promise<PlanPage> {
    const [rows, total] = await Promise.all([
      this.plans.listInWorkspace(user.workspaceId, page),
      this.plans.countInWorkspace(user.workspaceId),
    ]);
    return { plans: rows.map((row) => toSavedPlan(row, user.email)), total };
  }

  async get(user: AccountUser, id: string): Promise<SavedPlan> {
    const row = await this.plans.findInWorkspace(user.workspaceId, id);
    if (row === undefined) throw notFound();
    return toSavedPlan(row, user.email);
  }

  async delete(user: AccountUser, id: string): Promise<void> {
    if (!(await this.plans.deleteInWorkspace(user.workspaceId, id))) throw notFound();
  }

  async downloadScript(user: AccountUser, id: string): Promise<DownloadedScript> {
    const row = await this.plans.findInWorkspace(user.workspaceId, id);
    if (row === undefined) throw notFound();
    const plan = rowToPlan(row);
    if (row.script_edited === 1) {
      return {
        script: row.script,
        filename: scriptFileName(plan.tool, plan.name),
        warnings: [
          {
            field: 'script',
            message: 'This script was edited by hand: it is returned as saved, not generated from the plan.',
          },
        ],
      };
    }
    const { script, filename, warnings } = scriptFor(plan, plan.tool);
    return { script, filename, warnings };
  }
}

function notFound(): NotFoundError {
  return new NotFoundError('PLAN_NOT_FOUND', PLAN_MESSAGES.notFound);
}

/** An update made from an older version of the plan (docs/reference/01-authoring.md §7 "Plan versions"). */
export function planChanged(): ConflictError {
  return new ConflictError(PLAN_CHANGED_CODE, PLAN_VERSION_ERRORS.changed, {
    hint: PLAN_VERSION_ERRORS.changedHint,
  });
}

/**
 * A threshold scoped to an API the plan does not have ("Logout: p95<300") would never be judged: refused
 * with the plan's API names (docs/adr/0027-load-profiles.md, "Abort criteria").
 */
function refuseUnknownScopes(plan: PerfPlan): void {
  const problems = thresholdScopeProblems(plan);
  if (problems.length > 0) throw new ValidationError(problems, { code: 'THRESHOLD_SCOPE_UNKNOWN' });
}

/**
 * The plan as the columns of its row, with the script decided (see PlanService). A plan with a load
 * profile is stored with the profile's users and minutes (withProfileTotals, docs/adr/0027-load-profiles.md),
 * so every list and column that shows concurrent_users and duration agrees with the profile.
 */
function columns(
  input: PerfPlan,
): Omit<NewPlanRow, 'id' | 'user_id' | 'workspace_id' | 'created_at' | 'updated_at'> {
  const plan = withProfileTotals(input);
  const generated = scriptFor(plan, plan.tool).script;
  const sent = plan.script ?? '';
  const edited = sent.trim() !== '' && !isGeneratedScript(sent, generated);
  return {
    name: plan.name,
    description: plan.description ?? '',
    search_text: planSearchText(plan.name, plan.description ?? ''),
    tool: plan.tool,
    concurrent_users: plan.concurrent_users,
    duration: plan.duration,
    source_page: plan.source_page,
    test_type: plan.test_type?.trim() || DEFAULT_TEST_TYPE,
    kind: 'load',
    schema_version: plan.schema_version,
    body: planBody(plan),
    script: edited ? sent : generated,
    script_edited: edited ? 1 : 0,
  };
}
