import { z } from 'zod';
import { LiveFlowSecondSchema } from './live-snapshot';

const text = z.string();
const count = z.number().int();

/** One second of the whole run as the charts read it. Times in ms. */
export const ChartPointSchema = z.object({
  second: count,
  active_users: count,
  requests: count,
  requests_per_second: z.number(),
  errors: count,
  error_rate: z.number().describe('Percent'),
  avg: z.number(),
  p50: z.number(),
  p90: z.number(),
  p95: z.number(),
  p99: z.number(),
  max: z.number(),
  bandwidth_kbs: z.number(),
  iterations: count.optional().describe('Open-model load profile only: iterations started in the second'),
  dropped_iterations: count
    .optional()
    .describe('Open-model load profile only: iterations due in the second that found no free user'),
  flows: z
    .array(LiveFlowSecondSchema)
    .optional()
    .describe(
      "Plans with flows only: the iterations each flow began in the second and (built-in engine) its calls' requests, failures and latency, in the plan's order of flows (docs/adr/0027-load-profiles.md)",
    ),
});
export type ChartPoint = z.infer<typeof ChartPointSchema>;

export const ApiSeriesSchema = z.object({
  index: count,
  name: text,
  method: text,
  url: text,
  points: z.array(
    z.object({
      second: count,
      requests_per_second: z.number(),
      error_rate: z.number(),
      avg: z.number(),
      p95: z.number(),
    }),
  ),
});
export type ApiSeries = z.infer<typeof ApiSeriesSchema>;

/** One bar of the response-time histogram: how many requests took that long. */
export const DistributionBinSchema = z.object({ label: text, count });
export type DistributionBin = z.infer<typeof DistributionBinSchema>;

/** GET /api/chart-data/{id}: every figure measured, per second, plus the latency distribution. */
export const ChartDataSchema = z.object({
  test_id: text,
  series: z.array(ChartPointSchema),
  api_series: z.array(ApiSeriesSchema),
  distribution: z
    .array(DistributionBinSchema)
    .describe("Requests by response time, counted from the run's merged HDR histogram"),
  distribution_fitted: z
    .array(DistributionBinSchema)
    .describe(
      'Requests by response time in 10-20 bars of a round width fitted to the measured range (a last "ms+" bar holds the slowest 0.1 % when they stretch it); empty before anything was measured',
    ),
});
export type ChartData = z.infer<typeof ChartDataSchema>;
