import {
  UiActionsSchema,
  CAPTURE_SOURCES,
  DataFilesSchema,
  ErrorResponseSchema,
  FUNCTIONAL_PLAN_SCHEMA_VERSION,
  FUNCTIONAL_SOURCE_PAGES,
  FUNCTIONAL_SOURCES,
  FUNCTIONAL_TEST_TYPES,
  FUNCTIONAL_VALIDATION_TYPES,
  HTTP_METHODS,
  ITERATION_DATA_FORMATS,
  MAX_TEXT_CHARS,
  textLimitMessage,
  TEST_FRAMEWORKS,
  VALIDATION_SUBJECTS,
  wholeNumber,
} from '@aqa/plan';
import { z } from 'zod';
import { UserEmailQuerySchema } from '../route';
import { SavedUrlEntrySchema } from './plan';
import { SavedRecordFields } from './saved-record';

/*
 * Request bodies are the model's own schemas (FunctionalPlanSchema, FunctionalRunRequestSchema).
 * Answers need schemas without transforms (the serializer encodes through its schema), so the saved
 * plan below is the model's output type written out, checked against it at compile time
 * (apps/server/src/routes/contract-fits.ts). The result
 * answers are the model's FunctionalResultSchema and friends, which have no transforms.
 */

const text = z.string();

/** GET /api/functional/screenshot/{testId}/{shotId}: the run and one of its screenshots. */
export const ScreenshotParamsSchema = z.object({
  testId: z.string().min(1).max(200).describe("The run's test_id"),
  shotId: z.string().min(1).max(200).describe("A screenshot's id, from a UI step's ui.screenshots"),
});

export const FunctionalReportQuerySchema = z.object({
  format: z
    .enum(['junit', 'json', 'html'], { error: () => 'Report format must be junit, json or html' })
    .default('json'),
  user_email: z.string().max(254).optional().describe('Optional; must name the signed-in user'),
});

/** The most runs one list call answers: the home page's Recent Activity asks for 5. */
export const MAX_LISTED_FUNCTIONAL_RUNS = 500;

export const FunctionalResultListQuerySchema = UserEmailQuerySchema.extend({
  // Plain decimal digits only (docs/design.md §11), as the other list calls' paging.
  limit: wholeNumber(
    `Must be a whole number from 1 to ${MAX_LISTED_FUNCTIONAL_RUNS}`,
    1,
    MAX_LISTED_FUNCTIONAL_RUNS,
  )
    .optional()
    .describe('The newest this many runs; all when absent'),
});

/** A functional validation rule as the model writes it (FunctionalValidationSchema's output). */
export const SavedFunctionalValidationSchema = z.object({
  id: text.optional(),
  name: text,
  type: z.enum(FUNCTIONAL_VALIDATION_TYPES),
  expected_value: text,
  description: text,
  enabled: z.boolean(),
  api_name: text.optional(),
  url: text.optional(),
  method: z.enum(HTTP_METHODS).optional(),
  negate: z.boolean().optional(),
  subject: z.enum(VALIDATION_SUBJECTS).optional(),
  path: text.optional(),
});

/** A variable of a scope (docs/adr/0029-postman-collections.md). */
const SavedPlanVariableSchema = z.object({ name: text, value: text });
/** Pre-request and test scripts kept as scripts, each with whose it is ("collection", "folder Orders", "request"). */
const SavedEventScriptsSchema = z.object({
  prerequest: z.array(z.object({ origin: text, source: text })),
  test: z.array(z.object({ origin: text, source: text })),
});

export const SavedApiDefinitionSchema = z.object({
  id: text.optional(),
  name: text,
  url: text,
  method: z.enum(HTTP_METHODS),
  headers: z.record(text, text),
  body: text,
  params: z.array(z.object({ name: text, value: text })),
  authorization: SavedUrlEntrySchema.shape.authorization,
  validations: z.array(SavedFunctionalValidationSchema),
  description: text,
  timeout: z.number().int().describe('Seconds'),
  captures: z
    .array(
      z.object({
        name: text,
        from: z.enum(CAPTURE_SOURCES),
        expression: text,
        default: text.optional(),
        group: z.number().int().optional(),
        match_no: z.number().int().optional(),
      }),
    )
    .optional(),
  group: text.optional().describe('The Postman folder the API is in, its names joined by " / "'),
  scripts: SavedEventScriptsSchema.optional().describe(
    'Its folder and request scripts that run in the sandbox, in the order Postman runs them',
  ),
  actions: UiActionsSchema.optional().describe(
    "A UI step's actions (click, type, select, wait, assert, store …), each with its source as written (docs/adr/0030-recorded-ui-tests.md)",
  ),
});

