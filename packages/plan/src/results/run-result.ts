import { z } from 'zod';
import { RunAgentSchema } from './agents';
import { PhraseSchema } from '../phrases/phrase';
import { ENGINE_IDS, ERROR_KINDS } from './error-kinds';
import { FlowIterationsSchema } from './iteration-figures';
import { PlannedProfileSchema } from './planned-profile';
import { BreakingPointSchema, RunAbortSchema } from './run-abort';

/*
 * A performance run as the API shows it (docs/reference/02-running.md §3 "Live test results", "API
 * result row"). The server builds these, the web app reads them, the OpenAPI document describes them:
 * the types below are the only ones.
 */

const text = z.string();
const count = z.number().int();

/**
 * What get-test-result may answer; not_found is a run that is still starting (or never was);
 * interrupted is a run its server died during, ended at its last stored second (docs/adr/0016-crash-recovery.md).
 */
export const RUN_STATUSES = [
  'running',
  'processing',
  'completed',
  'failed',
  'stopped',
  'interrupted',
  'not_found',
] as const;
export const RunStatusSchema = z.enum(RUN_STATUSES);
export type RunStatus = z.infer<typeof RunStatusSchema>;

/** What a stored run can be (processing lasts from the run's last second until it is stored). */
export const STORED_STATUSES = [
  'running',
  'processing',
  'completed',
  'failed',
  'stopped',
  'interrupted',
] as const;
export type StoredStatus = (typeof STORED_STATUSES)[number];
/** The statuses of a run that has ended: a completed one ran its whole duration. */
export const FINAL_STATUSES = [
  'completed',
  'failed',
  'stopped',
  'interrupted',
] as const satisfies readonly StoredStatus[];
export type FinalStatus = (typeof FINAL_STATUSES)[number];
/** The statuses of a run still going on its server: running, or its result being gathered and stored. */
export const UNFINISHED_STATUSES = ['running', 'processing'] as const satisfies readonly StoredStatus[];

export const LatencySummarySchema = z
  .object({
    avg: z.number(),
    p50: z.number(),
    p90: z.number(),
    p95: z.number(),
    p99: z.number(),
    p999: z.number(),
    min: z.number(),
    max: z.number(),
  })
  .describe('Milliseconds (3 decimals), from an HDR histogram of every request');
export type LatencySummary = z.infer<typeof LatencySummarySchema>;

export const ErrorTallySchema = z.object({
  count,
  samples: z.array(text).describe('Up to 5 distinct messages'),
});
/** Errors of one kind: how many, and up to 5 distinct example messages. */
export type ErrorTally = z.infer<typeof ErrorTallySchema>;

export const ErrorsByKindSchema = z
  .partialRecord(z.enum(ERROR_KINDS), ErrorTallySchema)
  .describe('Failed requests by kind, with up to 5 sample messages (finished runs)');
export type ErrorsByKind = z.infer<typeof ErrorsByKindSchema>;

/**
 * A flow's row of a run's summary: its iterations and, where the built-in engine measured them, its
 * calls' requests and latency merged from their histograms — what a threshold scoped to the flow is
 * judged on (docs/adr/0027-load-profiles.md "Abort criteria"). A tool's run and a run recovered after
 * a restart count iterations only.
 */
export const FlowSummarySchema = FlowIterationsSchema.extend({
  total_requests: count.optional(),
  failed_requests: count.optional(),
  error_rate: z.number().optional().describe('Percent'),
  average_response_time: z.number().optional().describe('ms'),
  percentile_95: z.number().optional().describe('ms'),
  percentile_99: z.number().optional().describe('ms'),
});

export const ResultSummarySchema = z
  .object({
    concurrent_users: count,
    requests_per_second: z.number(),
    average_response_time: z.number().describe('ms'),
    error_rate: z.number().describe('Percent'),
    total_requests: count,
    successful_requests: count,
    failed_requests: count,
    percentile_50: z.number().describe('ms'),
    percentile_90: z.number().describe('ms'),
    percentile_95: z.number().describe('ms'),
    percentile_99: z.number().describe('ms'),
    percentile_999: z.number().describe('ms'),
    min_response_time: z.number().describe('ms'),
    max_response_time: z.number().describe('ms'),
    avg_bandwidth: z.number().describe('Received KB/s'),
    test_duration: z.number().describe('Seconds'),
    data_exhausted: z
      .array(text)
      .optional()
      .describe(
        'Test data with loop: false that ran out, in words, e.g. test data "users.csv" ran out after its 1000 rows (loop: false): 10 users ended there (docs/adr/0027-load-profiles.md "Test data")',
      ),
    iterations_started: count
      .optional()
      .describe('Open-model load profile only: iterations started (docs/adr/0027-load-profiles.md)'),
    iterations_dropped: count
      .optional()
      .describe(
        'Open-model load profile only: iterations due while no user of the pool was free, so not run; started + dropped is the planned total',
      ),
    schedule_lag: LatencySummarySchema.optional().describe(
      'Open-model load profile only, measured by the built-in engine: how late the started iterations began after they were due (start − due), ms, from an HDR histogram of every started iteration merged across workers and agents (docs/adr/0027-load-profiles.md "2. The schedule")',
    ),
    flows: z
      .array(FlowSummarySchema)
      .optional()
      .describe(
        "Plans with flows only: the iterations each flow ran, in the plan's order of flows, and (measured by the built-in engine) its calls' requests and latency merged (docs/adr/0027-load-profiles.md)",
      ),
  })
  .describe("A run's figures: times in ms, rates per second");
