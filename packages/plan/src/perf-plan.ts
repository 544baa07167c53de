import { z } from 'zod';
import { HEADER_NAME, multiLine, noNul, oneLine, wholeNumber } from './strict-input';
import { MAX_FIELD_CHARS, MAX_TEXT_CHARS, textLimitMessage } from './text-limits';
import { VARIABLE_NAME } from './template';
import { testDataFields, testDataProblems } from './test-data';
import { PlanVersionSchema } from './plan-version';
import { thinkTimeProblem } from './think-time';
import { type LoadProfile, LoadProfileSchema, profileMinutes, profileUsers } from './load-profile';
import { FlowNameSchema, FlowsSchema, refineFlows } from './flows';
import { parseThreshold, scopeNamesNothing, thresholdProblem, unknownScopeMessage } from './thresholds';
import {
  DEFAULT_DURATION_MIN,
  DEFAULT_USERS,
  MAX_DURATION_MIN,
  MAX_USERS,
  MIN_DURATION_MIN,
  MIN_USERS,
} from './plan-bounds';

/**
 * The performance test plan of docs/reference/01-authoring.md §3 with the bounds of §5 and the defaults of §9. Wire names are the
 * spec's: snake_case on the plan, camelCase inside URL entries. Loose legacy input (apikey, {name,value}
 * parameters, whole numbers as plain digits) is accepted here where it is one field's matter, and by
 * migratePlan() for the rest. Numbers, names and URLs follow the strict rules of docs/design.md §11
 * (strict-input.ts).
 */

/** Bumped when a saved plan needs migrating; see migrate-plan.ts. */
export const PLAN_SCHEMA_VERSION = 1;

export const TOOLS = ['jmeter', 'k6', 'locust', 'taurus', 'soapui'] as const;
export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'] as const;
/** Methods that send the payload (docs/reference/01-authoring.md §5: the body is shown only for these). */
export const BODY_METHODS: readonly HttpMethod[] = ['POST', 'PUT', 'PATCH'];
export const AUTH_TYPES = ['none', 'bearer', 'basic', 'api_key', 'oauth2'] as const;
export const EXTRACT_TYPES = ['text', 'json', 'regex', 'xml'] as const;
export const ASSERTION_TYPES = ['json', 'text', 'xml', 'status'] as const;
export const ASSERTION_OPERATORS = ['equals', 'contains', 'regex', 'not_equals'] as const;
export const VALIDATION_TYPES = [
  'status_code',
  'response_time',
  'json_path',
  'contains_text',
  'header_value',
  'response_size',
] as const;
export const SOURCE_PAGES = ['url-input', 'script-input'] as const;

// The plan's load bounds live in their own module, which the load profile reads too (load-profile.ts).
export {
  DEFAULT_DURATION_MIN,
  DEFAULT_USERS,
  MAX_DURATION_MIN,
  MAX_USERS,
  MIN_DURATION_MIN,
  MIN_USERS,
} from './plan-bounds';
export const MIN_TIMEOUT_S = 1;
export const MAX_TIMEOUT_S = 300;
export const DEFAULT_TIMEOUT_S = 30;
export const DEFAULT_THINK_TIME = '5s';
export const DEFAULT_TOOL = 'jmeter';

/** The spec's messages for plan rules (docs/reference/01-authoring.md §5), keyed by a stable code for translation. */
export const PLAN_ERRORS = {
  nameRequired: 'Please enter a plan name',
  urlRequired: 'Please enter at least one valid URL',
  noApisToGenerate: 'No APIs to generate script for',
  noApisToValidate: 'No APIs to validate',
  usersRange: `Concurrent users must be a whole number from ${MIN_USERS} to ${MAX_USERS}`,
  durationRange: `Duration must be a whole number of minutes from ${MIN_DURATION_MIN} to ${MAX_DURATION_MIN}`,
} as const;

const MAX_TEXT = MAX_TEXT_CHARS;
const MAX_FIELD = MAX_FIELD_CHARS;

const oneOf = (values: readonly string[]) => `must be one of ${values.join(', ')}`;

export const ToolSchema = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.enum(TOOLS, { error: () => `Tool ${oneOf(TOOLS)}` }));
export type Tool = z.infer<typeof ToolSchema>;

