// The import model alone: the package's index would load every reader and generator into each client.
import { IMPORT_FORMATS } from '@aqa/converters/import-model';
import { HTTP_METHODS, RECORDING_FORMATS, textLimitMessage } from '@aqa/plan';
import { z } from 'zod';
import { SavedFunctionalPlanSchema, SavedFunctionalValidationSchema } from './functional';
import { SavedDataSourceSchema, SavedLoadProfileSchema, SavedUrlEntrySchema } from './plan';

/*
 * The answers of the parse calls. Like plan.ts, these are plain shapes without transforms (the
 * response serializer encodes through them); steps are the model's URL entries as saved.
 */

const text = z.string();

export const ImportWarningSchema = z.object({
  location: text.describe(
    'Where in the file: "paths./pets/{petId}.get", "Folder / Request", "entries[3]", "row 4", "line 2"',
  ),
  message: text,
});

/** What a file was read as: an API description's format, or a browser recording's (ADR 0030). */
const FILE_FORMATS = [...IMPORT_FORMATS, ...RECORDING_FORMATS] as const;

export const ImportInfoSchema = z
  .object({
    format: z.enum(FILE_FORMATS),
    kind: text.describe(
      'What the file is: "OpenAPI 3.0.3", "Swagger 2.0", "Postman collection v2.1.0", "HAR 1.2", "cURL", "CSV"',
    ),
    title: text,
    version: text.optional().describe("The document's own version (info.version)"),
    servers: z.array(text).describe('The base URLs the steps use'),
    requests: z
      .number()
      .int()
      .describe(
        'Requests in the file (OpenAPI operations, Postman requests in every folder, HAR entries, rows)',
      ),
    methods: z
      .record(text, z.number().int())
      .describe('Requests by method as the file writes them, e.g. { "GET": 8, "TRACE": 1 }'),
    folders: z.number().int().optional(),
    paths: z.number().int().optional(),
    pages: z.number().int().optional(),
  })
  .describe('Facts about the imported file');

export const NeededValueSchema = z
  .object({
    name: text.describe('The variable, sent as {{name}} until it has a value'),
    calls: z.array(text).describe('The calls that send it, e.g. "GET /pets/{petId}"'),
  })
  .describe(
    'A value the file does not give (no example, default or enum): the calls send {{name}} until the user fills it in',
  );

const NeededValues = z
  .array(NeededValueSchema)
  .describe('The {{variables}} the imported calls send that need a value before the plan can run as meant');

const AuthorizationSchema = SavedUrlEntrySchema.shape.authorization;

export const ParsedApiSchema = z
  .object({
    name: text,
    method: z.enum(HTTP_METHODS),
    path: text.describe('The path as the file writes it, e.g. /pets/{petId}'),
    url: text.describe('The full URL, path parameters filled in, without the query'),
    parameters: z.array(z.object({ key: text, value: text })),
    headers: z.array(z.object({ name: text, value: text })),
    authorization: AuthorizationSchema,
    body: text.describe('The request body as text; "" without one'),
    requestBody: z.object({ contentType: text, required: z.boolean() }).nullable(),
    tags: z
      .array(text)
      .describe("An OpenAPI operation's tags, or a Postman request's folders (outermost first); [] without"),
    operationId: text.describe('An OpenAPI operation\'s operationId; "" without'),
  })
  .describe('An API from an upload (docs/reference/01-authoring.md §3 "Parsed API from an upload")');

export const ParseResponseSchema = z.object({
  apis: z.array(ParsedApiSchema),
  steps: z.array(SavedUrlEntrySchema).describe("The same APIs as the plan's URL entries, ready to save"),
  warnings: z.array(ImportWarningSchema).describe('What could not be carried over, and why'),
  info: ImportInfoSchema,
  needs_value: NeededValues,
});

