import { ERROR_KINDS } from '@aqa/engine';
import { z } from 'zod';
import {
  RUN_STATUSES,
  STORED_STATUSES,
  type ChartData,
  type LiveSnapshot,
  type PastRun,
  type TestResult,
} from '../services/runs/run-model';
import { RUN_MESSAGES, type RunTestRequest } from '../services/runs/run-request';
import type { EngineInfo, RunStarted } from '../services/runs/run.service';
import { EXTERNAL_TOOLS } from '../services/runs/tool-detector';

const MAX_EMAIL = 254;
const text = z.string();
const ENGINE_IDS = ['builtin', ...EXTERNAL_TOOLS] as const;

export const RunIdParamsSchema = z.object({ id: z.string().min(1).max(200) });

export const UserEmailQuerySchema = z.object({
  user_email: z.string().max(MAX_EMAIL).optional().describe('Optional; must name the signed-in user'),
});

export const TestResultQuerySchema = UserEmailQuerySchema.extend({
  plan_id: z
    .string()
    .max(200)
    .optional()
    .describe('Accepted for the spec client; the run id alone identifies the run'),
});

/**
 * POST /api/run-test. Fields other than plan_id override the saved plan for this run only; the
 * plan model checks the result (tool, bounds, URL entries).
 */
export const RunTestBodySchema = z.object({
  plan_id: z
    .string({ error: RUN_MESSAGES.planIdRequired })
    .trim()
    .min(1, RUN_MESSAGES.planIdRequired)
    .max(200),
  user_email: z.string().max(MAX_EMAIL).optional(),
  tool: z.string().max(50).optional(),
  concurrent_users: z.union([z.number(), z.string().max(20)]).optional(),
  duration: z
    .union([z.number(), z.string().max(20), z.null()])
    .optional()
    .describe('Minutes; a whole number, 1 when not a number'),
  duration_seconds: z.coerce
    .number({ error: 'duration_seconds must be a number of seconds from 1 to 86400' })
    .min(1, 'duration_seconds must be a number of seconds from 1 to 86400')
    .max(86_400, 'duration_seconds must be a number of seconds from 1 to 86400')
    .optional()
    .describe('Overrides duration (minutes): for short runs and tests'),
  urls: z.array(z.unknown()).max(500).optional().describe('URL entries to run instead of the saved ones'),
  planName: z.string().max(200).optional(),
});

export const RunStartedSchema = z.object({
  test_id: text,
  status: z.literal('running'),
  engine: z.enum(ENGINE_IDS),
  engine_note: text.describe('Which engine runs the plan and why, in words'),
});

const ErrorTallySchema = z.object({ count: z.number().int(), samples: z.array(text) });
const ErrorsByKindSchema = z
  .partialRecord(z.enum(ERROR_KINDS), ErrorTallySchema)
  .describe('Failed requests by kind, with up to 5 sample messages (finished runs)');

const LatencySchema = z
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
  .describe('Milliseconds, from an HDR histogram of every request');

export const ResultSummarySchema = z.object({
  concurrent_users: z.number().int(),
  requests_per_second: z.number(),
  average_response_time: z.number(),
  error_rate: z.number().describe('Percent'),
  total_requests: z.number().int(),
  successful_requests: z.number().int(),
  failed_requests: z.number().int(),
  percentile_50: z.number(),
  percentile_90: z.number(),
  percentile_95: z.number(),
  percentile_99: z.number(),
  percentile_999: z.number(),
  min_response_time: z.number(),
  max_response_time: z.number(),
  avg_bandwidth: z.number().describe('Received KB/s'),
  test_duration: z.number().describe('Seconds'),
});

export const ApiResultSchema = z.object({
  name: text,
  label: text,
  url: text,
  method: text,
  total_requests: z.number().int(),
  successful_requests: z.number().int(),
  failed_requests: z.number().int(),
  average_response_time: z.number(),
  percentile_95: z.number(),
  percentile_99: z.number(),
  error_rate: z.number(),
  errors_by_kind: ErrorsByKindSchema,
});

export const TestResultSchema = z
  .object({
    test_id: text,
    plan_id: text.nullable(),
    plan_name: text,
    status: z.enum(RUN_STATUSES),
    progress: z.number().describe('0–100: elapsed over configured duration'),
    elapsed_seconds: z.number(),
    duration_seconds: z.number(),
    intermediate: z.boolean().describe('True while the run is going (running or processing)'),
    concurrent_users: z.number().int(),
    tool: text,
    engine: text,
    engine_note: text,
    started_at: text,
    ended_at: text.nullable(),
    error: text.nullable(),
    summary: ResultSummarySchema.nullable().describe(
      'Cumulative so far while running, final once done; null before the first second',
    ),
    api_results: z.array(ApiResultSchema),
    errors: ErrorsByKindSchema,
  })
  .describe('A performance run, live or finished');

