import type {
  FunctionalValidation,
  InnerPhrase,
  PhraseCode,
  PhraseParam,
  Said,
  ValidationDetail,
  ValidationSubject,
} from '@aqa/plan';
import {
  compileUserPattern,
  innerPhrase,
  jsonValueEquals,
  said,
  parseJsonPathRule,
  readJsonExpectation,
  shownJsonValue,
  PATH_SUBJECTS,
  SCRIPT_VALIDATION_TYPES,
  UserPatternError,
  type JsonExpectation,
  type JsonPathRule,
  type UserPattern,
} from '@aqa/plan';
import { compileJsonPath, jsonValueText, type JsonPathQuery } from './json-path';
import { JsonPathFilterError } from './json-path-filter';
import { bodyJson, firstLine, type ResponseView } from './response-view';
import { evaluateXPath, xpathHolds, type XPathValue } from './xpath-rule';

/*
 * Judging one validation rule of a functional API test against what came back (docs/design.md §9):
 * every rule ends as { type, expected, actual, passed, message }, the message worded for a person
 * ("expected status 200, got 401") and kept beside it as a code and parameters (`message_phrase`), which
 * screens word in the user's language (docs/adr/0025-phrases.md). The rule types and their expected values are the model's
 * (packages/plan/src/functional/validation.ts); the JSON schema rule and the UI rules are judged
 * elsewhere (by a schema validator and in the browser). A read Taurus script adds `regex` and `xpath`,
 * `negate` (the rule passes when its check fails) and `subject` (what contains_text and regex search)
 * (docs/reference/02-running.md §3 "Taurus scripts"); a performance plan's assertion adds `equals` and
 * the `json` and `xml` subjects (docs/call-core.md "A performance plan's assertion"). A check that cannot be made at all — a body that is
 * not JSON or not XML, a query that is not XPath — fails whether or not the rule is negated: a negated
 * rule says what must not be found, not that the answer may be unreadable.
 */

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
 * connection, a time-out), as a phrase or in words: every rule then fails and says so in its own terms.
 */
export function judge(
  validation: HttpValidation,
  response: ResponseView | null,
  failure: InnerPhrase | string = innerPhrase('judge.nothingCame'),
): ValidationDetail {
  const expected = validation.expected_value;
  const detail: Detail = (passed, actual, message) => ({
    type: validation.type,
    ...(validation.name === '' ? {} : { name: validation.name }),
    expected,
    actual,
    passed,
    message: message.text,
    message_phrase: message.phrase,
  });
  if (response === null) {
    return detail(
      false,
      null,
      said('judge.noResponse', { expectation: describeExpectation(validation), failure }),
    );
  }

  const negated = validation.negate === true;
  switch (validation.type) {
    case 'status_code': {
      const actual = String(response.status);
      const matches = statusCheck(validation)(response.status);
      if (negated) {
        return !matches
          ? detail(true, actual, said('judge.status.notPassed', { actual, expected }))
          : detail(false, actual, said('judge.status.notFailed', { actual, expected }));
      }
      return matches
        ? detail(true, actual, said('judge.status.passed', { actual, expected }))
        : detail(false, actual, said('judge.status.failed', { actual, expected }));
    }
    case 'response_time': {
      const limit = Number(expected);
      const actual = `${response.timeMs} ms`;
      const params = { ms: response.timeMs, limit };
      return response.timeMs <= limit
        ? detail(true, actual, said('judge.time.passed', params))
        : detail(false, actual, said('judge.time.failed', params));
    }
    case 'response_size': {
      const limit = Number(expected);
      const actual = `${response.sizeBytes} bytes`;
      const params = { bytes: response.sizeBytes, limit };
      return response.sizeBytes <= limit
        ? detail(true, actual, said('judge.size.passed', params))
        : detail(false, actual, said('judge.size.failed', params));
    }
    case 'contains_text':
    case 'regex':
    case 'equals':
      return judgeSubject(validation, response, detail);
    case 'header_value':
      return judgeHeader(expected, negated, response, detail);
    case 'json_path':
      return judgeJsonPath(validation, negated, response, detail);
    case 'xpath':
      return judgeXPath(expected, negated, response, detail);
  }
}

