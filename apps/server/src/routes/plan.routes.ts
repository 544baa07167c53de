import {
  ErrorResponseSchema,
  normalizePlan,
  PerfPlanSchema,
  PLAN_ERRORS,
  ValidationResponseSchema,
} from '@aqa/plan';
import type { preValidationHookHandler } from 'fastify';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../auth/authenticate';
import { assertSameUser } from '../auth/scope';
import { ValidationError } from '../errors';
import { PLAN_MESSAGES, type PlanService } from '../services/plan.service';
import type { RunnerRegistry } from '../services/runs/runner';
import { scriptFor } from '../services/script.service';
import type { ValidateService } from '../services/validate/validate.service';
import {
  DownloadScriptResponseSchema,
  GenerateScriptResponseSchema,
  MessageResponseSchema,
  PlanIdParamsSchema,
  PlanListQuerySchema,
  PlanListResponseSchema,
  SavedPlanSchema,
  SavePlanResponseSchema,
  ScriptBodySchema,
  UpdatePlanResponseSchema,
} from './plan.schemas';
import {
  isObject,
  namedFieldErrors,
  SCOPED_ERRORS,
  PLAN_BODY_LIMIT,
  SCOPED_ERRORS_WITH_404,
  scopedIdRoute,
} from './route-common';

const errors = SCOPED_ERRORS;
const errorsWith404 = SCOPED_ERRORS_WITH_404;
/** What every call on one saved plan by id shares (route-common.ts scopedIdRoute). */
const byId = { tags: ['plans'], params: PlanIdParamsSchema };

/**
 * Brings the spec client's older shapes (numbers as text, {name,value} parameters, "apikey", _id) to
 * the current model before the schema reads the body, and treats a missing URL as an empty one so
 * the answer is the model's "Enter the URL" rather than a type error.
 */
function normalizeBody(body: unknown): unknown {
  if (!isObject(body)) return body;
  const plan = normalizePlan(body) as Record<string, unknown>;
  if (Array.isArray(plan.urls)) {
    plan.urls = plan.urls.map((entry: unknown) =>
      isObject(entry) ? { ...entry, url: entry.url ?? '' } : entry,
    );
  }
  return plan;
}

const normalizePlanBody: preValidationHookHandler = (request, _reply, done) => {
  request.body = normalizeBody(request.body);
  done();
};

/** The script calls answer the spec's own sentence when there is nothing to work on. */
function requireApis(message: string): preValidationHookHandler {
  return (request, _reply, done) => {
    const urls = isObject(request.body) ? request.body.urls : undefined;
    if (urls === undefined || urls === null || (Array.isArray(urls) && urls.length === 0)) {
      done(new ValidationError([{ field: 'urls', message }], { code: 'NO_APIS' }));
      return;
    }
    request.body = normalizeBody(request.body);
    done();
  };
}

