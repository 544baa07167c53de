import { oneLine, PLAN_ERRORS, STORED_STATUSES, wholeNumber } from '@aqa/plan';
import { z } from 'zod';
import { UserEmailQuerySchema } from '../route';

/** The sentences of the run calls that the schemas say; the run service says them too. */
export const RUN_MESSAGES = {
  planIdRequired: 'plan_id is required. Please save the test plan first before running the test.',
  planIdNotText: (field: string) => `${field} must be text: the id the saved plan was given`,
  notFound: 'Test result not found',
} as const;

/*
 * What the run calls accept. Their answers are @aqa/plan's schemas (TestResultSchema, RunStartedSchema,
 * LiveSnapshotSchema, ChartDataSchema, EngineListSchema, PastRunSchema…), shared with the web app.
 */

const MAX_EMAIL = 254;

export const TestResultQuerySchema = UserEmailQuerySchema.extend({
  plan_id: z
    .string()
    .max(200)
    .optional()
    .describe('Accepted for the spec client; the run id alone identifies the run'),
});

/** A schema-level error for a text field: "<field> must be text" for a value of another type (docs/design.md §11). */
function mustBeText(field: string) {
  return (issue: { code?: string | undefined }) =>
    issue.code === 'invalid_type' ? `${field} must be text` : undefined;
}

const AGENTS_MESSAGE = 'agents must be a whole number of load agents from 1 to 50';
const DURATION_SECONDS_MESSAGE = 'duration_seconds must be a whole number of seconds from 1 to 86400';

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
  user_email: z
    .string({ error: mustBeText('user_email') })
    .max(MAX_EMAIL)
    .optional(),
  tool: z
    .string({ error: mustBeText('tool') })
    .max(50)
    .optional(),
  // Checked by the plan's own rule in planForRun, so the message is the plan form's (docs/design.md §11).
  concurrent_users: z
    .union([z.number(), z.string().max(20), z.null()], { error: () => PLAN_ERRORS.usersRange })
    .optional()
    .describe('A whole number, or text of plain decimal digits'),
  duration: z
    .union([z.number(), z.string().max(20), z.null()], { error: () => PLAN_ERRORS.durationRange })
    .optional()
    .describe('Minutes: a whole number, or text of plain decimal digits'),
  duration_seconds: wholeNumber(DURATION_SECONDS_MESSAGE, 1, 86_400)
    .optional()
    .describe('Overrides duration (minutes): for short runs and tests'),
  urls: z
    .array(z.unknown(), {
      error: (issue) => (issue.code === 'invalid_type' ? 'urls must be a list of URL entries' : undefined),
    })
    .max(500, 'urls holds at most 500 URL entries')
    .optional()
    .describe('URL entries to run instead of the saved ones'),
  planName: oneLine('planName', 'planName must be text').max(200).optional(),
  engine: z
    .enum(['builtin'], { error: "engine must be 'builtin' (leave it out to run in the plan's tool)" })
    .optional()
    .describe(
      "'builtin': run in the built-in engine whatever the plan's tool, e.g. when the installed tool cannot run the plan",
    ),
  agents: wholeNumber(AGENTS_MESSAGE, 1, 50)
    .optional()
    .describe(
      'Run on this many of your load agents (aqa agent) instead of this server; the users are split over them. Needs REDIS_URL on the server',
    ),
});

const STATUS_MESSAGE = `status must be one of ${STORED_STATUSES.join(', ')}`;

export const RunListQuerySchema = UserEmailQuerySchema.extend({
  plan_id: z.string().trim().min(1).max(200).optional().describe('Only the runs of this plan'),
  status: z
    .enum(STORED_STATUSES, { error: STATUS_MESSAGE })
    .optional()
    .describe('Only the runs in this status'),
  limit: wholeNumber('Must be a whole number from 1 to 1000', 1, 1000)
    .optional()
    .describe('Page size; 100 when absent'),
  offset: wholeNumber('Must be a whole number, 0 or more', 0, Number.MAX_SAFE_INTEGER).optional(),
});
