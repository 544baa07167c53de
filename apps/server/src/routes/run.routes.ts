import {
  ChartDataSchema,
  EngineListSchema,
  ErrorResponseSchema,
  ForceStopResponseSchema,
  RunListResponseSchema,
  RunStartedSchema,
  StopTestResponseSchema,
  TestResultSchema,
} from '@aqa/plan';
import type { preValidationHookHandler } from 'fastify';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../auth/authenticate';
import { assertSameUser } from '../auth/scope';
import { type FieldError, ValidationError } from '../errors';
import { RUN_MESSAGES } from '../services/runs/run-request';
import type { RunService } from '../services/runs/run.service';
import { RunEventStream } from './event-stream';
import { isObject, PLAN_BODY_LIMIT, SCOPED_ERRORS_WITH_404 } from './route-common';
import {
  RunListQuerySchema,
  RunIdParamsSchema,
  RunTestBodySchema,
  TestResultQuerySchema,
  UserEmailQuerySchema,
} from './run.schemas';

/** A run-test body carries the plan's URL entries, which may be many: the limit of a whole plan. */
const RUN_BODY_LIMIT = PLAN_BODY_LIMIT;

const errors = SCOPED_ERRORS_WITH_404;

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
  app.post(
    '/api/run-test',
    {
      schema: {
        tags: ['runs'],
        summary:
          'Start a performance run of a saved plan; fields sent besides plan_id override the plan for this run',
        description:
          "Refused with 400 when the plan cannot run or none of its targets accepts a connection, with 403 TARGET_REFUSED when the target guard refuses one of its hosts (AQA_TARGETS_ALLOW / AQA_TARGETS_DENY, or a host never tested), and with 429 when a limit of concurrent runs is reached. With `agents: N` the run goes on N of your load agents: refused in words when fewer are online and idle, when the run has fewer users than agents, or when the tool of the plan runs here in an external tool other than Locust (a Locust plan runs in Locust's own master/worker mode: the master here, a worker on each agent); 503 AGENTS_UNAVAILABLE without REDIS_URL.",
        body: RunTestBodySchema,
        response: {
          201: RunStartedSchema,
          ...errors,
          429: ErrorResponseSchema,
          503: ErrorResponseSchema.describe(
            'agents asked on a server without REDIS_URL (AGENTS_UNAVAILABLE)',
          ),
        },
      },
      bodyLimit: RUN_BODY_LIMIT,
      preValidation: normalizeRunBody,
    },
    async (request, reply) => {
      assertSameUser(request, request.body.user_email);
      const started = await runs.start(requireAuth(request).user, request.body);
      return reply.code(201).send(started);
    },
  );

  app.get(
    '/api/get-test-result/:id',
    {
      schema: {
        tags: ['runs'],
        summary: 'A run, live (cumulative figures so far) or finished',
        params: RunIdParamsSchema,
        querystring: TestResultQuerySchema,
        response: { 200: TestResultSchema, ...errors },
      },
    },
    async (request) => {
      assertSameUser(request, request.query.user_email);
      return runs.result(requireAuth(request).user, request.params.id);
    },
  );

  app.get(
    '/api/test-stream/:id',
    {
      schema: {
        tags: ['runs'],
        summary: 'Live events of a run (text/event-stream)',
        description: [
          'Server-sent events. On connect: `event: status` with the get-test-result JSON. While the run goes:',
          '`event: snapshot` once a second (one second of the run, whole and per step). When it is over:',
          '`event: end` with the final get-test-result JSON, then the stream closes. A finished run sends',
          'status and end at once. A comment line every 15 s keeps the connection open.',
          'Send the Authorization header (read the stream with fetch).',
        ].join(' '),
        params: RunIdParamsSchema,
        querystring: UserEmailQuerySchema,
        response: errors,
      },
    },
    async (request, reply) => {
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
  );

  app.post(
    '/api/stop-test/:id',
    {
      schema: {
        tags: ['runs'],
        summary: 'Stop a run gracefully; answers once the partial result is stored',
        params: RunIdParamsSchema,
        querystring: UserEmailQuerySchema,
        response: { 200: StopTestResponseSchema, ...errors },
      },
    },
    async (request) => {
      assertSameUser(request, request.query.user_email);
      return runs.stop(requireAuth(request).user, request.params.id);
    },
  );

  app.post(
    '/api/force-stop-all-tests',
    {
      schema: {
        tags: ['runs'],
        summary: "Stop every run of the signed-in user (no one else's)",
        querystring: UserEmailQuerySchema,
        response: { 200: ForceStopResponseSchema, ...errors },
      },
    },
    async (request) => {
      assertSameUser(request, request.query.user_email);
      return runs.stopAll(requireAuth(request).user);
    },
  );

  app.get(
    '/api/get-test-results',
    {
      schema: {
        tags: ['runs'],
        summary:
          "The signed-in user's runs, newest first (optionally of one plan, in one status); X-Total-Count holds the total",
        querystring: RunListQuerySchema,
        response: { 200: RunListResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      assertSameUser(request, request.query.user_email);
      const { plan_id: planId, status, limit, offset } = request.query;
      const page = await runs.list(requireAuth(request).user, { planId, status, limit, offset });
      return reply.header('x-total-count', String(page.total)).send(page.runs);
    },
  );

  app.get(
    '/api/chart-data/:id',
    {
      schema: {
        tags: ['runs'],
        summary: 'Per-second series of a run (whole and per API) and its response-time distribution',
        params: RunIdParamsSchema,
        querystring: UserEmailQuerySchema,
        response: { 200: ChartDataSchema, ...errors },
      },
    },
    async (request) => {
      assertSameUser(request, request.query.user_email);
      return runs.chartData(requireAuth(request).user, request.params.id);
    },
  );

  app.get(
    '/api/engines',
    {
      schema: {
        tags: ['runs'],
        summary: 'The engines that can run a plan on this server: the built-in one and the installed tools',
        response: { 200: EngineListSchema, 401: ErrorResponseSchema },
      },
    },
    () => runs.engines(),
  );
  done();
};
