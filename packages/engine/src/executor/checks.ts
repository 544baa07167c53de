import { DOMParser } from '@xmldom/xmldom';
import * as xpath from 'xpath';
import {
  compileUserPattern,
  jsonValueEquals,
  readJsonExpectation,
  shownJsonValue,
  textExtractionBoundaries,
  UserPatternError,
  type UserPattern,
} from '@aqa/plan';
import { compileJsonPath as compileAnyJsonPath, jsonValueText, type JsonPathQuery } from '../call/json-path';
import { JsonPathFilterError } from '../call/json-path-filter';
import { bodyJson, bodyXml, type ReusedResponseView } from '../call/response-view';

/** The answer the checks read: the call core's view, one per user, reused (docs/call-core.md). */
type ResponseView = ReusedResponseView;

/** Why a check could not read the body, as the run's error sample words it. */
const NOT_JSON = 'response body is not JSON';
const NOT_XML = 'response body is not XML';

export type AssertionType = 'json' | 'text' | 'xml' | 'status';
export type AssertionOperator = 'equals' | 'contains' | 'regex' | 'not_equals';
export type ExtractType = 'text' | 'json' | 'regex' | 'xml';

export interface AssertionSpec {
  type: AssertionType;
  path: string;
  operator: AssertionOperator;
  expected: string;
}

export interface ExtractionSpec {
  type: ExtractType;
  name: string;
  expression: string;
}

/** Returns undefined when the assertion holds, else a message saying what was seen. */
export type CompiledAssertion = (r: ResponseView) => string | undefined;
/** Returns the extracted value, or undefined when nothing matched. */
export type CompiledExtraction = (r: ResponseView) => string | undefined;

/** Problems found while compiling a plan's checks (bad regex, bad XPath), reported before the run. */
export class PlanCheckError extends Error {}

/** A user pattern on the linear-time engine (docs/adr/0022-linear-time-patterns.md), or why it cannot run. */
function compileRegex(source: string, what: string): UserPattern {
  try {
    return compileUserPattern(source);
  } catch (cause) {
    if (!(cause instanceof UserPatternError)) throw cause;
    throw new PlanCheckError(
      cause.construct === undefined
        ? `${what}: invalid regular expression ${JSON.stringify(source)} (${cause.message})`
        : `${what}: ${cause.message}`,
      { cause },
    );
  }
}

function compileXPath(expr: string, what: string): (node: Node) => string | undefined {
  try {
    xpath.select(expr, new DOMParser().parseFromString('<x/>', 'text/xml') as unknown as Node);
  } catch (cause) {
    throw new PlanCheckError(`${what}: invalid XPath ${JSON.stringify(expr)}`, { cause });
  }
  return (node) => {
    const res = xpath.select(expr, node);
    if (Array.isArray(res)) {
      const first = res[0];
      if (!first) return undefined;
      return first.textContent ?? first.nodeValue ?? undefined;
    }
    return typeof res === 'object' && res !== null ? (res.textContent ?? undefined) : String(res);
  };
}

/** A JSONPath whose filters may run (json-path-filter.ts), or why not, as a plan problem. */
function compileJsonPath(path: string, what: string): JsonPathQuery {
  try {
    return compileAnyJsonPath(path);
  } catch (cause) {
    if (cause instanceof JsonPathFilterError)
      throw new PlanCheckError(`${what}: ${cause.message}`, { cause });
    throw cause;
  }
}

const clip = (s: string): string => (s.length > 120 ? `${s.slice(0, 117)}...` : s);

/**
 * Assertion semantics (docs/design.md §4, @aqa/plan step-rules.ts): the actual value is the status code
 * (status), the whole body (text), the first JSONPath match (json; strings as-is, other values as
 * JSON) or the text of the first XPath match (xml); a path with no match is compared as empty
 * text. equals / not_equals compare whole text, contains is a substring test, regex a search. On a json
 * assertion, equals / not_equals read an expected JSON literal ("ada", 10, true, null) as that value
 * (docs/design.md §4 "JSON literals", @aqa/plan json-expectation.ts).
 */
