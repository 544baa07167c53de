import type {
  AgentHeartbeatRequest,
  AgentJob,
  AgentRegisterRequest,
  AgentRegistration,
  ShardEventsPost,
  TargetGuardSettings,
} from '@aqa/engine';
import {
  AGENT_MAX_POST_BYTES,
  AgentHeartbeatAnswerSchema,
  AgentHeartbeatRequestSchema,
  AgentListSchema,
  AgentNextJobAnswerSchema,
  AgentNextJobRequestSchema,
  AgentRegisterRequestSchema,
  AgentRegistrationSchema,
  ErrorResponseSchema,
  ShardEventsAnswerSchema,
  ShardEventsPostSchema,
  type AgentHeartbeatRequestBody,
  type AgentJobBody,
  type AgentRegisterRequestBody,
  type AgentRegistrationBody,
  type ShardEventsPostBody,
  type TargetGuardSettingsSchema,
} from '@aqa/plan';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../auth/authenticate';
import type { AgentsService } from '../services/agents/agents.service';
import { SCOPED_ERRORS, SCOPED_ERRORS_WITH_404 } from './route-common';

const AgentIdParamsSchema = z.object({ id: z.string().min(1).max(200) });
const AgentRunParamsSchema = z.object({ id: z.string().min(1).max(200), runId: z.string().min(1).max(200) });
const NoContent = z.undefined().describe('No content');
const NO_REDIS = ErrorResponseSchema.describe('The server has no Redis (AGENTS_UNAVAILABLE): set REDIS_URL');
const THROTTLED = ErrorResponseSchema.describe(
  'Too many calls of this agent or of your agents (AGENT_RATE_LIMITED), with Retry-After',
);
const AGENT_TOKEN_ONLY =
  'Needs an API token of the agent scope (Settings → API tokens → Load agent): a session or another token gets 403 AGENT_TOKEN_REQUIRED.';

/*
 * The wire shapes the routes check (packages/plan) are the protocol's (packages/engine/src/agent/protocol.ts):
 * a change to either side that the other does not follow is a compile error here.
 */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const shapesAgree: [
  Same<AgentRegisterRequestBody, AgentRegisterRequest>,
  Same<AgentRegistrationBody, AgentRegistration>,
  Same<AgentHeartbeatRequestBody, AgentHeartbeatRequest>,
  Same<ShardEventsPostBody, ShardEventsPost>,
  // A job's plan is carried as an object (its own schema has transforms); everything else agrees.
  AgentJob extends AgentJobBody ? true : false,
  Same<keyof TargetGuardSettings, keyof z.infer<typeof TargetGuardSettingsSchema>>,
] = [true, true, true, true, true, true];
void shapesAgree;

/**
 * Load agents (docs/adr/0021-load-agents.md "Server side", docs/adr/0023-agents-over-http.md): `aqa agent`
 * registers here with an API token of the agent scope and belongs to that token's user, then beats its
 * heartbeat, takes its jobs and posts its events here — it speaks only HTTP to the server. Every call
 * names one of the caller's agents; another user's agent, or a run that is not this agent's, is not
 * found. The user lists and forgets their own agents.
 */