export const ImportedSettingsSchema = z
  .object({
    concurrent_users: z.number().int().describe("The execution's users (or the open model's pool)"),
    duration: z.number().int().describe("Minutes: the load profile's length rounded up"),
    load_profile: SavedLoadProfileSchema.optional().describe(
      "The execution's ramp-up, hold-for, steps and throughput as a load profile; absent for a flat load of whole minutes",
    ),
    data_sources: z.array(SavedDataSourceSchema).optional().describe("The scenario's data-sources"),
    data_files: z
      .record(text, text)
      .optional()
      .describe("The data sources' CSV files the upload carried, by the name the sources give"),
    missing_files: z
      .array(text)
      .describe(
        'Files the data sources read that the upload did not carry: the plan is saved only with them',
      ),
  })
  .describe('What the file says of the plan besides its calls (docs/adr/0027-load-profiles.md "Importers")');

export const TaurusParseResponseSchema = ParseResponseSchema.extend({ settings: ImportedSettingsSchema });

export const FunctionalApiSchema = z.object({
  name: text,
  url: text,
  method: z.enum(HTTP_METHODS),
  headers: z.record(text, text).describe('Including the Authorization header the file sets'),
  body: text,
  params: z.record(text, text).describe('Query parameters'),
  validations: z
    .array(SavedFunctionalValidationSchema)
    .describe(
      'From an OpenAPI or Swagger document: status_code with the documented success status and, when that response has a JSON body, schema with its JSON Schema ($refs inlined); empty for other formats',
    ),
});

/**
 * A Postman collection as a functional plan, ready for save-config (docs/adr/0029-postman-collections.md):
 * the saved plan's fields without those the server sets.
 */
export const ImportedFunctionalPlanSchema = SavedFunctionalPlanSchema.omit({
  id: true,
  _id: true,
  status: true,
  user_email: true,
  version: true,
  created_at: true,
  updated_at: true,
})
  .partial({ test_framework: true, schema_version: true })
  .describe(
    "For a Postman collection: the plan to send to POST /api/functional/save-config as it is — its APIs with the tests that map as named rules and captures, the other scripts as script blocks, folders as groups, {{variables}} kept; the collection's variables, the environment, globals, collection scripts, the data file (iteration_data, iterations = its rows), cookie_jar and follow_redirects on",
  );

export const PostmanTestCountsSchema = z
  .object({
    tests: z
      .number()
      .int()
      .describe('pm.test calls and tests[...] assignments in every script of the collection'),
    rules: z.number().int().describe('Tests that became rules, named as the test'),
    scripts: z.number().int().describe('Tests that run in a script kept as it is, in the sandbox'),
    left_out: z
      .array(
        z.object({
          request: text.describe('"collection", "folder NAME", or the request as "Folder / Request"'),
          line: z.number().int().describe('The line of the test in its script (1-based)'),
          reason: text,
        }),
      )
      .describe('Tests that cannot run at all (a script over 100,000 characters, or not JavaScript)'),
  })
  .describe("How a Postman collection's tests were carried: rules + scripts + left out = tests");

export const FileParseResponseSchema = z.object({
  script: text.describe('A Taurus script (YAML) that sends every API once per iteration'),
  apis: z.array(FunctionalApiSchema),
  format: z.enum(FILE_FORMATS),
  test_type: text,
  warnings: z.array(ImportWarningSchema),
  script_warnings: z
    .array(z.object({ field: text, message: text }))
    .describe('What the Taurus script cannot express'),
  steps: z.array(SavedUrlEntrySchema),
  info: ImportInfoSchema,
  needs_value: NeededValues,
  plan: ImportedFunctionalPlanSchema.optional(),
  postman: PostmanTestCountsSchema.optional(),
  recording: z
    .object({
      tests: z.number().int().describe('Recorded tests: the steps of the UI plan'),
      actions: z.number().int().describe('Actions in all, one per command or step the recorder wrote'),
      skipped: z.number().int().describe("Commands skipped as the recorder skips them (Selenium IDE's //)"),
    })
    .optional()
    .describe(
      'For a browser recording (Selenium IDE project, Chrome DevTools Recorder export): what was read; `plan` is the UI plan (docs/adr/0030-recorded-ui-tests.md)',
    ),
});

export const CurlBodySchema = z.object({
  command: z
    .string()
    .max(1_000_000, textLimitMessage('The curl command', 1_000_000))
    .describe('One or more curl commands, one per line (a line ending in \\ continues)'),
});