export const planRoutes: FastifyPluginCallbackZod<{
  plans: PlanService;
  validation: ValidateService;
  /** Validate Script refuses a plan the installed tool's version cannot run. */
  runners: RunnerRegistry;
}> = (app, { plans, validation, runners }, done) => {
  app.post(
    '/api/save-test-plan',
    {
      schema: {
        tags: ['plans'],
        summary: 'Save a new performance test plan; the script is generated for its tool when none is sent',
        body: PerfPlanSchema,
        response: { 201: SavePlanResponseSchema, ...errors },
      },
      bodyLimit: PLAN_BODY_LIMIT,
      preValidation: normalizePlanBody,
      schemaErrorFormatter: namedFieldErrors,
    },
    async (request, reply) => {
      assertSameUser(request, request.body.user_email);
      const plan = await plans.save(requireAuth(request).user, request.body);
      return reply
        .code(201)
        .send({ id: plan.id, _id: plan.id, plan_id: plan.id, message: PLAN_MESSAGES.saved, plan });
    },
  );

  app.put(
    '/api/update-test-plan/:id',
    {
      schema: {
        tags: ['plans'],
        summary: 'Replace a saved plan with the plan sent',
        description:
          "With `version` (the saved plan's version the update was made from), a plan that changed since is not replaced: 409 PLAN_CHANGED. Without it, the plan is replaced whatever its version.",
        params: PlanIdParamsSchema,
        body: PerfPlanSchema,
        response: { 200: UpdatePlanResponseSchema, ...errorsWith404, 409: ErrorResponseSchema },
      },
      bodyLimit: PLAN_BODY_LIMIT,
      preValidation: normalizePlanBody,
      schemaErrorFormatter: namedFieldErrors,
    },
    async (request) => {
      assertSameUser(request, request.body.user_email);
      const plan = await plans.update(requireAuth(request).user, request.params.id, request.body);
      return { id: plan.id, message: PLAN_MESSAGES.updated, plan };
    },
  );

  app.get(
    '/api/get-test-plans',
    {
      schema: {
        tags: ['plans'],
        summary: "The signed-in user's plans, newest first; X-Total-Count holds the total",
        querystring: PlanListQuerySchema,
        response: { 200: PlanListResponseSchema, ...errors },
      },
      schemaErrorFormatter: namedFieldErrors,
    },
    async (request, reply) => {
      assertSameUser(request, request.query.user_email);
      const { limit, offset } = request.query;
      const page = await plans.list(requireAuth(request).user, { limit, offset });
      return reply.header('x-total-count', String(page.total)).send(page.plans);
    },
  );

  scopedIdRoute(app, {
    ...byId,
    method: 'GET',
    url: '/api/get-test-plan/:id',
    summary: 'One saved plan',
    response: SavedPlanSchema,
    answer: (user, id) => plans.get(user, id),
  });

  scopedIdRoute(app, {
    ...byId,
    method: 'DELETE',
    url: '/api/delete-test-plan/:id',
    summary: 'Delete a saved plan',
    response: MessageResponseSchema,
    answer: async (user, id) => {
      await plans.delete(user, id);
      return { message: PLAN_MESSAGES.deleted };
    },
  });

  scopedIdRoute(app, {
    ...byId,
    method: 'GET',
    url: '/api/download-script/:id',
    summary: "A saved plan's script for its tool: generated afresh, or as saved when it was edited by hand",
    response: DownloadScriptResponseSchema,
    answer: (user, id) => plans.downloadScript(user, id),
  });

  app.post(
    '/api/generate-script',
    {
      schema: {
        tags: ['scripts'],
        summary: 'The script of an unsaved plan for a tool, with what the tool cannot express as warnings',
        body: ScriptBodySchema,
        response: { 200: GenerateScriptResponseSchema, ...errors },
      },
      bodyLimit: PLAN_BODY_LIMIT,
      preValidation: requireApis(PLAN_ERRORS.noApisToGenerate),
      schemaErrorFormatter: namedFieldErrors,
    },
    (request) => {
      assertSameUser(request, request.body.user_email);
      const { user_email: _userEmail, validation_mode: _validationMode, ...source } = request.body;
      return scriptFor(source, source.tool);
    },
  );

  app.post(
    '/api/validate-script',
    {
      schema: {
        tags: ['scripts'],
        summary:
          'Send each API of the plan once, in order, from the server and judge its validations; network failures are per-API errors',
        body: ScriptBodySchema,
        response: { 200: ValidationResponseSchema, ...errors },
      },
      bodyLimit: PLAN_BODY_LIMIT,
      preValidation: requireApis(PLAN_ERRORS.noApisToValidate),
      schemaErrorFormatter: namedFieldErrors,
    },
    async (request) => {
      assertSameUser(request, request.body.user_email);
      // docs/adr/0003-jmeter-scripts-are-real-jmx.md "JMeter versions": a plan the installed tool cannot
      // run fails Validate with the reason, not later at Run.
      await runners.refuseIfToolCannotRun(request.body);
      return validation.validate(request.body.urls);
    },
  );
  done();
};
