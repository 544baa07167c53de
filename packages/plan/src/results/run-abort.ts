import { z } from 'zod';
import { THRESHOLD_METRICS } from '../threshold-metrics';

/*
 * Why a run was aborted, and the breaking point it found (docs/adr/0027-load-profiles.md, "Abort
 * criteria"): the engine's result, the server's stored summary and get-test-result carry these shapes.
 */

export const RunAbortSchema = z
  .object({
    threshold: z
      .string()
      .describe('The abort threshold that broke, as written ("p95<500", "Login: p95<300")'),
    metric: z.enum(THRESHOLD_METRICS),
    scope: z.string().optional().describe('The API the threshold is scoped to, when it is'),
    actual: z.number().describe("The metric's value over the window that broke it (ms, %, req/s or a count)"),
    at_ms: z.number().int().describe('When it broke: the end of the window, ms from the start of the load'),
    text: z.string().describe('The reason in words: "p95 812 ms broke p95<500 at 2m14s"'),
  })
  .describe('An abort threshold that broke and stopped the run');
export type RunAbort = z.infer<typeof RunAbortSchema>;

export const BreakingPointSchema = z
  .object({
    model: z.enum(['users', 'arrival_rate']).describe("The load profile's model: what `value` counts"),
    value: z
      .number()
      .describe(
        'The highest load that held: iterations started in one second (arrival_rate) or active users (users), over the seconds before the window that broke',
      ),
    at_ms: z.number().int().describe('The end of the second that reached it, ms from the start of the load'),
    text: z.string().describe('In words: "the highest rate that held: 42 iterations/s at 1m3s"'),
  })
  .describe('The breaking point of an aborted run with a load profile');
export type BreakingPoint = z.infer<typeof BreakingPointSchema>;