export type ResultSummary = z.infer<typeof ResultSummarySchema>;

export const ApiResultSchema = z
  .object({
    name: text,
    label: text,
    url: text,
    method: text,
    total_requests: count,
    successful_requests: count,
    failed_requests: count,
    average_response_time: z.number().describe('ms'),
    percentile_95: z.number().describe('ms'),
    percentile_99: z.number().describe('ms'),
    error_rate: z.number().describe('Percent'),
    errors_by_kind: ErrorsByKindSchema,
  })
  .describe("One API (step) of the plan: the spec's API result row");
export type ApiResult = z.infer<typeof ApiResultSchema>;

/** GET /api/get-test-result/{id}, and the status and end events of the live stream. */
export const TestResultSchema = z
  .object({
    test_id: text,
    plan_id: text.nullable(),
    plan_name: text,
    status: RunStatusSchema,
    progress: z.number().describe('0–100: elapsed over configured duration'),
    elapsed_seconds: z.number(),
    duration_seconds: z.number(),
    intermediate: z.boolean().describe('True while the run is going (running or processing)'),
    concurrent_users: count,
    tool: text.describe("The plan's tool (the script format)"),
    engine: text.describe('What really ran the load: the tool itself, or builtin'),
    engine_note: text.describe('Which engine ran the plan and why, in words'),
    started_at: text,
    ended_at: text.nullable(),
    error: text.nullable().describe('Why the run failed or ended early, in one sentence'),
    error_phrase: PhraseSchema.nullable()
      .optional()
      .describe('`error` as a code and parameters; absent for older runs and errors in a tool’s own words'),
    error_details: text
      .nullable()
      .describe(
        "A run that failed in its tool: the tool's own output (its command line and the last lines it printed and logged); else null",
      ),
    summary: ResultSummarySchema.nullable().describe(
      'Cumulative so far while running, final once done; null before the first second',
    ),
    api_results: z.array(ApiResultSchema),
    errors: ErrorsByKindSchema,
    agents: z
      .array(RunAgentSchema)
      .describe('The load agents the run is split over; empty for a run on the server'),
    partial: z
      .boolean()
      .describe('True when an agent was lost or failed: the figures are those of the agents that went on'),
    load_profile: PlannedProfileSchema.optional().describe(
      'The load profile the run followed, drawn as the planned line over the measured one; absent for a run without one',
    ),
    abort_reason: RunAbortSchema.nullable()
      .optional()
      .describe(
        'The abort threshold that stopped the run (docs/adr/0027-load-profiles.md, "Abort criteria"); null when none did (absent from servers before it)',
      ),
    breaking_point: BreakingPointSchema.nullable()
      .optional()
      .describe('An aborted run with a load profile: the highest load that held; else null'),
  })
  .describe('A performance run, live or finished');
export type TestResult = z.infer<typeof TestResultSchema>;

/** POST /api/run-test. */
export const RunStartedSchema = z.object({
  test_id: text,
  status: z.literal('running'),
  engine: z.enum(ENGINE_IDS),
  engine_note: text.describe('Which engine runs the plan and why, in words'),
});
export type RunStarted = z.infer<typeof RunStartedSchema>;

/** POST /api/stop-test/{id}. */
export const StopTestResponseSchema = z.object({ test_id: text, status: RunStatusSchema });
export type StopTestResponse = z.infer<typeof StopTestResponseSchema>;

/** POST /api/force-stop-all. */
export const ForceStopResponseSchema = z.object({ stopped: z.array(text) });
export type ForceStopResponse = z.infer<typeof ForceStopResponseSchema>;

/** One entry of GET /api/engines: what can run a plan on this server. */
export const EngineInfoSchema = z.object({
  tool: z.enum(ENGINE_IDS),
  name: text,
  installed: z.boolean(),
  version: text.nullable(),
  command: text.nullable(),
  usable: z
    .boolean()
    .describe(
      'Whether it runs plans here: the built-in engine always; a tool once it ran a one-request test plan against the server (else its plans run in the built-in engine)',
    ),
  reason: text.nullable().describe('Why it is not usable, in one sentence; null when usable'),
});
export type EngineInfo = z.infer<typeof EngineInfoSchema>;

export const EngineListSchema = z.array(EngineInfoSchema);
