import { z } from 'zod';
import { RunAgentSchema } from './agents';
import { FlowIterationsSchema } from './iteration-figures';
import { LatencySummarySchema } from './run-result';

const text = z.string();
const count = z.number().int();

export const LiveStepSnapshotSchema = z.object({
  index: count.describe("The step's position in the plan's urls"),
  name: text,
  method: text,
  url: text,
  requests_per_second: z.number(),
  error_rate: z.number().describe('Percent'),
  latency: z.object({ avg: z.number(), p95: z.number() }).describe('ms'),
  totals: z.object({ requests: count, failures: count }).describe('Cumulative since the start of the run'),
});
export type LiveStepSnapshot = z.infer<typeof LiveStepSnapshotSchema>;

/**
 * A flow in a live second (docs/adr/0027-load-profiles.md "Flows"): the iterations it began and, measured
 * by the built-in engine (on one machine or merged from load agents), its calls' requests, failures and
 * latency in the second, merged from their histograms. A tool's run counts iterations only.
 */
export const LiveFlowSecondSchema = FlowIterationsSchema.extend({
  requests: count.optional(),
  failures: count.optional(),
  latency: z.object({ avg: z.number(), p95: z.number(), p99: z.number() }).optional().describe('ms'),
});
export type LiveFlowSecond = z.infer<typeof LiveFlowSecondSchema>;

/** A flow since the start of the run: its iterations and (built-in engine) its calls' requests and failures. */
export const LiveFlowTotalsSchema = FlowIterationsSchema.extend({
  requests: count.optional(),
  failures: count.optional(),
});
export type LiveFlowTotals = z.infer<typeof LiveFlowTotalsSchema>;

/** The live stream's snapshot event (GET /api/test-stream/{id}): one second of the run, whole and per step. */
export const LiveSnapshotSchema = z.object({
  second: count,
  elapsed_seconds: z.number(),
  progress: z.number().describe('0–100'),
  active_users: count,
  requests_per_second: z.number(),
  error_rate: z.number().describe('Percent'),
  latency: LatencySummarySchema,
  totals: z
    .object({
      requests: count,
      successes: count,
      failures: count,
      bytes_received: count,
      iterations: count.optional().describe('Open-model load profile only: iterations started'),
      dropped_iterations: count.optional().describe('Open-model load profile only: iterations dropped'),
      flows: z
        .array(LiveFlowTotalsSchema)
        .optional()
        .describe(
          "Plans with flows only: the iterations each flow began, and its calls' requests and failures, in the plan's order",
        ),
    })
    .describe('Cumulative since the start of the run'),
  steps: z.array(LiveStepSnapshotSchema),
  iterations: count.optional().describe('Open-model load profile only: iterations started in this second'),
  dropped_iterations: count
    .optional()
    .describe('Open-model load profile only: iterations due in this second that found no free user'),
  schedule_lag: z
    .object({ avg: z.number(), p95: z.number(), p99: z.number() })
    .optional()
    .describe(
      'Open-model load profile only: how late the iterations started in this second began after they were due (start − due), ms',
    ),
  flows: z
    .array(LiveFlowSecondSchema)
    .optional()
    .describe(
      "Plans with flows only: each flow's iterations begun in this second and its calls' requests, failures and latency, in the plan's order",
    ),
  agents: z
    .array(RunAgentSchema)
    .describe("Each load agent's users, status and throughput at this second; empty for a run on the server"),
});
export type LiveSnapshot = z.infer<typeof LiveSnapshotSchema>;
