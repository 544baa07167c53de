import { z } from 'zod';
import {
  AuthorizationSchema,
  HeaderSchema,
  HttpMethodSchema,
  UrlEntrySchema,
  noAuthorization,
} from '../perf-plan';
import { dataFilesSchema } from '../data-files';
import { PlanVersionSchema } from '../plan-version';
import { HEADER_NAME, multiLine, noNul, oneLine, wholeNumber } from '../strict-input';
import { VARIABLE_NAME } from '../template';
import { kindOf, runKindOf, TEST_KINDS } from '../test-kind';
import { MAX_FIELD_CHARS, MAX_TEXT_CHARS, textLimitMessage } from '../text-limits';
import { FunctionalValidationSchema, isValidRegex } from './validation';
import { UiActionsSchema } from './ui-action';

/*
 * The functional test plan and its API definitions (docs/design.md §9): one schema for API, script and
 * UI tests, with the bounds and fallbacks of docs/reference/02-running.md §5 and the defaults of §9.
 * Wire names are the reference's (snake_case). Numbers, names and URLs follow the strict rules of
 * docs/design.md §11 (strict-input.ts).
 */

/** Bumped when a saved functional plan needs migrating. */
export const FUNCTIONAL_PLAN_SCHEMA_VERSION = 1;

export const FUNCTIONAL_TEST_TYPES = ['functional', 'api', 'ui'] as const;
export const FUNCTIONAL_SOURCES = ['url_input', 'script_input', 'ui_url_input'] as const;
export const FUNCTIONAL_SOURCE_PAGES = ['functional-url-input', 'functional-script-input'] as const;
export const TEST_FRAMEWORKS = ['taurus', 'selenium'] as const;
export const CAPTURE_SOURCES = ['json_path', 'regex', 'header'] as const;

/** Bounds, each with the value a blank field falls back to (docs/reference/02-running.md §5). */
export const FUNCTIONAL_BOUNDS = {
  concurrent_users: { min: 1, max: 100, fallback: 1 },
  iterations: TEST_KINDS.api.iterations,
  /** UI tests run fewer iterations. */
  ui_iterations: TEST_KINDS.ui.iterations,
  /** Minutes. */
  test_duration: { min: 1, max: 60, fallback: 1 },
  /** Seconds. */
  ramp_up_time: { min: 0, max: 300, fallback: 0 },
  /** Seconds. */
  think_time: { min: 0, max: 60, fallback: 1 },
  /** Seconds; any invalid value falls back to 30. */
  timeout: { min: 1, max: 300, fallback: 30 },
} as const;

/** The new-plan and new-API defaults (docs/reference/02-running.md §9). */
export const FUNCTIONAL_DEFAULTS = {
  concurrent_users: 1,
  iterations: 1,
  ramp_up_time: 0,
  test_duration: 1,
  think_time: 1,
  method: 'GET',
  timeout: 30,
} as const;

const range = (label: string, unit: string, { min, max }: { min: number; max: number }) =>
  `${label} must be a whole number${unit} from ${min} to ${max}`;

/** The reference's messages (docs/reference/02-running.md §5), and the bounds' own. */
export const FUNCTIONAL_PLAN_ERRORS = {
  testNameRequired: 'Test name is required',
  apisRequired: 'At least one API must be configured',
  uiTestsRequired: 'At least one UI test must be configured',
  scriptRequired: 'Script content is required',
  apiNameRequired: (n: number) => `API #${n} name is required`,
  apiUrlRequired: (n: number) => `API #${n} URL is required`,
  uiTestNameRequired: (n: number) => `UI Test #${n} name is required`,
  uiTestUrlRequired: (n: number) => `UI Test #${n} URL is required`,
  usersRange: range('Concurrent users', '', FUNCTIONAL_BOUNDS.concurrent_users),
  iterationsRange: range('Iterations', '', FUNCTIONAL_BOUNDS.iterations),
  uiIterationsRange: range('Iterations', '', FUNCTIONAL_BOUNDS.ui_iterations),
  durationRange: range('Test duration', ' of minutes', FUNCTIONAL_BOUNDS.test_duration),
  rampUpRange: range('Ramp-up time', ' of seconds', FUNCTIONAL_BOUNDS.ramp_up_time),
  thinkTimeRange: range('Think time', ' of seconds', FUNCTIONAL_BOUNDS.think_time),
  urlShape: 'Enter a full URL starting with http:// or https:// (or with a {{variable}})',
  captureName: 'Variable name must start with a letter or _ and hold only letters, digits, _ . -',
  captureExpression: 'Enter what to capture',
  captureRegex: 'A regex capture must be a valid regular expression',
  captureJsonPath: 'A JSON path capture starts with $',
  captureRegexOnly: 'Only a regex capture takes a group or a match number',
  captureHeader: "A header capture names a header: letters, digits and ! # $ % & ' * + - . ^ _ ` | ~",
} as const;

