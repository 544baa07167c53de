import { z } from 'zod';
import { HttpMethodSchema } from '../perf-plan';
import { HEADER_NAME, multiLine, oneLine } from '../strict-input';
import { PhraseSchema } from '../phrases/phrase';
import { userPatternProblem } from '../user-pattern';
import { tokenizeTemplate } from '../template';
import { jsonPathProblem } from '../json-path-filter';

/*
 * A functional test's validation rule and its judged outcome (docs/design.md §9). The six API types
 * are the reference's; `schema` checks a body against an OpenAPI response schema; contains_text,
 * element_exists and page_title are what UI tests check. `regex` and `xpath`, and the optional
 * `negate` and `subject`, carry what a Taurus script asserts (docs/reference/02-running.md §3
 * "Taurus scripts"); `equals` and the `json` and `xml` subjects with their `path`, what a performance
 * plan entry's own assertion compares (docs/call-core.md "A performance plan's assertion").
 */

export const API_VALIDATION_TYPES = [
  'status_code',
  'response_time',
  'json_path',
  'contains_text',
  'header_value',
  'response_size',
  'schema',
] as const;
export const UI_VALIDATION_TYPES = ['contains_text', 'element_exists', 'page_title'] as const;
/**
 * Types the API editor does not offer, carried by a read script or a converted performance plan: a
 * regular expression search, an XPath 1.0 query on an XML body, and a subject's whole text compared.
 */
export const SCRIPT_VALIDATION_TYPES = ['regex', 'xpath', 'equals'] as const;
export const FUNCTIONAL_VALIDATION_TYPES = [
  'status_code',
  'response_time',
  'json_path',
  'contains_text',
  'header_value',
  'response_size',
  'schema',
  'element_exists',
  'page_title',
  'regex',
  'xpath',
  'equals',
] as const;
export const FunctionalValidationTypeSchema = z.enum(FUNCTIONAL_VALIDATION_TYPES, {
  error: () => `Validation type must be one of ${FUNCTIONAL_VALIDATION_TYPES.join(', ')}`,
});
export type FunctionalValidationType = z.infer<typeof FunctionalValidationTypeSchema>;

/** The rule a call without validations is judged by: status 200. */
export const DEFAULT_VALIDATION_TYPE = 'status_code';
export const DEFAULT_EXPECTED_STATUS = '200';

export const VALIDATION_ERRORS = {
  expectedRequired: 'Enter the expected value',
  statusCode:
    'Expected status must be a whole number from 100 to 599, a class such as 2xx, or several of them: 200, 201',
  responseTime: 'Expected response time must be a whole number of milliseconds from 1 to 3600000',
  responseSize: 'Expected response size must be a whole number of bytes from 0 to 1000000000',
  jsonPath: 'A JSON path starts with $, optionally followed by == value, != value or ~ regex',
  regex: 'The text after ~ must be a valid regular expression',
  headerValue: 'Expected header must be written Name: value',
  schema: 'Expected schema must be a JSON Schema written as a JSON object',
  regexPattern: 'Expected value must be a valid regular expression',
  subject: 'Only contains_text, regex and equals rules read a subject other than the body',
  negate:
    'Only status_code, json_path, contains_text, header_value, regex, xpath and equals rules can be negated',
  pathRequired: 'A json subject needs a JSONPath and an xml subject an XPath: enter the path',
  pathRefused: 'Only a json or xml subject reads a path',
} as const;

/**
 * What a contains_text, regex or equals rule reads: the body, the header lines ("Name: value"), the
 * status, the first value a JSONPath finds in a JSON body (`json`), or the text of the first node an
 * XPath selects in an XML body (`xml`); `json` and `xml` name their query in the rule's `path`.
 */
export const VALIDATION_SUBJECTS = ['body', 'headers', 'status_code', 'json', 'xml'] as const;
export type ValidationSubject = (typeof VALIDATION_SUBJECTS)[number];
/** The types that read a subject. */
export const SUBJECT_VALIDATION_TYPES: readonly FunctionalValidationType[] = [
  'contains_text',
  'regex',
  'equals',
];
/** The subjects read through a query, written in the rule's `path`. */
export const PATH_SUBJECTS: readonly ValidationSubject[] = ['json', 'xml'];

