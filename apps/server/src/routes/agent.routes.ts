import type { AgentRegisterRequest } from '@aqa/engine';
import {
  AgentListSchema,
  AgentRegisterRequestSchema,
  AgentRegistrationSchema,
  ErrorResponseSchema,
  type AgentRegisterRequestBody,
} from '@aqa/plan';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../auth/authenticate';
import type { AgentsService } from '../services/agents/agents.service';
import { SCOPED_ERRORS, SCOPED_ERRORS_WITH_404 } from './route-common';

const AgentIdParamsSchema = z.object({ id: z.string().min(1).max(200) });
const NoContent = z.undefined().describe('No content');
const NO_REDIS = ErrorResponseSchema.describe('The server has no Redis (AGENTS_UNAVAILABLE): set REDIS_URL');

/** The body the route checks is the protocol's request: a change to either is a compile error here. */
const bodyFits: AgentRegisterRequestBody extends AgentRegisterRequest
  ? AgentRegisterRequest extends AgentRegisterRequestBody
    ? true
    : false
  : false = true;
void bodyFits;

/**
 * Load agents (docs/adr/0021-load-agents.md "Server side"): `aqa agent` registers here with an API
 * token (or a session) and belongs to that user; the user lists and forgets their own. Another user's
 * agent id is not found.
 */
export const agentRoutes: FastifyPluginCallbackZod<{ agents: AgentsService }> = (app, { agents }, done) => {
  app.post(
    '/api/agents/register',
    {
      schema: {
        tags: ['agents'],
        summary:
          'Register a load agent (aqa agent) of the signed-in user; answers where it takes its shards from',
        description:
          "Called by `aqa agent --server URL --token T`. The agent belongs to the token's user: only that user's runs use it. 400 when the agent speaks another protocol version; 503 AGENTS_UNAVAILABLE when the server has no REDIS_URL.",
        body: AgentRegisterRequestSchema,
        response: { 200: AgentRegistrationSchema, ...SCOPED_ERRORS, 503: NO_REDIS },
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
        summary: 'Forget one of your load agents (a running agent registers again when it restarts)',
        description: "Another user's agent answers 404 like an unknown one.",
        params: AgentIdParamsSchema,
        response: { 204: NoContent, ...SCOPED_ERRORS_WITH_404, 503: NO_REDIS },
      },
    },
    async (request, reply) => {
      await agents.forget(requireAuth(request).user.id, request.params.id);
      return reply.code(204).send();
    },
  );
  done();
};
