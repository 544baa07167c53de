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
        .array(FlowIterationsSchema)
        .optional()
        .describe("Plans with flows only: the iterations each flow began, in the plan's order"),
    })
    .describe('Cumulative since the start of the run'),
  steps: z.array(LiveStepSnapshotSchema),
  iterations: count.optional().describe('Open-model load profile only: iterations started in this second'),
  dropped_iterations: count
    .optional()
    .describe('Open-model load profile only: iterations due in this second that found no free user'),
  flows: z
    .array(FlowIterationsSchema)
    .optional()
    .describe("Plans with flows only: the iterations each flow began in this second, in the plan's order"),
  agents: z
    .array(RunAgentSchema)
    .describe("Each load agent's users, status and throughput at this second; empty for a run on the server"),
});
export type LiveSnapshot = z.infer<typeof LiveSnapshotSchema>;
