import { z } from 'zod';

/*
 * Load agents (docs/scale-out.md): the machines a run of several agents is split over. The server
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