/** The types whose check `negate` may turn round (Taurus's `not` and `invert`). */
export const NEGATABLE_VALIDATION_TYPES: readonly FunctionalValidationType[] = [
  'status_code',
  'json_path',
  'contains_text',
  'header_value',
  'regex',
  'xpath',
  'equals',
];

const MAX_EXPECTED = 8192;
/** A response schema with its $refs inlined can be large. */
const MAX_SCHEMA = 1_000_000;
const DIGITS = /^[0-9]{1,10}$/;
/**
 * A status class: `2xx` is any status from 200 to 299 (docs/call-core.md). A status rule expects a
 * status, a class, or several of them separated by commas (`200, 201`, `2xx, 304`), read in either case
 * and stored in lower case; every caller of the call core judges it alike (statusMatches in
 * packages/engine/src/call/judge.ts).
 */
export const STATUS_CLASS = /^[1-5]xx$/i;

function isStatusExpectation(value: string): boolean {
  return value
    .split(',')
    .map((option) => option.trim())
    .every((option) => wholeIn(option, 100, 599) || STATUS_CLASS.test(option));
}
/** `$.path`, `$.path == value`, `$.path != value`, `$.path ~ regex` (docs/design.md §9): after the path. */
const JSON_PATH_COMPARISON = /^\s+(==|!=|~)\s+(.*)$/s;

export interface JsonPathRule {
  path: string;
  operator: '==' | '!=' | '~' | null;
  value: string | null;
}

/**
 * A json_path expected value read into its parts, or null when it is not one. The path ends at the
 * first blank outside quotes and brackets, so a quoted key (`$['first name'] == Ada`), as a
 * performance plan's item may hold (perf-item-rules.ts), and a filter (`$.a[?(@.x == 'y')].z == 1`)
 * may hold one. A path whose brackets never close runs to the end and is refused where JSONPaths are
 * checked (jsonPathProblem, json-path-filter.ts).
 */
export function parseJsonPathRule(expected: string): JsonPathRule | null {
  const text = expected.trim();
  if (!text.startsWith('$')) return null;
  const end = pathEnd(text);
  const comparison = JSON_PATH_COMPARISON.exec(text.slice(end));
  if (end < text.length && comparison === null) return null;
  const operator = (comparison?.[1] ?? null) as JsonPathRule['operator'];
  return {
    path: text.slice(0, end),
    operator,
    value: operator === null ? null : (comparison?.[2] ?? ''),
  };
}

/** Where a path ends: its first blank outside quotes and brackets, else the text's end. */
function pathEnd(text: string): number {
  let quote: string | null = null;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote !== null) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '[' || c === '(') depth++;
    else if (c === ']' || c === ')') depth = Math.max(0, depth - 1);
    else if (depth === 0 && /\s/.test(c)) return i;
  }
  return text.length;
}

function wholeIn(text: string, min: number, max: number): boolean {
  if (!DIGITS.test(text)) return false;
  const n = Number(text);
  return n >= min && n <= max;
}

/**
 * Whether `source` reads as a regular expression (a regex rule's, a `~` comparison's, a regex capture's):
 * in RE2 syntax, or — for plans stored before patterns ran on RE2 — as a JavaScript RegExp. Whether RE2
 * can run it is a separate check, made where a plan is saved or run (pattern-problems.ts), so a stored
 * plan with a lookahead still opens and can be mended (docs/adr/0022-linear-time-patterns.md).
 */
export function isValidRegex(source: string): boolean {
  try {
    // JavaScript's compile first: it costs microseconds, and the model reads every stored plan.
    new RegExp(source);
    return true;
  } catch {
    return userPatternProblem(source) === undefined;
  }
}

/**
 * How strictly expectedValueProblem reads a pattern or a JSONPath: `new` (a form, a save) also refuses
 * what the linear-time engine cannot run and a JSONPath that cannot be judged (jsonPathProblem), in
 * their words; `stored` (the model reading any plan) only what is no regular expression or JSONPath
 * rule at all.
 */
export type PatternStrictness = 'new' | 'stored';

