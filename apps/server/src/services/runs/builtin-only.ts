import type { PerfPlan } from '@aqa/plan';

/*
 * What of a performance plan only the built-in engine on this server runs yet (docs/adr/0027-load-profiles.md
 * "As built"): a plan with one of these runs in the built-in engine whatever its tool, and the run's note
 * says why (`runner.ts` RunnerRegistry#choose); on load agents it is refused before anything is stored
 * when the agents do not carry the feature yet (`load-kind.ts` prepare). One row per feature, so the two
 * places ask the same question.
 */

export const PROFILE_ON_BUILTIN_NOTE =
  'ran with the built-in engine: this plan has a load profile, and only the built-in engine follows load profiles yet';
export const DATA_ON_BUILTIN_NOTE =
  'ran with the built-in engine: this plan has test data (data_sources), which only the built-in engine runs yet';
export const FLOWS_ON_BUILTIN_NOTE =
  "ran with the built-in engine: this plan has flows, and only the built-in engine counts each flow's iterations yet";
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
  /** Why such a plan is refused on load agents; absent: the agents run it (a profile: ADR 0027 §1). */
  notOnAgents?: { code: string; message: string };
}

/** In the order the notes are chosen: the first feature a plan has names why it ran in the built-in engine. */
const BUILTIN_ONLY: readonly BuiltinOnlyFeature[] = [
  // The tools' scripts carry a profile, but their runs are not yet checked against its line.
  { has: (plan) => plan.load_profile !== undefined, note: PROFILE_ON_BUILTIN_NOTE },
  // The scripts carry the rows, but a tool's run with them is not checked against the plan's rules: k6
  // ends the whole test where one user runs out, Taurus has no per-user sharing. Agents would run
  // without the rows.
  {
    has: (plan) => (plan.data_sources ?? []).length > 0,
    note: DATA_ON_BUILTIN_NOTE,
    notOnAgents: { code: 'DATA_NOT_ON_AGENTS', message: DATA_NOT_ON_AGENTS },
  },
  // The tools' runs report no per-flow iterations; agents would run every call in each iteration.
  {
    has: (plan) => plan.flows !== undefined,
    note: FLOWS_ON_BUILTIN_NOTE,
    notOnAgents: { code: 'FLOWS_NOT_ON_AGENTS', message: FLOWS_NOT_ON_AGENTS },
  },
  // Neither the tools' scripts nor the agents' merge stop a run on an abort threshold.
  {
    has: (plan) => (plan.abort_thresholds ?? []).length > 0,
    note: ABORT_ON_BUILTIN_NOTE,
    notOnAgents: { code: 'ABORT_NOT_ON_AGENTS', message: ABORT_NOT_ON_AGENTS },
  },
];

/** Why this plan runs in the built-in engine whatever its tool; undefined when its tool may run it. */
export function builtinOnlyNote(plan: PerfPlan): string | undefined {
  return BUILTIN_ONLY.find((feature) => feature.has(plan))?.note;
}

/** The first reason load agents cannot run this plan yet, with its error code; undefined when they can. */
export function notOnAgents(plan: PerfPlan): { code: string; message: string } | undefined {
  return BUILTIN_ONLY.find((feature) => feature.notOnAgents !== undefined && feature.has(plan))?.notOnAgents;
}
