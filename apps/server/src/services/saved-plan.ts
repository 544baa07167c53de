import { migratePlan, type PerfPlan } from '@aqa/plan';
import type { PlanRow } from '../db/schema';

/** The test type of a performance plan saved without one (docs/reference/02-running.md §3 lists absent, performance, jmeter, taurus). */
export const DEFAULT_TEST_TYPE = 'performance';

/**
 * A saved plan as the API answers it: the plan model with every optional field filled, the id under
 * both names the spec's clients read (id and _id), and the owner's email.
 */
export interface SavedPlan extends Omit<
  PerfPlan,
  'id' | 'description' | 'script' | 'test_type' | 'user_email' | 'version' | 'created_at' | 'updated_at'
> {
  id: string;
  _id: string;
  description: string;
  script: string;
  /** True when the stored script is not what the generator makes of the plan (edited by hand). */
  script_edited: boolean;
  test_type: string;
  user_email: string;
  /** One more with every update (docs/reference/01-authoring.md §7 "Plan versions"). */
  version: number;
  created_at: string;
  updated_at: string;
}

/** The JSON document in plans.body: the parts of the model that are not columns. */
export function planBody(plan: PerfPlan): string {
  // Thresholds are kept so that a run can be judged on them (its message, `aqa run --plan`).
  // The load profile is kept so that a run follows it, the abort thresholds so that it stops on them
  // (docs/adr/0027-load-profiles.md).
  return JSON.stringify({
    urls: plan.urls,
    ...(plan.thresholds === undefined ? {} : { thresholds: plan.thresholds }),
    ...(plan.abort_thresholds === undefined ? {} : { abort_thresholds: plan.abort_thresholds }),
    ...(plan.load_profile === undefined ? {} : { load_profile: plan.load_profile }),
    ...testDataOf(plan),
    // The flows and their weights (docs/adr/0027-load-profiles.md "3. Flows"); each call's own flow is in urls.
    ...(plan.flows === undefined ? {} : { flows: plan.flows }),
  });
}

/** A plan's test data, when it has any (docs/adr/0027-load-profiles.md "Test data"): kept so that its runs read it. */
function testDataOf(plan: PerfPlan): Pick<PerfPlan, 'data_files' | 'data_sources'> {
  return {
    ...(plan.data_files === undefined ? {} : { data_files: plan.data_files }),
    ...(plan.data_sources === undefined ? {} : { data_sources: plan.data_sources }),
  };
}

/**
 * The stored plan, brought to the current model by migratePlan(), so rows written by an older
 * schema version still load. A row that no longer parses is a bug (every row was parsed on the way
 * in), so the error is thrown as it is and answered as a 500.
 */
export function rowToPlan(row: PlanRow): PerfPlan {
  const body = JSON.parse(row.body) as Record<string, unknown>;
  return migratePlan({
    ...body,
    schema_version: row.schema_version,
    id: row.id,
    name: row.name,
    description: row.description,
    tool: row.tool,
    concurrent_users: row.concurrent_users,
    duration: row.duration,
    source_page: row.source_page,
    test_type: row.test_type,
    script: row.script,
    created_at: row.created_at,
    updated_at: row.updated_at,
  });
}

export function toSavedPlan(row: PlanRow, ownerEmail: string): SavedPlan {
  const plan = rowToPlan(row);
  return {
    schema_version: plan.schema_version,
    id: row.id,
    _id: row.id,
    name: plan.name,
    description: row.description,
    tool: plan.tool,
    concurrent_users: plan.concurrent_users,
    duration: plan.duration,
    urls: plan.urls,
    ...(plan.thresholds === undefined ? {} : { thresholds: plan.thresholds }),
    ...(plan.abort_thresholds === undefined ? {} : { abort_thresholds: plan.abort_thresholds }),
    ...(plan.load_profile === undefined ? {} : { load_profile: plan.load_profile }),
    ...testDataOf(plan),
    ...(plan.flows === undefined ? {} : { flows: plan.flows }),
    script: row.script,
    script_edited: row.script_edited === 1,
    source_page: plan.source_page,
    test_type: row.test_type,
    user_email: ownerEmail,
    version: row.version,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
