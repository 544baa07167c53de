import { contract } from '@aqa/contract';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../auth/authenticate';
import { assertSameUser } from '../auth/scope';
import type { CompareService } from '../services/history/compare.service';
import type { DashboardService } from '../services/history/dashboard.service';
import type { HistoryService } from '../services/history/history.service';
import type { ReportService } from '../services/history/reports/report.service';

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
  app.route({
    ...contract.history.deleteResult,
    handler: async (request) => {
      assertSameUser(request, request.query.user_email);
      return history.deleteRun(requireAuth(request).user, request.params.id);
    },
  });

  app.route({
    ...contract.history.saveResult,
    handler: async (request) => {
      assertSameUser(request, request.body.user_email);
      return history.annotate(requireAuth(request).user, request.body);
    },
  });

  app.route({
    ...contract.history.summary,
    handler: async (request) => {
      assertSameUser(request, request.query.user_email);
      return history.summary(requireAuth(request).user);
    },
  });

  app.route({
    ...contract.history.dashboard,
    handler: async (request) => {
      const { user_email: email, q, filter, limit, offset } = request.query;
      assertSameUser(request, email);
      return dashboard.performance(requireAuth(request).user, {
        q: (q ?? '').trim(),
        filter: filter ?? 'all',
        limit: limit ?? DEFAULT_DASHBOARD_PAGE,
        offset: offset ?? 0,
      });
    },
  });

  app.route({
    ...contract.history.setBaseline,
    handler: async (request) => {
      assertSameUser(request, request.body.user_email);
      return history.setBaseline(requireAuth(request).user, request.body.plan_id, request.body.test_id);
    },
  });

  app.route({
    ...contract.history.compare,
    handler: async (request) => {
      assertSameUser(request, request.query.user_email);
      return compare.compare(requireAuth(request).user, request.query.base, request.query.candidate);
    },
  });

  app.route({
    ...contract.history.report,
    handler: async (request, reply) => {
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
  });
  done();
};