export const LiveSnapshotSchema = z.object({
  second: z.number().int(),
  elapsed_seconds: z.number(),
  progress: z.number(),
  active_users: z.number().int(),
  requests_per_second: z.number(),
  error_rate: z.number(),
  latency: LatencySchema,
  totals: z.object({
    requests: z.number().int(),
    successes: z.number().int(),
    failures: z.number().int(),
    bytes_received: z.number().int(),
  }),
  steps: z.array(
    z.object({
      index: z.number().int(),
      name: text,
      method: text,
      url: text,
      requests_per_second: z.number(),
      error_rate: z.number(),
      latency: z.object({ avg: z.number(), p95: z.number() }),
      totals: z.object({ requests: z.number().int(), failures: z.number().int() }),
    }),
  ),
});

export const StopTestResponseSchema = z.object({ test_id: text, status: z.enum(RUN_STATUSES) });

export const ForceStopResponseSchema = z.object({ stopped: z.array(text) });

export const ChartDataSchema = z.object({
  test_id: text,
  series: z.array(
    z.object({
      second: z.number().int(),
      active_users: z.number().int(),
      requests: z.number().int(),
      requests_per_second: z.number(),
      errors: z.number().int(),
      error_rate: z.number(),
      avg: z.number(),
      p50: z.number(),
      p90: z.number(),
      p95: z.number(),
      p99: z.number(),
      max: z.number(),
      bandwidth_kbs: z.number(),
    }),
  ),
  api_series: z.array(
    z.object({
      index: z.number().int(),
      name: text,
      method: text,
      url: text,
      points: z.array(
        z.object({
          second: z.number().int(),
          requests_per_second: z.number(),
          error_rate: z.number(),
          avg: z.number(),
          p95: z.number(),
        }),
      ),
    }),
  ),
  distribution: z
    .array(z.object({ label: text, count: z.number().int() }))
    .describe("Requests by response time, counted from the run's merged HDR histogram"),
});

export const EngineListSchema = z.array(
  z.object({
    tool: z.enum(ENGINE_IDS),
    name: text,
    installed: z.boolean(),
    version: text.nullable(),
    command: text.nullable(),
  }),
);

/** Mutual assignability: the answers cannot drift from what the services build. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const resultMatches: Same<z.output<typeof TestResultSchema>, TestResult> = true;
const snapshotMatches: Same<z.output<typeof LiveSnapshotSchema>, LiveSnapshot> = true;
const chartMatches: Same<z.output<typeof ChartDataSchema>, ChartData> = true;
const startedMatches: Same<z.output<typeof RunStartedSchema>, RunStarted> = true;
const enginesMatch: Same<z.output<typeof EngineListSchema>, EngineInfo[]> = true;
const requestFits: z.output<typeof RunTestBodySchema> extends RunTestRequest ? true : false = true;
void resultMatches;
void snapshotMatches;
void chartMatches;
void startedMatches;
void enginesMatch;
void requestFits;

const STATUS_MESSAGE = `status must be one of ${STORED_STATUSES.join(', ')}`;

export const RunListQuerySchema = UserEmailQuerySchema.extend({
  plan_id: z.string().trim().min(1).max(200).optional().describe('Only the runs of this plan'),
  status: z
    .enum(STORED_STATUSES, { error: STATUS_MESSAGE })
    .optional()
    .describe('Only the runs in this status'),
  limit: z.coerce
    .number({ error: 'Must be a whole number from 1 to 1000' })
    .int('Must be a whole number from 1 to 1000')
    .min(1, 'Must be a whole number from 1 to 1000')
    .max(1000, 'Must be a whole number from 1 to 1000')
    .optional()
    .describe('Page size; 100 when absent'),
  offset: z.coerce
    .number({ error: 'Must be a whole number, 0 or more' })
    .int('Must be a whole number, 0 or more')
    .min(0, 'Must be a whole number, 0 or more')
    .optional(),
});

/** Spec 02 §3 "Past run list item". */
export const PastRunSchema = z.object({
  test_id: text,
  plan_id: text.nullable(),
  plan_name: text,
  test_name: text,
  status: z.enum(RUN_STATUSES),
  start_time: text,
  end_time: text.nullable(),
  duration: z.number().describe('Seconds'),
  concurrent_users: z.number().int(),
  tool: text,
  engine: text,
  created_at: text,
  results_summary: ResultSummarySchema.extend({ api_results: z.array(ApiResultSchema) }).nullable(),
  notes: text.describe("The user's notes on the run, '' when none"),
  is_baseline: z.boolean().describe("This run is its plan's baseline for comparisons"),
});

export const RunListResponseSchema = z.array(PastRunSchema);

const pastRunMatches: Same<z.output<typeof PastRunSchema>, PastRun> = true;
void pastRunMatches;
