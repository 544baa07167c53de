import { planFlows, transactionRatePercent, type PerfPlan } from '@aqa/plan';
import type { FlowInfo } from '../metrics/aggregate';

/**
 * A plan's flows as a tool's run counts them (docs/adr/0027-load-profiles.md "Flows", "Runs in the tools").
 * No tool reports an iteration per flow: each flow's iterations are the requests of its first call,
 * which the generated scripts send once at the start of every iteration of that flow and label with
 * its step number ("3. Login"), so the label is the flow's alone.
 */
export interface ToolFlows {
  flows: FlowInfo[];
  /** The step index of each flow's first call, in the plan's order of flows. */
  firstSteps: number[];
}

/**
 * The flows of a plan whose every flow's first call is sent in each of its iterations; undefined for a
 * plan without flows or when a first call is skipped in some (`transactionRate` below 100): its requests
 * would then count fewer iterations than ran, so a tool's run has no per-flow figures.
 */
export function toolFlows(plan: Pick<PerfPlan, 'flows' | 'urls'>): ToolFlows | undefined {
  if (plan.flows === undefined) return undefined;
  const planned = planFlows(plan);
  const firstSteps = planned.map((f) => f.urls[0]);
  if (firstSteps.some((i) => i === undefined || transactionRatePercent(plan.urls[i]!.transactionRate) < 100))
    return undefined;
  return {
    flows: planned.map((f) => ({ name: f.name, weight: f.weight, steps: f.urls })),
    firstSteps: firstSteps as number[],
  };
}

/** Each flow's iterations in one interval: the requests of its first call in it. */
export function flowIterations(flows: ToolFlows, stepRequests: (step: number) => number): number[] {
  return flows.firstSteps.map((step) => stepRequests(step));
}
