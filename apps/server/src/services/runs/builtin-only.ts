import { generateScript } from '@aqa/converters';
import type { PerfPlan } from '@aqa/plan';
import type { ExternalTool } from './tool-detector';

/*
 * What of a performance plan only the built-in engine on this server runs yet (docs/adr/0027-load-profiles.md
 * "Runs in the tools"): a plan with one of these runs in the built-in engine unless its tool runs it too
 * (`inTool`), and the run's note says why (`runner.ts` RunnerRegistry#choose); on load agents it is
 * refused before anything is stored when the agents do not carry the feature yet (`load-kind.ts`
 * prepare). One row per feature, so the two places ask the same question.
 */

export const ARRIVAL_RATE_ON_BUILTIN_NOTE =
  "ran with the built-in engine: this plan's load profile is an arrival rate, which only the built-in engine follows yet (the tools start a late iteration late instead of dropping it, and report no iterations per second)";
export const TAURUS_PROFILE_ON_BUILTIN_NOTE =
  "ran with the built-in engine: Taurus runs a load profile only as one ramp-up and a hold, and this plan's profile is not one";
export const SHARE_USER_ON_BUILTIN_NOTE =
  'ran with the built-in engine: this plan has test data shared per user (share: "user"), which only the built-in engine, JMeter and Locust run';
export const FLOWS_ON_BUILTIN_NOTE =
  'ran with the built-in engine: this plan has flows, which Taurus scripts do not carry yet';
export const ABORT_ON_BUILTIN_NOTE =
  'ran with the built-in engine: this plan has abort thresholds, and only the built-in engine stops a run on them yet';

export const DATA_NOT_ON_AGENTS =
  'This plan has test data (data_sources); load agents do not carry test data yet: run it on this server';
export const FLOWS_NOT_ON_AGENTS =
  'This plan has flows; load agents do not run flows yet (each would run every call in each iteration): run it on this server';
export const ABORT_NOT_ON_AGENTS =
  'This plan has abort thresholds; load agents do not stop a run on them yet: run it on this server';

interface BuiltinOnlyFeature {
  has(plan: PerfPlan): boolean;
  /** Why such a plan ran in the built-in engine rather than in its tool. */
  note: string;
  /** Whether `tool` runs such a plan as the plan says and its run is read against it; absent: none does. */
  inTool?: (plan: PerfPlan, tool: ExternalTool) => boolean;
  /** Why such a plan is refused on load agents; absent: the agents run it (a profile: ADR 0027 §1). */
  notOnAgents?: { code: string; message: string };
}

/** In the order the notes are chosen: the first feature a plan has names why it ran in the built-in engine. */
const BUILTIN_ONLY: readonly BuiltinOnlyFeature[] = [
  // The tools follow a closed profile's line and report their active users each second; in the open
  // model they start a late iteration late instead of dropping it, and report no iterations per second.
  {
    has: (plan) => plan.load_profile !== undefined,
    note: ARRIVAL_RATE_ON_BUILTIN_NOTE,
    inTool: (plan) => plan.load_profile?.model === 'users',
  },
  // Taurus says a load as one ramp-up and a hold: any other line (a ramp down, a second rise) would run
  // as another profile, which its script only warns about (docs/adr/0027-load-profiles.md "7. Where a
  // profile goes").
  {
    has: (plan) => plan.load_profile !== undefined,
    note: TAURUS_PROFILE_ON_BUILTIN_NOTE,
    inTool: (plan, tool) =>
      tool !== 'taurus' ||
      !generateScript(plan, 'taurus').warnings.some((w) => w.field === 'load_profile.stages'),
  },
  // The scripts carry the rows; k6 ends the whole test where one user runs out of its own rows, and
  // Taurus has no per-user sharing. Agents would run without the rows.
  {
    has: (plan) => (plan.data_sources ?? []).length > 0,
    note: SHARE_USER_ON_BUILTIN_NOTE,
    inTool: (plan, tool) =>
      tool === 'jmeter' || tool === 'locust' || (plan.data_sources ?? []).every((d) => d.share === 'all'),
    notOnAgents: { code: 'DATA_NOT_ON_AGENTS', message: DATA_NOT_ON_AGENTS },
  },
  // Taurus scripts do not carry flows; agents would run every call in each iteration.
  {
    has: (plan) => plan.flows !== undefined,
    note: FLOWS_ON_BUILTIN_NOTE,
    inTool: (_plan, tool) => tool !== 'taurus',
    notOnAgents: { code: 'FLOWS_NOT_ON_AGENTS', message: FLOWS_NOT_ON_AGENTS },
  },
  // Neither the tools' scripts nor the agents' merge stop a run on an abort threshold.
  {
    has: (plan) => (plan.abort_thresholds ?? []).length > 0,
    note: ABORT_ON_BUILTIN_NOTE,
    notOnAgents: { code: 'ABORT_NOT_ON_AGENTS', message: ABORT_NOT_ON_AGENTS },
  },
];

/** Why this plan of `tool` runs in the built-in engine; undefined when its tool may run it. */
export function builtinOnlyNote(plan: PerfPlan, tool: ExternalTool): string | undefined {
  return BUILTIN_ONLY.find((feature) => feature.has(plan) && feature.inTool?.(plan, tool) !== true)?.note;
}

/** The first reason load agents cannot run this plan yet, with its error code; undefined when they can. */
export function notOnAgents(plan: PerfPlan): { code: string; message: string } | undefined {
  return BUILTIN_ONLY.find((feature) => feature.notOnAgents !== undefined && feature.has(plan))?.notOnAgents;
}
