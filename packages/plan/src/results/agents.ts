import { z } from 'zod';
import { PlannedProfileSchema } from './planned-profile';
import { oneLine } from '../strict-input';
import { MAX_FLOWS } from '../flows';
import { PERF_DATA_MAX_COUNT } from '../test-data';

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

/** Most events an agent sends in one POST …/events (docs/adr/0023-agents-over-http.md). */
export const AGENT_MAX_EVENTS_PER_POST = 500;
/** Most bytes of one POST …/events body: an agent splits its events into posts under this. */
export const AGENT_MAX_POST_BYTES = 8 * 1024 * 1024;
/** Longest a POST …/jobs/next waits on the server for a job before it answers `{ job: null }`. */
export const AGENT_MAX_JOB_WAIT_MS = 25_000;

/** The paths an agent calls, as the server names them in its registration answer. */
export const AgentPathsSchema = z.object({
  heartbeat: text.describe('PUT: the agent is alive (AgentHeartbeatRequest); answers whether to stop'),
  next_job: text.describe('POST: waits (bounded) for the next job of the agent'),
  events: text.describe('POST: the shard events of one run; {run_id} is replaced by the run'),
  leave: text.describe("DELETE: the agent leaves its user's list"),
});

/**
 * POST /api/agents/register answer: who the agent is and how it speaks to the server. It names no
 * Redis, database or other secret of the server: agents speak only HTTP(S) to it
 * (docs/adr/0023-agents-over-http.md).
 */
export const AgentRegistrationSchema = z.object({
  agent_id: text,
  name: text,
  heartbeat_ms: count.describe('How often the agent sends PUT heartbeat'),
  heartbeat_ttl_ms: count.describe('No heartbeat for this long and the agent counts as lost'),
  job_wait_ms: count.describe('How long one POST next_job waits on the server for a job'),
  max_events_per_post: count.describe('Most events in one POST events'),
  max_post_bytes: count.describe('Most bytes of one POST events body'),
  paths: AgentPathsSchema,
});
export type AgentRegistrationBody = z.infer<typeof AgentRegistrationSchema>;

const runIdText = z
  .string()
  .min(1, 'run_id must not be empty')
  .max(200, 'run_id must be at most 200 characters');

/** PUT /api/agents/{id}/heartbeat body. */
export const AgentHeartbeatRequestSchema = z.object({
  run_id: runIdText.nullable().describe('The run whose job the agent is running, or null when idle'),
  offline: z
    .boolean()
    .optional()
    .describe('true when the agent stops: it counts as offline at once (it stays on the list)'),
});
export type AgentHeartbeatRequestBody = z.infer<typeof AgentHeartbeatRequestSchema>;

/** PUT /api/agents/{id}/heartbeat answer. */
export const AgentHeartbeatAnswerSchema = z.object({
  stop: z
    .boolean()
    .describe(
      "true when the run named in run_id was stopped or is not this agent's (any more): the agent ends its share",
    ),
});

/** POST /api/agents/{id}/jobs/next body. */
export const AgentNextJobRequestSchema = z.object({
  wait_ms: z
    .number({ error: `wait_ms must be a whole number of milliseconds from 0 to ${AGENT_MAX_JOB_WAIT_MS}` })
    .int(`wait_ms must be a whole number of milliseconds from 0 to ${AGENT_MAX_JOB_WAIT_MS}`)
    .min(0, `wait_ms must be a whole number of milliseconds from 0 to ${AGENT_MAX_JOB_WAIT_MS}`)
    .max(
      AGENT_MAX_JOB_WAIT_MS,
      `wait_ms must be a whole number of milliseconds from 0 to ${AGENT_MAX_JOB_WAIT_MS}`,
    )
    .describe('How long the server may wait for a job before it answers { job: null }'),
});
export type AgentNextJobRequestBody = z.infer<typeof AgentNextJobRequestSchema>;

/** The server's target guard as a job carries it to the agent (the engine's TargetGuardSettings). */
export const TargetGuardSettingsSchema = z.object({
  allow: z.array(text),
  deny: z.array(text),
  ownPorts: z.array(count),
});

/**
 * One agent's share of a run in the built-in engine (the engine's ShardJob). The plan is the saved
 * plan (PerfPlanSchema) with concurrent_users set to this agent's share.
 */
export const ShardJobSchema = z.object({
  run_id: text,
  agent_index: count,
  agent_count: count,
  plan: z
    .record(z.string(), z.unknown())
    .describe(
      "The run's plan with this agent's users (PerfPlan), with its flows, test data (up to 10 MB) and abort thresholds",
    ),
  data_seed: z
    .number()
    .int()
    .min(0)
    .max(2 ** 32 - 1)
    .describe('Seeds the order of random_order data sources: the same on every agent of the run'),
  load_profile: PlannedProfileSchema.optional().describe(
    "The run's whole load profile: the agent follows its place in it (sequence_split) instead of users for duration_seconds",
  ),
  duration_seconds: count,
  users: count,
  first_user: count,
  sequence_split: z.object({ offset: count, stride: count }),
  start_at_epoch_ms: z.number(),
  guard: TargetGuardSettingsSchema.nullable(),
});

