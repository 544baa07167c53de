import type { PerfPlan } from '@aqa/plan';

/*
 * What of a performance plan only the built-in engine on this server runs yet (docs/adr/0027-load-profiles.md
 * "As built"): a plan with one of these runs in the built-in engine whatever its tool, and the run's note
 * says why (`runner.ts` RunnerRegistry#choose). Load agents run the built-in engine, so they run every
 * one of them (docs/adr/0027-load-profiles.md "On load agents").
 */

export const PROFILE_ON_BUILTIN_NOTE =
  'ran with the built-in engine: this plan has a load profile, and only the built-in engine follows load profiles yet';
export const DATA_ON_BUILTIN_NOTE =
  'ran with the built-in engine: this plan has test data (data_sources), which only the built-in engine runs yet';
export const FLOWS_ON_BUILTIN_NOTE =
  "ran with the built-in engine: this plan has flows, and only the built-in engine counts each flow's iterations yet";
export const ABORT_ON_BUILTIN_NOTE =
  'ran with the built-in engine: this plan has abort thresholds, and only the built-in engine stops a run on them yet';

interface BuiltinOnlyFeature {
  has(plan: PerfPlan): boolean;
  /** Why such a plan ran in the built-in engine rather than in its tool. */
  note: string;
}

/** In the order the notes are chosen: the first feature a plan has names why it ran in the built-in engine. */
const BUILTIN_ONLY: readonly BuiltinOnlyFeature[] = [
  // The tools' scripts carry a profile, but their runs are not yet checked against its line.
  { has: (plan) => plan.load_profile !== undefined, note: PROFILE_ON_BUILTIN_NOTE },
  // The scripts carry the rows, but a tool's run with them is not checked against the plan's rules: k6
  // ends the whole test where one user runs out, Taurus has no per-user sharing.
  { has: (plan) => (plan.data_sources ?? []).length > 0, note: DATA_ON_BUILTIN_NOTE },
  // The tools' runs report no per-flow iterations.
  { has: (plan) => plan.flows !== undefined, note: FLOWS_ON_BUILTIN_NOTE },
  // The tools' scripts do not stop a run on an abort threshold.
  { has: (plan) => (plan.abort_thresholds ?? []).length > 0, note: ABORT_ON_BUILTIN_NOTE },
];

/** Why this plan runs in the built-in engine whatever its tool; undefined when its tool may run it. */
export function builtinOnlyNote(plan: PerfPlan): string | undefined {
  return BUILTIN_ONLY.find((feature) => feature.has(plan))?.note;
}
