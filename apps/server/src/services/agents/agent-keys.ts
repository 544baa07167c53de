/*
 * The Redis keys of load agents (docs/adr/0021-load-agents.md "Server side",
 * docs/adr/0023-agents-over-http.md). Only the servers use them: agents speak HTTP to a server, which
 * reads and writes these for them, so no agent holds a Redis credential.
 */

/** The user's agents: one hash per user, agent id → StoredAgent JSON. */
export const userAgentsKey = (userId: string): string => `aqa:agents:user:${userId}`;
/** AgentHeartbeat JSON, set with PX heartbeat_ttl_ms by the server at each of the agent's heartbeats. */
export const agentHeartbeatKey = (agentId: string): string => `aqa:agent:${agentId}:alive`;
/** Set (NX, with a TTL) while a run holds the agent, so two runs never take the same one. */
export const agentClaimKey = (agentId: string): string => `aqa:agent:${agentId}:claim`;
/** The agent's jobs waiting to be taken: a list of AgentJob JSON, oldest first. */
export const agentJobsKey = (agentId: string): string => `aqa:agent:${agentId}:jobs`;
/** Published when a job is queued for the agent, so the replica holding its next-job call wakes. */
export const agentWakeChannel = (agentId: string): string => `aqa:agent:${agentId}:wake`;
/** The run's agents: agent id → its index in the run. An agent not in it may not write the run's events. */
export const runAgentsKey = (runId: string): string => `aqa:run:${runId}:agents`;
/** The last event number kept of each agent of the run: agent id → number. */
export const runEventSeqKey = (runId: string): string => `aqa:run:${runId}:seq`;
/** The run's shard events (field `e`, ShardEvent JSON), in the order kept, read by the run's owner. */
export const runStreamKey = (runId: string): string => `aqa:run:${runId}:shards`;
/** Set (with a TTL) when a run is stopped; the agents' heartbeat and events answers then say stop. */
export const runStopKey = (runId: string): string => `aqa:run:${runId}:stop`;

/** What an agent's heartbeat key holds, as written by the server that took the heartbeat. */
export interface AgentHeartbeat {
  agent_id: string;
  name: string;
  host: string;
  cores: number;
  /** The run whose job the agent is running, or null when idle. */
  run_id: string | null;
  /** Epoch ms at which the server took this beat. */
  at: number;
}
