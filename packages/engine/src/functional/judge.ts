import type { FunctionalValidation, ValidationDetail, ValidationSubject } from '@aqa/plan';
import {
  compileUserPattern,
  jsonValueEquals,
  parseJsonPathRule,
  readJsonExpectation,
  shownJsonValue,
  SCRIPT_VALIDATION_TYPES,
  UserPatternError,
  type JsonExpectation,
  type JsonPathRule,
  type UserPattern,
} from '@aqa/plan';
import { compileJsonPath, type JsonPathQuery } from '../executor/json-path';
import { JsonPathFilterError } from '../executor/json-path-filter';
import { bodyJson } from './body-readings';
import { evaluateXPath, xpathHolds, type XPathValue } from './xpath-rule';

/*
 * Judging one validation rule of a functional API test against what came back (docs/design.md §9):
 * every rule ends as { type, expected, actual, passed, message }, the message worded for a person
 * ("expected status 200, got 401"). The rule types and their expected values are the model's
 * (packages/plan/src/functional/validation.ts); the JSON schema rule and the UI rules are judged
 * elsewhere (by a schema validator and in the browser). A read Taurus script adds `regex` and `xpath`,
 * `negate` (the rule passes when its check fails) and `subject` (what contains_text and regex search)
 * (docs/reference/02-running.md §3 "Taurus scripts"). A check that cannot be made at all — a body that is
 * not JSON or not XML, a query that is not XPath — fails whether or not the rule is negated: a negated
 * rule says what must not be found, not that the answer may be unreadable.
 */

/** What the runner observed of one call; null response when nothing came back. */
export interface ObservedResponse {
  status: number;
  /** Lowercased names. */
  headers: Readonly<Record<string, string>>;
  /**
   * The header lines as received, `Name: value` with the sender's spelling of each name, one a line:
   * what a `headers` subject searches. Left out, the lines are written from `headers`.
   */
  headerLines?: string;
  /** The body as read (possibly only its start: see `sizeBytes`). */
  body: string;
  /** The body's full size in bytes. */
  sizeBytes: number;
  /** From sending the request to the last byte. */
  timeMs: number;
}

/** The rule types judged on an HTTP response: the API types but `schema` (schema-judge.ts), and a script's. */
const HTTP_VALIDATION_TYPES = [
  'status_code',
  'response_time',
  'json_path',
  'contains_text',
  'header_value',
  'response_size',
  ...SCRIPT_VALIDATION_TYPES,
] as const;
export type HttpValidationType = (typeof HTTP_VALIDATION_TYPES)[number];
const HTTP_TYPES: ReadonlySet<string> = new Set(HTTP_VALIDATION_TYPES);

export type HttpValidation = FunctionalValidation & { type: HttpValidationType };

/** How much of the body a message or `actual` quotes. */
const QUOTE_CHARS = 200;

export function isHttpValidation(validation: FunctionalValidation): validation is HttpValidation {
  return HTTP_TYPES.has(validation.type);
}

/**
 * Judges one rule. `failure` is the network-level reason when there is no response (a refused
 * connection, a time-out): every rule then fails and says so in its own terms.
 */
export function judge(
  validation: HttpValidation,
  response: ObservedResponse | null,
  failure = 'nothing came back',
): ValidationDetail {
  const expected = validation.expected_value;
  const detail = (passed: boolean, actual: string | null, message: string): ValidationDetail => ({
    type: validation.type,
    ...(validation.name === '' ? {} : { name: validation.name }),
    expected,
    actual,
    passed,
    message,
  });
  if (response === null) return detail(false, null, `${describeExpectation(validation)}, but ${failure}`);

  const negated = validation.negate === true;
  switch (validation.type) {
    case 'status_code': {
      const actual = String(response.status);
      if (negated) {
        return actual !== expected
          ? detail(true, actual, `status ${actual}, not ${expected}`)
          : detail(false, actual, `expected a status other than ${expected}, got ${actual}`);
      }
      return actual === expected
        ? detail(true, actual, `status ${actual} as expected`)
        : detail(false, actual, `expected status ${expected}, got ${actual}`);
    }
    case 'response_time': {
      const limit = Number(expected);
      const actual = `${response.timeMs} ms`;
      return response.timeMs <= limit
        ? detail(true, actual, `took ${actual}, within ${limit} ms`)
        : detail(false, actual, `expected at most ${limit} ms, took ${actual}`);
    }
    case 'response_size': {
      const limit = Number(expected);
      const actual = `${response.sizeBytes} bytes`;
      return response.sizeBytes <= limit
        ? detail(true, actual, `${actual}, within ${limit} bytes`)
        : detail(false, actual, `expected at most ${limit} bytes, got ${actual}`);
    }
    case 'contains_text':
    case 'regex':
      return judgeSearch(validation, response, detail);
    case 'header_value':
      return judgeHeader(expected, negated, response, detail);
    case 'json_path':
      return judgeJsonPath(validation, negated, response, detail);
    case 'xpath':
      return judgeXPath(expected, negated, response, detail);
  }
}

