import { multiLine, oneLine, wholeNumber } from '@aqa/plan';
import { z } from 'zod';
import { UserEmailQuerySchema } from '../route';

/** The performance dashboard's plan filters. */
export const PLAN_FILTERS = ['all', 'with_results', 'no_results'] as const;

/** The formats of a run's report download. */
export const REPORT_FORMATS = ['html', 'json', 'csv'] as const;

/*
 * What the history calls accept. Their answers are @aqa/plan's schemas (DeletedResultSchema,
 * ChartDataSummarySchema, PerformanceDashboardSchema, BaselineSchema, ComparisonSchema…).
 */

const id = z.string().trim().min(1).max(200);

/**
 * A page size or offset in the query string, with the sentence a person reads when it is wrong:
 * plain decimal digits only (docs/design.md §11).
 */
function pageNumber(name: string, min: number, max?: number) {
  const message =
    max === undefined
      ? `${name} must be a whole number, ${min} or more`
      : `${name} must be a whole number from ${min} to ${max}`;
  return wholeNumber(message, min, max ?? Number.MAX_SAFE_INTEGER);
}

export const HistoryRunParamsSchema = z.object({ id: z.string().min(1).max(200) });

export const SaveTestResultBodySchema = z.object({
  test_id: z
    .string({ error: 'test_id is required' })
    .trim()
    .min(1, 'test_id is required')
    .max(200, 'test_id is at most 200 characters'),
  test_name: oneLine('test_name', 'test_name must be text')
    .max(200, 'test_name is at most 200 characters')
    .optional()
    .describe("The run's name; blank goes back to the plan's name"),
  notes: multiLine('notes', 'notes must be text').max(2000, 'notes are at most 2000 characters').optional(),
  user_email: z.string().max(254).optional(),
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
  limit: pageNumber('limit', 1, 100).optional().describe('Plans per page; 20 when absent'),
  offset: pageNumber('offset', 0).optional(),
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

export const CompareQuerySchema = UserEmailQuerySchema.extend({
  base: id.describe('The run compared against'),
  candidate: id.describe('The run compared with the base'),
});

export const ReportQuerySchema = UserEmailQuerySchema.extend({
  format: z
    .enum(REPORT_FORMATS, { error: `format must be one of ${REPORT_FORMATS.join(', ')}` })
    .optional()
    .describe('html (default), json or csv'),
});
