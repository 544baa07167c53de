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
} from '@aqa/plan';
import { z } from 'zod';
import {
  defineRoute,
  IdParamsSchema,
  NoContentSchema as NoContent,
  SCOPED_ERRORS,
  SCOPED_ERRORS_WITH_404,
} from '../route';

const AgentRunParamsSchema = z.object({ id: z.string().min(1).max(200), runId: z.string().min(1).max(200) });
const NO_REDIS = ErrorResponseSchema.describe('The server has no Redis (AGENTS_UNAVAILABLE): set REDIS_URL');
const THROTTLED = ErrorResponseSchema.describe(
  'Too many calls of this agent or of your agents (AGENT_RATE_LIMITED), with Retry-After',
);
const AGENT_TOKEN_ONLY =
  'Needs an API token of the agent scope (Settings → API tokens → Load agent): a session or another token gets 403 AGENT_TOKEN_REQUIRED.';

const tags = ['agents'];

/**
 * Load agents (docs/adr/0021-load-agents.md "Server side", docs/adr/0023-agents-over-http.md): `aqa agent`
 * registers with an API token of the agent scope, beats its heartbeat, takes its jobs and posts its events.
 */
export const agents = {
  register: defineRoute({
    method: 'POST',
    url: '/api/agents/register',
    schema: {
      tags,
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
  }),
  list: defineRoute({
    method: 'GET',
    url: '/api/agents',
    schema: {
      tags,
      summary: "The signed-in user's load agents, with whether each is online and what it runs",
      response: { 200: AgentListSchema, ...SCOPED_ERRORS, 503: NO_REDIS },
    },
  }),
  forget: defineRoute({
    method: 'DELETE',
    url: '/api/agents/:id',
    schema: {
      tags,
      summary: 'Forget one of your load agents; an agent that ends on its own leaves this way',
      description:
        "With a session, an API token, or an agent token of the same user. A running agent is refused at its next call and ends; it registers again when it restarts. Another user's agent answers 404 like an unknown one.",
      params: IdParamsSchema,
      response: { 204: NoContent, ...SCOPED_ERRORS_WITH_404, 503: NO_REDIS },
    },
  }),
  heartbeat: defineRoute({
    method: 'PUT',
    url: '/api/agents/:id/heartbeat',
    schema: {
      tags,
      summary: 'The agent is alive (every heartbeat_ms), and which run it runs; answers whether to stop it',
      description: `${AGENT_TOKEN_ONLY} No heartbeat for heartbeat_ttl_ms and the agent counts as lost. \`offline: true\` says it stops (it stays on the list). stop is true when the run named was stopped or is not this agent's.`,
      params: IdParamsSchema,
      body: AgentHeartbeatRequestSchema,
      response: {
        200: AgentHeartbeatAnswerSchema,
        ...SCOPED_ERRORS_WITH_404,
        429: THROTTLED,
        503: NO_REDIS,
      },
    },
  }),
  nextJob: defineRoute({
    method: 'POST',
    url: '/api/agents/:id/jobs/next',
    schema: {
      tags,
      summary: "Waits (up to wait_ms) for the agent's next job: a shard of a run, or a Locust worker",
      description: `${AGENT_TOKEN_ONLY} Answers { job: null } when none came in time; the agent calls again.`,
      params: IdParamsSchema,
      body: AgentNextJobRequestSchema,
      response: { 200: AgentNextJobAnswerSchema, ...SCOPED_ERRORS_WITH_404, 429: THROTTLED, 503: NO_REDIS },
    },
  }),
  postEvents: defineRoute({
    method: 'POST',
    url: '/api/agents/:id/runs/:runId/events',
    schema: {
      tags,
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
  }),
};
