import { normalizePlan, PLAN_ERRORS } from '@aqa/plan';
import type { preValidationHookHandler } from 'fastify';
import { contract } from '@aqa/contract';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import type { ScheduleService } from '../services/schedules/schedule.service';
import { requireAuth } from '../auth/authenticate';
import { assertSameUser } from '../auth/scope';
import { ValidationError } from '../errors';
import { PLAN_MESSAGES, type PlanService } from '../services/plan.service';
import type { RunnerRegistry } from '../services/runs/runner';
import { scriptFor } from '../services/script.service';
import type { ValidateService } from '../services/validate/validate.service';
import { isObject, namedFieldErrors, PERF_PLAN_BODY_LIMIT, scopedIdRoute } from './route-common';

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
  /** A deleted plan's schedules go with it (docs/adr/0031-schedules.md). */
  schedules: Pick<ScheduleService, 'planDeleted'>;
}> = (app, { plans, validation, runners, schedules }, done) => {
  app.route({
    ...contract.plans.save,
    bodyLimit: PERF_PLAN_BODY_LIMIT,
    preValidation: normalizePlanBody,
    schemaErrorFormatter: namedFieldErrors,
    handler: async (request, reply) => {
      assertSameUser(request, request.body.user_email);
      const plan = await plans.save(requireAuth(request).user, request.body);
      return reply
        .code(201)
        .send({ id: plan.id, _id: plan.id, plan_id: plan.id, message: PLAN_MESSAGES.saved, plan });
    },
  });

  app.route({
    ...contract.plans.update,
    bodyLimit: PERF_PLAN_BODY_LIMIT,
    preValidation: normalizePlanBody,
    schemaErrorFormatter: namedFieldErrors,
    handler: async (request) => {
      assertSameUser(request, request.body.user_email);
      const plan = await plans.update(requireAuth(request).user, request.params.id, request.body);
      return { id: plan.id, message: PLAN_MESSAGES.updated, plan };
    },
  });

  app.route({
    ...contract.plans.list,
    schemaErrorFormatter: namedFieldErrors,
    handler: async (request, reply) => {
      assertSameUser(request, request.query.user_email);
      const { limit, offset } = request.query;
      const page = await plans.list(requireAuth(request).user, { limit, offset });
      return reply.header('x-total-count', String(page.total)).send(page.plans);
    },
  });

  scopedIdRoute(app, contract.plans.get, (user, id) => plans.get(user, id));

  scopedIdRoute(app, contract.plans.delete, async (user, id) => {
    await plans.delete(user, id);
    await schedules.planDeleted(user, id);
    return { message: PLAN_MESSAGES.deleted };
  });

  scopedIdRoute(app, contract.plans.downloadScript, (user, id) => plans.downloadScript(user, id));

  app.route({
    ...contract.plans.generateScript,
    bodyLimit: PERF_PLAN_BODY_LIMIT,
    preValidation: requireApis(PLAN_ERRORS.noApisToGenerate),
    schemaErrorFormatter: namedFieldErrors,
    handler: (request) => {
      assertSameUser(request, request.body.user_email);
      const { user_email: _userEmail, validation_mode: _validationMode, ...source } = request.body;
      return scriptFor(source, source.tool);
    },
  });

  app.route({
    ...contract.plans.validateScript,
    bodyLimit: PERF_PLAN_BODY_LIMIT,
    preValidation: requireApis(PLAN_ERRORS.noApisToValidate),
    schemaErrorFormatter: namedFieldErrors,
    handler: async (request) => {
      assertSameUser(request, request.body.user_email);
      // docs/adr/0003-jmeter-scripts-are-real-jmx.md "JMeter versions": a plan the installed tool cannot
      // run fails Validate with the reason, not later at Run.
      await runners.refuseIfToolCannotRun(request.body);
      return validation.validate(request.body.urls);
    },
  });
  done();
};