export const agentRoutes: FastifyPluginCallbackZod<{ agents: AgentsService }> = (app, { agents }, done) => {
  app.post(
    '/api/agents/register',
    {
      schema: {
        tags: ['agents'],
        summary: "Register a load agent (aqa agent) of the token's user; answers who it is and how to call",
        description: `Called by \`aqa agent --server URL --token T\`. ${AGENT_TOKEN_ONLY} The agent belongs to the token's user: only that user's runs use it. The answer holds no Redis URL or other secret of the server. 400 when the agent speaks another protocol version; 503 AGENTS_UNAVAILABLE when the server has no REDIS_URL.`,
        body: AgentRegisterRequestSchema,
        response: {
          200: AgentRegistrationSchema,
          ...SCOPED_ERRORS,
          409: ErrorResponseSchema,
          429: THROTTLED,
          503: NO_REDIS,
        },
      },
    },
    (request) => agents.register(requireAuth(request).user.id, request.body),
  );

  app.get(
    '/api/agents',
    {
      schema: {
        tags: ['agents'],
        summary: "The signed-in user's load agents, with whether each is online and what it runs",
        response: { 200: AgentListSchema, ...SCOPED_ERRORS, 503: NO_REDIS },
      },
    },
    (request) => agents.list(requireAuth(request).user.id),
  );

  app.delete(
    '/api/agents/:id',
    {
      schema: {
        tags: ['agents'],
        summary: 'Forget one of your load agents; an agent that ends on its own leaves this way',
        description:
          "With a session, an API token, or an agent token of the same user. A running agent is refused at its next call and ends; it registers again when it restarts. Another user's agent answers 404 like an unknown one.",
        params: AgentIdParamsSchema,
        response: { 204: NoContent, ...SCOPED_ERRORS_WITH_404, 503: NO_REDIS },
      },
    },
    async (request, reply) => {
      await agents.forget(requireAuth(request).user.id, request.params.id);
      return reply.code(204).send();
    },
  );

  app.put(
    '/api/agents/:id/heartbeat',
    {
      schema: {
        tags: ['agents'],
        summary: 'The agent is alive (every heartbeat_ms), and which run it runs; answers whether to stop it',
        description: `${AGENT_TOKEN_ONLY} No heartbeat for heartbeat_ttl_ms and the agent counts as lost. \`offline: true\` says it stops (it stays on the list). stop is true when the run named was stopped or is not this agent's.`,
        params: AgentIdParamsSchema,
        body: AgentHeartbeatRequestSchema,
        response: {
          200: AgentHeartbeatAnswerSchema,
          ...SCOPED_ERRORS_WITH_404,
          429: THROTTLED,
          503: NO_REDIS,
        },
      },
    },
    (request) => agents.heartbeat(requireAuth(request).user.id, request.params.id, request.body),
  );

  app.post(
    '/api/agents/:id/jobs/next',
    {
      schema: {
        tags: ['agents'],
        summary: "Waits (up to wait_ms) for the agent's next job: a shard of a run, or a Locust worker",
        description: `${AGENT_TOKEN_ONLY} Answers { job: null } when none came in time; the agent calls again.`,
        params: AgentIdParamsSchema,
        body: AgentNextJobRequestSchema,
        response: { 200: AgentNextJobAnswerSchema, ...SCOPED_ERRORS_WITH_404, 429: THROTTLED, 503: NO_REDIS },
      },
    },
    async (request, reply) => {
      // The agent hangs up (it stops, or its call timed out): the wait ends and no job is taken for it.
      const gone = new AbortController();
      reply.raw.once('close', () => gone.abort());
      const job = await agents.nextJob(
        requireAuth(request).user.id,
        request.params.id,
        request.body.wait_ms,
        gone.signal,
      );
      return { job };
    },
  );

  app.post(
    '/api/agents/:id/runs/:runId/events',
    {
      bodyLimit: AGENT_MAX_POST_BYTES,
      schema: {
        tags: ['agents'],
        summary: "The agent's shard events of one run, numbered; each number is kept once, in order",
        description: `${AGENT_TOKEN_ONLY} 404 when the run is not this agent's (any more); 409 AGENT_EVENTS_GAP when first_seq skips events not yet kept; 400 when an event names another agent. At most ${AGENT_MAX_POST_BYTES} bytes per post.`,
        params: AgentRunParamsSchema,
        body: ShardEventsPostSchema,
        response: {
          200: ShardEventsAnswerSchema,
          ...SCOPED_ERRORS_WITH_404,
          409: ErrorResponseSchema,
          413: ErrorResponseSchema,
          429: THROTTLED,
          503: NO_REDIS,
        },
      },
    },
    (request) =>
      agents.postEvents(
        requireAuth(request).user.id,
        request.params.id,
        request.params.runId,
        request.body.first_seq,
        request.body.events,
      ),
  );
  done();
};
