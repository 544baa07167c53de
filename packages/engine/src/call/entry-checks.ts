import { DOMParser } from '@xmldom/xmldom';
import * as xpath from 'xpath';
import {
  compileUserPattern,
  jsonValueEquals,
  readJsonExpectation,
  shownJsonValue,
  textExtractionBoundaries,
  UserPatternError,
  type FunctionalValidation,
  type JsonExpectation,
  type UrlEntry,
  type UserPattern,
} from '@aqa/plan';
import { compileJsonPath, jsonValueText, type JsonPathQuery } from './json-path';
import { JsonPathFilterError } from './json-path-filter';
import { bodyJson, firstLine } from './response-view';
import { statusTest } from './judge';
import { evaluateXPath } from './xpath-rule';

/*
 * A performance plan entry's own assertion, as a rule of the one dialect (@aqa/plan perf-assertion-rule.ts,
 * docs/call-core.md "A performance plan's assertion"), and its extraction (docs/design.md §4, as @aqa/plan's
 * step-rules.ts writes them down for every generator), compiled once for the load executor
 * (executor/compile.ts) and Validate (apps/server/src/services/validate/entry-checks.ts). What each caller
 * keeps is its wording: the load run's error sample, Validate's answer.
 *
 * `compileRuleCheck` compiles the rules an assertion becomes: a status_code rule, and equals,
 * contains_text or regex on the body, the status code, a JSON path (`json`) or an XPath (`xml`). It
 * judges them as judge.ts does, for the hot path: the value is the status code, the whole body, the
 * first JSONPath match (strings as-is, other values as JSON) or the text of the first XPath match; a path
 * with no match is compared as empty text. equals compares whole text, contains_text is a substring
 * test, regex a search on the linear-time engine (docs/adr/0022-linear-time-patterns.md); on a json
 * subject, equals reads an expected JSON literal ("ada", 10, true, null) as that value (docs/design.md §4
 * "JSON literals", @aqa/plan json-expectation.ts). A body that is not JSON or XML, or a query that
 * fails, fails the rule whether or not it is negated.
 */

/** The plan model's own kind (@aqa/plan perf-plan.ts EXTRACT_TYPES). */
export type ExtractType = UrlEntry['extractType'];

export interface ExtractionSpec {
  type: ExtractType;
  expression: string;
}

/** An expression of a check that cannot run: a pattern, an XPath or a JSONPath filter; `cause` says why. */
export class EntryCheckError extends Error {
  override name = 'EntryCheckError';
  constructor(
    readonly kind: 'regex' | 'xpath' | 'json_path',
    /** The expression as written. */
    readonly source: string,
    override readonly cause: Error,
  ) {
    super(cause.message, { cause });
  }
}

/**
 * What a rule compared, for a message: the text it compared (`text`), or, for a JSON literal, the value
 * found shown as JSON (`literal`, undefined when the path matched nothing); or why it could not look at
 * all. `passed` is the rule's verdict, its negation applied.
 */
export type AssertionReading =
  | { kind: 'text'; passed: boolean; actual: string }
  | { kind: 'literal'; passed: boolean; shown: string | undefined }
  | { kind: 'not-json' }
  | { kind: 'not-xml' }
  /** The query failed on this answer; `reason` in words. */
  | { kind: 'failed'; reason: string };

/** What a compiled rule reads of an answer. */
export interface CheckedAnswer {
  status: number;
  body: string;
}

export interface CompiledRuleCheck {
  /**
   * The verdict alone: the load executor's hot path, which allocates nothing beyond the body's one
   * reading on a plain JSON path (docs/performance.md).
   */
  readonly holds: (answer: CheckedAnswer) => boolean;
  /** The verdict with what was compared, for the message of a failure or of Validate's answer. */
  readonly read: (answer: CheckedAnswer) => AssertionReading;
}

const NOT_JSON: AssertionReading = Object.freeze({ kind: 'not-json' });
const NOT_XML: AssertionReading = Object.freeze({ kind: 'not-xml' });

/** Why a value could not be read; a read value is its text. */
type Read = string | AssertionReading;

