import { taurusSaysProfile } from '@aqa/converters';
import type { PerfPlan } from '@aqa/plan';
import type { ExternalTool } from './tool-detector';

/*
 * What of a performance plan only the built-in engine on this server runs yet (docs/adr/0027-load-profiles.md
 * "Runs in the tools"): a plan with one of these runs in the built-in engine unless its tool runs it too
 * (`inTool`), and the run's note says why (`runner.ts` RunnerRegistry#choose). Load agents run the
 * built-in engine, so they run every one of them (docs/adr/0027-load-profiles.md "On load agents").
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

interface BuiltinOnlyFeature {
  has(plan: PerfPlan): boolean;
  /** Why such a plan ran in the built-in engine rather than in its tool. */
  note: string;
  /** Whether `tool` runs such a plan as the plan says and its run is read against it; absent: none does. */
  inTool?: (plan: PerfPlan, tool: ExternalTool) => boolean;
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
      tool !== 'taurus' || plan.load_profile === undefined || taurusSaysProfile(plan.load_profile),
  },
  // The scripts carry the rows; k6 ends the whole test where one user runs out of its own rows, and
  // Taurus has no per-user sharing.
  {
    has: (plan) => (plan.data_sources ?? []).length > 0,
    note: SHARE_USER_ON_BUILTIN_NOTE,
    inTool: (plan, tool) =>
      tool === 'jmeter' || tool === 'locust' || (plan.data_sources ?? []).every((d) => d.share === 'all'),
  },
  // Taurus scripts do not carry flows.
  {
    has: (plan) => plan.flows !== undefined,
    note: FLOWS_ON_BUILTIN_NOTE,
    inTool: (_plan, tool) => tool !== 'taurus',
  },
  // The tools' scripts do not stop a run on an abort threshold.
  {
    has: (plan) => (plan.abort_thresholds ?? []).length > 0,
    note: ABORT_ON_BUILTIN_NOTE,
  },
];

/** Why this plan of `tool` runs in the built-in engine; undefined when its tool may run it. */
export function builtinOnlyNote(plan: PerfPlan, tool: ExternalTool): string | undefined {
  return BUILTIN_ONLY.find((feature) => feature.has(plan) && feature.inTool?.(plan, tool) !== true)?.note;
}

/**
 * Whether a run of this plan on load agents must be the built-in engine's even when its tool is Locust:
 * Locust's master/worker mode (docs/adr/0021-load-agents.md) would hand each worker the whole CSV (rows
 * twice across agents), and is not read against a profile's line or a flow's count per agent; the
 * built-in engine on agents runs every feature of this table (docs/adr/0027-load-profiles.md "On load agents").
 */
export function agentsRunBuiltin(plan: PerfPlan): boolean {
  return BUILTIN_ONLY.some((feature) => feature.has(plan));
}