export type Detail = (passed: boolean, actual: string | null, message: Said) => ValidationDetail;

/**
 * Whether a status is the one expected: `200` that status, `2xx` (any digit, either case) its class,
 * `200, 201` any of them (docs/call-core.md). The one reading of a status rule: Validate's status items
 * are read with it too.
 */
export function statusMatches(expected: string, status: number): boolean {
  return statusTest(expected)(status);
}

/** A status expectation read into a test of a status, once per rule (as the other rules' patterns are). */
export function statusTest(expected: string): (status: number) => boolean {
  const statuses = new Set<string>();
  const classes = new Set<number>();
  for (const option of expected.split(',')) {
    const want = option.trim().toLowerCase();
    if (/^\dxx$/.test(want)) classes.add(Number(want[0]));
    else statuses.add(want);
  }
  return (status) => statuses.has(String(status)) || classes.has(Math.trunc(status / 100));
}

const statusChecks = new WeakMap<HttpValidation, (status: number) => boolean>();

function statusCheck(validation: HttpValidation): (status: number) => boolean {
  let check = statusChecks.get(validation);
  if (check === undefined) {
    check = statusTest(validation.expected_value);
    statusChecks.set(validation, check);
  }
  return check;
}

/**
 * `Name: value` passes when the header's value equals the expected one, or is it followed by
 * parameters (`application/json; charset=utf-8` for `Content-Type: application/json`), as a person
 * writing a media type means. Negated, it passes when the header is absent or has another value.
 */
function judgeHeader(
  expected: string,
  negated: boolean,
  response: ResponseView,
  detail: Detail,
): ValidationDetail {
  const colon = expected.indexOf(':');
  const name = expected.slice(0, colon).trim();
  const want = expected.slice(colon + 1).trim();
  const actual = response.headers[name.toLowerCase()];
  if (actual === undefined) {
    return negated
      ? detail(true, null, said('judge.header.notMissing', { name, want }))
      : detail(false, null, said('judge.header.missing', { name, want }));
  }
  const value = actual.trim();
  const matches = value === want || (value.startsWith(want) && /^\s*;/.test(value.slice(want.length)));
  const params = { name, want, value };
  if (negated) {
    return matches
      ? detail(false, value, said('judge.header.notFailed', params))
      : detail(true, value, said('judge.header.notPassed', params));
  }
  return matches
    ? detail(true, value, said('judge.header.passed', params))
    : detail(false, value, said('judge.header.failed', params));
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
  return compiledOnce<JsonPathCheck | null>(jsonPathChecks, validation, () => {
    const rule = parseJsonPathRule(validation.expected_value);
    return rule === null
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
  });
}

/** What `compile` makes of a rule, made once per rule object; what cannot run, as its problem. */
function compiledOnce<T>(
  made: WeakMap<HttpValidation, T | { problem: string }>,
  validation: HttpValidation,
  compile: () => T,
): T | { problem: string } {
  let value = made.get(validation);
  if (value === undefined) {
    try {
      value = compile();
    } catch (error) {
      value = problemOf(error);
    }
    made.set(validation, value);
  }
  return value;
}