const MAX_TEXT = MAX_TEXT_CHARS;
const MAX_FIELD = MAX_FIELD_CHARS;
/** A script plan's data files together (docs/reference/02-running.md §3 "Taurus scripts"). */
export const DATA_FILES_MAX_BYTES = 5 * 1024 * 1024;
export const DATA_FILES_MAX_COUNT = 20;

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/**
 * A bounded whole number that falls back when its field holds no number (docs/reference/02-running.md
 * §5). A browser's number field holding no number reads as blank, so absent, null and blank text take
 * the fallback. Anything else is strict: plain digits or a JSON number in range, else
 * refused with `message` — out of range is refused, not clamped.
 */
export function boundedWithFallback(message: string, bounds: { min: number; max: number; fallback: number }) {
  return z
    .union([z.number(), z.string(), z.null()], { error: () => message })
    .transform((value) => (isBlank(value) ? bounds.fallback : value))
    .pipe(wholeNumber(message, bounds.min, bounds.max))
    .default(bounds.fallback);
}

/**
 * The plan's numbers and their bounds (docs/reference/02-running.md §5); a UI plan's iterations have
 * their own. They are judged with the plan's other rules (checkPlan), so a number that is no number is
 * listed together with, say, a missing test name, and a UI plan's iterations name the UI bounds.
 */
const PLAN_NUMBERS = {
  concurrent_users: {
    bounds: FUNCTIONAL_BOUNDS.concurrent_users,
    message: FUNCTIONAL_PLAN_ERRORS.usersRange,
  },
  iterations: { bounds: FUNCTIONAL_BOUNDS.iterations, message: FUNCTIONAL_PLAN_ERRORS.iterationsRange },
  ramp_up_time: { bounds: FUNCTIONAL_BOUNDS.ramp_up_time, message: FUNCTIONAL_PLAN_ERRORS.rampUpRange },
  test_duration: { bounds: FUNCTIONAL_BOUNDS.test_duration, message: FUNCTIONAL_PLAN_ERRORS.durationRange },
  think_time: { bounds: FUNCTIONAL_BOUNDS.think_time, message: FUNCTIONAL_PLAN_ERRORS.thinkTimeRange },
} as const;
type PlanNumber = keyof typeof PLAN_NUMBERS;

/** A plan number as written, blank (absent, null, '') taking its fallback; checkPlan judges the rest. */
function numberAsWritten(key: PlanNumber) {
  const { bounds, message } = PLAN_NUMBERS[key];
  return z
    .union([z.number(), z.string(), z.null()], { error: () => message })
    .transform((value): number | string => (isBlank(value) ? bounds.fallback : (value as number | string)))
    .default(bounds.fallback);
}

/** A plan number's check: its bounds, or for a UI plan's iterations the UI bounds. */
function planNumberCheck(key: PlanNumber, ui: boolean) {
  const { bounds, message } =
    key === 'iterations' && ui
      ? { bounds: FUNCTIONAL_BOUNDS.ui_iterations, message: FUNCTIONAL_PLAN_ERRORS.uiIterationsRange }
      : PLAN_NUMBERS[key];
  return wholeNumber(message, bounds.min, bounds.max);
}

const TimeoutCheck = wholeNumber('timeout', FUNCTIONAL_BOUNDS.timeout.min, FUNCTIONAL_BOUNDS.timeout.max);

/** Seconds; docs/reference/02-running.md §5: a value that is not a whole number from 1 to 300 falls back to 30. */
export const ApiTimeoutSchema = z
  .union([z.number(), z.string(), z.null()])
  .transform((value): number => {
    const checked = TimeoutCheck.safeParse(typeof value === 'string' ? value.trim() : value);
    return checked.success ? checked.data : FUNCTIONAL_BOUNDS.timeout.fallback;
  })
  .catch(FUNCTIONAL_BOUNDS.timeout.fallback)
  .default(FUNCTIONAL_BOUNDS.timeout.fallback);

