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
  type AgentHeartbeatRequestBody,
  type AgentJobBody,
  type AgentRegisterRequestBody,
  type AgentRegistrationBody,
  type ShardEventsPostBody,
  type TargetGuardSettingsSchema,
} from '@aqa/plan';
import { contract } from '@aqa/contract';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { requireAuth } from '../auth/authenticate';
import type { AgentsService } from '../services/agents/agents.service';

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
  app.route({
    ...contract.agents.register,
    handler: (request) => agents.register(requireAuth(request).user.id, request.body),
  });

  app.route({
    ...contract.agents.list,
    handler: (request) => agents.list(requireAuth(request).user.id),
  });

  app.route({
    ...contract.agents.forget,
    handler: async (request, reply) => {
      await agents.forget(requireAuth(request).user.id, request.params.id);
      return reply.code(204).send();
    },
  });

  app.route({
    ...contract.agents.heartbeat,
    handler: (request) => agents.heartbeat(requireAuth(request).user.id, request.params.id, request.body),
  });

  app.route({
    ...contract.agents.nextJob,
    handler: async (request, reply) => {
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
  });

  app.route({
    ...contract.agents.postEvents,
    bodyLimit: AGENT_MAX_POST_BYTES,
    handler: (request) =>
      agents.postEvents(
        requireAuth(request).user.id,
        request.params.id,
        request.params.runId,
        request.body.first_seq,
        request.body.events,
      ),
  });
  done();
};