function searchPattern(validation: HttpValidation): UserPattern | { problem: string } {
  return compiledOnce(searchPatterns, validation, () => compileUserPattern(validation.expected_value));
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
  response: ResponseView,
  detail: Detail,
): ValidationDetail {
  const rule = jsonPathCheck(validation);
  // The model refuses any other shape; a rule read from an older store is judged as failed, in words.
  const expected = validation.expected_value;
  if (rule === null) return detail(false, null, said('judge.jsonPath.notARule', { expected }));
  if ('problem' in rule)
    return detail(false, null, said('judge.jsonPath.cannotJudge', { expected, problem: rule.problem }));
  const parsed = parseJsonBody(response, detail, said('judge.jsonPath.notJson', { path: rule.path }));
  if (!('json' in parsed)) return parsed;
  const { json } = parsed;
  let foundValue: unknown;
  try {
    foundValue = rule.query(json);
  } catch (error) {
    // A query the checks let through that throws all the same fails this rule, never the run.
    return detail(false, null, said('judge.jsonPath.cannotJudge', { expected, problem: firstLine(error) }));
  }
  const found = shownJsonValue(foundValue, rule.expectation);
  const { path } = rule;
  const value = rule.value ?? '';
  if (found === undefined) {
    return negated
      ? detail(true, null, said('judge.jsonPath.absent', { path }))
      : detail(false, null, said('judge.jsonPath.missing', { path }));
  }
  const actual = quote(found);
  const params = { path, actual, value };
  const equal = jsonValueEquals(foundValue, rule.expectation);
  if (negated) {
    switch (rule.operator) {
      case null:
        return detail(false, actual, said('judge.jsonPath.present', params));
      case '==':
        return equal
          ? detail(false, actual, said('judge.jsonPath.isFailed', params))
          : detail(true, actual, said('judge.jsonPath.isNot', params));
      case '!=':
        return equal
          ? detail(true, actual, said('judge.jsonPath.equals', params))
          : detail(false, actual, said('judge.jsonPath.negatedDiffersFailed', params));
      case '~':
        return rule.pattern!.test(found)
          ? detail(false, actual, said('judge.jsonPath.notMatchFailed', params))
          : detail(true, actual, said('judge.jsonPath.notMatches', params));
    }
  }
  switch (rule.operator) {
    case null:
      return detail(true, actual, said('judge.jsonPath.exists', params));
    case '==':
      return equal
        ? detail(true, actual, said('judge.jsonPath.equals', params))
        : detail(false, actual, said('judge.jsonPath.equalsFailed', params));
    case '!=':
      return !equal
        ? detail(true, actual, said('judge.jsonPath.isNot', params))
        : detail(false, actual, said('judge.jsonPath.differsFailed', params));
    case '~':
      return rule.pattern!.test(found)
        ? detail(true, actual, said('judge.jsonPath.matches', params))
        : detail(false, actual, said('judge.jsonPath.matchFailed', params));
  }
}

/**
 * contains_text (the text as written), regex (a pattern in RE2 syntax, found anywhere) and equals (the
 * whole text, exactly) read their subject: the body, the header lines `Name: value`, the status code's
 * digits, the first value a JSONPath finds (`json`; a string as it is, any other value as JSON) or the
 * text of the first node an XPath selects, or its value (`xml`). A path that matches nothing is the
 * empty text; equals on a `json` subject compares a JSON literal with the value found (docs/design.md
 * §4 "JSON literals").
 */
function judgeSubject(validation: HttpValidation, response: ResponseView, detail: Detail): ValidationDetail {
  const expected = validation.expected_value;
  const subject = validation.subject ?? 'body';
  const pattern = validation.type === 'regex' ? searchPattern(validation) : null;
  if (pattern !== null && 'problem' in pattern) {
    return detail(false, null, said('judge.regex.cannotJudge', { expected, problem: pattern.problem }));
  }
  const read = readSubject(validation, subject, response, detail);
  if (!('text' in read)) return read;
  const { text } = read;
  const negated = validation.negate === true;
  const params = subjectParams(subject, expected, validation.path);
  const verdict = (
    found: boolean,
    actual: string | null,
    verb: 'contains' | 'matches' | 'equals',
    shown: Record<string, PhraseParam>,
  ) => {
    const all = { ...params, ...shown };
    if (negated) {
      return found
        ? detail(false, actual, said(`judge.${verb}.notFailed`, all))
        : detail(true, actual, said(`judge.${verb}.notPassed`, all));
    }
    return found
      ? detail(true, actual, said(`judge.${verb}.passed`, all))
      : detail(false, actual, said(`judge.${verb}.failed`, all));
  };
  if (validation.type !== 'equals') {
    const found = pattern === null ? text.includes(expected) : pattern.test(text);
    return verdict(found, read.missing ? null : quote(text), pattern === null ? 'contains' : 'matches', {});
  }
  // A JSON literal compares the value found; anything else, its text.
  const expectation = subject === 'json' ? readJsonExpectation(expected) : null;
  const literal = expectation !== null && expectation.kind !== 'text';
  const found = literal ? jsonValueEquals(read.value, expectation) : text === expected;
  const actualText = literal ? (shownJsonValue(read.value, expectation) ?? '') : text;
  return verdict(found, read.missing ? null : quote(actualText), 'equals', {
    expected: literal ? expected.trim() : `"${quote(expected)}"`,
    actual: read.missing
      ? innerPhrase('subject.nothing')
      : literal
        ? quote(actualText)
        : `"${quote(actualText)}"`,
  });
}

