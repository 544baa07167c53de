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
import {
  defineRoute,
  IdParamsSchema,
  MessageResponseSchema,
  SCOPED_ERRORS,
  SCOPED_ERRORS_WITH_404,
  scopedIdRoute,
  UserEmailQuerySchema,
} from '../route';
import {
  FunctionalReportQuerySchema,
  FunctionalResultListQuerySchema,
  ParseScriptRequestSchema,
  ParseScriptResponseSchema,
  SavedFunctionalPlanListSchema,
  SavedFunctionalPlanSchema,
  ScreenshotParamsSchema,
  ScriptRefusalSchema,
} from '../schemas/functional';

const tags = ['functional'];

/**
 * The functional calls of docs/reference/02-running.md §7, scoped like performance plans: the user
 * comes from the token, a foreign user_email is a 403 and another user's id a 404.
 */
export const functional = {
  save: defineRoute({
    method: 'POST',
    url: '/api/functional/save-config',
    schema: {
      tags,
      summary: 'Save a new functional test plan; test_id is its id, as the spec client reads it',
      body: FunctionalPlanSchema,
      response: { 201: FunctionalSaveResponseSchema, ...SCOPED_ERRORS },
    },
  }),
  update: defineRoute({
    method: 'PUT',
    url: '/api/functional/update-config/:id',
    schema: {
      tags,
      summary: 'Replace a saved functional plan with the plan sent; its status is kept',
      description:
        "With `version` (the saved plan's version the update was made from), a plan that changed since is not replaced: 409 PLAN_CHANGED. Without it, the plan is replaced whatever its version.",
      params: IdParamsSchema,
      body: FunctionalPlanSchema,
      response: { 200: FunctionalSaveResponseSchema, ...SCOPED_ERRORS_WITH_404, 409: ErrorResponseSchema },
    },
  }),
  list: defineRoute({
    method: 'GET',
    url: '/api/functional/get-test-configs',
    schema: {
      tags,
      summary: "The signed-in user's functional plans, newest first",
      querystring: UserEmailQuerySchema,
      response: { 200: SavedFunctionalPlanListSchema, ...SCOPED_ERRORS },
    },
  }),
  parseScript: defineRoute({
    method: 'POST',
    url: '/api/functional/parse-script',
    schema: {
      tags,
      summary:
        'Read a Taurus script: the calls it will run with their rules and captures, its load settings, variables and data sources, and a warning for everything it will not run',
      description:
        'Stores nothing. A script that does not read, or has nothing that can run, answers 400 SCRIPT_NOT_RUNNABLE with every reason in `warnings` (YAML path, line, message) and `line` for YAML that does not read. With test_framework selenium, or for a script whose every execution runs in a browser (executor selenium, or apiritif with test-mode selenium), the pages of a Selenium-style script, each with its actions; an action the UI runner does not know is refused by name and line. `test_framework` in the answer says which reading it is.',
      body: ParseScriptRequestSchema,
      response: { 200: ParseScriptResponseSchema, ...SCOPED_ERRORS, 400: ScriptRefusalSchema },
    },
  }),
  runTest: defineRoute({
    method: 'POST',
    url: '/api/functional/run-test',
    schema: {
      tags,
      summary: 'Start a functional run of the plan sent; plan_id names the saved plan it belongs to',
      description:
        "A script_input plan runs the calls its script_content makes (the plan's own load settings and Global Validation Rules apply); a script that cannot run, or a data source not in data_files, answers 400 SCRIPT_NOT_RUNNABLE with `warnings`. A UI plan (source ui_url_input, test_type ui, test_framework selenium, or a script whose every execution runs in a browser) runs in a browser: a Selenium-style script with an action the runner does not know answers 400 SCRIPT_NOT_RUNNABLE naming each with its line, and a server without a browser 503 BROWSER_UNAVAILABLE saying what to install; while it waits for a free browser, get-test-result answers its queue_position. Refused with 400 when the model refuses the plan, 404 when plan_id is not a plan of the user, 403 TARGET_REFUSED when the target guard refuses one of its hosts, and 429 when a limit of concurrent runs (shared with load runs) is reached.",
      body: FunctionalRunRequestSchema,
      response: {
        201: FunctionalRunStartedSchema,
        ...SCOPED_ERRORS_WITH_404,
        400: ScriptRefusalSchema,
        429: ErrorResponseSchema,
        503: ErrorResponseSchema,
      },
    },
  }),
  results: defineRoute({
    method: 'GET',
    url: '/api/functional/functional-test-results',
    schema: {
      tags,
      summary:
        "The signed-in user's functional runs, newest first (the newest `limit` when named); each with its first 3 judged calls in validation_results and the count of all in validation_results_total",
      querystring: FunctionalResultListQuerySchema,
      response: { 200: FunctionalResultListSchema, ...SCOPED_ERRORS },
    },
  }),
  report: defineRoute({
    method: 'GET',
    url: '/api/functional/test-report/:id',
    schema: {
      tags,
      summary: 'A functional run as a download: JUnit XML, JSON or a self-contained HTML page',
      description:
        'Answers a file (Content-Disposition: attachment, functional_report_{test_id}.{xml|json|html}); JUnit has a test case per API per iteration.',
      params: IdParamsSchema,
      querystring: FunctionalReportQuerySchema,
      response: {
        200: z.string().describe('The file: application/xml, application/json or text/html'),
        ...SCOPED_ERRORS_WITH_404,
      },
    },
  }),
  screenshot: defineRoute({
    method: 'GET',
    url: '/api/functional/screenshot/:testId/:shotId',
    schema: {
      tags,
      summary: "A UI run's screenshot, as JPEG; only the run's owner gets it",
      description:
        "The ids come from a UI step's ui.screenshots. Another user's run or screenshot answers 404. Not cached (Cache-Control: no-store), as every signed-in answer.",
      params: ScreenshotParamsSchema,
      querystring: UserEmailQuerySchema,
      response: { 200: z.string().describe('The JPEG image (image/jpeg)'), ...SCOPED_ERRORS_WITH_404 },
    },
  }),
  // The spec client reads a plan by either of two paths; both answer the same.
  getConfig: scopedIdRoute({
    method: 'GET',
    url: '/api/functional/get-test-config/:id',
    tags,
    summary: 'One saved functional plan',
    response: SavedFunctionalPlanSchema,
  }),
  getPlan: scopedIdRoute({
    method: 'GET',
    url: '/api/functional/get-test-plan/:id',
    tags,
    summary: 'One saved functional plan',
    response: SavedFunctionalPlanSchema,
  }),
  delete: scopedIdRoute({
    method: 'DELETE',
    url: '/api/functional/delete-config/:id',
    tags,
    summary: 'Delete a saved functional plan; its runs stay, without a plan',
    response: MessageResponseSchema,
  }),
  result: scopedIdRoute({
    method: 'GET',
    url: '/api/functional/get-test-result/:id',
    tags,
    summary: 'One functional run, whole; while it runs, the calls judged so far',
    response: FunctionalResultSchema,
  }),
  status: scopedIdRoute({
    method: 'GET',
    url: '/api/functional/get-test-status/:id',
    tags,
    summary: "A functional run's status",
    response: FunctionalStatusResponseSchema,
  }),
  stop: scopedIdRoute({
    method: 'POST',
    url: '/api/functional/stop-test/:id',
    tags,
    summary:
      'Stop a functional run within a second, keeping what it measured; a run already over answers its status',
    response: FunctionalStatusResponseSchema,
  }),
  deleteResult: scopedIdRoute({
    method: 'DELETE',
    url: '/api/functional/delete-result/:id',
    tags,
    summary: 'Delete an ended functional run',
    description: 'A run still running answers 409: stop it first.',
    response: MessageResponseSchema,
    moreErrors: { 409: ErrorResponseSchema },
  }),
};