export type Detail = (passed: boolean, actual: string | null, message: string) => ValidationDetail;

/**
 * `Name: value` passes when the header's value equals the expected one, or is it followed by
 * parameters (`application/json; charset=utf-8` for `Content-Type: application/json`), as a person
 * writing a media type means. Negated, it passes when the header is absent or has another value.
 */
function judgeHeader(
  expected: string,
  negated: boolean,
  response: ObservedResponse,
  detail: Detail,
): ValidationDetail {
  const colon = expected.indexOf(':');
  const name = expected.slice(0, colon).trim();
  const want = expected.slice(colon + 1).trim();
  const actual = response.headers[name.toLowerCase()];
  if (actual === undefined) {
    return negated
      ? detail(true, null, `the response has no ${name} header, so it is not ${want}`)
      : detail(false, null, `expected header ${name}: ${want}, but the response has no ${name} header`);
  }
  const value = actual.trim();
  const matches = value === want || (value.startsWith(want) && /^\s*;/.test(value.slice(want.length)));
  if (negated) {
    return matches
      ? detail(false, value, `expected header ${name} not to be ${want}, but it is ${value}`)
      : detail(true, value, `header ${name} is ${value}, not ${want}`);
  }
  return matches
    ? detail(true, value, `header ${name} is ${value}`)
    : detail(false, value, `expected header ${name}: ${want}, got ${value}`);
}

/*
 * What judging a rule needs that its expected value alone decides (a json_path rule's parts and query,
 * a pattern) is made once per rule object: the runner judges the same rule objects on every call of a run.
 * Patterns run on the linear-time engine (docs/adr/0022-linear-time-patterns.md); one it cannot run, or a
 * JSONPath filter that may not run, was refused when the run started (functional-run.ts), and is judged
 * failed, in words, should a rule reach here all the same.
 */

type JsonPathCheck = JsonPathRule & {
  query: JsonPathQuery;
  pattern: UserPattern | null;
  /** What == and != compare with (docs/design.md §4 "JSON literals"); for ~ and a bare path, the text. */
  expectation: JsonExpectation;
};
const jsonPathChecks = new WeakMap<HttpValidation, JsonPathCheck | { problem: string } | null>();
const searchPatterns = new WeakMap<HttpValidation, UserPattern | { problem: string }>();

/** What cannot be run of a rule, in words; other errors are the runner's own. */
function problemOf(error: unknown): { problem: string } {
  if (error instanceof UserPatternError || error instanceof JsonPathFilterError)
    return { problem: error.message };
  throw error;
}

function jsonPathCheck(validation: HttpValidation): JsonPathCheck | { problem: string } | null {
  let check = jsonPathChecks.get(validation);
  if (check === undefined) {
    const rule = parseJsonPathRule(validation.expected_value);
    try {
      check =
        rule === null
          ? null
          : {
              ...rule,
              query: compileJsonPath(rule.path),
              pattern: rule.operator === '~' ? compileUserPattern(rule.value ?? '') : null,
              expectation:
                rule.operator === '==' || rule.operator === '!='
                  ? readJsonExpectation(rule.value ?? '')
                  : { kind: 'text', value: rule.value ?? '' },
            };
    } catch (error) {
      check = problemOf(error);
    }
    jsonPathChecks.set(validation, check);
  }
  return check;
}

function searchPattern(validation: HttpValidation): UserPattern | { problem: string } {
  let pattern = searchPatterns.get(validation);
  if (pattern === undefined) {
    try {
      pattern = compileUserPattern(validation.expected_value);
    } catch (error) {
      pattern = problemOf(error);
    }
    searchPatterns.set(validation, pattern);
  }
  return pattern;
}

/**
 * `$.path` must exist; `$.path == v` and `!= v` compare its value with v read as a JSON literal where it
 * is one ("ada", 10, true, null), else with its text form (docs/design.md §4 "JSON literals"); `~ regex`
 * searches its text form. Negated (Taurus's `invert`), the rule passes when the path is missing or the
 * comparison does not hold.
 */
