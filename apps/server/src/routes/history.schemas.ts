import { z } from 'zod';
import { PLAN_FILTERS } from '../repositories/dashboard.repository';
import type { ApiComparison, MetricComparison, RunComparison } from '../services/history/compare.service';
import { METRICS } from '../services/history/compare.service';
import type { PerformanceDashboard } from '../services/history/dashboard.service';
import type {
  Baseline,
  ChartDataSummary,
  DeletedResult,
  RunAnnotationChange,
} from '../services/history/history.service';
import { REPORT_FORMATS } from '../services/history/reports/report.service';
import { STORED_STATUSES } from '../services/runs/run-model';
import { ChartDataSchema, PastRunSchema, UserEmailQuerySchema } from './run.schemas';

const text = z.string();
const count = z.number().int();
const id = z.string().trim().min(1).max(200);

/** A page size or offset in the query string, with the sentence a person reads when it is wrong. */
function wholeNumber(name: string, min: number, max?: number) {
  const message =
    max === undefined
      ? `${name} must be a whole number, ${min} or more`
      : `${name} must be a whole number from ${min} to ${max}`;
  const n = z.coerce.number({ error: message }).int(message).min(min, message);
  return max === undefined ? n : n.max(max, message);
}

export const HistoryRunParamsSchema = z.object({ id: z.string().min(1).max(200) });

export const DeletedResultSchema = z.object({ test_id: text, deleted: z.literal(true) });

export const SaveTestResultBodySchema = z.object({
  test_id: z
    .string({ error: 'test_id is required' })
    .trim()
    .min(1, 'test_id is required')
    .max(200, 'test_id is at most 200 characters'),
  test_name: z
    .string({ error: 'test_name must be text' })
    .max(200, 'test_name is at most 200 characters')
    .optional()
    .describe("The run's name; blank goes back to the plan's name"),
  notes: z.string({ error: 'notes must be text' }).max(2000, 'notes are at most 2000 characters').optional(),
  user_email: z.string().max(254).optional(),
});

export const ChartDataSummarySchema = z.object({
  total_plans: count,
  total_tests: count,
  completed_tests: count,
  failed_tests: count,
  running_tests: count.describe('Running or processing'),
  stopped_tests: count,
  last_run_at: text.nullable(),
  by_day: z
    .array(
      z.object({ date: text.describe('YYYY-MM-DD, UTC'), total: count, completed: count, failed: count }),
    )
    .describe('The latest 30 days that have runs, oldest first'),
});

export const DashboardQuerySchema = UserEmailQuerySchema.extend({
  q: z
    .string()
    .max(200, 'q is at most 200 characters')
    .optional()
    .describe('Text to find in plan name or description, case-insensitive; % and _ are plain characters'),
  filter: z
    .enum(PLAN_FILTERS, { error: `filter must be one of ${PLAN_FILTERS.join(', ')}` })
    .optional()
    .describe('all (default), with_results or no_results'),
  limit: wholeNumber('limit', 1, 100).optional().describe('Plans per page; 20 when absent'),
  offset: wholeNumber('offset', 0).optional(),
});

const RecentResultSchema = z.object({
  test_id: text,
  status: z.enum(STORED_STATUSES),
  created_at: text,
  start_time: text,
});

const TrendPointSchema = z.object({
  test_id: text,
  start_time: text,
  percentile_95: z.number().describe('ms'),
  error_rate: z.number().describe('Percent'),
});

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
  urls: z.array(z.object({ method: text, url: text, name: text.optional() })),
  results_count: count.describe('Every run of the plan'),
  recent_results: z.array(RecentResultSchema).describe('The newest 3, newest first'),
  baseline_test_id: text.nullable(),
  trend: z.array(TrendPointSchema).describe('The last 10 completed runs, oldest first'),
});

export const PerformanceDashboardSchema = z.object({
  counters: z
    .object({
      total_plans: count,
      completed_tests: count,
      failed_tests: count,
      running_tests: count.describe('Running or processing'),
    })
    .describe("Over all the user's plans and runs, whatever the search"),
  total: count.describe('Plans matching q and filter'),
  plans: z.array(DashboardPlanSchema).describe('Newest first'),
});

export const SetBaselineBodySchema = z.object({
  plan_id: z.string({ error: 'plan_id is required' }).trim().min(1, 'plan_id is required').max(200),
  test_id: z
    .string({ error: 'test_id must be a run id or null' })
    .trim()
    .min(1, 'test_id must be a run id or null')
    .max(200)
    .nullable()
    .describe('null clears the baseline'),
  user_email: z.string().max(254).optional(),
});

export const BaselineSchema = z.object({ plan_id: text, baseline_test_id: text.nullable() });

export const CompareQuerySchema = UserEmailQuerySchema.extend({
  base: id.describe('The run compared against'),
  candidate: id.describe('The run compared with the base'),
});

const MetricComparisonSchema = z.object({
  key: z.enum(METRICS.map((m) => m.key) as [MetricComparison['key'], ...MetricComparison['key'][]]),
  label: text,
  unit: text,
  base: z.number(),
  candidate: z.number(),
  delta: z.number().describe('candidate − base'),
  delta_percent: z.number().nullable().describe('delta / base × 100; null when base is 0'),
  worse: z.boolean().describe('Fewer requests/sec, or a higher time or error rate, than the base'),
});

const ApiFiguresSchema = z.object({
  total_requests: count,
  requests_per_second: z.number(),
  average_response_time: z.number(),
  percentile_95: z.number(),
  percentile_99: z.number(),
  error_rate: z.number(),
});

const ApiDeltaSchema = z.object({ delta_percent: z.number().nullable(), worse: z.boolean() });

const ApiComparisonSchema = z.object({
  key: text,
  name: text,
  method: text,
  url: text,
  base: ApiFiguresSchema.nullable(),
  candidate: ApiFiguresSchema.nullable(),
  deltas: z.object({
    average_response_time: ApiDeltaSchema,
    percentile_95: ApiDeltaSchema,
    error_rate: ApiDeltaSchema,
  }),
});

export const ComparisonSchema = z.object({
  base: PastRunSchema,
  candidate: PastRunSchema,
  metrics: z.array(MetricComparisonSchema),
  apis: z.array(ApiComparisonSchema).describe("Matched by method, url and name; the candidate's order first"),
  series: z.object({ base: ChartDataSchema.shape.series, candidate: ChartDataSchema.shape.series }),
});

export const ReportQuerySchema = UserEmailQuerySchema.extend({
  format: z
    .enum(REPORT_FORMATS, { error: `format must be one of ${REPORT_FORMATS.join(', ')}` })
    .optional()
    .describe('html (default), json or csv'),
});

/** Mutual assignability: the answers cannot drift from what the services build. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const deletedMatches: Same<z.output<typeof DeletedResultSchema>, DeletedResult> = true;
const summaryMatches: Same<z.output<typeof ChartDataSummarySchema>, ChartDataSummary> = true;
const dashboardMatches: Same<z.output<typeof PerformanceDashboardSchema>, PerformanceDashboard> = true;
const baselineMatches: Same<z.output<typeof BaselineSchema>, Baseline> = true;
const comparisonMatches: Same<z.output<typeof ComparisonSchema>, RunComparison> = true;
const apiMatches: Same<z.output<typeof ApiComparisonSchema>, ApiComparison> = true;
const saveFits: z.output<typeof SaveTestResultBodySchema> extends RunAnnotationChange ? true : false = true;
void deletedMatches;
void summaryMatches;
void dashboardMatches;
void baselineMatches;
void comparisonMatches;
void apiMatches;
void saveFits;