/** The problem of an expected value for its type, or undefined when it fits. Blank is checked before. */
export function expectedValueProblem(
  type: FunctionalValidationType,
  expected: string,
  patterns: PatternStrictness = 'new',
): string | undefined {
  const patternProblem = (source: string, invalid: string): string | undefined => {
    if (!isValidRegex(source)) return invalid;
    return patterns === 'new' ? userPatternProblem(source) : undefined;
  };
  const value = expected.trim();
  if (type !== 'schema' && expected.length > MAX_EXPECTED) {
    return `Expected value must be at most ${MAX_EXPECTED} characters`;
  }
  switch (type) {
    case 'status_code':
      return isStatusExpectation(value) ? undefined : VALIDATION_ERRORS.statusCode;
    case 'response_time':
      return wholeIn(value, 1, 3_600_000) ? undefined : VALIDATION_ERRORS.responseTime;
    case 'response_size':
      return wholeIn(value, 0, 1_000_000_000) ? undefined : VALIDATION_ERRORS.responseSize;
    case 'json_path': {
      const rule = parseJsonPathRule(value);
      if (!rule) return VALIDATION_ERRORS.jsonPath;
      // A stored plan with a path that cannot be judged still opens, to be mended; its rule fails when judged.
      const pathProblem = patterns === 'new' ? jsonPathProblem(rule.path) : undefined;
      if (pathProblem !== undefined) return pathProblem;
      return rule.operator === '~' ? patternProblem(rule.value ?? '', VALIDATION_ERRORS.regex) : undefined;
    }
    case 'header_value': {
      const colon = value.indexOf(':');
      return colon > 0 && HEADER_NAME.test(value.slice(0, colon).trim())
        ? undefined
        : VALIDATION_ERRORS.headerValue;
    }
    case 'schema': {
      if (expected.length > MAX_SCHEMA) return `Expected schema must be at most ${MAX_SCHEMA} characters`;
      try {
        const parsed: unknown = JSON.parse(value);
        return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
          ? undefined
          : VALIDATION_ERRORS.schema;
      } catch {
        return VALIDATION_ERRORS.schema;
      }
    }
    case 'regex':
      return patternProblem(expected, VALIDATION_ERRORS.regexPattern);
    case 'contains_text':
    case 'equals':
    case 'element_exists':
    case 'page_title':
    case 'xpath':
      return undefined;
  }
}

/**
 * A validation rule (docs/design.md §9). `id` is written as a string. `expected_value` is what the type
 * reads: a status (100–599), a status class (`2xx`) or several of them (`200, 201`), a time in ms or a size in bytes (both upper bounds), a JSONPath rule,
 * text to find, `Name: value`, or — for `schema` — a JSON Schema as JSON text with its $refs inlined
 * (the OpenAPI document's response schema for the status the call expects, written there by the importer).
 * Left out on a status_code rule it is 200. api_name, url and method are set on the script screen.
 * `regex` searches its subject for a regular expression; `xpath` passes when its XPath 1.0 query on an
 * XML body selects a node or is true; `equals` passes when its subject's text is exactly the expected
 * value (for a `json` subject, a JSON literal compares the value: docs/design.md §4 "JSON literals").
 * `negate` passes a rule when its check fails; `subject` says what contains_text, regex and equals read
 * (the body when left out), `path` the JSONPath or XPath of a `json` or `xml` subject. They are left out
 * unless set.
 */
