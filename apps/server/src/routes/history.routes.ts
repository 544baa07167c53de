import {
  BaselineSchema,
  ChartDataSummarySchema,
  ComparisonSchema,
  DeletedResultSchema,
  ErrorResponseSchema,
  PastRunSchema,
  PerformanceDashboardSchema,
} from '@aqa/plan';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../auth/authenticate';
import { assertSameUser } from '../auth/scope';
import type { CompareService } from '../services/history/compare.service';
import type { DashboardService } from '../services/history/dashboard.service';
import type { HistoryService } from '../services/history/history.service';
import type { ReportService } from '../services/history/reports/report.service';
import {
  CompareQuerySchema,
  DashboardQuerySchema,
  HistoryRunParamsSchema,
  ReportQuerySchema,
  SaveTestResultBodySchema,
  SetBaselineBodySchema,
} from './history.schemas';
import { SCOPED_ERRORS, SCOPED_ERRORS_WITH_404 } from './route-common';
import { UserEmailQuerySchema } from './run.schemas';

/** Plans per page of the performance dashboard when the caller names no limit. */
const DEFAULT_DASHBOARD_PAGE = 20;

export interface HistoryRouteServices {
  history: HistoryService;
  dashboard: DashboardService;
  compare: CompareService;
  reports: ReportService;
}

/** The results history (docs/history-api.md): deleting and naming runs, dashboards, comparison, reports. */
export const historyRoutes: FastifyPluginCallbackZod<HistoryRouteServices> = (
  app,
  { history, dashboard, compare, reports },
  done,
) => {
  app.delete(
    '/api/delete-test-result/:id',
    {
      schema: {
        tags: ['history'],
        summary: 'Delete a finished run and its per-second series',
        description: 'A run still running or processing answers 409: stop it first.',
        params: HistoryRunParamsSchema,
        querystring: UserEmailQuerySchema,
        response: { 200: DeletedResultSchema, ...SCOPED_ERRORS_WITH_404, 409: ErrorResponseSchema },
      },
    },
    async (request) => {
      assertSameUser(request, request.query.user_email);
      return history.deleteRun(requireAuth(request).user, request.params.id);
    },
  );

  app.post(
    '/api/save-test-result',
    {
      schema: {
        tags: ['history'],
        summary: 'Name a run and keep notes on it (every run is stored by the server itself)',
        body: SaveTestResultBodySchema,
        response: { 200: PastRunSchema, ...SCOPED_ERRORS_WITH_404 },
      },
    },
    async (request) => {
      assertSameUser(request, request.body.user_email);
      return history.annotate(requireAuth(request).user, request.body);
    },
  );

  app.get(
    '/api/chart-data-summary',
    {
      schema: {
        tags: ['history'],
        summary: "The signed-in user's totals of plans and runs, and runs by day",
        querystring: UserEmailQuerySchema,
        response: { 200: ChartDataSummarySchema, ...SCOPED_ERRORS },
      },
    },
    async (request) => {
      assertSameUser(request, request.query.user_email);
      return history.summary(requireAuth(request).user);
    },
  );

  app.get(
    '/api/performance-dashboard',
    {
      schema: {
        tags: ['history'],
        summary: 'The performance dashboard in one call: counters and one page of plan cards',
        querystring: DashboardQuerySchema,
        response: { 200: PerformanceDashboardSchema, ...SCOPED_ERRORS },
      },
    },
    async (request) => {
      const { user_email: email, q, filter, limit, offset } = request.query;
      assertSameUser(request, email);
      return dashboard.performance(requireAuth(request).user, {
        q: (q ?? '').trim(),
        filter: filter ?? 'all',
        limit: limit ?? DEFAULT_DASHBOARD_PAGE,
        offset: offset ?? 0,
      });
    },
  );

  app.post(
    '/api/set-baseline',
    {
      schema: {
        tags: ['history'],
        summary:
          "Mark a run of a plan as the plan's baseline: a completed run, or one stopped or failed part-way that measured requests (test_id null clears it)",
        body: SetBaselineBodySchema,
        response: { 200: BaselineSchema, ...SCOPED_ERRORS_WITH_404 },
      },
    },
    async (request) => {
      assertSameUser(request, request.body.user_email);
      return history.setBaseline(requireAuth(request).user, request.body.plan_id, request.body.test_id);
    },
  );

  app.get(
    '/api/compare-test-results',
    {
      schema: {
        tags: ['history'],
        summary:
          'Two ended runs side by side (a run stopped or failed part-way too, when it measured requests; its status marks it): figures, per-API figures, deltas and both timelines',
        querystring: CompareQuerySchema,
        response: { 200: ComparisonSchema, ...SCOPED_ERRORS_WITH_404 },
      },
    },
    async (request) => {
      assertSameUser(request, request.query.user_email);
      return compare.compare(requireAuth(request).user, request.query.base, request.query.candidate);
    },
  );

  app.get(
    '/api/test-report/:id',
    {
      schema: {
        tags: ['history'],
        summary: 'A run as a download: a self-contained HTML report, or its data as JSON or CSV',
        description: [
          'Answers a file (Content-Disposition: attachment, report_{plan}_{test_id}.{format}).',
          'html: one file with inline SVG charts that opens offline; json: { run, result, chart_data };',
          'csv: the per-second series, then after a blank line the per-API series.',
        ].join(' '),
        params: HistoryRunParamsSchema,
        querystring: ReportQuerySchema,
        response: {
          200: z.string().describe('The file: text/html, application/json or text/csv'),
          ...SCOPED_ERRORS_WITH_404,
        },
      },
    },
    async (request, reply) => {
      assertSameUser(request, request.query.user_email);
      const file = await reports.report(
        requireAuth(request).user,
        request.params.id,
        request.query.format ?? 'html',
      );
      return reply
        .header('content-type', file.contentType)
        .header('content-disposition', `attachment; filename="${file.filename}"`)
        .header('cache-control', 'no-store')
        .send(file.body);
    },
  );
  done();
};