/** One agent's Locust worker in a run of a Locust plan (the engine's LocustWorkerJob). */
export const LocustWorkerJobSchema = z.object({
  run_id: text,
  agent_index: count,
  agent_count: count,
  files: z.array(z.object({ name: text, content: text })),
  locustfile: text,
  master_host: text,
  master_port: count,
  users: count,
  origins: z.array(text),
  guard: TargetGuardSettingsSchema.nullable(),
  ends_at_epoch_ms: z.number(),
});

/** A job of an agent: a shard for the built-in engine, or a Locust worker. */
export const AgentJobSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('shard'), shard: ShardJobSchema }),
  z.object({ kind: z.literal('locust-worker'), locust_worker: LocustWorkerJobSchema }),
]);
export type AgentJobBody = z.infer<typeof AgentJobSchema>;

/** POST /api/agents/{id}/jobs/next answer. */
export const AgentNextJobAnswerSchema = z.object({
  job: AgentJobSchema.nullable().describe('The next job, or null when none came within wait_ms'),
});
export type AgentNextJobAnswerBody = z.infer<typeof AgentNextJobAnswerSchema>;

const finite = z.number();
const nonNegative = finite.min(0);
const whole = count.min(0);

/** An HDR histogram as the engine encodes it (EncodedHistogram): counter indexes and their counts. */
const EncodedHistogramSchema = z.object({
  i: z.array(whole).max(1 << 16),
  c: z.array(whole).max(1 << 16),
  sum: nonNegative,
  min: nonNegative,
  max: nonNegative,
});

/** One step's counters of one worker interval (the engine's StepIntervalWire). */
const StepIntervalWireSchema = z.object({
  requests: whole,
  successes: whole,
  errors: z.array(whole).max(64),
  samples: z.array(z.array(z.string().max(4000)).max(20)).max(64),
  bytesSent: nonNegative,
  bytesReceived: nonNegative,
  histogram: EncodedHistogramSchema,
});

/** One worker thread's report for one interval (the engine's ShardIntervalWire). */
export const ShardIntervalWireSchema = z.object({
  shard: whole.max(4096),
  interval: whole,
  final: z.boolean(),
  endMs: nonNegative,
  activeUsers: whole,
  busy: nonNegative.max(1),
  steps: z.array(StepIntervalWireSchema).max(2000),
  /** Open-model load profile only: iterations started and dropped in the interval, and their lag (µs). */
  iterations: whole.optional(),
  dropped: whole.optional(),
  lag: EncodedHistogramSchema.optional(),
  /** Test data: by data source, the users (open model: iterations) that found no row left in the interval. */
  dataEnded: z.array(whole).max(PERF_DATA_MAX_COUNT).optional(),
  /** Plans with flows: iterations begun in the interval per flow, in the plan's order of flows. */
  flows: z.array(whole).max(MAX_FLOWS).optional(),
});

/** One event of an agent's share of a run (the engine's ShardEvent), in the order it happened. */
export const ShardEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready'), agent_index: whole, agent_id: text, shards: count.min(1).max(4096) }),
  z.object({ type: z.literal('interval'), agent_index: whole, wire: ShardIntervalWireSchema }),
  z.object({
    type: z.literal('done'),
    agent_index: whole,
    status: z.enum(['completed', 'stopped']),
    total_requests: whole,
    cut_short: z.string().max(4000).optional(),
  }),
  z.object({ type: z.literal('failed'), agent_index: whole, message: z.string().max(4000) }),
]);

/**
 * POST /api/agents/{id}/runs/{run_id}/events body: events first_seq, first_seq + 1, … of this agent in
 * this run (the first event of a run is 1). A post sent again after a lost answer repeats its numbers,
 * and the server keeps each number once: nothing is lost, doubled or reordered.
 */
export const ShardEventsPostSchema = z.object({
  first_seq: z
    .number({ error: 'first_seq must be a whole number of at least 1' })
    .int('first_seq must be a whole number of at least 1')
    .min(1, 'first_seq must be a whole number of at least 1'),
  events: z
    .array(ShardEventSchema)
    .min(1, 'events must hold at least one event')
    .max(AGENT_MAX_EVENTS_PER_POST, `events must hold at most ${AGENT_MAX_EVENTS_PER_POST} events per post`),
});
export type ShardEventsPostBody = z.infer<typeof ShardEventsPostSchema>;

/** POST …/events answer. */
export const ShardEventsAnswerSchema = z.object({
  accepted_through: count.describe('Every event up to this number is kept; the agent drops them'),
  stop: z.boolean().describe('true when the run was stopped: the agent ends its share'),
});

export const AgentListSchema = z.array(AgentInfoSchema);
