import { z } from 'zod';
import { oneLine, wholeNumber } from './strict-input';

/*
 * Flows with weights (docs/adr/0027-load-profiles.md "3. Flows"): a performance plan may group its calls into
 * named flows, and each iteration of a virtual user runs one flow's calls in plan order, the flow
 * chosen in proportion to the weights (Locust's task weights). A plan without flows is one flow.
 * In a module of its own so that the plan (perf-plan.ts), the engine and the generators read one rule.
 */

export const MAX_FLOWS = 50;
export const MAX_FLOW_WEIGHT = 1000;
export const MAX_FLOW_NAME = 100;

export const FLOW_ERRORS = {
  nameRequired: 'Enter the flow name',
  weight: `Flow weight must be a whole number from 1 to ${MAX_FLOW_WEIGHT}`,
  tooMany: `A plan holds at most ${MAX_FLOWS} flows`,
  empty: 'List at least one flow, or leave flows out (the plan is then one flow)',
} as const;

/** A call's flow name: one line, blank meaning none. */
export const FlowNameSchema = oneLine('Flow name').trim().max(MAX_FLOW_NAME);

export const FlowSchema = z.object({
  name: FlowNameSchema.min(1, FLOW_ERRORS.nameRequired),
  weight: wholeNumber(FLOW_ERRORS.weight, 1, MAX_FLOW_WEIGHT),
});
export type Flow = z.infer<typeof FlowSchema>;

export const FlowsSchema = z.array(FlowSchema).min(1, FLOW_ERRORS.empty).max(MAX_FLOWS, FLOW_ERRORS.tooMany);

/** The fields the flow rules read, so that this module does not import the plan. */
interface FlowFields {
  flows?: readonly Flow[] | undefined;
  urls: readonly { flow?: string | undefined }[];
}

export interface FlowProblem {
  path: (string | number)[];
  message: string;
}

/**
 * Every problem of a plan's flows at once (docs/reference/01-authoring.md §3 "Flows"): names unique,
 * every call naming a listed flow, every listed flow holding a call. When a plan has flows, a call
 * without one is refused rather than put in a flow of its own: a call the user forgot to place would
 * otherwise run at a share nobody chose.
 */
export function flowProblems(plan: FlowFields): FlowProblem[] {
  const problems: FlowProblem[] = [];
  const flows = plan.flows;
  if (flows === undefined) {
    plan.urls.forEach((url, i) => {
      if (url.flow !== undefined)
        problems.push({
          path: ['urls', i, 'flow'],
          message: `urls[${i}].flow "${url.flow}" names a flow, but the plan lists no flows: add it to flows with a weight, or clear the call's flow`,
        });
    });
    return problems;
  }
  const names = flows.map((f) => f.name);
  const listed = names.join(', ');
  names.forEach((name, i) => {
    if (names.indexOf(name) !== i)
      problems.push({ path: ['flows', i, 'name'], message: `flows[${i}].name "${name}" is listed twice` });
  });
  const used = new Set<string>();
  plan.urls.forEach((url, i) => {
    if (url.flow === undefined)
      problems.push({
        path: ['urls', i, 'flow'],
        message: `urls[${i}] has no flow: when a plan has flows, every call names one (${listed})`,
      });
    else if (!names.includes(url.flow))
      problems.push({
        path: ['urls', i, 'flow'],
        message: `urls[${i}].flow "${url.flow}" is not one of the plan's flows: ${listed}`,
      });
    else used.add(url.flow);
  });
  names.forEach((name, i) => {
    if (names.indexOf(name) === i && !used.has(name))
      problems.push({
        path: ['flows', i],
        message: `flows[${i}] "${name}" has no call: name it in a call's flow, or remove it`,
      });
  });
  return problems;
}

/** For a zod superRefine: adds every flow problem as an issue at its path. */
export function refineFlows(plan: FlowFields, ctx: z.RefinementCtx): void {
  for (const p of flowProblems(plan)) ctx.addIssue({ code: 'custom', path: p.path, message: p.message });
}

/** One flow of a plan and its calls (indexes into `urls`), in plan order. */
export interface PlanFlow {
  name: string;
  weight: number;
  urls: number[];
}

/**
 * The plan's flows with their calls; a plan without flows is one flow of every call, named "" (a
 * valid plan: flowProblems() is empty).
 */
export function planFlows(plan: FlowFields): PlanFlow[] {
  if (plan.flows === undefined) return [{ name: '', weight: 1, urls: plan.urls.map((_, i) => i) }];
  return plan.flows.map((f) => ({
    name: f.name,
    weight: f.weight,
    urls: plan.urls.flatMap((url, i) => (url.flow === f.name ? [i] : [])),
  }));
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/**
 * The flow of every iteration in one cycle of the weights: `table[n mod table.length]` is the flow of
 * run-wide iteration n. Built by a smooth weighted round robin (nginx's), so each flow holds exactly its
 * weight's places in the cycle and they are spread evenly through it: flows of weights 5, 1, 1 run
 * A A B A C A A, not A A A A A B C. Shares are exact over every whole cycle, whichever worker or agent
 * takes the iterations (docs/adr/0027-load-profiles.md "3. Flows"). The weights are divided by their
 * greatest common divisor first: 70 and 30 make the cycle of 7 and 3, which the round robin of 70 and 30
 * repeats ten times over (its state is ten times as large at every step), so only the length changes.
 */
export function flowCycle(full: readonly number[]): Uint16Array {
  const divisor = full.reduce(gcd, 0) || 1;
  const weights = full.map((w) => w / divisor);
  const total = weights.reduce((a, b) => a + b, 0);
  const table = new Uint16Array(total);
  const current = weights.map(() => 0);
  for (let n = 0; n < total; n++) {
    let best = 0;
    for (let i = 0; i < weights.length; i++) {
      current[i]! += weights[i]!;
      if (current[i]! > current[best]!) best = i;
    }
    current[best]! -= total;
    table[n] = best;
  }
  return table;
}