function judgeJsonPath(
  validation: HttpValidation,
  negated: boolean,
  response: ObservedResponse,
  detail: Detail,
): ValidationDetail {
  const rule = jsonPathCheck(validation);
  // The model refuses any other shape; a rule read from an older store is judged as failed, in words.
  if (rule === null) return detail(false, null, `"${validation.expected_value}" is not a JSON path rule`);
  if ('problem' in rule)
    return detail(false, null, `${validation.expected_value} cannot be judged: ${rule.problem}`);
  const parsed = parseJsonBody(response, detail, `JSON to read ${rule.path}`);
  if (!('json' in parsed)) return parsed;
  const { json } = parsed;
  const foundValue = rule.query(json);
  const found = shownJsonValue(foundValue, rule.expectation);
  const { path } = rule;
  const value = rule.value ?? '';
  if (found === undefined) {
    return negated
      ? detail(true, null, `${path} is not in the body`)
      : detail(false, null, `expected ${path} in the body; it is not there`);
  }
  const actual = quote(found);
  const equal = jsonValueEquals(foundValue, rule.expectation);
  if (negated) {
    switch (rule.operator) {
      case null:
        return detail(false, actual, `expected ${path} not to be in the body, but it is ${actual}`);
      case '==':
        return equal
          ? detail(false, actual, `expected ${path} not to be ${value}, but it is`)
          : detail(true, actual, `${path} is ${actual}, not ${value}`);
      case '!=':
        return equal
          ? detail(true, actual, `${path} is ${actual} as expected`)
          : detail(false, actual, `expected ${path} == ${value} (a negated != rule), got ${actual}`);
      case '~':
        return rule.pattern!.test(found)
          ? detail(false, actual, `expected ${path} not to match /${value}/, but it is ${actual}`)
          : detail(true, actual, `${path} is ${actual}, not matching /${value}/`);
    }
  }
  switch (rule.operator) {
    case null:
      return detail(true, actual, `${path} is ${actual}`);
    case '==':
      return equal
        ? detail(true, actual, `${path} is ${actual} as expected`)
        : detail(false, actual, `expected ${path} == ${value}, got ${actual}`);
    case '!=':
      return !equal
        ? detail(true, actual, `${path} is ${actual}, not ${value}`)
        : detail(false, actual, `expected ${path} != ${value}, but it is`);
    case '~':
      return rule.pattern!.test(found)
        ? detail(true, actual, `${path} is ${actual}, matching /${value}/`)
        : detail(false, actual, `expected ${path} to match /${value}/, got ${actual}`);
  }
}

/**
 * contains_text (the text as written) and regex (a pattern in RE2 syntax, found anywhere) search
 * their subject: the body, the header lines `Name: value`, or the status code's digits.
 */
function judgeSearch(
  validation: HttpValidation,
  response: ObservedResponse,
  detail: Detail,
): ValidationDetail {
  const expected = validation.expected_value;
  const subject = validation.subject ?? 'body';
  const text = subjectText(subject, response);
  const pattern = validation.type === 'regex' ? searchPattern(validation) : null;
  if (pattern !== null && 'problem' in pattern) {
    return detail(false, null, `/${expected}/ cannot be judged: ${pattern.problem}`);
  }
  const found = pattern === null ? text.includes(expected) : pattern.test(text);
  const actual = quote(text);
  const what = SUBJECT_WORDS[subject];
  const verb = validation.type === 'regex' ? what.match : what.contain;
  const target = validation.type === 'regex' ? `/${expected}/` : `"${expected}"`;
  if (validation.negate === true) {
    return found
      ? detail(
          false,
          actual,
          `expected ${what.noun} not to ${verb.base} ${target}, but ${what.pronoun} ${verb.does}`,
        )
      : detail(true, actual, `${what.noun} ${verb.doesNot} ${verb.base} ${target}`);
  }
  return found
    ? detail(true, actual, `${what.noun} ${verb.third} ${target}`)
    : detail(
        false,
        actual,
        `expected ${what.noun} to ${verb.base} ${target}; ${what.pronoun} ${verb.doesNot}`,
      );
}

interface Verb {
  base: string;
  third: string;
  does: string;
  doesNot: string;
}
const singular = (base: string, third: string): Verb => ({ base, third, does: 'does', doesNot: 'does not' });
const plural = (base: string): Verb => ({ base, third: base, does: 'do', doesNot: 'do not' });

/** How a message names a subject, with its verbs agreeing ("the headers contain", "the body matches"). */
const SUBJECT_WORDS: Record<
  ValidationSubject,
  { noun: string; pronoun: string; contain: Verb; match: Verb }
