import type { preValidationHookHandler } from 'fastify';
import { contract } from '@aqa/contract';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../auth/authenticate';
import { assertSameUser } from '../auth/scope';
import { type FieldError, ValidationError } from '../errors';
import { RUN_MESSAGES } from '../services/runs/run-request';
import type { RunService } from '../services/runs/run.service';
import { RunEventStream } from './event-stream';
import { isObject, PLAN_BODY_LIMIT } from './route-common';

/** A run-test body carries the plan's URL entries, which may be many: the limit of a whole plan. */
const RUN_BODY_LIMIT = PLAN_BODY_LIMIT;

/** The first of `names` the body carries, with the name it came under; null is read as absent. */
function firstPresent(body: Record<string, unknown>, names: readonly string[]) {
  for (const name of names) {
    const value = body[name];
    if (value !== undefined && value !== null) return { name, value };
  }
  return undefined;
}

/**
 * The spec's client names the plan plan_id or planId and its name planName, plan_name or name
 * (docs/reference/02-running.md §3 "Test configuration"); one name each is read from here on. A missing body is an
 * empty one, so the answer is the spec's "plan_id is required" sentence. A plan id or name that is not
 * text is refused naming the field as sent, not dropped or turned into text (docs/design.md §11).
 */
const normalizeRunBody: preValidationHookHandler = (request, _reply, done) => {
  const body: Record<string, unknown> = isObject(request.body) ? { ...request.body } : {};
  const problems: FieldError[] = [];
  const id = firstPresent(body, ['plan_id', 'planId']);
  const name = firstPresent(body, ['planName', 'plan_name', 'name']);
  for (const alias of ['plan_id', 'planId', 'planName', 'plan_name', 'name']) delete body[alias];
  if (id !== undefined) {
    if (typeof id.value === 'string') body.plan_id = id.value;
    else problems.push({ field: id.name, message: RUN_MESSAGES.planIdNotText(id.name) });
  }
  if (name !== undefined) {
    if (typeof name.value === 'string') body.planName = name.value;
    else problems.push({ field: name.name, message: `${name.name} must be text` });
  }
  if (problems.length > 0) {
    done(new ValidationError(problems));
    return;
  }
  request.body = body;
  done();
};

export const runRoutes: FastifyPluginCallbackZod<{ runs: RunService }> = (app, { runs }, done) => {
  app.route({
    ...contract.runs.start,
    bodyLimit: RUN_BODY_LIMIT,
    preValidation: normalizeRunBody,
    handler: async (request, reply) => {
      assertSameUser(request, request.body.user_email);
      const started = await runs.start(requireAuth(request).user, request.body);
      return reply.code(201).send(started);
    },
  });

  app.route({
    ...contract.runs.result,
    handler: async (request) => {
      assertSameUser(request, request.query.user_email);
      return runs.result(requireAuth(request).user, request.params.id);
    },
  });

  app.route({
    ...contract.runs.stream,
    handler: async (request, reply) => {
      assertSameUser(request, request.query.user_email);
      const user = requireAuth(request).user;
      const id = request.params.id;
      const stream = new RunEventStream(
        () => runs.result(user, id),
        (err) => request.log.error({ err, runId: id }, 'Could not read the final result for the live stream'),
      );
      // Unknown or another user's run: a plain 404 answer, before the stream starts.
      const { initial, unsubscribe } = await runs.subscribe(user, id, stream.listener);
      reply.hijack();
      stream.open(reply.raw, initial, unsubscribe);
    },
  });

  app.route({
    ...contract.runs.stop,
    handler: async (request) => {
      assertSameUser(request, request.query.user_email);
      return runs.stop(requireAuth(request).user, request.params.id);
    },
  });

  app.route({
    ...contract.runs.stopAll,
    handler: async (request) => {
      assertSameUser(request, request.query.user_email);
      return runs.stopAll(requireAuth(request).user);
    },
  });

  app.route({
    ...contract.runs.list,
    handler: async (request, reply) => {
      assertSameUser(request, request.query.user_email);
      const { plan_id: planId, status, limit, offset } = request.query;
      const page = await runs.list(requireAuth(request).user, { planId, status, limit, offset });
      return reply.header('x-total-count', String(page.total)).send(page.runs);
    },
  });

  app.route({
    ...contract.runs.chartData,
    handler: async (request) => {
      assertSameUser(request, request.query.user_email);
      return runs.chartData(requireAuth(request).user, request.params.id);
    },
  });

  app.route({
    ...contract.runs.engines,
    handler: () => runs.engines(),
  });
  done();
};