/** Chaining: a value taken from this call's response into `{{name}}` for the calls after it. */
export const CaptureSchema = z
  .object({
    name: z.string().trim().max(100).regex(VARIABLE_NAME, FUNCTIONAL_PLAN_ERRORS.captureName),
    from: z.enum(CAPTURE_SOURCES, {
      error: () => `Capture source must be one of ${CAPTURE_SOURCES.join(', ')}`,
    }),
    /** A JSONPath, a regex (its first group, else the whole match) or a header name. */
    expression: oneLine('Capture expression')
      .trim()
      .min(1, { error: FUNCTIONAL_PLAN_ERRORS.captureExpression, abort: true })
      .max(MAX_FIELD),
    /*
     * What a read Taurus script says of its extractors (docs/reference/02-running.md §3 "Taurus
     * scripts"); each is left out unless set. `default`: the value when nothing matches (Taurus's
     * NOT_FOUND), instead of leaving the variable unset. `group`: a regex capture's group (0 = the whole
     * match), instead of the first group. `match_no`: which match (1 = the first) a regex capture takes.
     */
    default: z.string().max(MAX_FIELD).optional(),
    group: z.number().int().min(0).max(99).optional(),
    match_no: z.number().int().min(1).max(10_000).optional(),
  })
  .superRefine((capture, ctx) => {
    const problem =
      capture.from === 'regex' && !isValidRegex(capture.expression)
        ? FUNCTIONAL_PLAN_ERRORS.captureRegex
        : capture.from === 'json_path' && !capture.expression.startsWith('$')
          ? FUNCTIONAL_PLAN_ERRORS.captureJsonPath
          : capture.from === 'header' && !HEADER_NAME.test(capture.expression)
            ? FUNCTIONAL_PLAN_ERRORS.captureHeader
            : undefined;
    if (problem) ctx.addIssue({ code: 'custom', path: ['expression'], message: problem });
    for (const field of ['group', 'match_no'] as const) {
      if (capture[field] !== undefined && capture.from !== 'regex') {
        ctx.addIssue({ code: 'custom', path: [field], message: FUNCTIONAL_PLAN_ERRORS.captureRegexOnly });
      }
    }
  });
export type Capture = z.infer<typeof CaptureSchema>;

/** Headers as a map of name to value; each pair is checked as a performance plan's header is. */
const HeaderMapSchema = z
  .record(z.string().max(MAX_FIELD), z.string().max(MAX_FIELD))
  .superRefine((headers, ctx) => {
    for (const [name, value] of Object.entries(headers)) {
      const checked = HeaderSchema.safeParse({ name, value });
      for (const issue of checked.error?.issues ?? []) {
        ctx.addIssue({ code: 'custom', path: [name], message: issue.message });
      }
    }
  });

const ParamSchema = z.object({
  name: z.string().max(MAX_FIELD),
  value: z.string().max(MAX_FIELD).default(''),
});

/** Query parameters: a list of name and value; a map (what the file parse answers) is read too. */
const ParamsSchema = z
  .union([z.array(ParamSchema).max(200), z.record(z.string().max(MAX_FIELD), z.string().max(MAX_FIELD))])
  .transform((params) =>
    Array.isArray(params) ? params : Object.entries(params).map(([name, value]) => ({ name, value })),
  );

/** Blank is left to the plan, which names the API by its number; a filled URL has the plan URL's shape. */
const ApiUrlSchema = oneLine('URL')
  .trim()
  .max(MAX_FIELD)
  .refine(
    (url) => url === '' || UrlEntrySchema.shape.url.safeParse(url).success,
    FUNCTIONAL_PLAN_ERRORS.urlShape,
  );

/*
 * What a Postman collection brings beside its requests (docs/adr/0029-postman-collections.md): its
 * variables in their scopes, the scripts that did not become rules or captures, its folders, a data
 * file that drives the iterations, and the cookie jar and redirects Newman runs with.
 */

/** Postman's variable names are free text; only the braces that would end `{{name}}` are refused. */
export const PLAN_VARIABLE_NAME = /^[^{}\r\n]+$/;
export const POSTMAN_LIMITS = {
  variables: 1000,
  scriptBlocks: 20,
  scriptChars: 100_000,
  iterationDataBytes: 5 * 1024 * 1024,
} as const;

