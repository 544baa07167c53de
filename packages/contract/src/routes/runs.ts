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
import { defineRoute, IdParamsSchema, SCOPED_ERRORS_WITH_404, UserEmailQuerySchema } from '../route';
import { RunListQuerySchema, RunTestBodySchema, TestResultQuerySchema } from '../schemas/run';

const tags = ['runs'];

/** Performance runs (docs/reference/02-running.md). */
export const runs = {
  start: defineRoute({
    method: 'POST',
    url: '/api/run-test',
    schema: {
      tags,
      summary:
        'Start a performance run of a saved plan; fields sent besides plan_id override the plan for this run',
      description:
        "Refused with 400 when the plan cannot run or none of its targets accepts a connection, with 403 TARGET_REFUSED when the target guard refuses one of its hosts (AQA_TARGETS_ALLOW / AQA_TARGETS_DENY, or a host never tested), and with 429 when a limit of concurrent runs is reached. With `agents: N` the run goes on N of your load agents: refused in words when fewer are online and idle, when the run has fewer users than agents, or when the tool of the plan runs here in an external tool other than Locust (a Locust plan runs in Locust's own master/worker mode: the master here, a worker on each agent); 503 AGENTS_UNAVAILABLE without REDIS_URL.",
      body: RunTestBodySchema,
      response: {
        201: RunStartedSchema,
        ...SCOPED_ERRORS_WITH_404,
        429: ErrorResponseSchema,
        503: ErrorResponseSchema.describe('agents asked on a server without REDIS_URL (AGENTS_UNAVAILABLE)'),
      },
    },
  }),
  result: defineRoute({
    method: 'GET',
    url: '/api/get-test-result/:id',
    schema: {
      tags,
      summary: 'A run, live (cumulative figures so far) or finished',
      params: IdParamsSchema,
      querystring: TestResultQuerySchema,
      response: { 200: TestResultSchema, ...SCOPED_ERRORS_WITH_404 },
    },
  }),
  stream: defineRoute({
    method: 'GET',
    url: '/api/test-stream/:id',
    schema: {
      tags,
      summary: 'Live events of a run (text/event-stream)',
      description: [
        'Server-sent events. On connect: `event: status` with the get-test-result JSON. While the run goes:',
        '`event: snapshot` once a second (one second of the run, whole and per step). When it is over:',
        '`event: end` with the final get-test-result JSON, then the stream closes. A finished run sends',
        'status and end at once. A comment line every 15 s keeps the connection open.',
        'Send the Authorization header (read the stream with fetch).',
      ].join(' '),
      params: IdParamsSchema,
      querystring: UserEmailQuerySchema,
      response: SCOPED_ERRORS_WITH_404,
    },
  }),
  stop: defineRoute({
    method: 'POST',
    url: '/api/stop-test/:id',
    schema: {
      tags,
      summary: 'Stop a run gracefully; answers once the partial result is stored',
      params: IdParamsSchema,
      querystring: UserEmailQuerySchema,
      response: { 200: StopTestResponseSchema, ...SCOPED_ERRORS_WITH_404 },
    },
  }),
  stopAll: defineRoute({
    method: 'POST',
    url: '/api/force-stop-all-tests',
    schema: {
      tags,
      summary: "Stop every run of the signed-in user (no one else's)",
      querystring: UserEmailQuerySchema,
      response: { 200: ForceStopResponseSchema, ...SCOPED_ERRORS_WITH_404 },
    },
  }),
  list: defineRoute({
    method: 'GET',
    url: '/api/get-test-results',
    schema: {
      tags,
      summary:
        "The signed-in user's runs, newest first (optionally of one plan, in one status); X-Total-Count holds the total",
      querystring: RunListQuerySchema,
      response: { 200: RunListResponseSchema, ...SCOPED_ERRORS_WITH_404 },
    },
  }),
  chartData: defineRoute({
    method: 'GET',
    url: '/api/chart-data/:id',
    schema: {
      tags,
      summary: 'Per-second series of a run (whole and per API) and its response-time distribution',
      params: IdParamsSchema,
      querystring: UserEmailQuerySchema,
      response: { 200: ChartDataSchema, ...SCOPED_ERRORS_WITH_404 },
    },
  }),
  engines: defineRoute({
    method: 'GET',
    url: '/api/engines',
    schema: {
      tags,
      summary: 'The engines that can run a plan on this server: the built-in one and the installed tools',
      response: { 200: EngineListSchema, 401: ErrorResponseSchema },
    },
  }),
};
