import { z } from 'zod';
import { BreakingPointSchema, RunAbortSchema } from './run-abort';
import { ApiResultSchema, ResultSummarySchema, RunStatusSchema } from './run-result';

const text = z.string();

/** A run in the user's history (docs/reference/02-running.md §3 "Past run list item"). */
export const PastRunSchema = z.object({
  test_id: text,
  plan_id: text.nullable(),
  plan_name: text,
  test_name: text,
  status: RunStatusSchema,
  start_time: text,
  end_time: text.nullable(),
  duration: z.number().describe('Seconds the load ran, as measured; the configured duration while it runs'),
  concurrent_users: z.number().int(),
  tool: text,
  engine: text,
  created_at: text,
  results_summary: ResultSummarySchema.extend({ api_results: z.array(ApiResultSchema) }).nullable(),
  notes: text.describe("The user's notes on the run, '' when none"),
  is_baseline: z.boolean().describe("This run is its plan's baseline for comparisons"),
  abort_reason: RunAbortSchema.nullable()
    .optional()
    .describe(
      'The abort threshold that stopped the run, as on get-test-result (docs/adr/0027-load-profiles.md, "Abort criteria"); null when none did',
    ),
  breaking_point: BreakingPointSchema.nullable()
    .optional()
    .describe('An aborted run with a load profile: the highest load that held; else null'),
});
export type PastRun = z.infer<typeof PastRunSchema>;

/** GET /api/get-test-results (the total comes in X-Total-Count). */
export const RunListResponseSchema = z.array(PastRunSchema);
