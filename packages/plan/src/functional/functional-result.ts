import { z } from 'zod';
import { FUNCTIONAL_SOURCES, FUNCTIONAL_TEST_TYPES } from './functional-plan';
import { PhraseSchema } from '../phrases/phrase';
import { TEST_KINDS } from '../test-kind';
import { UiStepDetailsSchema } from './ui-step';
import { ValidationDetailSchema } from './validation';

/*
 * A functional run as the calls answer it (docs/design.md §9; statuses of docs/reference/02-running.md
 * §4). The server builds these, the runner fills them, the web app reads them.
 */

const text = z.string();
const count = z.number().int().min(0);

/**
 * What a functional run can be; any other word is shown as unknown. `interrupted` is a run its server
 * died during, ended with the calls it had judged by then (docs/adr/0016-crash-recovery.md).
 */
export const FUNCTIONAL_STATUSES = ['running', 'completed', 'failed', 'stopped', 'interrupted'] as const;
export const FunctionalStatusSchema = z.enum(FUNCTIONAL_STATUSES);
export type FunctionalStatus = z.infer<typeof FunctionalStatusSchema>;

/** The status as the screens show it: one of FUNCTIONAL_STATUSES, else unknown. */
export function functionalStatusKind(status: string | null | undefined): FunctionalStatus | 'unknown' {
  return (FUNCTIONAL_STATUSES as readonly string[]).includes(status ?? '')
    ? (status as FunctionalStatus)
    : 'unknown';
}

/** Status polling stops on these; the full result is then fetched. */
export function isFunctionalRunOver(status: string): boolean {
  return status === 'completed' || status === 'failed' || status === 'interrupted';
}

/** Functional test ids begin with this; back navigation tells them from performance runs by it. */
export const FUNCTIONAL_TEST_ID_PREFIX = TEST_KINDS.api.idPrefix;

/** How much of a failed call's response body is kept as evidence: the first 64 KB. */
export const EVIDENCE_BODY_LIMIT_BYTES = 64 * 1024;

/*
 * What one functional run holds of its calls (docs/adr/0024-memory-bounds.md): the screens and reports
 * name these numbers where they leave something out.
 */

/** Failed calls that keep their request and response: the first 20 of each API… */
export const EVIDENCE_PER_API = 20;
/** …and the first 100 of the run. */
export const EVIDENCE_PER_RUN = 100;
/** A result keeps its first 5,000 calls… */
export const MAX_KEPT_CALLS = 5000;
/** …and at most 32 MB of them, as JSON; the calls after are counted in the summary (calls_omitted). */
export const KEPT_CALLS_MAX_BYTES = 32 * 1024 * 1024;
/** A capture's value as a result shows it: its first 1,000 characters (the variable keeps all of it). */
export const CAPTURE_SHOWN_CHARS = 1000;

/** Where a call's time went, in ms, like Hurl and k6 report it; 0 for a phase a reused connection skips. */
export const TimingPhasesSchema = z
  .object({
    dns: z.number().min(0),
    connect: z.number().min(0),
    tls: z.number().min(0),
    ttfb: z.number().min(0).describe('From the request sent to the first byte of the response'),
    download: z.number().min(0),
  })
  .describe('Milliseconds per phase of one call');
export type TimingPhases = z.infer<typeof TimingPhasesSchema>;

/** What a failed call sent and got, so nobody re-runs it to see why; secrets are masked when shown. */
export const FailureEvidenceSchema = z.object({
  request: z.object({
    method: text,
    url: text,
    headers: z.record(text, text),
    body: text,
  }),
  response: z
    .object({
      status: z.number().int(),
      headers: z.record(text, text),
      body: text.describe('The first 64 KB of the body, as text'),
      truncated: z.boolean().describe('True when the body was longer than what is kept'),
    })
    .nullable()
    .describe('Null when no response came back (a network error or a time-out)'),
  /** The console output of the call's Postman scripts, bounded (docs/adr/0029-postman-collections.md §3). */
  logs: z.array(text).max(100).optional(),
});
export type FailureEvidence = z.infer<typeof FailureEvidenceSchema>;

/** Header names whose values are secrets: credentials, cookies, API keys and tokens. */
const SECRET_HEADER =
  /^(?:authorization|proxy-authorization|cookie|set-cookie)$|api[-_]?key|token|secret|password/i;
export const MASKED_VALUE = '***';

/** Headers as evidence may show them (docs/design.md §9): each secret's value replaced by ***. */
export function maskSecretHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name, SECRET_HEADER.test(name) ? MASKED_VALUE : value]),
  );
}