/** One variable of a scope (collection, environment, globals): a name and its text value. */
export const PlanVariableSchema = z.object({
  name: oneLine('Variable name')
    .trim()
    .min(1, 'Variable name is required')
    .max(200)
    .regex(PLAN_VARIABLE_NAME, 'A variable name cannot hold { or }'),
  value: noNul('Variable value').max(MAX_FIELD).default(''),
});
export type PlanVariable = z.infer<typeof PlanVariableSchema>;
const PlanVariablesSchema = z.array(PlanVariableSchema).max(POSTMAN_LIMITS.variables);

/**
 * One script of a Postman event, kept as the script it is and run in the sandbox: `origin` says whose
 * it is ("collection", "folder Orders", "request") and `source` is its JavaScript.
 */
export const ScriptBlockSchema = z.object({
  origin: oneLine('Script origin').trim().max(300).default('request'),
  source: noNul('Script')
    .max(POSTMAN_LIMITS.scriptChars, textLimitMessage('Script', POSTMAN_LIMITS.scriptChars))
    .default(''),
});
export type ScriptBlock = z.infer<typeof ScriptBlockSchema>;

/** Pre-request and test scripts, each list in the order Postman runs them (collection, folders, request). */
export const EventScriptsSchema = z.object({
  prerequest: z.array(ScriptBlockSchema).max(POSTMAN_LIMITS.scriptBlocks).default([]),
  test: z.array(ScriptBlockSchema).max(POSTMAN_LIMITS.scriptBlocks).default([]),
});
export type EventScripts = z.infer<typeof EventScriptsSchema>;

/** A Postman environment: its name and values (an environment file, or the editor's table). */
export const PlanEnvironmentSchema = z.object({
  name: oneLine('Environment name').trim().max(200).default(''),
  values: PlanVariablesSchema.default([]),
});
export type PlanEnvironment = z.infer<typeof PlanEnvironmentSchema>;

export const ITERATION_DATA_FORMATS = ['csv', 'json'] as const;
/** A data file that drives the iterations as Newman's `-d` does: one iteration per row. */
export const IterationDataSchema = z.object({
  name: oneLine('Data file name').trim().min(1, 'Data file name is required').max(200),
  format: z.enum(ITERATION_DATA_FORMATS, {
    error: () => `Data file format must be one of ${ITERATION_DATA_FORMATS.join(', ')}`,
  }),
  text: noNul('Data file').max(
    POSTMAN_LIMITS.iterationDataBytes,
    textLimitMessage('Data file', POSTMAN_LIMITS.iterationDataBytes),
  ),
});
export type IterationData = z.infer<typeof IterationDataSchema>;

/**
 * An API of a functional plan (docs/design.md §9). Name and URL may be blank here: the plan refuses
 * them with the reference's numbered messages. A UI test's pages use the same shape.
 */
export const ApiDefinitionSchema = z.object({
  id: z
    .union([z.string().max(100), z.number()])
    .transform(String)
    .optional(),
  name: oneLine('API name').trim().max(200).default(''),
  url: ApiUrlSchema.default(''),
  method: HttpMethodSchema.default(FUNCTIONAL_DEFAULTS.method),
  headers: HeaderMapSchema.default({}),
  body: noNul('Body').max(MAX_TEXT, textLimitMessage('Body', MAX_TEXT)).default(''),
  params: ParamsSchema.default([]),
  authorization: AuthorizationSchema.default(noAuthorization),
  validations: z.array(FunctionalValidationSchema).max(100).default([]),
  description: multiLine('API description').max(2000).default(''),
  timeout: ApiTimeoutSchema,
  captures: z.array(CaptureSchema).max(50).optional(),
  /** The Postman folder the API is in, its names joined by " / " (`aqa test --folder` runs one alone). */
  group: oneLine('Folder').trim().max(500).optional(),
  /** The folder and request scripts of a Postman item that run as scripts (docs/adr/0029-postman-collections.md). */
  scripts: EventScriptsSchema.optional(),
  /**
   * A UI test's page step: the actions run after the page opens, or on the page the step before left when
   * the URL is blank (docs/adr/0030-recorded-ui-tests.md §1).
   */
  actions: UiActionsSchema.optional(),
});
export type ApiDefinition = z.infer<typeof ApiDefinitionSchema>;
export type ApiDefinitionInput = z.input<typeof ApiDefinitionSchema>;

/** A script plan's data files: name → CSV text, at most 20 and 5 MB together. */
export const DataFilesSchema = dataFilesSchema(DATA_FILES_MAX_BYTES, DATA_FILES_MAX_COUNT);