export const HttpMethodSchema = z
  .string()
  .trim()
  .toUpperCase()
  .pipe(z.enum(HTTP_METHODS, { error: () => `Method ${oneOf(HTTP_METHODS)}` }));
export type HttpMethod = z.infer<typeof HttpMethodSchema>;

export const AuthTypeSchema = z
  .string()
  .trim()
  .toLowerCase()
  // Older plans wrote "apikey" (docs/reference/01-authoring.md §3) and left the type blank for no authorization.
  .transform((type) => (type === 'apikey' ? 'api_key' : type === '' ? 'none' : type))
  .pipe(z.enum(AUTH_TYPES, { error: () => `Authorization type ${oneOf(AUTH_TYPES)}` }));
export type AuthType = z.infer<typeof AuthTypeSchema>;

/**
 * Authorization as the call editor keeps it: one flat record whatever the type, so switching type in the
 * form loses nothing. OAuth2 is the client-credentials grant: token holds "clientId:clientSecret" (docs/reference/01-authoring.md
 * §3) and tokenUrl is where the token is fetched before use (docs/design.md §4).
 */
export const AuthorizationSchema = z.object({
  type: AuthTypeSchema.default('none'),
  token: z.string().max(MAX_FIELD).default(''),
  username: z.string().max(MAX_FIELD).default(''),
  password: z.string().max(MAX_FIELD).default(''),
  keyName: z.string().max(MAX_FIELD).default(''),
  keyValue: z.string().max(MAX_FIELD).default(''),
  in: z
    .enum(['header', 'query'], { error: () => 'API key location must be header or query' })
    .default('header'),
  tokenUrl: oneLine('Token URL').trim().max(MAX_FIELD).default(''),
  scope: z.string().max(MAX_FIELD).default(''),
});
export type Authorization = z.infer<typeof AuthorizationSchema>;

/** A call's authorization when it has none: every field blank. A new object each call. */
export function noAuthorization(): Authorization {
  return {
    type: 'none',
    token: '',
    username: '',
    password: '',
    keyName: '',
    keyValue: '',
    in: 'header',
    tokenUrl: '',
    scope: '',
  };
}

/** Authorization with every field its type needs, ready to apply (docs/reference/01-authoring.md §5). */
export type EffectiveAuthorization =
  | { type: 'bearer'; token: string }
  | { type: 'basic'; username: string; password: string }
  | { type: 'api_key'; keyName: string; keyValue: string; in: 'header' | 'query' }
  | { type: 'oauth2'; clientId: string; clientSecret: string; tokenUrl: string; scope: string };

/**
 * The fields that type still needs. docs/reference/01-authoring.md §5: authorization is included only when all its required
 * fields are filled — token for bearer, username and password for basic, name and value for an API key,
 * client id and secret for OAuth2 (plus its token URL, without which no token can be fetched).
 */
export function missingAuthorizationFields(auth: Authorization | undefined): string[] {
  if (!auth) return [];
  const blank = (value: string) => value.trim() === '';
  switch (auth.type) {
    case 'none':
      return [];
    case 'bearer':
      return blank(auth.token) ? ['token'] : [];
    case 'basic':
      return [blank(auth.username) && 'username', blank(auth.password) && 'password'].filter(isText);
    case 'api_key':
      return [blank(auth.keyName) && 'keyName', blank(auth.keyValue) && 'keyValue'].filter(isText);
    case 'oauth2': {
      const { clientId, clientSecret } = splitClientCredentials(auth.token);
      return [
        blank(clientId) && 'token (client id)',
        blank(clientSecret) && 'token (client secret)',
        blank(auth.tokenUrl) && 'tokenUrl',
      ].filter(isText);
    }
  }
}

/** The authorization to apply, or null when there is none or a required field is blank. */
export function effectiveAuthorization(auth: Authorization | undefined): EffectiveAuthorization | null {
  if (!auth || auth.type === 'none' || missingAuthorizationFields(auth).length > 0) return null;
  switch (auth.type) {
    case 'bearer':
      return { type: 'bearer', token: auth.token.trim() };
    case 'basic':
      return { type: 'basic', username: auth.username, password: auth.password };
    case 'api_key':
      return { type: 'api_key', keyName: auth.keyName.trim(), keyValue: auth.keyValue, in: auth.in };
    case 'oauth2': {
      const { clientId, clientSecret } = splitClientCredentials(auth.token);
      return { type: 'oauth2', clientId, clientSecret, tokenUrl: auth.tokenUrl, scope: auth.scope.trim() };
    }
  }
}