/** One call of one iteration with its judged rules (the reference's validation_results entry). */
export const CallResultSchema = z.object({
  api_name: text,
  method: text,
  url: text,
  status_code: z.number().int().nullable().describe('Null when no response came back'),
  response_time: z.number().min(0).describe('ms'),
  success: z.boolean(),
  validation_details: z.array(ValidationDetailSchema),
  /** 1-based; a run of several iterations or users reports each call. */
  iteration: z.number().int().min(1).optional(),
  user: z.number().int().min(1).optional(),
  error: text
    .nullable()
    .optional()
    .describe(
      'Why no response came back, in words (a time-out, a refused connection), or which capture found nothing',
    ),
  error_phrase: PhraseSchema.optional().describe('`error` as a code and parameters; absent in older results'),
  timings: TimingPhasesSchema.optional(),
  evidence: FailureEvidenceSchema.optional().describe('Kept for a failed call'),
  /** The call's captures (chaining) and what each read; a capture that found nothing fails the call. */
  captures: z
    .array(z.object({ name: text, value: text.nullable().describe('Null when the capture found nothing') }))
    .optional(),
  /** A UI test step: the page's timings, Web Vitals, console errors, failed requests and screenshots. */
  ui: UiStepDetailsSchema.optional(),
});
export type CallResult = z.infer<typeof CallResultSchema>;

/** One API's row of "API Results". */
export const FunctionalApiResultSchema = z.object({
  name: text,
  /** "success" or another word. */
  status: text,
  method: text,
  url: text,
  response_time: z.number().min(0).describe('ms'),
  status_code: z.number().int().nullable(),
  validation_results: z.array(z.object({ name: text, passed: z.boolean() })),
});
export type FunctionalApiResult = z.infer<typeof FunctionalApiResultSchema>;

export const FunctionalSummarySchema = z.object({
  total_requests: count,
  successful_requests: count,
  failed_requests: count,
  validation_failures: count,
});
export type FunctionalSummary = z.infer<typeof FunctionalSummarySchema>;

/** One point of the timeline chart (shown when the test type is not functional). */
export const FunctionalTimelinePointSchema = z.object({
  time: z.number().min(0).describe('Seconds since the start'),
  response_time: z.number().min(0).describe('ms'),
  requests: count,
  failures: count,
});

/** GET /api/functional/get-test-result/{id}, and each item of functional-test-results. */
export const FunctionalResultSchema = z.object({
  test_id: text,
  plan_id: text.nullable().optional(),
  test_name: text,
  description: text,
  status: FunctionalStatusSchema,
  test_type: z.enum(FUNCTIONAL_TEST_TYPES).optional(),
  source: z.enum(FUNCTIONAL_SOURCES).optional(),
  start_time: text.nullable(),
  end_time: text.nullable().optional(),
  error: text.nullable().optional().describe('Why the run could not run or ended early'),
  error_phrase: PhraseSchema.nullable()
    .optional()
    .describe('`error` as a code and parameters; absent in older results'),
  summary: FunctionalSummarySchema,
  validation_results: z.array(CallResultSchema),
  /** How many calls the run judged; a list answer keeps only the first few in validation_results. */
  validation_results_total: count.optional(),
  /** Calls judged but not kept in validation_results (a long run keeps the first ones); counted in summary. */
  calls_omitted: count.optional(),
  api_results: z.array(FunctionalApiResultSchema),
  timeline_data: z.array(FunctionalTimelinePointSchema).default([]),
  /** While a UI run waits for a free browser (docs/design.md §9 "UI tests"): its place in the queue, from 1. */
  queue_position: z.number().int().min(1).nullable().optional(),
});
export type FunctionalResult = z.infer<typeof FunctionalResultSchema>;

/** GET /api/functional/functional-test-results. */
export const FunctionalResultListSchema = z.array(FunctionalResultSchema);

/** POST /api/functional/save-config and PUT update-config/{id}. */
export const FunctionalSaveResponseSchema = z.object({
  id: text,
  test_id: text,
  /** The saved plan's version after this save (docs/reference/01-authoring.md §7 "Plan versions"). */
  version: z.number().int(),
});
export type FunctionalSaveResponse = z.infer<typeof FunctionalSaveResponseSchema>;

/** POST /api/functional/run-test. */
export const FunctionalRunStartedSchema = z.object({ test_id: text });
export type FunctionalRunStarted = z.infer<typeof FunctionalRunStartedSchema>;

/** GET /api/functional/get-test-status/{id} and POST stop-test/{id}. */
export const FunctionalStatusResponseSchema = z.object({ test_id: text, status: FunctionalStatusSchema });
export type FunctionalStatusResponse = z.infer<typeof FunctionalStatusResponseSchema>;