const functionalPlanFields = {
  schema_version: z.literal(FUNCTIONAL_PLAN_SCHEMA_VERSION).default(FUNCTIONAL_PLAN_SCHEMA_VERSION),
  id: z.string().max(100).optional(),
  /** Older answers name the id `_id`; it is read as `id`. */
  _id: z.string().max(100).optional(),
  plan_id: z.string().max(100).optional(),
  test_name: oneLine('Test name', FUNCTIONAL_PLAN_ERRORS.testNameRequired).trim().max(200).default(''),
  description: multiLine('Description').max(2000).default(''),
  apis: z.array(ApiDefinitionSchema).max(500).default([]),
  concurrent_users: numberAsWritten('concurrent_users'),
  iterations: numberAsWritten('iterations'),
  /** Seconds. */
  ramp_up_time: numberAsWritten('ramp_up_time'),
  /** Minutes. */
  test_duration: numberAsWritten('test_duration'),
  /** Seconds between calls. */
  think_time: numberAsWritten('think_time'),
  test_type: z
    .enum(FUNCTIONAL_TEST_TYPES, {
      error: () => `Test type must be one of ${FUNCTIONAL_TEST_TYPES.join(', ')}`,
    })
    .default('functional'),
  source: z
    .enum(FUNCTIONAL_SOURCES, { error: () => `Source must be one of ${FUNCTIONAL_SOURCES.join(', ')}` })
    .default('url_input'),
  source_page: z
    .enum(FUNCTIONAL_SOURCE_PAGES, {
      error: () => `Source page must be one of ${FUNCTIONAL_SOURCE_PAGES.join(', ')}`,
    })
    .optional(),
  /** Left out, it is selenium for a UI source and taurus otherwise. */
  test_framework: z
    .enum(TEST_FRAMEWORKS, { error: () => `Test framework must be one of ${TEST_FRAMEWORKS.join(', ')}` })
    .optional(),
  /** The script screen's Taurus or Selenium YAML. */
  script_content: noNul('Script content')
    .max(MAX_TEXT, textLimitMessage('Script content', MAX_TEXT))
    .default(''),
  /** The script screen's global validation rules. */
  validations: z.array(FunctionalValidationSchema).max(500).default([]),
  /**
   * The files a script's data sources read, by the name the script gives them, with their CSV text
   * (docs/reference/02-running.md §3 "Taurus scripts"); left out when there are none.
   */
  data_files: DataFilesSchema.optional(),
  /*
   * A Postman collection's own (docs/adr/0029-postman-collections.md): its variables, an environment,
   * globals, its collection-level scripts (run before and after every API), the data file that
   * drives the iterations, and whether calls keep a cookie jar per user and follow redirects (both on
   * for an imported collection, as Newman runs; off, a 3xx is what is judged), and whether an API
   * with neither rules nor test scripts is judged by status 200 (`default_status_rule`, absent: yes, the
   * spec's default; off for an imported collection: Newman adds no check, an answer is enough).
   */
  variables: PlanVariablesSchema.optional(),
  environment: PlanEnvironmentSchema.optional(),
  globals: PlanVariablesSchema.optional(),
  scripts: EventScriptsSchema.optional(),
  iteration_data: IterationDataSchema.optional(),
  cookie_jar: z.boolean().optional(),
  follow_redirects: z.boolean().optional(),
  default_status_rule: z.boolean().optional(),
  /** The last run's status as the dashboard lists it; any word (docs/reference/02-running.md §4). */
  status: oneLine('Status').max(50).optional(),
  user_email: z.string().max(254).optional(),
  /** Set by the server; sent back on update (docs/reference/01-authoring.md §7 "Plan versions"). */
  version: PlanVersionSchema.optional(),
  created_at: z.string().max(100).optional(),
  updated_at: z.string().max(100).optional(),
};

type PlanFields = z.infer<z.ZodObject<typeof functionalPlanFields>>;

