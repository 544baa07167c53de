/**
 * The contract between the server and its load agents (docs/scale-out.md, docs/design.md §8,
 * docs/adr/0021-load-agents.md, docs/adr/0023-agents-over-http.md). Its wire shapes are checked by the
 * zod schemas of packages/plan/src/results/agents.ts; the server's routes prove at compile time that
 * the two agree.
 *
 * An agent is the `aqa agent` program on any machine. It speaks only HTTP(S) to the server, with an API
 * token of the agent scope, and holds no credential of the server's Redis or database. It registers,
 * beats a heartbeat, takes **jobs** (a shard of a run, or a Locust worker) one at a time, runs each, and
 * posts every worker thread's per-interval report (ShardIntervalWire: counts and HDR histograms) back,
 * numbered so a post sent again is kept once. The server maps each (agent, local shard) to one shard of
 * a RunAggregator, so the merged figures are exactly those one machine would report.
 *
 *   agent ──POST /api/agents/register──▶ server                         (AgentRegistration ◀──)
 *   agent ──PUT  paths.heartbeat { run_id } every heartbeat_ms──▶ server  ({ stop } ◀──)
 *   agent ──POST paths.next_job { wait_ms }──▶ server waits for a job     ({ job } ◀──)
 *   agent ──POST paths.events { first_seq, events }──▶ server            ({ accepted_through, stop } ◀──)
 *   agent ──DELETE paths.leave──▶ server                                  (an agent that ends on its own)
 */
import type { LoadProfile, PerfPlan } from '@aqa/plan';
import type { SequenceSplit } from '../executor/sequence';
import type { TargetGuardSettings } from '../guard';
import type { ShardIntervalWire } from '../metrics/types';

/**
 * Bumped when a field below changes meaning; the server refuses agents of another version. 3: a shard
 * job's plan may carry flows, test data and abort thresholds, which the agent runs as one machine of
 * the run (`data_seed`, flows walked by the agent's own iterations, abort thresholds left to the
 * server: docs/adr/0027-load-profiles.md "On load agents"); 2: agents over HTTP only
 * (docs/adr/0023-agents-over-http.md); 1 took jobs from BullMQ on the server's Redis.
 */
export const AGENT_PROTOCOL_VERSION = 3;

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

/** The paths an agent calls, relative to the server's address. */
export interface AgentPaths {
  heartbeat: string;
  next_job: string;
  /** With RUN_ID_PLACEHOLDER where the run's id goes. */
  events: string;
  leave: string;
}

/** Where a run's id goes in AgentPaths.events. */
export const RUN_ID_PLACEHOLDER = '{run_id}';

/** POST /api/agents/register answer (200): no Redis, database or other secret of the server. */
export interface AgentRegistration {
  agent_id: string;
  name: string;
  heartbeat_ms: number;
  /** No heartbeat for this long and the agent counts as lost. */
  heartbeat_ttl_ms: number;
  /** How long one POST next_job waits on the server for a job. */
  job_wait_ms: number;
  max_events_per_post: number;
  max_post_bytes: number;
  paths: AgentPaths;
}

export const AGENT_HEARTBEAT_MS = 1000;
export const AGENT_HEARTBEAT_TTL_MS = 5000;
/** How long the server holds a POST next_job open waiting for a job (below AGENT_MAX_JOB_WAIT_MS). */
export const AGENT_JOB_WAIT_MS = 20_000;

/** The paths of agent `agentId` (the server answers them at registration). */
export function agentPaths(agentId: string): AgentPaths {
  const base = `/api/agents/${encodeURIComponent(agentId)}`;
  return {
    heartbeat: `${base}/heartbeat`,
    next_job: `${base}/jobs/next`,
    events: `${base}/runs/${RUN_ID_PLACEHOLDER}/events`,
    leave: base,
  };
}

/** PUT heartbeat body. */
export interface AgentHeartbeatRequest {
  /** The run whose job the agent is running, or null when idle. */
  run_id: string | null;
  /** The agent stops: it is offline at once (its heartbeat is deleted), and stays on its user's list. */
  offline?: boolean | undefined;
}

/** PUT heartbeat answer. */
export interface AgentHeartbeatAnswer {
  /** The run named was stopped, or is not this agent's (any more): the agent ends its share. */
  stop: boolean;
}

/** POST next_job body. */
export interface AgentNextJobRequest {
  wait_ms: number;
}

/** A job of an agent. */
export type AgentJob =
  { kind: 'shard'; shard: ShardJob } | { kind: 'locust-worker'; locust_worker: LocustWorkerJob };

/** POST next_job answer: the job, or null when none came within wait_ms. */
export interface AgentNextJobAnswer {
  job: AgentJob | null;
}

/** POST events body: events first_seq, first_seq + 1, … of this agent in this run (a run's first is 1). */
export interface ShardEventsPost {
  first_seq: number;
  events: ShardEvent[];
}

/** POST events answer. */
export interface ShardEventsAnswer {
  /** Every event up to this number is kept. */
  accepted_through: number;
  /** The run was stopped: the agent ends its share. */
  stop: boolean;
}

/** A shard job: one agent's share of a run in the built-in engine. */
export interface ShardJob {
  run_id: string;
  /** 0-based index of this agent among the run's agents. */
  agent_index: number;
  agent_count: number;
  /**
   * The plan with concurrent_users set to this agent's share, and all of the plan's flows, test data
   * (`data_files` and `data_sources`, up to 10 MB) and abort thresholds (docs/adr/0027-load-profiles.md
   * "On load agents"). The agent takes its stride (`sequence_split`) of the `share: "all"` rows and of
   * the iterations; the abort thresholds are judged by the server on the merged run, never by an
   * agent on its share.
   */
  plan: PerfPlan;
  /** Seeds the order of `random_order` data sources: the same on every agent of the run, so each shuffles the same permutation. */
  data_seed: number;
  /**
   * The run's whole load profile, when it has one (docs/adr/0027-load-profiles.md, "7. Where a profile
   * goes"): the agent follows its share of it (its place is `sequence_split`) instead of `users` for
   * `duration_seconds`, which then only bound how late a job may still start.
   */
  load_profile?: LoadProfile;
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
 * runs one `locust --worker` that dials it with the same locustfile. Its events are those of a shard
 * (below): `ready` (shards 1: one worker process) once the worker started, then `done` with the
 * requests the worker reported to its master, or `failed` in words (Locust not installed, a target its
 * guard refuses, a worker that exited with an error).
 */
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
 * One event of an agent's share of a run, in the order it happened: `ready`, its workers' `interval`s,
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
  | {
      type: 'done';
      agent_index: number;
      status: 'completed' | 'stopped';
      total_requests: number;
      /** Set when the agent's engine had to end worker threads still busy past the run's end, in words. */
      cut_short?: string;
    }
  /** The agent could not run its share (compile error, capacity, engine failure), in words. */
  | { type: 'failed'; agent_index: number; message: string };
