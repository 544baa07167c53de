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

/**
 * A flow's row of the result screens, the comparison and the reports (docs/adr/0027-load-profiles.md
 * "Flows"): its iterations and share, and — where the built-in engine measured them — its calls'
 * requests, failures, error rate and latency. A figure not measured is null, never a 0.
 */
export interface FlowRow extends FlowShare {
  requests: number | null;
  failed: number | null;
  /** Percent of the flow's requests that failed. */
  errorRate: number | null;
  /** ms */
  avg: number | null;
  p95: number | null;
  p99: number | null;
}

/** What a stored summary keeps of a flow (ResultSummary.flows). */
export interface FlowFigures extends FlowIterations {
  total_requests?: number | null | undefined;
  failed_requests?: number | null | undefined;
  error_rate?: number | null | undefined;
  average_response_time?: number | null | undefined;
  percentile_95?: number | null | undefined;
  percentile_99?: number | null | undefined;
}

/** A stored run's flows as rows: the figures the engine merged from the flow's calls' histograms. */
export function flowRows(flows: readonly FlowFigures[] | null | undefined): FlowRow[] {
  const list = flows ?? [];
  return flowShares(list).map((share, i) => {
    const flow = list[i]!;
    return {
      ...share,
      requests: flow.total_requests ?? null,
      failed: flow.failed_requests ?? null,
      errorRate: flow.error_rate ?? null,
      avg: flow.average_response_time ?? null,
      p95: flow.percentile_95 ?? null,
      p99: flow.percentile_99 ?? null,
    };
  });
}

/** A live second's flow, and the flow's counts so far (LiveSnapshot's `flows` and `totals.flows`). */
export interface LiveFlowFigures {
  second?: readonly {
    name: string;
    latency?: { avg: number; p95: number; p99: number } | undefined;
    requests?: number | undefined;
  }[];
  totals?: readonly (FlowIterations & { requests?: number | undefined; failures?: number | undefined })[];
}

/**
 * A live run's flows as rows: the iterations, requests and failures so far, and the latency of the
 * last second (as the live per-API table shows it) — none for a flow whose calls sent nothing in it.
 */
export function liveFlowRows({ second, totals }: LiveFlowFigures): FlowRow[] {
  const list = totals ?? [];
  return flowShares(list).map((share, i) => {
    const total = list[i]!;
    const now = second?.find((flow) => flow.name === total.name);
    const latency = now?.latency !== undefined && (now.requests ?? 0) > 0 ? now.latency : null;
    const requests = total.requests ?? null;
    const failed = total.requests === undefined ? null : (total.failures ?? 0);
    return {
      ...share,
      requests,
      failed,
      errorRate: requests !== null && failed !== null && requests > 0 ? (failed / requests) * 100 : null,
      avg: latency?.avg ?? null,
      p95: latency?.p95 ?? null,
      p99: latency?.p99 ?? null,
    };
  });
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
