import { functionalHtmlReport, functionalJsonReport, functionalJunitReport } from '@aqa/engine';
import type { FastifyReply } from 'fastify';
import { contract } from '@aqa/contract';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import type { ScheduleService } from '../services/schedules/schedule.service';
import { requireAuth } from '../auth/authenticate';
import { assertSameUser } from '../auth/scope';
import {
  FUNCTIONAL_PLAN_MESSAGES,
  type FunctionalPlanService,
} from '../services/functional/functional-plan.service';
import {
  FUNCTIONAL_RUN_MESSAGES,
  type FunctionalRunService,
} from '../services/functional/functional-run.service';
import {
  readScript,
  readSelenium,
  scriptFramework,
  ScriptNotRunnableError,
} from '../services/functional/functional-script';
import { namedFieldErrors, PLAN_BODY_LIMIT, scopedIdRoute } from './route-common';

/** A script that cannot run answers 400 with its reasons (ScriptRefusalSchema); anything else goes on. */
function refuseScript(error: unknown, reply: FastifyReply): FastifyReply {
  if (!(error instanceof ScriptNotRunnableError)) throw error;
  return reply.code(400).send({
    detail: error.message,
    code: error.code,
    errors: error.errors,
    warnings: error.warnings,
    ...(error.line === undefined ? {} : { line: error.line }),
  });
}

/**
 * A screenshot's bytes as they are stored; the route's 200 schema documents them, and a Buffer is sent
 * without being serialised. no-store as every signed-in answer (docs/design.md §11).
 */
function sendJpeg(reply: FastifyReply, jpeg: Buffer): FastifyReply {
  return reply.type('image/jpeg').header('cache-control', 'no-store').send(jpeg);
}

export interface FunctionalRouteOptions {
  plans: FunctionalPlanService;
  runs: FunctionalRunService;
  /** A deleted plan's schedules go with it (docs/adr/0031-schedules.md). */
  schedules: Pick<ScheduleService, 'planDeleted'>;
}

/** The report downloads: the engine's builders (packages/engine/src/functional/report/). */
const REPORTS = {
  junit: { build: functionalJunitReport, contentType: 'application/xml; charset=utf-8', extension: 'xml' },
  json: { build: functionalJsonReport, contentType: 'application/json; charset=utf-8', extension: 'json' },
  html: { build: functionalHtmlReport, contentType: 'text/html; charset=utf-8', extension: 'html' },
} as const;

/**
 * The functional calls of docs/reference/02-running.md §7, scoped like performance plans: the user
 * comes from the token, a foreign user_email is a 403 and another user's id a 404.
 */
export const functionalRoutes: FastifyPluginCallbackZod<FunctionalRouteOptions> = (
  app,
  { plans, runs, schedules },
  done,
) => {
  app.route({
    ...contract.functional.save,
    bodyLimit: PLAN_BODY_LIMIT,
    schemaErrorFormatter: namedFieldErrors,
    handler: async (request, reply) => {
      assertSameUser(request, request.body.user_email);
      const plan = await plans.save(requireAuth(request).user, request.body);
      return reply.code(201).send({ id: plan.id, test_id: plan.id, version: plan.version });
    },
  });

  app.route({
    ...contract.functional.update,
    bodyLimit: PLAN_BODY_LIMIT,
    schemaErrorFormatter: namedFieldErrors,
    handler: async (request) => {
      assertSameUser(request, request.body.user_email);
      const plan = await plans.update(requireAuth(request).user, request.params.id, request.body);
      return { id: plan.id, test_id: plan.id, version: plan.version };
    },
  });

  // The spec client reads a plan by either of two paths; both answer the same.
  for (const route of [contract.functional.getConfig, contract.functional.getPlan]) {
    scopedIdRoute(app, route, (user, id) => plans.get(user, id));
  }

  scopedIdRoute(app, contract.functional.delete, async (user, id) => {
    await plans.delete(user, id);
    await schedules.planDeleted(user, id);
    return { message: FUNCTIONAL_PLAN_MESSAGES.deleted };
  });

  app.route({
    ...contract.functional.list,
    schemaErrorFormatter: namedFieldErrors,
    handler: async (request) => {
      assertSameUser(request, request.query.user_email);
      return plans.list(requireAuth(request).user);
    },
  });

  app.route({
    ...contract.functional.parseScript,
    bodyLimit: PLAN_BODY_LIMIT,
    schemaErrorFormatter: namedFieldErrors,
    handler: async (request, reply) => {
      requireAuth(request);
      try {
        const { script_content: script, data_files: files, test_framework: named } = request.body;
        const framework = scriptFramework(script, named);
        const read = framework === 'selenium' ? readSelenium(script) : readScript(script, files);
        return { ...read, test_framework: framework };
      } catch (error) {
        return refuseScript(error, reply);
      }
    },
  });

  app.route({
    ...contract.functional.runTest,
    bodyLimit: PLAN_BODY_LIMIT,
    schemaErrorFormatter: namedFieldErrors,
    handler: async (request, reply) => {
      assertSameUser(request, request.body.user_email);
      try {
        const started = await runs.start(requireAuth(request).user, request.body);
        return await reply.code(201).send(started);
      } catch (error) {
        return refuseScript(error, reply);
      }
    },
  });

  app.route({
    ...contract.functional.results,
    schemaErrorFormatter: namedFieldErrors,
    handler: async (request) => {
      assertSameUser(request, request.query.user_email);
      return runs.list(requireAuth(request).user, request.query.limit);
    },
  });

  scopedIdRoute(app, contract.functional.result, (user, id) => runs.result(user, id));

  scopedIdRoute(app, contract.functional.status, (user, id) => runs.status(user, id));

  scopedIdRoute(app, contract.functional.stop, (user, id) => runs.stop(user, id));

  scopedIdRoute(app, contract.functional.deleteResult, async (user, id) => {
    await runs.delete(user, id);
    return { message: FUNCTIONAL_RUN_MESSAGES.deleted };
  });

  app.route({
    ...contract.functional.report,
    schemaErrorFormatter: namedFieldErrors,
    handler: async (request, reply) => {
      assertSameUser(request, request.query.user_email);
      const result = await runs.result(requireAuth(request).user, request.params.id);
      const report = REPORTS[request.query.format];
      return reply
        .header('content-type', report.contentType)
        .header(
          'content-disposition',
          `attachment; filename="functional_report_${result.test_id}.${report.extension}"`,
        )
        .header('cache-control', 'no-store')
        .send(report.build(result));
    },
  });

  app.route({
    ...contract.functional.screenshot,
    schemaErrorFormatter: namedFieldErrors,
    handler: async (request, reply) => {
      assertSameUser(request, request.query.user_email);
      const { testId, shotId } = request.params;
      const jpeg = await runs.screenshot(requireAuth(request).user, testId, shotId);
      return sendJpeg(reply, jpeg);
    },
  });

  done();
};