/** The plan rules of docs/reference/02-running.md §5, every problem at once, in list order. */
function checkPlan(plan: PlanFields, ctx: z.RefinementCtx): void {
  // Its rule types are those of the kind it was written as; its bounds and words those of its runner.
  const kind = kindOf(plan);
  const ui = runKindOf(plan) === 'ui';
  if (plan.test_name === '') {
    ctx.addIssue({ code: 'custom', path: ['test_name'], message: FUNCTIONAL_PLAN_ERRORS.testNameRequired });
  }
  if (kind === 'script') {
    if (plan.script_content.trim() === '') {
      ctx.addIssue({
        code: 'custom',
        path: ['script_content'],
        message: FUNCTIONAL_PLAN_ERRORS.scriptRequired,
      });
    }
  } else if (plan.apis.length === 0) {
    ctx.addIssue({
      code: 'custom',
      path: ['apis'],
      message: ui ? FUNCTIONAL_PLAN_ERRORS.uiTestsRequired : FUNCTIONAL_PLAN_ERRORS.apisRequired,
    });
  }
  plan.apis.forEach((api, index) => {
    const n = index + 1;
    if (api.name === '') {
      ctx.addIssue({
        code: 'custom',
        path: ['apis', index, 'name'],
        message: ui
          ? FUNCTIONAL_PLAN_ERRORS.uiTestNameRequired(n)
          : FUNCTIONAL_PLAN_ERRORS.apiNameRequired(n),
      });
    }
    // A UI step with actions may act on the page the step before left (ADR 0030 §1).
    if (api.url === '' && !(ui && (api.actions?.length ?? 0) > 0)) {
      ctx.addIssue({
        code: 'custom',
        path: ['apis', index, 'url'],
        message: ui ? FUNCTIONAL_PLAN_ERRORS.uiTestUrlRequired(n) : FUNCTIONAL_PLAN_ERRORS.apiUrlRequired(n),
      });
    }
  });
  // A page is checked by UI types, an API call by API types; the script screen may hold either.
  const allowed: readonly string[] = TEST_KINDS[kind].ruleTypes ?? [];
  plan.apis.forEach((api, index) => {
    api.validations.forEach((validation, v) => {
      if (!allowed.includes(validation.type)) {
        ctx.addIssue({
          code: 'custom',
          path: ['apis', index, 'validations', v, 'type'],
          message: `${TEST_KINDS[kind].aWord} checks ${allowed.join(', ')}, not ${validation.type}`,
        });
      }
    });
  });
  for (const key of Object.keys(PLAN_NUMBERS) as PlanNumber[]) {
    const check = planNumberCheck(key, ui).safeParse(plan[key]);
    if (!check.success) {
      ctx.addIssue({ code: 'custom', path: [key], message: check.error.issues[0]?.message ?? key });
    }
  }
}

/** A number checkPlan has passed, as the number it is. */
function passedNumber(value: number | string): number {
  return typeof value === 'number' ? value : Number(value);
}

function finishPlan<T extends PlanFields>({ _id, ...plan }: T) {
  return {
    ...plan,
    concurrent_users: passedNumber(plan.concurrent_users),
    iterations: passedNumber(plan.iterations),
    ramp_up_time: passedNumber(plan.ramp_up_time),
    test_duration: passedNumber(plan.test_duration),
    think_time: passedNumber(plan.think_time),
    id: plan.id ?? _id,
    test_framework:
      plan.test_framework ?? (plan.source === 'ui_url_input' ? ('selenium' as const) : ('taurus' as const)),
  };
}

/** A functional test plan (docs/design.md §9); id, created_at and updated_at are set by the server. */
export const FunctionalPlanSchema = z
  .object(functionalPlanFields)
  .superRefine(checkPlan)
  .transform(finishPlan);
export type FunctionalPlan = z.infer<typeof FunctionalPlanSchema>;
export type FunctionalPlanInput = z.input<typeof FunctionalPlanSchema>;

/** POST /api/functional/run-test: the plan with test_type, source and plan_id; the answer is its test_id. */
export const FunctionalRunRequestSchema = FunctionalPlanSchema;
export type FunctionalRunRequest = FunctionalPlan;

/** A new plan with the reference's defaults (docs/reference/02-running.md §9). */
export function newFunctionalPlan(
  source: (typeof FUNCTIONAL_SOURCES)[number] = 'url_input',
): z.input<typeof FunctionalPlanSchema> {
  return {
    test_name: '',
    description: '',
    apis: [],
    concurrent_users: FUNCTIONAL_DEFAULTS.concurrent_users,
    iterations: FUNCTIONAL_DEFAULTS.iterations,
    ramp_up_time: FUNCTIONAL_DEFAULTS.ramp_up_time,
    test_duration: FUNCTIONAL_DEFAULTS.test_duration,
    think_time: FUNCTIONAL_DEFAULTS.think_time,
    test_type: source === 'ui_url_input' ? 'ui' : 'functional',
    source,
  };
}

/** A new API card: GET, 30 s, no validations (the call is then judged by status 200). */
export function newApiDefinition(): ApiDefinition {
  return ApiDefinitionSchema.parse({});
}