> = {
  body: {
    noun: 'the body',
    pronoun: 'it',
    contain: singular('contain', 'contains'),
    match: singular('match', 'matches'),
  },
  headers: { noun: 'the headers', pronoun: 'they', contain: plural('contain'), match: plural('match') },
  status_code: {
    noun: 'the status code',
    pronoun: 'it',
    contain: singular('contain', 'contains'),
    match: singular('match', 'matches'),
  },
};

/** What a contains_text or regex rule searches. */
function subjectText(subject: ValidationSubject, response: ObservedResponse): string {
  switch (subject) {
    case 'body':
      return response.body;
    case 'status_code':
      return String(response.status);
    case 'headers':
      return (
        response.headerLines ??
        Object.entries(response.headers)
          .map(([name, value]) => `${name}: ${value}`)
          .join('\n')
      );
  }
}

/**
 * An XPath 1.0 query on the body read as XML passes when it selects a node, or its value is true, a
 * non-empty string or a number other than 0 (XPath's own boolean()). Negated, when it does not.
 */
function judgeXPath(
  expected: string,
  negated: boolean,
  response: ObservedResponse,
  detail: Detail,
): ValidationDetail {
  const result = evaluateXPath(expected, response);
  if ('problem' in result) {
    return result.problem === 'not-xml'
      ? detail(
          false,
          quote(response.body),
          `expected an XML body to evaluate ${expected}, but the body is not XML (${result.reason})`,
        )
      : detail(false, null, `"${expected}" is not an XPath 1.0 query (${result.reason})`);
  }
  const { value } = result;
  const holds = xpathHolds(value);
  const actual =
    value.kind === 'nodes' ? (value.first === null ? null : quote(value.first)) : quote(String(value.value));
  const seen = xpathSeen(value);
  if (negated) {
    return holds
      ? detail(false, actual, `expected ${expected} to select no node and not be true, but it ${seen}`)
      : detail(true, actual, `${expected} ${seen}`);
  }
  return holds
    ? detail(true, actual, `${expected} ${seen}`)
    : detail(false, actual, `expected ${expected} to select a node or be true; it ${seen}`);
}

/** What an XPath query gave, as a message continues "it …": "selects 2 nodes, the first "a"", "is false". */
function xpathSeen(value: XPathValue): string {
  switch (value.kind) {
    case 'nodes':
      if (value.first === null) return 'selects no node';
      return `selects ${value.count === 1 ? '1 node' : `${value.count} nodes`}, the first "${quote(value.first)}"`;
    case 'string':
      return value.value === '' ? 'is an empty string' : `is "${quote(value.value)}"`;
    case 'boolean':
    case 'number':
      return `is ${value.value}`;
  }
}

/** The first sentence of a failure, before what happened: "expected status 200". */
function describeExpectation(validation: HttpValidation): string {
  const expected = validation.expected_value;
  const not = validation.negate === true;
  switch (validation.type) {
    case 'status_code':
      return not ? `expected a status other than ${expected}` : `expected status ${expected}`;
    case 'response_time':
      return `expected an answer within ${expected} ms`;
    case 'response_size':
      return `expected at most ${expected} bytes`;
    case 'contains_text':
    case 'regex': {
      const what = SUBJECT_WORDS[validation.subject ?? 'body'];
      const verb = validation.type === 'regex' ? what.match : what.contain;
      const target = validation.type === 'regex' ? `/${expected}/` : `"${expected}"`;
      return `expected ${what.noun} ${not ? 'not ' : ''}to ${verb.base} ${target}`;
    }
    case 'header_value':
      return not ? `expected header ${expected} not to be sent` : `expected header ${expected}`;
    case 'json_path':
      return not ? `expected ${expected} not to hold in the body` : `expected ${expected} in the body`;
    case 'xpath':
      return not
        ? `expected ${expected} to select nothing in an XML body`
        : `expected ${expected} in an XML body`;
  }
}

/** A body or value as a detail quotes it: its first QUOTE_CHARS characters. */
export function quote(text: string): string {
  return text.length > QUOTE_CHARS ? `${text.slice(0, QUOTE_CHARS)}…` : text;
}

/**
 * The body read as JSON (once per call: body-readings.ts), or the failed detail "expected {what}, but
 * the body is not JSON" quoting it: a rule that reads JSON (a JSON path, a schema) says so alike.
 */
export function parseJsonBody(
  response: { body: string },
  detail: Detail,
  what: string,
): { json: unknown } | ValidationDetail {
  return (
    bodyJson(response) ?? detail(false, quote(response.body), `expected ${what}, but the body is not JSON`)
  );
}
