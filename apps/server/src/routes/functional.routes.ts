import { functionalHtmlReport, functionalJsonReport, functionalJunitReport } from '@aqa/engine';
import {
  ErrorResponseSchema,
  FunctionalPlanSchema,
  FunctionalResultListSchema,
  FunctionalResultSchema,
  FunctionalRunRequestSchema,
  FunctionalRunStartedSchema,
  FunctionalSaveResponseSchema,
  FunctionalStatusResponseSchema,
} from '@aqa/plan';
import { z } from 'zod';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
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
import {
  FunctionalIdParamsSchema,
  ParseScriptRequestSchema,
  ParseScriptResponseSchema,
  ScriptRefusalSchema,
  FunctionalReportQuerySchema,
  FunctionalResultListQuerySchema,
  SavedFunctionalPlanListSchema,
  SavedFunctionalPlanSchema,
  ScreenshotParamsSchema,
} from './functional.schemas';
import { MessageResponseSchema, UserEmailQuerySchema } from './plan.schemas';
import {
  namedFieldErrors,
  PLAN_BODY_LIMIT,
  SCOPED_ERRORS,
  SCOPED_ERRORS_WITH_404,
  scopedIdRoute,
} from './route-common';

const errors = SCOPED_ERRORS;
const errorsWith404 = SCOPED_ERRORS_WITH_404;
const tags = ['functional'];
/** What every call on one functional plan or run by id shares (route-common.ts scopedIdRoute). */
const byId = { tags, params: FunctionalIdParamsSchema };

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
  { plans, runs },
  done,
) => {
  app.post(
    '/api/functional/save-config',
    {
      schema: {
        tags,
        summary: 'Save a new functional test plan; test_id is its id, as the spec client reads it',
        body: FunctionalPlanSchema,
        response: { 201: FunctionalSaveResponseSchema, ...errors },
      },
      bodyLimit: PLAN_BODY_LIMIT,
      schemaErrorFormatter: namedFieldErrors,
    },
    async (request, reply) => {
      assertSameUser(request, request.body.user_email);
      const plan = await plans.save(requireAuth(request).user, request.body);
      return reply.code(201).send({ id: plan.id, test_id: plan.id, version: plan.version });
    },
  );

  app.put(
    '/api/functional/update-config/:id',
    {
      schema: {
        tags,
        summary: 'Replace a saved functional plan with the plan sent; its status is kept',
        description:
          "With `version` (the saved plan's version the update was made from), a plan that changed since is not replaced: 409 PLAN_CHANGED. Without it, the plan is replaced whatever its version.",
        params: FunctionalIdParamsSchema,
        body: FunctionalPlanSchema,
        response: { 200: FunctionalSaveResponseSchema, ...errorsWith404, 409: ErrorResponseSchema },
      },
      bodyLimit: PLAN_BODY_LIMIT,
      schemaErrorFormatter: namedFieldErrors,
    },
    async (request) => {
      assertSameUser(request, request.body.user_email);
      const plan = await plans.update(requireAuth(request).user, request.params.id, request.body);
      return { id: plan.id, test_id: plan.id, version: plan.version };
    },
  );

  // The spec client reads a plan by either of two paths; both answer the same.
  for (const url of ['/api/functional/get-test-config/:id', '/api/functional/get-test-plan/:id']) {
    scopedIdRoute(app, {
      ...byId,
      method: 'GET',
      url,
      summary: 'One saved functional plan',
      response: SavedFunctionalPlanSchema,
      answer: (user, id) => plans.get(user, id),
    });
  }

  scopedIdRoute(app, {
    ...byId,
    method: 'DELETE',
    url: '/api/functional/delete-config/:id',
    summary: 'Delete a saved functional plan; its runs stay, without a plan',
    response: MessageResponseSchema,
    answer: async (user, id) => {
      await plans.delete(user, id);
      return { message: FUNCTIONAL_PLAN_MESSAGES.deleted };
    },
  });

  app.get(
    '/api/functional/get-test-configs',
    {
      schema: {
        tags,
        summary: "The signed-in user's functional plans, newest first",
        querystring: UserEmailQuerySchema,
        response: { 200: SavedFunctionalPlanListSchema, ...errors },
      },
      schemaErrorFormatter: namedFieldErrors,
    },
    async (request) => {
      assertSameUser(request, request.query.user_email);
      return plans.list(requireAuth(request).user);
    },
  );

  app.post(
    '/api/functional/parse-script',
    {
      schema: {
        tags,
        summary:
          'Read a Taurus script: the calls it will run with their rules and captures, its load settings, variables and data sources, and a warning for everything it will not run',
        description:
          'Stores nothing. A script that does not read, or has nothing that can run, answers 400 SCRIPT_NOT_RUNNABLE with every reason in `warnings` (YAML path, line, message) and `line` for YAML that does not read. With test_framework selenium, or for a script whose every execution runs in a browser (executor selenium, or apiritif with test-mode selenium), the pages of a Selenium-style script, each with its actions; an action the UI runner does not know is refused by name and line. `test_framework` in the answer says which reading it is.',
        body: ParseScriptRequestSchema,
        response: { 200: ParseScriptResponseSchema, ...errors, 400: ScriptRefusalSchema },
      },
      bodyLimit: PLAN_BODY_LIMIT,
      schemaErrorFormatter: namedFieldErrors,
    },
    async (request, reply) => {
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
  );

  app.post(
    '/api/functional/run-test',
    {
      schema: {
        tags,
        summary: 'Start a functional run of the plan sent; plan_id names the saved plan it belongs to',
        description:
          "A script_input plan runs the calls its script_content makes (the plan's own load settings and Global Validation Rules apply); a script that cannot run, or a data source not in data_files, answers 400 SCRIPT_NOT_RUNNABLE with `warnings`. A UI plan (source ui_url_input, test_type ui, test_framework selenium, or a script whose every execution runs in a browser) runs in a browser: a Selenium-style script with an action the runner does not know answers 400 SCRIPT_NOT_RUNNABLE naming each with its line, and a server without a browser 503 BROWSER_UNAVAILABLE saying what to install; while it waits for a free browser, get-test-result answers its queue_position. Refused with 400 when the model refuses the plan, 404 when plan_id is not a plan of the user, 403 TARGET_REFUSED when the target guard refuses one of its hosts, and 429 when a limit of concurrent runs (shared with load runs) is reached.",
        body: FunctionalRunRequestSchema,
        response: {
          201: FunctionalRunStartedSchema,
          ...errorsWith404,
          400: ScriptRefusalSchema,
          429: ErrorResponseSchema,
          503: ErrorResponseSchema,
        },
      },
      bodyLimit: PLAN_BODY_LIMIT,
      schemaErrorFormatter: namedFieldErrors,
    },
    async (request, reply) => {
      assertSameUser(request, request.body.user_email);
      try {
        const started = await runs.start(requireAuth(request).user, request.body);
        return await reply.code(201).send(started);
      } catch (error) {
        return refuseScript(error, reply);
      }
    },
  );

  app.get(
    '/api/functional/functional-test-results',
    {
      schema: {
        tags,
        summary:
          "The signed-in user's functional runs, newest first (the newest `limit` when named); each with its first 3 judged calls in validation_results and the count of all in validation_results_total",
        querystring: FunctionalResultListQuerySchema,
        response: { 200: FunctionalResultListSchema, ...errors },
      },
      schemaErrorFormatter: namedFieldErrors,
    },
    async (request) => {
      assertSameUser(request, request.query.user_email);
      return runs.list(requireAuth(request).user, request.query.limit);
    },
  );

  scopedIdRoute(app, {
    ...byId,
    method: 'GET',
    url: '/api/functional/get-test-result/:id',
    summary: 'One functional run, whole; while it runs, the calls judged so far',
    response: FunctionalResultSchema,
    answer: (user, id) => runs.result(user, id),
  });

  scopedIdRoute(app, {
    ...byId,
    method: 'GET',
    url: '/api/functional/get-test-status/:id',
    summary: "A functional run's status",
    response: FunctionalStatusResponseSchema,
    answer: (user, id) => runs.status(user, id),
  });

  scopedIdRoute(app, {
    ...byId,
    method: 'POST',
    url: '/api/functional/stop-test/:id',
    summary:
      'Stop a functional run within a second, keeping what it measured; a run already over answers its status',
    response: FunctionalStatusResponseSchema,
    answer: (user, id) => runs.stop(user, id),
  });

  scopedIdRoute(app, {
    ...byId,
    method: 'DELETE',
    url: '/api/functional/delete-result/:id',
    summary: 'Delete an ended functional run',
    description: 'A run still running answers 409: stop it first.',
    response: MessageResponseSchema,
    moreErrors: { 409: ErrorResponseSchema },
    answer: async (user, id) => {
      await runs.delete(user, id);
      return { message: FUNCTIONAL_RUN_MESSAGES.deleted };
    },
  });

  app.get(
    '/api/functional/test-report/:id',
    {
      schema: {
        tags,
        summary: 'A functional run as a download: JUnit XML, JSON or a self-contained HTML page',
        description:
          'Answers a file (Content-Disposition: attachment, functional_report_{test_id}.{xml|json|html}); JUnit has a test case per API per iteration.',
        params: FunctionalIdParamsSchema,
        querystring: FunctionalReportQuerySchema,
        response: {
          200: z.string().describe('The file: application/xml, application/json or text/html'),
          ...errorsWith404,
        },
      },
      schemaErrorFormatter: namedFieldErrors,
    },
    async (request, reply) => {
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
  );

  app.get(
    '/api/functional/screenshot/:testId/:shotId',
    {
      schema: {
        tags,
        summary: "A UI run's screenshot, as JPEG; only the run's owner gets it",
        description:
          "The ids come from a UI step's ui.screenshots. Another user's run or screenshot answers 404. Not cached (Cache-Control: no-store), as every signed-in answer.",
        params: ScreenshotParamsSchema,
        querystring: UserEmailQuerySchema,
        response: { 200: z.string().describe('The JPEG image (image/jpeg)'), ...errorsWith404 },
      },
      schemaErrorFormatter: namedFieldErrors,
    },
    async (request, reply) => {
      assertSameUser(request, request.query.user_email);
      const { testId, shotId } = request.params;
      const jpeg = await runs.screenshot(requireAuth(request).user, testId, shotId);
      return sendJpeg(reply, jpeg);
    },
  );

  done();
};