/**
 * Compiles a rule once; throws EntryCheckError for an expression that cannot run. Each kind of subject
 * has its own `holds`, and one comparison serves every type, so that the load executor's calls stay
 * monomorphic on its hot path (docs/call-core.md "The load executor's hot path, measured").
 */
export function compileRuleCheck(rule: FunctionalValidation): CompiledRuleCheck {
  const negated = rule.negate === true;
  if (rule.type === 'status_code') {
    const matches = statusTest(rule.expected_value);
    return {
      holds: (answer) => matches(answer.status) !== negated,
      read: (answer) => ({
        kind: 'text',
        passed: matches(answer.status) !== negated,
        actual: String(answer.status),
      }),
    };
  }
  if (rule.type !== 'equals' && rule.type !== 'contains_text' && rule.type !== 'regex') {
    throw new Error(`A ${rule.type} rule is judged by judge(), not compiled as an entry's assertion`);
  }
  const expected = rule.expected_value;
  const subject = rule.subject ?? 'body';
  switch (subject) {
    case 'status_code': {
      const compare = comparison(rule.type, expected, negated);
      const value = (answer: CheckedAnswer): string => String(answer.status);
      return { holds: (answer) => compare(value(answer)), read: reading(compare, value) };
    }
    case 'body': {
      const compare = comparison(rule.type, expected, negated);
      const value = (answer: CheckedAnswer): string => answer.body;
      return { holds: (answer) => compare(answer.body), read: reading(compare, value) };
    }
    case 'json': {
      const query = jsonPathQuery(rule.path ?? '');
      const literal = rule.type === 'equals' ? readJsonExpectation(expected) : undefined;
      if (literal !== undefined && literal.kind !== 'text') return literalCheck(query, literal, !negated);
      const compare = comparison(rule.type, expected, negated);
      return {
        holds: (answer) => {
          const read = bodyJson(answer);
          if (read === null) return false;
          try {
            return compare(jsonValueText(query(read.json)) ?? '');
          } catch {
            return false;
          }
        },
        read: reading(compare, (answer) => jsonText(query, answer)),
      };
    }
    case 'xml': {
      const expression = (rule.path ?? '').trim() || '/';
      checkXPath(expression);
      const compare = comparison(rule.type, expected, negated);
      const value = (answer: CheckedAnswer): Read => xpathText(expression, answer) ?? '';
      return {
        holds: (answer) => {
          const actual = value(answer);
          return typeof actual === 'string' && compare(actual);
        },
        read: reading(compare, value),
      };
    }
    case 'headers':
      throw new Error('A rule on the headers is judged by judge(), not compiled as an entry assertion');
  }
}

/** What a text comparison read, for a message. */
function reading(
  compare: (actual: string) => boolean,
  value: (answer: CheckedAnswer) => Read,
): CompiledRuleCheck['read'] {
  return (answer) => {
    const actual = value(answer);
    return typeof actual === 'string' ? { kind: 'text', passed: compare(actual), actual } : actual;
  };
}

/** An equals rule with a JSON literal: `equal` false for a negated one. */
function literalCheck(query: JsonPathQuery, literal: JsonExpectation, equal: boolean): CompiledRuleCheck {
  return {
    holds: (answer) => {
      const read = bodyJson(answer);
      if (read === null) return false;
      try {
        return jsonValueEquals(query(read.json), literal) === equal;
      } catch {
        return false;
      }
    },
    read: (answer) => {
      const read = bodyJson(answer);
      if (read === null) return NOT_JSON;
      let found: unknown;
      try {
        found = query(read.json);
      } catch (error) {
        return { kind: 'failed', reason: (error as Error).message };
      }
      return {
        kind: 'literal',
        passed: jsonValueEquals(found, literal) === equal,
        shown: shownJsonValue(found, literal),
      };
    },
  };
}

/** One comparison for every type (one function, whichever the type), its negation applied. */
function comparison(
  type: 'equals' | 'contains_text' | 'regex',
  expected: string,
  negated: boolean,
): (actual: string) => boolean {
  const pattern = type === 'regex' ? userPattern(expected) : null;
  return (actual) => {
    switch (type) {
      case 'equals':
        return (actual === expected) !== negated;
      case 'contains_text':
        return actual.includes(expected) !== negated;
      case 'regex':
        return pattern!.test(actual) !== negated;
    }
  };
}