/** A subject read: its text, the JSON value found (json), and whether its path matched nothing. */
type SubjectRead = { text: string; value?: unknown; missing: boolean };

const subjectQueries = new WeakMap<HttpValidation, JsonPathQuery | { problem: string }>();

function subjectQuery(validation: HttpValidation, path: string): JsonPathQuery | { problem: string } {
  return compiledOnce(subjectQueries, validation, () => compileJsonPath(path));
}

/**
 * What a contains_text, regex or equals rule reads, or the failed detail when it cannot be read (a body
 * that is not JSON or XML, a query that fails): such a rule fails whether or not it is negated.
 */
function readSubject(
  validation: HttpValidation,
  subject: ValidationSubject,
  response: ResponseView,
  detail: Detail,
): SubjectRead | ValidationDetail {
  const path = validation.path ?? '';
  switch (subject) {
    case 'body':
      return { text: response.body, missing: false };
    case 'status_code':
      return { text: String(response.status), missing: false };
    case 'headers':
      return { text: headerText(response), missing: false };
    case 'json': {
      const query = subjectQuery(validation, path);
      if ('problem' in query)
        return detail(
          false,
          null,
          said('judge.jsonPath.cannotJudge', { expected: path, problem: query.problem }),
        );
      const parsed = parseJsonBody(response, detail, said('judge.jsonPath.notJson', { path }));
      if (!('json' in parsed)) return parsed;
      let value: unknown;
      try {
        value = query(parsed.json);
      } catch (error) {
        return detail(
          false,
          null,
          said('judge.jsonPath.cannotJudge', { expected: path, problem: firstLine(error) }),
        );
      }
      const text = jsonValueText(value);
      return { text: text ?? '', value, missing: text === undefined };
    }
    case 'xml': {
      const result = evaluateXPath(path, response);
      if ('problem' in result) {
        const params = { expected: path, reason: result.reason };
        return result.problem === 'not-xml'
          ? detail(false, quote(response.body), said('judge.xpath.notXml', params))
          : detail(false, null, said('judge.xpath.notXPath', params));
      }
      const { value } = result;
      if (value.kind !== 'nodes') return { text: String(value.value), missing: false };
      return { text: value.first ?? '', missing: value.first === null };
    }
  }
}

/** How a message names a subject, with its verbs agreeing ("the headers contain", "the body matches"). */
function subjectParams(subject: ValidationSubject, expected: string, path = '') {
  return {
    subject: PATH_SUBJECTS.includes(subject)
      ? innerPhrase(`subject.${subject}`, { path })
      : innerPhrase(`subject.${subject}`),
    subjects: subject === 'headers' ? 2 : 1,
    expected,
  };
}

/** The header lines a headers subject reads. */
function headerText(response: ResponseView): string {
  return (
    response.headerLines ??
    Object.entries(response.headers)
      .map(([name, value]) => `${name}: ${value}`)
      .join('\n')
  );
}