export const FunctionalValidationSchema = z
  .object({
    id: z
      .union([z.string().max(100), z.number()])
      .transform(String)
      .optional(),
    name: oneLine('Validation name').trim().max(200).default(''),
    type: FunctionalValidationTypeSchema.default(DEFAULT_VALIDATION_TYPE),
    expected_value: z.string().max(MAX_SCHEMA).optional(),
    description: multiLine('Validation description').max(2000).default(''),
    enabled: z.boolean().default(true),
    api_name: multiLine('API name').trim().max(200).optional(),
    url: oneLine('URL').trim().max(8192).optional(),
    method: HttpMethodSchema.optional(),
    negate: z.boolean().optional(),
    subject: z
      .enum(VALIDATION_SUBJECTS, { error: () => `Subject must be one of ${VALIDATION_SUBJECTS.join(', ')}` })
      .optional(),
    path: oneLine('Path').trim().max(MAX_EXPECTED).optional(),
  })
  .transform(({ expected_value, ...rest }, ctx) => {
    if (rest.subject !== undefined && !SUBJECT_VALIDATION_TYPES.includes(rest.type)) {
      ctx.addIssue({ code: 'custom', path: ['subject'], message: VALIDATION_ERRORS.subject });
      return z.NEVER;
    }
    const readsPath = rest.subject !== undefined && PATH_SUBJECTS.includes(rest.subject);
    if (readsPath && (rest.path ?? '') === '') {
      ctx.addIssue({ code: 'custom', path: ['path'], message: VALIDATION_ERRORS.pathRequired });
      return z.NEVER;
    }
    if (!readsPath && rest.path !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['path'], message: VALIDATION_ERRORS.pathRefused });
      return z.NEVER;
    }
    if (rest.negate !== undefined && !NEGATABLE_VALIDATION_TYPES.includes(rest.type)) {
      ctx.addIssue({ code: 'custom', path: ['negate'], message: VALIDATION_ERRORS.negate });
      return z.NEVER;
    }
    const expected = expected_value ?? (rest.type === 'status_code' ? DEFAULT_EXPECTED_STATUS : undefined);
    if (expected === undefined || expected.trim() === '') {
      ctx.addIssue({ code: 'custom', path: ['expected_value'], message: VALIDATION_ERRORS.expectedRequired });
      return z.NEVER;
    }
    // A status with a {{variable}} (docs/adr/0029-postman-collections.md) is read when the run
    // expands it; a value that is then no status fails the rule, showing what it was.
    const templatedStatus =
      rest.type === 'status_code' &&
      tokenizeTemplate(expected, { freeNames: true }).some((part) => part.kind === 'variable');
    const problem = templatedStatus ? undefined : expectedValueProblem(rest.type, expected, 'stored');
    if (problem) {
      ctx.addIssue({ code: 'custom', path: ['expected_value'], message: problem });
      return z.NEVER;
    }
    // Text to find or compare and a pattern keep their spaces; every other type is read trimmed, a
    // status class in lower case.
    const kept =
      rest.type === 'contains_text' ||
      rest.type === 'page_title' ||
      rest.type === 'regex' ||
      rest.type === 'equals'
        ? expected
        : rest.type === 'status_code' && !templatedStatus
          ? expected.trim().toLowerCase()
          : expected.trim();
    return { ...rest, expected_value: kept };
  });
export type FunctionalValidation = z.infer<typeof FunctionalValidationSchema>;
export type FunctionalValidationInput = z.input<typeof FunctionalValidationSchema>;

/** The spec's default rule: status_code 200. A new object each call. */
export function defaultValidation(): FunctionalValidation {
  return {
    name: '',
    type: DEFAULT_VALIDATION_TYPE,
    expected_value: DEFAULT_EXPECTED_STATUS,
    description: '',
    enabled: true,
  };
}

/**
 * What an API call is judged by: its enabled rules, or status 200 when none is enabled (not for UI
 * pages) — unless test scripts judge it (`judgedByScripts`: a Postman request's tests that run as a
 * script, docs/adr/0029-postman-collections.md §3), as Newman adds no check of its own beside them,
 * or the plan turned the default off (`defaultRule` false: a plan's `default_status_rule`, off for an
 * imported Postman collection, where a request without tests only has to be answered).
 */
export function effectiveValidations(
  validations: readonly FunctionalValidation[],
  judgedByScripts = false,
  defaultRule = true,
): FunctionalValidation[] {
  const enabled = validations.filter((validation) => validation.enabled);
  return enabled.length === 0 && !judgedByScripts && defaultRule ? [defaultValidation()] : enabled;
}

/** One schema violation: where in the body (a JSON Pointer) and what is wrong there. */
export const SchemaViolationSchema = z.object({ path: z.string(), message: z.string() });
export type SchemaViolation = z.infer<typeof SchemaViolationSchema>;

/**
 * A judged rule (docs/design.md §9): `message` is for a person ("expected status 200, got 401").
 * `actual` is null when no response came back; a `schema` rule lists each violation by its path.
 */
export const ValidationDetailSchema = z.object({
  /** `script`: a Postman pm.test, or a script that failed to run (docs/adr/0029-postman-collections.md §3). */
  type: z.union([FunctionalValidationTypeSchema, z.literal('script')]),
  name: z.string().optional(),
  expected: z.string(),
  actual: z.string().nullable(),
  passed: z.boolean(),
  message: z.string(),
  /** The message as a code and parameters, for screens in another language; absent in older results. */
  message_phrase: PhraseSchema.optional(),
  violations: z.array(SchemaViolationSchema).optional(),
});
export type ValidationDetail = z.infer<typeof ValidationDetailSchema>;
