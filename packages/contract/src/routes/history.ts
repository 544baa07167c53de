import {
  BaselineSchema,
  ChartDataSummarySchema,
  ComparisonSchema,
  DeletedResultSchema,
  ErrorResponseSchema,
  PastRunSchema,
  PerformanceDashboardSchema,
} from '@aqa/plan';
import { z } from 'zod';
import {
  defineRoute,
  IdParamsSchema,
  SCOPED_ERRORS,
  SCOPED_ERRORS_WITH_404,
  UserEmailQuerySchema,
} from '../route';
import {
  CompareQuerySchema,
  DashboardQuerySchema,
  ReportQuerySchema,
  SaveTestResultBodySchema,
  SetBaselineBodySchema,
} from '../schemas/history';

const tags = ['history'];

/** The results history (docs/history-api.md): deleting and naming runs, dashboards, comparison, reports. */
export const history = {
  deleteResult: defineRoute({
    method: 'DELETE',
    url: '/api/delete-test-result/:id',
    schema: {
      tags,
      summary: 'Delete a finished run and its per-second series',
      description: 'A run still running or processing answers 409: stop it first.',
      params: IdParamsSchema,
      querystring: UserEmailQuerySchema,
      response: { 200: DeletedResultSchema, ...SCOPED_ERRORS_WITH_404, 409: ErrorResponseSchema },
    },
  }),
  saveResult: defineRoute({
    method: 'POST',
    url: '/api/save-test-result',
    schema: {
      tags,
      summary: 'Name a run and keep notes on it (every run is stored by the server itself)',
      body: SaveTestResultBodySchema,
      response: { 200: PastRunSchema, ...SCOPED_ERRORS_WITH_404 },
    },
  }),
  summary: defineRoute({
    method: 'GET',
    url: '/api/chart-data-summary',
    schema: {
      tags,
      summary: "The signed-in user's totals of plans and runs, and runs by day",
      querystring: UserEmailQuerySchema,
      response: { 200: ChartDataSummarySchema, ...SCOPED_ERRORS },
    },
  }),
  dashboard: defineRoute({
    method: 'GET',
    url: '/api/performance-dashboard',
    schema: {
      tags,
      summary: 'The performance dashboard in one call: counters and one page of plan cards',
      querystring: DashboardQuerySchema,
      response: { 200: PerformanceDashboardSchema, ...SCOPED_ERRORS },
    },
  }),
  setBaseline: defineRoute({
    method: 'POST',
    url: '/api/set-baseline',
    schema: {
      tags,
      summary:
        "Mark a run of a plan as the plan's baseline: a completed run, or one stopped or failed part-way that measured requests (test_id null clears it)",
      body: SetBaselineBodySchema,
      response: { 200: BaselineSchema, ...SCOPED_ERRORS_WITH_404 },
    },
  }),
  compare: defineRoute({
    method: 'GET',
    url: '/api/compare-test-results',
    schema: {
      tags,
      summary:
        'Two ended runs side by side (a run stopped or failed part-way too, when it measured requests; its status marks it): figures, per-API figures, deltas and both timelines',
      querystring: CompareQuerySchema,
      response: { 200: ComparisonSchema, ...SCOPED_ERRORS_WITH_404 },
    },
  }),
  report: defineRoute({
    method: 'GET',
    url: '/api/test-report/:id',
    schema: {
      tags,
      summary: 'A run as a download: a self-contained HTML report, or its data as JSON or CSV',
      description: [
        'Answers a file (Content-Disposition: attachment, report_{plan}_{test_id}.{format}).',
        'html: one file with inline SVG charts that opens offline; json: { run, result, chart_data };',
        'csv: the per-second series, then after a blank line the per-API series.',
      ].join(' '),
      params: IdParamsSchema,
      querystring: ReportQuerySchema,
      response: {
        200: z.string().describe('The file: text/html, application/json or text/csv'),
        ...SCOPED_ERRORS_WITH_404,
      },
    },
  }),
};