/**
 * An XPath 1.0 query on the body read as XML passes when it selects a node, or its value is true, a
 * non-empty string or a number other than 0 (XPath's own boolean()). Negated, when it does not.
 */
function judgeXPath(
  expected: string,
  negated: boolean,
  response: ResponseView,
  detail: Detail,
): ValidationDetail {
  const result = evaluateXPath(expected, response);
  if ('problem' in result) {
    const params = { expected, reason: result.reason };
    return result.problem === 'not-xml'
      ? detail(false, quote(response.body), said('judge.xpath.notXml', params))
      : detail(false, null, said('judge.xpath.notXPath', params));
  }
  const { value } = result;
  const holds = xpathHolds(value);
  const actual =
    value.kind === 'nodes' ? (value.first === null ? null : quote(value.first)) : quote(String(value.value));
  const params = { expected, seen: xpathSeen(value) };
  if (negated) {
    return holds
      ? detail(false, actual, said('judge.xpath.notFailed', params))
      : detail(true, actual, said('judge.xpath.seen', params));
  }
  return holds
    ? detail(true, actual, said('judge.xpath.seen', params))
    : detail(false, actual, said('judge.xpath.failed', params));
}

/** What an XPath query gave, as a message continues "it …": "selects 2 nodes, the first "a"", "is false". */
function xpathSeen(value: XPathValue): InnerPhrase {
  switch (value.kind) {
    case 'nodes':
      if (value.first === null) return innerPhrase('xpath.selectsNone');
      return { code: 'xpath.selects', params: { count: value.count, first: quote(value.first) } };
    case 'string':
      return value.value === ''
        ? innerPhrase('xpath.emptyString')
        : { code: 'xpath.string', params: { value: quote(value.value) } };
    case 'boolean':
    case 'number':
      return { code: 'xpath.value', params: { value: String(value.value) } };
  }
}

/** The first sentence of a failure, before what happened: "expected status 200". */
function describeExpectation(validation: HttpValidation): InnerPhrase {
  const expected = validation.expected_value;
  const not = validation.negate === true;
  const inner = (code: PhraseCode, params: Record<string, string | number> = {}): InnerPhrase => ({
    code,
    params: { expected, ...params },
  });
  switch (validation.type) {
    case 'status_code':
      return inner(not ? 'expect.notStatus' : 'expect.status');
    case 'response_time':
      return inner('expect.time');
    case 'response_size':
      return inner('expect.size');
    case 'contains_text':
    case 'regex':
    case 'equals': {
      const subject = validation.subject ?? 'body';
      const verb =
        validation.type === 'regex' ? 'Matches' : validation.type === 'equals' ? 'Equals' : 'Contains';
      const code = (
        not ? `expect.not${verb}.${subject}` : `expect.${verb.toLowerCase()}.${subject}`
      ) as PhraseCode;
      return inner(code, PATH_SUBJECTS.includes(subject) ? { path: validation.path ?? '' } : {});
    }
    case 'header_value':
      return inner(not ? 'expect.notHeader' : 'expect.header');
    case 'json_path':
      return inner(not ? 'expect.notJsonPath' : 'expect.jsonPath');
    case 'xpath':
      return inner(not ? 'expect.notXpath' : 'expect.xpath');
  }
}

/** A body or value as a detail quotes it: its first QUOTE_CHARS characters. */
export function quote(text: string): string {
  return text.length > QUOTE_CHARS ? `${text.slice(0, QUOTE_CHARS)}…` : text;
}

/**
 * The body read as JSON (once per call: response-view.ts), or the failed detail "expected {what}, but
 * the body is not JSON" quoting it: a rule that reads JSON (a JSON path, a schema) says so alike.
 */
export function parseJsonBody(
  response: { body: string },
  detail: Detail,
  notJson: Said,
): { json: unknown } | ValidationDetail {
  return bodyJson(response) ?? detail(false, quote(response.body), notJson);
}
