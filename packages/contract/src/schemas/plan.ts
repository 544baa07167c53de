import {
  ASSERTION_OPERATORS,
  ASSERTION_TYPES,
  AUTH_TYPES,
  DATA_SHARE_MODES,
  EXTRACT_TYPES,
  HTTP_METHODS,
  PlannedProfileSchema,
  PLAN_SCHEMA_VERSION,
  SOURCE_PAGES,
  ScriptRequestSchema,
  TOOLS,
  VALIDATION_TYPES,
  wholeNumber,
} from '@aqa/plan';
import { z } from 'zod';
import { UserEmailQuerySchema } from '../route';
import { SavedRecordFields } from './saved-record';

/*
 * Request bodies are the model's own schemas (PerfPlanSchema, ScriptRequestSchema). Answers need
 * schemas without transforms: the response serializer encodes through its schema, and zod cannot
 * encode through a one-way transform (the model's schemas normalise their input with several).
 * The shapes below are the model's output types, checked against them at compile time
 * (apps/server/src/routes/contract-fits.ts).
 */

const MAX_EMAIL = 254;

export const PlanListQuerySchema = UserEmailQuerySchema.extend({
  // Plain decimal digits only (docs/design.md §11).
  limit: wholeNumber('Must be a whole number from 1 to 1000', 1, 1000)
    .optional()
    .describe('Page size; all plans when absent'),
  offset: wholeNumber('Must be a whole number, 0 or more', 0, Number.MAX_SAFE_INTEGER).default(0),
});

/** The script calls' body: the model's script request, plus the spec's user_email. */
// safeExtend: the model's schema checks its test data in a refinement, which .extend() refuses.
export const ScriptBodySchema = ScriptRequestSchema.safeExtend({
  user_email: z.string().max(MAX_EMAIL).optional(),
});

const text = z.string();

export const SavedUrlEntrySchema = z.object({
  name: text.optional(),
  method: z.enum(HTTP_METHODS),
  url: text,
  parameters: z.array(z.object({ key: text, value: text })),
  headers: z.array(z.object({ name: text, value: text })),
  authorization: z.object({
    type: z.enum(AUTH_TYPES),
    token: text,
    username: text,
    password: text,
    keyName: text,
    keyValue: text,
    in: z.enum(['header', 'query']),
    tokenUrl: text,
    scope: text,
  }),
  payload: text,
  extractType: z.enum(EXTRACT_TYPES),
  extractName: text,
  extractValue: text,
  thinkTime: text,
  transactionRate: z.union([z.number(), z.literal('')]).describe('Percent; "" means 100'),
  assertionType: z.enum(ASSERTION_TYPES),
  assertionPath: text,
  assertionValue: text,
  assertionOperator: z.enum(ASSERTION_OPERATORS),
  timeout: z.number().describe('Seconds'),
  validations: z.array(
    z.object({
      id: text,
      name: text,
      type: z.enum(VALIDATION_TYPES),
      expected_value: text,
      description: text,
    }),
  ),
  flow: text
    .optional()
    .describe('The plan\'s flow this call belongs to (docs/adr/0027-load-profiles.md "3. Flows")'),
});

/** A saved plan's load profile as stored: every default filled (the model's LoadProfileSchema output). */
export const SavedLoadProfileSchema = PlannedProfileSchema;

/** A saved plan's data source as stored: every default filled (the model's DataSourceSchema output). */
export const SavedDataSourceSchema = z
  .object({
    path: text.describe('The name of a file of data_files'),
    delimiter: text.optional().describe('Guessed from the first line (, ; tab |) when absent'),
    loop: z.boolean().describe('Start over at the end of the rows; false: a user finding no row left ends'),
    random_order: z.boolean().describe('Hand the rows out in one seeded shuffled order'),
    variable_names: z
      .array(text)
      .optional()
      .describe("The columns' names; when given, the file's first line is data"),
    share: z
      .enum(DATA_SHARE_MODES)
      .describe('all: each row to one iteration of the whole run per pass; user: each user reads every row'),
  })
  .describe('A CSV source of test data (docs/adr/0027-load-profiles.md "Test data")');

export const SavedPlanSchema = z
  .object({
    id: text,
    _id: text.describe('The same as id, for clients that read _id'),
    schema_version: z.literal(PLAN_SCHEMA_VERSION),
    name: text,
    description: text,
    tool: z.enum(TOOLS),
    concurrent_users: z.number().int(),
    duration: z.number().int().describe('Minutes'),
    urls: z.array(SavedUrlEntrySchema),
    thresholds: z.array(text).optional().describe('Pass/fail criteria on the final summary, e.g. "p95<300"'),
    abort_thresholds: z
      .array(text)
      .optional()
      .describe(
        'Criteria that stop the run, judged every second over the last 10 s after a 10 s grace, e.g. "p95<2000", "Login: error_rate<5%"',
      ),
    load_profile: SavedLoadProfileSchema.optional().describe(
      'Stages of users or iterations per second; concurrent_users and duration are its peak (or pool) and length',
    ),
    flows: z
      .array(z.object({ name: text, weight: z.number().int() }))
      .optional()
      .describe('Named flows: each iteration runs one flow, chosen in proportion to the weights'),
    data_files: z.record(text, text).optional().describe('Test data: file name → CSV text, 10 MB together'),
    data_sources: z
      .array(SavedDataSourceSchema)
      .optional()
      .describe('Each iteration takes the next row of each; its columns are {{variables}}'),
    script: text,
    script_edited: z
      .boolean()
      .describe('True when the saved script was edited by hand; download then returns it as saved'),
    source_page: z.enum(SOURCE_PAGES),
    test_type: text,
    ...SavedRecordFields,
  })
  .describe('A saved performance test plan');

export const SavePlanResponseSchema = z.object({
  id: text,
  _id: text,
  plan_id: text,
  message: text,
  plan: SavedPlanSchema,
});

export const UpdatePlanResponseSchema = z.object({ id: text, message: text, plan: SavedPlanSchema });

export const PlanListResponseSchema = z
  .array(SavedPlanSchema)
  .describe('Newest first; the X-Total-Count header holds the number of plans before paging');

export const ScriptWarningSchema = z.object({
  field: text.describe('The plan field the tool cannot express, e.g. urls.2.extractType'),
  message: text,
});

export const DownloadScriptResponseSchema = z.object({
  script: text,
  filename: text,
  warnings: z.array(ScriptWarningSchema),
});

export const GenerateScriptResponseSchema = DownloadScriptResponseSchema.extend({ tool: z.enum(TOOLS) });
