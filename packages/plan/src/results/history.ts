import { z } from 'zod';
import { ChartPointSchema } from './chart-data';
import { PastRunSchema } from './past-run';
import { STORED_STATUSES } from './run-result';

/* The results-history answers: deleting and annotating runs, dashboards, baselines, comparison. */

const text = z.string();
const count = z.number().int();

/** DELETE /api/delete-test-result/{id}. */
export const DeletedResultSchema = z.object({ test_id: text, deleted: z.literal(true) });
export type DeletedResult = z.infer<typeof DeletedResultSchema>;

export const RunsOnDaySchema = z.object({
  date: text.describe('YYYY-MM-DD, UTC'),
  total: count,
  completed: count,
  failed: count,
});
export type RunsOnDay = z.infer<typeof RunsOnDaySchema>;

/** GET /api/chart-data-summary. */
export const ChartDataSummarySchema = z.object({
  total_plans: count,
  total_tests: count,
  completed_tests: count,
  failed_tests: count,
  running_tests: count.describe('Running or processing'),
  stopped_tests: count,
  last_run_at: text.nullable(),
  by_day: z.array(RunsOnDaySchema).describe('The latest 30 days that have runs, oldest first'),
});
export type ChartDataSummary = z.infer<typeof ChartDataSummarySchema>;

export const DashboardCountersSchema = z
  .object({
    total_plans: count,
    completed_tests: count,
    failed_tests: count,
    running_tests: count.describe('Running or processing'),
  })
  .describe("Over all the user's plans and runs, whatever the search");
export type DashboardCounters = z.infer<typeof DashboardCountersSchema>;

export const RecentResultSchema = z.object({
  test_id: text,
  status: z.enum(STORED_STATUSES),
  created_at: text,
  start_time: text,
});
export type RecentResult = z.infer<typeof RecentResultSchema>;

export const TrendPointSchema = z.object({
  test_id: text,
  start_time: text,
  percentile_95: z.number().describe('ms'),
  error_rate: z.number().describe('Percent'),
});
export type TrendPoint = z.infer<typeof TrendPointSchema>;

/** A plan card (docs/reference/02-running.md §3 "Performance plan as listed"), with its trend. */
export const DashboardPlanSchema = z.object({
  _id: text,
  id: text,
  name: text,
  description: text,
  tool: text,
  concurrent_users: count,
  duration: count.describe('Minutes'),
  source_page: text,
  created_at: text,
  updated_at: text,
  test_type: text,
  api_count: count,
  urls: z
    .array(z.object({ method: text, url: text, name: text.optional() }))
    .describe("The plan's URL entries without their bodies, headers or checks"),
  results_count: count.describe('Every run of the plan'),
  recent_results: z.array(RecentResultSchema).describe('The newest 3, newest first'),
  baseline_test_id: text.nullable(),
  trend: z.array(TrendPointSchema).describe('The last 10 completed runs, oldest first'),
});
export type DashboardPlan = z.infer<typeof DashboardPlanSchema>;

/** GET /api/performance-dashboard: the whole screen in one call. */
export const PerformanceDashboardSchema = z.object({
  counters: DashboardCountersSchema,
  total: count.describe('Plans matching q and filter, before paging'),
  plans: z.array(DashboardPlanSchema).describe('Newest first'),
});
export type PerformanceDashboard = z.infer<typeof PerformanceDashboardSchema>;

/** POST /api/set-baseline. */
export const BaselineSchema = z.object({ plan_id: text, baseline_test_id: text.nullable() });
export type Baseline = z.infer<typeof BaselineSchema>;

/** The whole-run figures a comparison sets side by side. */
export const COMPARE_METRIC_KEYS = [
  'requests_per_second',
  'average_response_time',
  'percentile_95',
  'percentile_99',
  'error_rate',
] as const;
export type MetricKey = (typeof COMPARE_METRIC_KEYS)[number];

export const MetricComparisonSchema = z.object({
  key: z.enum(COMPARE_METRIC_KEYS),
  label: text,
  unit: text,
  base: z.number(),
  candidate: z.number(),
  delta: z.number().describe('candidate − base'),
  delta_percent: z.number().nullable().describe('delta / base × 100; null when base is 0'),
  worse: z.boolean().describe('Fewer requests/sec, or a higher time or error rate, than the base'),
});
export type MetricComparison = z.infer<typeof MetricComparisonSchema>;

export const ApiFiguresSchema = z.object({
  total_requests: count,
  requests_per_second: z.number(),
  average_response_time: z.number(),
  percentile_95: z.number(),
  percentile_99: z.number(),
  error_rate: z.number(),
});
export type ApiFigures = z.infer<typeof ApiFiguresSchema>;

export const ApiDeltaSchema = z.object({ delta_percent: z.number().nullable(), worse: z.boolean() });
export type ApiDelta = z.infer<typeof ApiDeltaSchema>;

export const ApiComparisonSchema = z.object({
  key: text,
  name: text,
  method: text,
  url: text,
  base: ApiFiguresSchema.nullable().describe('Null when the API was not in that run'),
  candidate: ApiFiguresSchema.nullable(),
  deltas: z.object({
    average_response_time: ApiDeltaSchema,
    percentile_95: ApiDeltaSchema,
    error_rate: ApiDeltaSchema,
  }),
});
export type ApiComparison = z.infer<typeof ApiComparisonSchema>;

/** GET /api/compare-test-results. */
export const ComparisonSchema = z.object({
  base: PastRunSchema,
  candidate: PastRunSchema,
  metrics: z.array(MetricComparisonSchema),
  apis: z.array(ApiComparisonSchema).describe("Matched by method, url and name; the candidate's order first"),
  series: z.object({ base: z.array(ChartPointSchema), candidate: z.array(ChartPointSchema) }),
});
export type RunComparison = z.infer<typeof ComparisonSchema>;
