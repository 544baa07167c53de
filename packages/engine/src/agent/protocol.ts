/**
 * The contract between the server and its load agents (docs/scale-out.md, docs/design.md §8,
 * docs/adr/0021-load-agents.md).
 *
 * An agent is the `aqa agent` program on any machine. It registers with the server over HTTP with an
 * API token (it never touches the database), then takes **shards** of runs from its own BullMQ queue
 * on the server's Redis, runs each with the built-in engine, and streams every worker thread's
 * per-interval report (ShardIntervalWire: counts and HDR histograms) back through a Redis stream. The
 * server maps each (agent, local shard) to one shard of a RunAggregator, so the merged figures are
 * exactly those one machine would report for the same requests.
 *
 *   agent ──POST /api/agents/register──▶ server        (AgentRegistration ◀── answer)
 *   agent ──SET heartbeatKey PX ttl, every heartbeat_ms──▶ Redis
 *   server ──queue.add(SHARD_JOB, ShardJob)──▶ BullMQ queue `agentQueueName(id)` ──▶ agent
 *   agent ──XADD runStreamKey(run) ShardEvent (field `e`, JSON)──▶ server reads with XREAD
 *   server ──PUBLISH runControlChannel(run) 'stop'──▶ agent (and SET runStopKey, read at start)
 */
import type { PerfPlan } from '@aqa/plan';
import type { SequenceSplit } from '../executor/sequence';
import type { TargetGuardSettings } from '../guard';
import type { ShardIntervalWire } from '../metrics/types';

/** Bumped when a field below changes meaning; the server refuses agents of another version. */
export const AGENT_PROTOCOL_VERSION = 1;

/** POST /api/agents/register body. */
export interface AgentRegisterRequest {
  name: string;
  host: string;
  /** Cores the agent will use for worker threads. */
  cores: number;
  protocol: number;
  /** The aqa program's version, shown on the agents list. */
  version: string;
}

/** POST /api/agents/register answer (200). */
export interface AgentRegistration {
  agent_id: string;
  name: string;
  /** The Redis the agent uses for its queue, heartbeats and streams (the server's REDIS_URL, or AQA_AGENT_REDIS_URL). */
  redis_url: string;
  /** BullMQ queue name the agent takes its shards from: agentQueueName(agent_id). */
  queue: string;
  /** BullMQ key prefix for that queue. */
  prefix: string;
  heartbeat_ms: number;
  /** The heartbeat key's time to live: no heartbeat for this long and the agent counts as lost. */
  heartbeat_ttl_ms: number;
}

export const AGENT_HEARTBEAT_MS = 1000;
export const AGENT_HEARTBEAT_TTL_MS = 5000;
export const BULLMQ_PREFIX = 'aqa';
export const SHARD_JOB = 'shard';

export const agentQueueName = (agentId: string): string => `agent-${agentId}`;
/** Value: AgentHeartbeat JSON, set with PX AGENT_HEARTBEAT_TTL_MS every AGENT_HEARTBEAT_MS. */
export const agentHeartbeatKey = (agentId: string): string => `aqa:agent:${agentId}:alive`;
/** Redis stream of ShardEvent JSON (field `e`), written by agents, read by the server that owns the run. */
export const runStreamKey = (runId: string): string => `aqa:run:${runId}:shards`;
/** Pub/sub channel: the message 'stop' asks every agent of the run to stop gracefully. */
export const runControlChannel = (runId: string): string => `aqa:run:${runId}:control`;
/** Set (with a TTL) when a run is stopped, for an agent that subscribes after the stop was published. */
export const runStopKey = (runId: string): string => `aqa:run:${runId}:stop`;

export interface AgentHeartbeat {
  agent_id: string;
  name: string;
  host: string;
  pid: number;
  cores: number;
  /** The run whose shard the agent is running, or null when idle. */
  run_id: string | null;
  /** Epoch ms of this beat. */
  at: number;
}

/** The data of one BullMQ job: one agent's share of a run. */
export interface ShardJob {
  run_id: string;
  /** 0-based index of this agent among the run's agents. */
  agent_index: number;
  agent_count: number;
  /** The plan with concurrent_users set to this agent's share. */
  plan: PerfPlan;
  duration_seconds: number;
  /** This agent's users and the number of the first (users of all agents are numbered 0..N-1). */
  users: number;
  first_user: number;
  /** This agent's share of {{sequence_number}}: offset = agent_index, stride = agent_count. */
  sequence_split: SequenceSplit;
  /** Every agent starts its load at this instant (epoch ms), so their intervals align. */
  start_at_epoch_ms: number;
  /** The server's target guard, applied by the agent to every connection. */
  guard: TargetGuardSettings | null;
}

/**
 * The job of an agent in a run of a Locust plan in Locust's own master/worker mode
 * (docs/adr/0021-load-agents.md "Locust master/worker"): the server runs the Locust master; the agent
 * runs one `locust --worker` that dials it with the same locustfile. Its stream events are those of a
 * shard (below): `ready` (shards 1: one worker process) once the worker started, then `done` with the
 * requests the worker reported to its master, or `failed` in words (Locust not installed, a target its
 * guard refuses, a worker that exited with an error).
 */
export const LOCUST_WORKER_JOB = 'locust-worker';

export interface LocustWorkerJob {
  run_id: string;
  agent_index: number;
  agent_count: number;
  /** The script generated for the plan and the wrapper (locustWorkerFiles), written into a folder of the agent's. */
  files: { name: string; content: string }[];
  /** Which of `files` Locust runs (`-f`). */
  locustfile: string;
  /** Where the worker dials the master: the server's address as the agents reach it (AQA_LOCUST_MASTER_HOST). */
  master_host: string;
  master_port: number;
  /** This agent's even share of the users, for its log; Locust's master hands the users out itself. */
  users: number;
  /** The origins of the plan the server checked; the agent checks them with the guard below before its worker starts. */
  origins: string[];
  guard: TargetGuardSettings | null;
  /** The run's planned end (epoch ms): a job that reaches the agent later is answered `failed`, never run late. */
  ends_at_epoch_ms: number;
}

/**
 * One entry of runStreamKey(run), in the order an agent wrote it: `ready`, its workers' `interval`s,
 * then `done`; or `failed` alone when the shard could not start (a plan that cannot run, more users
 * than the agent holds, a shard that reached the agent after its run's end), or after `ready` when the
 * engine failed. A shard stopped before its start still writes ready, its workers' final (empty)
 * intervals and `done` stopped, and sends no request.
 */
export type ShardEvent =
  /** The agent's workers are ready; `shards` worker threads will report. */
  | { type: 'ready'; agent_index: number; agent_id: string; shards: number }
  /** One worker thread's interval; `wire.shard` is the agent's local shard number (0..shards-1). */
  | { type: 'interval'; agent_index: number; wire: ShardIntervalWire }
  /** The agent's share ended (its duration or a stop); every interval was written before this. */
  | { type: 'done'; agent_index: number; status: 'completed' | 'stopped'; total_requests: number }
  /** The agent could not run its share (compile error, capacity, engine failure), in words. */
  | { type: 'failed'; agent_index: number; message: string };