/** "clientId:clientSecret" → its parts; the id ends at the first colon, the secret may hold more. */
export function splitClientCredentials(token: string): { clientId: string; clientSecret: string } {
  const trimmed = token.trim();
  const colon = trimmed.indexOf(':');
  if (colon === -1) return { clientId: trimmed, clientSecret: '' };
  return { clientId: trimmed.slice(0, colon), clientSecret: trimmed.slice(colon + 1) };
}

function isText(value: string | false): value is string {
  return value !== false;
}

/** What HTTP refuses in a header value (RFC 9110 §5.5): controls other than tab, and DEL. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const HEADER_VALUE_CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f]/;

/** A query parameter. The URL screen names the key "name" (docs/reference/01-authoring.md §3); both are read, key is written. */
export const ParameterSchema = z
  .object({
    key: z.string().max(MAX_FIELD).optional(),
    name: z.string().max(MAX_FIELD).optional(),
    value: z.string().max(MAX_FIELD).default(''),
  })
  .transform(({ key, name, value }) => ({ key: key ?? name ?? '', value }));
export type Parameter = z.infer<typeof ParameterSchema>;

/** A request header; {key,value} is read too. Blank rows are kept (the form keeps one) and never sent. */
export const HeaderSchema = z
  .object({
    name: z.string().trim().max(MAX_FIELD).optional(),
    key: z.string().trim().max(MAX_FIELD).optional(),
    value: z.string().max(MAX_FIELD).default(''),
  })
  .transform(({ name, key, value }) => ({ name: name ?? key ?? '', value }))
  .superRefine((header, ctx) => {
    if (header.name !== '' && !HEADER_NAME.test(header.name)) {
      ctx.addIssue({
        code: 'custom',
        path: ['name'],
        message: `Header name "${header.name}" may hold only letters, digits and ! # $ % & ' * + - . ^ _ \` | ~`,
      });
    }
    if (HEADER_VALUE_CONTROL.test(header.value)) {
      ctx.addIssue({
        code: 'custom',
        path: ['value'],
        message: 'A header value cannot contain a line break or a control character',
      });
    }
  });
export type Header = z.infer<typeof HeaderSchema>;

/** A check that Validate judges PASS or FAIL (docs/reference/01-authoring.md §3 "Validation item"). */
export const ValidationItemSchema = z.object({
  id: z.union([z.string(), z.number()]).transform(String),
  name: oneLine('Validation name').trim().max(200).default(''),
  type: z.enum(VALIDATION_TYPES, { error: () => `Validation type ${oneOf(VALIDATION_TYPES)}` }),
  // docs/reference/01-authoring.md §5: an item exists only with a non-blank expected value.
  expected_value: z.string().trim().min(1, 'Enter the expected value').max(MAX_FIELD),
  description: multiLine('Validation description').max(2000).default(''),
});
export type ValidationItem = z.infer<typeof ValidationItemSchema>;

/** Percent chance that a VU runs the step in an iteration; blank means 100 (docs/design.md §4). */
export const TransactionRateSchema = z
  .union([z.number(), z.string(), z.null()])
  .transform((value, ctx): number | '' => {
    const text = value === null ? '' : String(value).trim();
    if (text === '') return '';
    const rate = Number(text);
    if (!Number.isFinite(rate) || rate < 0 || rate > 100) {
      ctx.addIssue({
        code: 'custom',
        message: 'Transaction rate must be a percent from 0 to 100, or blank for 100',
      });
      return z.NEVER;
    }
    return rate;
  });

/** The effective percent of a transaction rate (blank = 100). */
export function transactionRatePercent(rate: number | '' | undefined): number {
  return rate === '' || rate === undefined ? 100 : rate;
}