function jsonText(query: JsonPathQuery, answer: CheckedAnswer): Read {
  const read = bodyJson(answer);
  if (read === null) return NOT_JSON;
  try {
    return jsonValueText(query(read.json)) ?? '';
  } catch (error) {
    return { kind: 'failed', reason: (error as Error).message };
  }
}

/** The text of the first node the XPath selects (undefined when none), or its value. */
function xpathText(expression: string, answer: { body: string }): Read | undefined {
  const outcome = evaluateXPath(expression, answer);
  if ('problem' in outcome)
    return outcome.problem === 'not-xml' ? NOT_XML : { kind: 'failed', reason: outcome.reason };
  const { value } = outcome;
  return value.kind === 'nodes' ? (value.first ?? undefined) : String(value.value);
}

/**
 * Extraction (docs/design.md §4, @aqa/plan step-rules.ts): json → the first JSONPath match (strings
 * as-is, other values as JSON); regex → the first capture group of the first match (the whole match
 * when the expression has no group); xml → the text of the first XPath match; text → the text
 * between boundaries: "token=*;" takes what lies between `token=` and `;`, a value without `*`
 * takes the rest of the line after it, blank takes the whole body. Nothing found, or a body that is
 * not JSON or XML, extracts nothing (undefined): the variable keeps its earlier value.
 */
export type CompiledExtraction = (answer: { body: string }) => string | undefined;

/** Compiles an entry's extraction once; throws EntryCheckError for an expression that cannot run. */
export function compileExtraction(spec: ExtractionSpec): CompiledExtraction {
  switch (spec.type) {
    case 'json': {
      const query = jsonPathQuery(spec.expression);
      return (answer) => {
        const read = bodyJson(answer);
        if (read === null) return undefined;
        try {
          return jsonValueText(query(read.json));
        } catch {
          return undefined;
        }
      };
    }
    case 'xml': {
      const expression = spec.expression.trim();
      checkXPath(expression);
      return (answer) => {
        const read = xpathText(expression, answer);
        return typeof read === 'string' ? read : undefined;
      };
    }
    case 'text':
      return textExtraction(spec.expression);
    case 'regex': {
      const pattern = userPattern(spec.expression);
      return (answer) => {
        const match = pattern.exec(answer.body);
        if (!match) return undefined;
        return match.length > 1 ? match[1] : match[0];
      };
    }
  }
}

function textExtraction(expression: string): CompiledExtraction {
  const b = textExtractionBoundaries(expression);
  if (b.kind === 'whole-body') return (answer) => answer.body;
  return ({ body }) => {
    const at = body.indexOf(b.left);
    if (at < 0) return undefined;
    const from = at + b.left.length;
    if (b.kind === 'between') {
      const to = b.right === '' ? body.length : body.indexOf(b.right, from);
      return to < 0 ? undefined : body.slice(from, to);
    }
    const eol = body.slice(from).search(/\r?\n/);
    return eol < 0 ? body.slice(from) : body.slice(from, from + eol);
  };
}

function userPattern(source: string): UserPattern {
  try {
    return compileUserPattern(source);
  } catch (cause) {
    if (cause instanceof UserPatternError) throw new EntryCheckError('regex', source, cause);
    throw cause;
  }
}

/** A JSONPath whose filters may run (json-path-filter.ts). */
function jsonPathQuery(path: string): JsonPathQuery {
  try {
    return compileJsonPath(path);
  } catch (cause) {
    if (cause instanceof JsonPathFilterError) throw new EntryCheckError('json_path', path, cause);
    throw cause;
  }
}

/** An XPath is refused before any answer when it does not compile. */
function checkXPath(expression: string): void {
  try {
    xpath.select(expression, new DOMParser().parseFromString('<x/>', 'text/xml') as unknown as Node);
  } catch (cause) {
    throw new EntryCheckError('xpath', expression, new Error(firstLine(cause), { cause }));
  }
}