export const SavedFunctionalPlanSchema = z
  .object({
    id: text,
    _id: text.describe('The same as id, for clients that read _id'),
    schema_version: z.literal(FUNCTIONAL_PLAN_SCHEMA_VERSION),
    plan_id: text.optional(),
    test_name: text,
    description: text,
    apis: z.array(SavedApiDefinitionSchema),
    concurrent_users: z.number().int(),
    iterations: z.number().int(),
    ramp_up_time: z.number().int().describe('Seconds'),
    test_duration: z.number().int().describe('Minutes'),
    think_time: z.number().int().describe('Seconds'),
    test_type: z.enum(FUNCTIONAL_TEST_TYPES),
    source: z.enum(FUNCTIONAL_SOURCES),
    source_page: z.enum(FUNCTIONAL_SOURCE_PAGES).optional(),
    test_framework: z.enum(TEST_FRAMEWORKS),
    script_content: text,
    validations: z.array(SavedFunctionalValidationSchema),
    data_files: z
      .record(text, text)
      .optional()
      .describe("The script's data files by the name it gives them, with their CSV text"),
    variables: z.array(SavedPlanVariableSchema).optional().describe("A Postman collection's variables"),
    environment: z
      .object({ name: text, values: z.array(SavedPlanVariableSchema) })
      .optional()
      .describe('A Postman environment: its name and values'),
    globals: z.array(SavedPlanVariableSchema).optional().describe('Postman globals'),
    scripts: SavedEventScriptsSchema.optional().describe(
      'Collection-level scripts, run before (prerequest) and after (test) every API',
    ),
    iteration_data: z
      .object({ name: text, format: z.enum(ITERATION_DATA_FORMATS), text })
      .optional()
      .describe("A data file that drives the iterations as Newman's -d does: one iteration per row"),
    cookie_jar: z.boolean().optional().describe('Each user keeps the cookies the target sets'),
    follow_redirects: z.boolean().optional().describe('Redirects are followed; off, the 3xx is judged'),
    default_status_rule: z
      .boolean()
      .optional()
      .describe(
        'An API with neither rules nor test scripts is judged by status 200 (absent: yes); off, as Newman, an answer is enough',
      ),
    status: text.describe(
      'The last run\'s status: running, completed, failed, stopped; "saved" before any run',
    ),
    ...SavedRecordFields,
  })
  .describe('A saved functional test plan');

export const SavedFunctionalPlanListSchema = z
  .array(SavedFunctionalPlanSchema)
  .describe("The signed-in user's functional plans, newest first");

const ScriptSourceSchema = z.object({ path: text, line: z.number().int().optional() });

/** A construct of a script that will not run as written, where it is written and what happens to it. */
export const ScriptReadingWarningSchema = z.object({
  path: text.describe('The YAML path: "scenarios.login.requests[2].assert[0]"'),
  line: z.number().int().optional().describe('The script line (1-based) the path is written on'),
  message: text,
  effect: z.enum(['skipped', 'refused']).describe('Left out of the run, or the whole script refused'),
});

/** POST /api/functional/parse-script. */
export const ParseScriptRequestSchema = z.object({
  script_content: z
    .string()
    .max(MAX_TEXT_CHARS, textLimitMessage('Script content', MAX_TEXT_CHARS))
    .describe('The Taurus YAML'),
  data_files: DataFilesSchema.optional(),
  test_framework: z
    .enum(TEST_FRAMEWORKS, { error: () => `Test framework must be one of ${TEST_FRAMEWORKS.join(', ')}` })
    .optional()
    .describe(
      'selenium reads a Selenium-style script: its pages and their browser actions. A script whose every execution runs in a browser (executor selenium, or apiritif with test-mode selenium) is read so whatever this says, as run-test runs it',
    ),
});

export const ParseScriptResponseSchema = z
  .object({
    apis: z
      .array(SavedApiDefinitionSchema.extend({ source: ScriptSourceSchema }))
      .describe(
        'The calls the script makes, in order, with their rules and captures; for a Selenium-style script, its pages (url empty for a page that acts on the one before)',
      ),
    execution: z
      .object({
        test_name: text,
        concurrent_users: z.number().int(),
        iterations: z.number().int(),
        ramp_up_time: z.number().int().describe('Seconds'),
        test_duration: z.number().int().describe('Minutes'),
        think_time: z.number().int().describe('Seconds'),
      })
      .describe("The script's load settings, fitted to the plan's bounds"),
    variables: z.record(text, text),
    data_sources: z.array(
      z.object({
        path: text,
        delimiter: text.nullable(),
        loop: z.boolean(),
        quoted: z.boolean(),
        variable_names: z.array(text).nullable(),
        supplied: z.boolean().describe('Whether data_files holds the file'),
        source: ScriptSourceSchema,
      }),
    ),
    warnings: z.array(ScriptReadingWarningSchema),
    test_framework: z
      .enum(TEST_FRAMEWORKS)
      .describe('How the script was read and will run: taurus (its HTTP calls) or selenium (in a browser)'),
  })
  .describe('What the script will run, and what it will not');

/** A script that cannot run: the usual error answer with every reason, each with its path and line. */
export const ScriptRefusalSchema = ErrorResponseSchema.extend({
  warnings: z.array(ScriptReadingWarningSchema).optional(),
  line: z.number().int().optional().describe('Where YAML that does not read goes wrong'),
});
