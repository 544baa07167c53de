import { z } from 'zod';
import { oneLine } from '../strict-input';

/*
 * Load agents (docs/adr/0021-load-agents.md): the machines a run of several agents is split over. The server
 * builds these, the web app reads them, the OpenAPI document describes them: the types below are the
 * only ones.
 */

const text = z.string();
const count = z.number().int();

/**
 * An agent's part in one run: waiting (its shard is queued), running, done, lost (its heartbeats
 * stopped: the run went on with the others and is partial) or failed (it could not run its share).
 */
export const RUN_AGENT_STATUSES = ['waiting', 'running', 'done', 'lost', 'failed'] as const;
export type RunAgentStatus = (typeof RUN_AGENT_STATUSES)[number];

/** One agent of a run, live (in the stream's snapshots and status events) and in the stored result. */
export const RunAgentSchema = z.object({
  agent_id: text,
  name: text,
  host: text,
  users: count.describe("This agent's share of the run's virtual users"),
  status: z.enum(RUN_AGENT_STATUSES),
  requests: count.describe('Requests this agent completed, cumulative'),
  requests_per_second: z.number().describe("This agent's throughput over the last second (0 once it ended)"),
  error: text.nullable().describe('Why the agent was lost or failed, in words; else null'),
});
export type RunAgent = z.infer<typeof RunAgentSchema>;

/** GET /api/agents: an agent registered by the user, with its liveness from its heartbeats. */
export const AgentInfoSchema = z.object({
  agent_id: text,
  name: text,
  host: text,
  cores: count,
  version: text,
  online: z.boolean().describe('A heartbeat arrived within the last 5 seconds'),
  run_id: text.nullable().describe('The run whose shard it is running, or null when idle'),
  last_seen_at: text.nullable(),
});
export type AgentInfo = z.infer<typeof AgentInfoSchema>;

/**
 * POST /api/agents/register: what an agent says of itself (the engine's AgentRegisterRequest in
 * packages/engine/src/agent/protocol.ts; the server checks that the two agree).
 */
export const AgentRegisterRequestSchema = z.object({
  name: oneLine('Agent name')
    .trim()
    .min(1, 'name must not be empty')
    .max(100, 'name must be at most 100 characters'),
  host: oneLine('Host')
    .trim()
    .min(1, 'host must not be empty')
    .max(255, 'host must be at most 255 characters'),
  cores: z
    .number({ error: 'cores must be a whole number from 1 to 1024' })
    .int('cores must be a whole number from 1 to 1024')
    .min(1, 'cores must be a whole number from 1 to 1024')
    .max(1024, 'cores must be a whole number from 1 to 1024'),
  protocol: z
    .number({ error: 'protocol must be a whole number' })
    .int('protocol must be a whole number')
    .describe("The agent protocol's version; the server refuses another"),
  version: oneLine('Version').trim().max(50, 'version must be at most 50 characters'),
});
export type AgentRegisterRequestBody = z.infer<typeof AgentRegisterRequestSchema>;

/** POST /api/agents/register answer: where the agent takes its shards from. */
export const AgentRegistrationSchema = z.object({
  agent_id: text,
  name: text,
  redis_url: text.describe('The Redis the agent uses for its queue, heartbeats and shard streams'),
  queue: text.describe('The BullMQ queue of this agent'),
  prefix: text.describe("The queue's BullMQ key prefix"),
  heartbeat_ms: count,
  heartbeat_ttl_ms: count.describe('No heartbeat for this long and the agent counts as lost'),
});
export type AgentRegistrationBody = z.infer<typeof AgentRegistrationSchema>;

export const AgentListSchema = z.array(AgentInfoSchema);