export function compileAssertion(spec: AssertionSpec, where: string): CompiledAssertion {
  const expected = spec.expected;
  const re = spec.operator === 'regex' ? compileRegex(expected, `${where} assertion`) : undefined;
  const compare = (actual: string): boolean => {
    switch (spec.operator) {
      case 'equals':
        return actual === expected;
      case 'not_equals':
        return actual !== expected;
      case 'contains':
        return actual.includes(expected);
      case 'regex':
        return re!.test(actual);
    }
  };
  const describe = (what: string, actual: string): string =>
    `assertion failed: ${what} ${JSON.stringify(clip(actual))} ${spec.operator.replace('_', ' ')} ${JSON.stringify(clip(expected))} is false`;

  switch (spec.type) {
    case 'status':
      return (r) => {
        const actual = String(r.status);
        return compare(actual) ? undefined : describe('status', actual);
      };
    case 'text':
      return (r) => (compare(r.body) ? undefined : describe('body', r.body));
    case 'json': {
      const query = compileJsonPath(spec.path, `${where} assertion`);
      const label = spec.path.trim() || '$';
      const literal =
        spec.operator === 'equals' || spec.operator === 'not_equals'
          ? readJsonExpectation(expected)
          : undefined;
      if (literal !== undefined && literal.kind !== 'text') {
        const holds = spec.operator === 'equals';
        const written = expected.trim();
        return (r) => {
          const read = bodyJson(r);
          if (read === null) return `assertion failed: ${NOT_JSON}`;
          let found: unknown;
          try {
            found = query(read.json);
          } catch (e) {
            return `assertion failed: ${(e as Error).message}`;
          }
          if (jsonValueEquals(found, literal) === holds) return undefined;
          // The value beside a literal is shown as JSON, so the string "7" and the number 7 read apart.
          const shown = clip(shownJsonValue(found, literal) ?? 'nothing');
          return `assertion failed: ${label} ${shown} ${spec.operator.replace('_', ' ')} ${clip(written)} is false`;
        };
      }
      return (r) => {
        const read = bodyJson(r);
        if (read === null) return `assertion failed: ${NOT_JSON}`;
        let actual: string;
        try {
          actual = jsonValueText(query(read.json)) ?? '';
        } catch (e) {
          return `assertion failed: ${(e as Error).message}`;
        }
        return compare(actual) ? undefined : describe(label, actual);
      };
    }
    case 'xml': {
      const select = compileXPath(spec.path.trim() || '/', `${where} assertion`);
      return (r) => {
        const read = bodyXml(r);
        if ('notXml' in read) return `assertion failed: ${NOT_XML}`;
        let actual: string;
        try {
          actual = select(read.document) ?? '';
        } catch (e) {
          return `assertion failed: ${(e as Error).message}`;
        }
        return compare(actual) ? undefined : describe(spec.path, actual);
      };
    }
  }
}

/**
 * Extraction semantics (docs/design.md §4, @aqa/plan step-rules.ts): json → first JSONPath match (strings
 * as-is, other values as JSON); regex → the first capture group of the first match (the whole match
 * when the expression has no group); xml → the text of the first XPath match; text → the text
 * between boundaries: "token=*;" takes what lies between `token=` and `;`, a value without `*`
 * takes the rest of the line after it, blank takes the whole body.
 */
export function compileExtraction(spec: ExtractionSpec, where: string): CompiledExtraction {
  switch (spec.type) {
    case 'json': {
      const query = compileJsonPath(spec.expression, `${where} extraction`);
      return (r) => {
        const read = bodyJson(r);
        if (read === null) return undefined;
        try {
          return jsonValueText(query(read.json));
        } catch {
          return undefined;
        }
      };
    }
    case 'xml': {
      const select = compileXPath(spec.expression, `${where} extraction`);
      return (r) => {
        const read = bodyXml(r);
        if ('notXml' in read) return undefined;
        try {
          return select(read.document);
        } catch {
          return undefined;
        }
      };
    }
    case 'text': {
      const b = textExtractionBoundaries(spec.expression);
      if (b.kind === 'whole-body') return (r) => r.body;
      return (r) => {
        const body = r.body;
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
    case 'regex': {
      const re = compileRegex(spec.expression, `${where} extraction`);
      return (r) => {
        const m = re.exec(r.body);
        if (!m) return undefined;
        return m.length > 1 ? m[1] : m[0];
      };
    }
  }
}
