import type { FunctionalValidation, ValidationDetail } from '@aqa/plan';
import { parseJsonPathRule } from '@aqa/plan';
import { compileJsonPath, jsonValueText } from '../executor/json-path';

/*
 * Judging one validation rule of a functional API test against what came back (docs/design.md §9):
 * every rule ends as { type, expected, actual, passed, message }, the message worded for a person
 * ("expected status 200, got 401"). The rule types and their expected values are the model's
 * (packages/plan/src/functional/validation.ts); the JSON schema rule and the UI rules are judged
 * elsewhere (by a schema validator and in the browser).
 */

/** What the runner observed of one call; null response when nothing came back. */
export interface ObservedResponse {
  status: number;
  /** Lowercased names. */
  headers: Readonly<Record<string, string>>;
  /** The body as read (possibly only its start: see `sizeBytes`). */
  body: string;
  /** The body's full size in bytes. */
  sizeBytes: number;
  /** From sending the request to the last byte. */
  timeMs: number;
}

/** The rule types judged on an HTTP response. */
export type HttpValidationType =
  'status_code' | 'response_time' | 'json_path' | 'contains_text' | 'header_value' | 'response_size';

export type HttpValidation = FunctionalValidation & { type: HttpValidationType };

/** How much of the body a message or `actual` quotes. */
const QUOTE_CHARS = 200;

export function isHttpValidation(validation: FunctionalValidation): validation is HttpValidation {
  return [
    'status_code',
    'response_time',
    'json_path',
    'contains_text',
    'header_value',
    'response_size',
  ].includes(validation.type);
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

  switch (validation.type) {
    case 'status_code': {
      const actual = String(response.status);
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
    case 'contains_text': {
      const found = response.body.includes(expected);
      const actual = quote(response.body);
      return found
        ? detail(true, actual, `the body contains "${expected}"`)
        : detail(false, actual, `expected the body to contain "${expected}"; it does not`);
    }
    case 'header_value':
      return judgeHeader(expected, response, detail);
    case 'json_path':
      return judgeJsonPath(expected, response, detail);
  }
}

export type Detail = (passed: boolean, actual: string | null, message: string) => ValidationDetail;

/**
 * `Name: value` passes when the header's value equals the expected one, or is it followed by
 * parameters (`application/json; charset=utf-8` for `Content-Type: application/json`), as a person
 * writing a media type means.
 */
function judgeHeader(expected: string, response: ObservedResponse, detail: Detail): ValidationDetail {
  const colon = expected.indexOf(':');
  const name = expected.slice(0, colon).trim();
  const want = expected.slice(colon + 1).trim();
  const actual = response.headers[name.toLowerCase()];
  if (actual === undefined) {
    return detail(false, null, `expected header ${name}: ${want}, but the response has no ${name} header`);
  }
  const value = actual.trim();
  const passed = value === want || (value.startsWith(want) && /^\s*;/.test(value.slice(want.length)));
  return passed
    ? detail(true, value, `header ${name} is ${value}`)
    : detail(false, value, `expected header ${name}: ${want}, got ${value}`);
}

/** `$.path` must exist; `$.path == v`, `!= v` and `~ regex` compare its text form. */
function judgeJsonPath(expected: string, response: ObservedResponse, detail: Detail): ValidationDetail {
  const rule = parseJsonPathRule(expected);
  // The model refuses any other shape; a rule read from an older store is judged as failed, in words.
  if (rule === null) return detail(false, null, `"${expected}" is not a JSON path rule`);
  const parsed = parseJsonBody(response.body, detail, `JSON to read ${rule.path}`);
  if (!('json' in parsed)) return parsed;
  const { json } = parsed;
  const found = jsonValueText(compileJsonPath(rule.path)(json));
  if (found === undefined) return detail(false, null, `expected ${rule.path} in the body; it is not there`);
  const actual = quote(found);
  switch (rule.operator) {
    case null:
      return detail(true, actual, `${rule.path} is ${actual}`);
    case '==':
      return found === rule.value
        ? detail(true, actual, `${rule.path} is ${actual} as expected`)
        : detail(false, actual, `expected ${rule.path} == ${rule.value ?? ''}, got ${actual}`);
    case '!=':
      return found !== rule.value
        ? detail(true, actual, `${rule.path} is ${actual}, not ${rule.value ?? ''}`)
        : detail(false, actual, `expected ${rule.path} != ${rule.value ?? ''}, but it is`);
    case '~':
      return new RegExp(rule.value ?? '').test(found)
        ? detail(true, actual, `${rule.path} is ${actual}, matching /${rule.value ?? ''}/`)
        : detail(false, actual, `expected ${rule.path} to match /${rule.value ?? ''}/, got ${actual}`);
  }
}

/** The first sentence of a failure, before what happened: "expected status 200". */
function describeExpectation(validation: HttpValidation): string {
  const expected = validation.expected_value;
  switch (validation.type) {
    case 'status_code':
      return `expected status ${expected}`;
    case 'response_time':
      return `expected an answer within ${expected} ms`;
    case 'response_size':
      return `expected at most ${expected} bytes`;
    case 'contains_text':
      return `expected the body to contain "${expected}"`;
    case 'header_value':
      return `expected header ${expected}`;
    case 'json_path':
      return `expected ${expected} in the body`;
  }
}

/** A body or value as a detail quotes it: its first QUOTE_CHARS characters. */
export function quote(text: string): string {
  return text.length > QUOTE_CHARS ? `${text.slice(0, QUOTE_CHARS)}…` : text;
}

/**
 * The body read as JSON, or the failed detail "expected {what}, but the body is not JSON" quoting
 * it: a rule that reads JSON (a JSON path, a schema) says so alike.
 */
export function parseJsonBody(
  body: string,
  detail: Detail,
  what: string,
): { json: unknown } | ValidationDetail {
  try {
    return { json: JSON.parse(body) as unknown };
  } catch {
    return detail(false, quote(body), `expected ${what}, but the body is not JSON`);
  }
}
