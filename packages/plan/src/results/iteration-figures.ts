import { z } from 'zod';

/*
 * A run's iterations as the screens, the comparison and the reports show them (docs/adr/0027-load-profiles.md,
 * "8. Live and stored results" and "Flows"): read from the measured counts only, worked out here once so
 * every place that shows a share or a dropped percentage shows the same figure.
 */

/** One flow's iterations (of a second, or of the run so far). */
export const FlowIterationsSchema = z.object({ name: z.string(), iterations: z.number().int() });
export type FlowIterations = z.infer<typeof FlowIterationsSchema>;

/** A flow's iterations with its share of all the flows' iterations, in percent (0 when none began). */
export interface FlowShare extends FlowIterations {
  share: number;
}

export function flowShares(flows: readonly FlowIterations[] | null | undefined): FlowShare[] {
  const list = flows ?? [];
  const all = list.reduce((sum, flow) => sum + flow.iterations, 0);
  return list.map((flow) => ({
    name: flow.name,
    iterations: flow.iterations,
    share: all > 0 ? (flow.iterations / all) * 100 : 0,
  }));
}

/** What a summary says of iterations. */
export interface IterationFigures {
  /** Iterations started: an open-model run's count, else the sum of its flows'. */
  started: number;
  /** An open-model run's iterations dropped (0 included); null when the run did not count them (closed model). */
  dropped: number | null;
  /** Dropped over all the iterations due (started + dropped), percent; null when not counted or none were due. */
  droppedPercent: number | null;
}

/**
 * The iterations a run's summary counted, or null when it counted none: a closed-model run without
 * flows does not count its iterations, and nothing is made up for it.
 */
export function iterationFigures(
  summary:
    | {
        iterations_started?: number | null | undefined;
        iterations_dropped?: number | null | undefined;
        flows?: readonly FlowIterations[] | null | undefined;
      }
    | null
    | undefined,
): IterationFigures | null {
  if (!summary) return null;
  if (typeof summary.iterations_started === 'number') {
    const dropped = summary.iterations_dropped ?? 0;
    const due = summary.iterations_started + dropped;
    return {
      started: summary.iterations_started,
      dropped,
      droppedPercent: due > 0 ? (dropped / due) * 100 : null,
    };
  }
  if (summary.flows && summary.flows.length > 0) {
    return {
      started: summary.flows.reduce((sum, flow) => sum + flow.iterations, 0),
      dropped: null,
      droppedPercent: null,
    };
  }
  return null;
}