const ThinkTimeSchema = z
  .union([z.string().max(50), z.number()])
  .transform((value) => String(value).trim())
  .superRefine((text, ctx) => {
    const problem = thinkTimeProblem(text);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

// A URL that is not yet a literal (it starts with a template) can only be checked when it runs.
/*
 * `{{` or http(s):// and a host's first character, then anything but white space. Written with one
 * loop: `[^\s/?#]+[^\s]*` reads the same text but tries every split of it when the end does not match,
 * quadratic in a URL's 8192 characters (docs/adr/0022-linear-time-patterns.md).
 */
const URL_SHAPE = /^(?:\{\{|https?:\/\/[^\s/?#])\S*$/i;

/** One API call of the plan (docs/reference/01-authoring.md §3 "URL entry"). */
export const UrlEntrySchema = z.object({
  // A label, not an identifier: importers fold its white space, generators escape it; other controls are refused.
  name: multiLine('API name').trim().max(200).optional(),
  method: HttpMethodSchema.default('GET'),
  url: oneLine('URL')
    .trim()
    .min(1, { error: 'Enter the URL', abort: true })
    .max(MAX_FIELD)
    .regex(URL_SHAPE, 'Enter a full URL starting with http:// or https:// (or with a {{variable}})'),
  parameters: z.array(ParameterSchema).max(200).default([]),
  headers: z.array(HeaderSchema).max(200).default([]),
  authorization: AuthorizationSchema.default(noAuthorization),
  payload: noNul('Body').max(MAX_TEXT, textLimitMessage('Body', MAX_TEXT)).default(''),
  extractType: z.enum(EXTRACT_TYPES, { error: () => `Extract type ${oneOf(EXTRACT_TYPES)}` }).default('text'),
  extractName: z
    .string()
    .trim()
    .max(100)
    .refine((name) => name === '' || VARIABLE_NAME.test(name), {
      message: 'Variable name must start with a letter or _ and hold only letters, digits, _ . -',
    })
    .default(''),
  extractValue: z.string().max(MAX_FIELD).default(''),
  thinkTime: ThinkTimeSchema.default(DEFAULT_THINK_TIME),
  transactionRate: TransactionRateSchema.default(''),
  assertionType: z
    .enum(ASSERTION_TYPES, { error: () => `Assertion type ${oneOf(ASSERTION_TYPES)}` })
    .default('json'),
  assertionPath: z.string().max(MAX_FIELD).default(''),
  assertionValue: z.string().max(MAX_FIELD).default(''),
  assertionOperator: z
    .enum(ASSERTION_OPERATORS, { error: () => `Assertion operator ${oneOf(ASSERTION_OPERATORS)}` })
    .default('equals'),
  /** Seconds; docs/reference/01-authoring.md §5: an invalid value falls back to 30. */
  timeout: z
    .union([z.number(), z.string(), z.null()])
    .optional()
    .transform((value): number => {
      const seconds = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      return typeof seconds === 'number' && seconds >= MIN_TIMEOUT_S && seconds <= MAX_TIMEOUT_S
        ? seconds
        : DEFAULT_TIMEOUT_S;
    })
    .catch(DEFAULT_TIMEOUT_S),
  validations: z.array(ValidationItemSchema).max(100).default([]),
  /** The flow this call belongs to (docs/adr/0027-load-profiles.md "3. Flows"); absent when the plan has no flows. */
  flow: FlowNameSchema.min(1, 'Enter the flow name, or leave the flow out').optional(),
});
export type UrlEntry = z.infer<typeof UrlEntrySchema>;
export type UrlEntryInput = z.input<typeof UrlEntrySchema>;

/** One abort threshold: it must read (the message names the expression and what is wrong). */
const AbortThresholdSchema = oneLine('Abort threshold')
  .trim()
  .min(1, 'An abort threshold cannot be empty')
  .max(100, 'An abort threshold holds at most 100 characters')
  .superRefine((text, ctx) => {
    const problem = thresholdProblem(text);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
  });

/**
 * The scoped thresholds of a plan that name no flow or API of it, as field problems: `thresholds` and
 * `abort_thresholds` are checked alike (an expression that does not read is left to its own check).
 */
export function thresholdScopeProblems(plan: {
  urls: readonly { name?: string | undefined; method: string; url: string }[];
  flows?: readonly { name: string }[] | undefined;
  thresholds?: readonly string[] | undefined;
  abort_thresholds?: readonly string[] | undefined;
}): { field: string; message: string }[] {
  const apis = plan.urls.map((u) => {
    const label = `${u.method} ${u.url.trim()}`;
    return { name: u.name?.trim() || label, label };
  });
  const flows = (plan.flows ?? []).map((f) => f.name);
  const problems: { field: string; message: string }[] = [];
  for (const key of ['thresholds', 'abort_thresholds'] as const) {
    (plan[key] ?? []).forEach((text, i) => {
      if (thresholdProblem(text) !== undefined) return;
      const t = parseThreshold(text);
      if (t.scope !== undefined && scopeNamesNothing(t.scope, apis, flows))
        problems.push({ field: `${key}.${i}`, message: unknownScopeMessage(t, apis, flows) });
    });
  }
  return problems;
}

const UsersSchema = wholeNumber(PLAN_ERRORS.usersRange, MIN_USERS, MAX_USERS);

const DurationSchema = wholeNumber(PLAN_ERRORS.durationRange, MIN_DURATION_MIN, MAX_DURATION_MIN);

/** The plan's fields, before the rules that tie several of them together (flows, test data); pick from this one. */
const PerfPlanFieldsSchema = z.object({
  schema_version: z.literal(PLAN_SCHEMA_VERSION).default(PLAN_SCHEMA_VERSION),
  id: z.string().optional(),
  name: oneLine('Plan name', PLAN_ERRORS.nameRequired).trim().min(1, PLAN_ERRORS.nameRequired).max(200),
  description: multiLine('Description').max(2000).optional(),
  tool: ToolSchema.default(DEFAULT_TOOL),
  concurrent_users: UsersSchema.default(DEFAULT_USERS),
  /** Minutes. */
  duration: DurationSchema.default(DEFAULT_DURATION_MIN),
  urls: z
    .array(UrlEntrySchema, { error: () => PLAN_ERRORS.urlRequired })
    .min(1, PLAN_ERRORS.urlRequired)
    .max(500),
  script: noNul('Script').max(MAX_TEXT, textLimitMessage('Script', MAX_TEXT)).optional(),
  /**
   * How the load moves over time (docs/adr/0027-load-profiles.md): stages of users (closed model) or of
   * iterations per second (open model), in seconds. Without one the plan runs `concurrent_users` for
   * `duration` minutes, all started at once; with one, `concurrent_users` and `duration` are its peak
   * users (or pool) and its length in minutes rounded up (`withProfileTotals`).
   */
  load_profile: LoadProfileSchema.optional(),
  /**
   * Named flows and their weights (docs/adr/0027-load-profiles.md "3. Flows"): each iteration runs one flow's
   * calls, chosen in proportion to the weights; every call then names its flow (`urls[].flow`).
   * Without flows the plan is one flow of every call.
   */
  flows: FlowsSchema.optional(),
  /** Pass/fail criteria on the final summary, as k6 writes them: "p95<300", "error_rate<1%". The engine parses them. */
  thresholds: z.array(oneLine('Threshold').trim().min(1).max(100)).max(50).optional(),
  /**
   * Test data (docs/adr/0027-load-profiles.md "Test data"): CSV files and the sources that bind them; each
   * iteration takes the next row of each source, its columns are `{{variables}}`.
   */
  ...testDataFields,
  /**
   * Criteria that stop the run while it goes (docs/adr/0027-load-profiles.md, "Abort criteria"):
   * the same expressions as `thresholds`, judged every second over the last 10 s after a 10 s grace.
   * A scope ("Login: p95<300") names an API of `urls` (checked by `thresholdScopeProblems`).
   */
  abort_thresholds: z
    .array(AbortThresholdSchema)
    .max(50, 'A plan holds at most 50 abort thresholds')
    .optional(),
  source_page: z
    .enum(SOURCE_PAGES, { error: () => `Source page ${oneOf(SOURCE_PAGES)}` })
    .default('url-input'),
  test_type: oneLine('Test type').max(100).optional(),
  user_email: z.string().max(254).optional(),
  /** Set by the server; sent back on update (docs/reference/01-authoring.md §7 "Plan versions"). */
  version: PlanVersionSchema.optional(),
  created_at: z.string().optional(),
  updated_at: z.string().optional(),
});
/** Its data sources against its data files (docs/adr/0027-load-profiles.md "Test data"), as zod issues. */
function checkTestData(plan: Parameters<typeof testDataProblems>[0], ctx: z.RefinementCtx): void {
  for (const problem of testDataProblems(plan))
    ctx.addIssue({ code: 'custom', path: problem.path, message: problem.message });
}

/** The rules that read several fields: the calls' flows against the plan's, its data sources against its files. */
function refinePlan(
  plan: Parameters<typeof refineFlows>[0] & Parameters<typeof testDataProblems>[0],
  ctx: z.RefinementCtx,
): void {
  refineFlows(plan, ctx);
  checkTestData(plan, ctx);
}

/** A saved performance plan (docs/reference/01-authoring.md §3 "Performance test plan"). created_at/updated_at/id are set by the server. */
export const PerfPlanSchema = PerfPlanFieldsSchema.superRefine(refinePlan);
export type PerfPlan = z.infer<typeof PerfPlanSchema>;
export type PerfPlanInput = z.input<typeof PerfPlanSchema>;

/**
 * A plan's `concurrent_users` and `duration` kept true to its load profile (docs/adr/0027-load-profiles.md):
 * the peak users (closed model) or the pool of users (open model), and the stages' length in whole
 * minutes rounded up — what the spec's fields and the screens that show them read. A plan without a
 * profile is returned as it is.
 */
export function withProfileTotals<
  T extends { load_profile?: LoadProfile | undefined; concurrent_users: number; duration: number },
>(plan: T): T {
  const profile = plan.load_profile;
  if (profile === undefined) return plan;
  const users = profileUsers(profile);
  const minutes = profileMinutes(profile);
  return plan.concurrent_users === users && plan.duration === minutes
    ? plan
    : { ...plan, concurrent_users: users, duration: minutes };
}

/**
 * What a script is generated or validated from (POST /api/generate-script and /api/validate-script): the
 * load settings and the URLs; the plan name is optional there (file names fall back to "current").
 */
export const ScriptRequestSchema = PerfPlanFieldsSchema.pick({
  tool: true,
  concurrent_users: true,
  duration: true,
  urls: true,
  load_profile: true,
  flows: true,
  // The scripts read the plan's test data from files beside them (docs/adr/0027-load-profiles.md "Test data").
  data_files: true,
  data_sources: true,
})
  .extend({
    name: oneLine('Plan name').trim().max(200).optional(),
    validation_mode: z.boolean().optional(),
  })
  .superRefine(refinePlan);
export type ScriptRequest = z.infer<typeof ScriptRequestSchema>;

/** One validation item's verdict inside a validation response. */
export const ValidationCheckResultSchema = z.object({
  id: z.string().optional(),
  name: z.string(),
  type: z.enum(VALIDATION_TYPES),
  expected_value: z.string(),
  actual_value: z.string().nullable().optional(),
  status: z.enum(['success', 'error', 'warning']),
  message: z.string().optional(),
});
export type ValidationCheckResult = z.infer<typeof ValidationCheckResultSchema>;

/** One API of a validation run (docs/reference/01-authoring.md §3 "Validation response"). */
export const ApiValidationResultSchema = z.object({
  /** "success", "error", or another word (shown as WARNING). */
  status: z.string(),
  method: z.string(),
  url: z.string(),
  /** Milliseconds. */
  response_time: z.number().nullable(),
  response_status: z.number().int().nullable(),
  error: z.string().nullable().optional(),
  validations: z.array(ValidationCheckResultSchema).optional(),
});
export type ApiValidationResult = z.infer<typeof ApiValidationResultSchema>;

export const ValidationResponseSchema = z.object({
  total_apis: z.number().int().min(0),
  successful: z.number().int().min(0),
  failed: z.number().int().min(0),
  api_results: z.array(ApiValidationResultSchema),
});
export type ValidationResponse = z.infer<typeof ValidationResponseSchema>;

/** How a result status is shown (docs/reference/01-authoring.md §4): success PASS, error FAIL, anything else WARNING. */
export function resultStatusLabel(status: string): 'PASS' | 'FAIL' | 'WARNING' {
  return status === 'success' ? 'PASS' : status === 'error' ? 'FAIL' : 'WARNING';
}
