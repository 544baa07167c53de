import {
  jsonValueEquals,
  readJsonExpectation,
  shownJsonValue,
  type ValidationCheckResult,
  type ValidationItem,
} from '@aqa/plan';
import { jsonValueText, statusMatches } from '@aqa/engine/call';
import { CheckError, firstJsonMatch, type Answer } from './answer-reading';

/**
 * How Validate judges each validation item (docs/reference/01-authoring.md §3 "Validation item"). The expected value is
 * trimmed; "PASS" is status "success", "FAIL" is "error".
 *
 *   status_code    "200" equals the status; "2xx" matches the class; "200, 201, 204" any of them.
 *   response_time  milliseconds ("500" or "500ms"): passes when the measured time is ≤ it.
 *   json_path      "$.user.id" passes when the path matches something (null counts);
 *                  "$.user.name = Ada" or "$.user.name == Ada" when the first match equals the value,
 *                  "$.user.name != Ada" when it does not. A value that is a JSON literal compares as
 *                  that value: "Ada" (or 'Ada') only with the string Ada, 10 with a number of that value
 *                  (10.0), true, false and null with that value; other text compares with the value's
 *                  text (docs/design.md §4 "JSON literals").
 *                  The operator is the first =, == or != outside brackets, parentheses and quotes,
 *                  so filters such as $.items[?(@.id==2)].name keep theirs. A leading $ may be left out.
 *   contains_text  passes when the body contains the text (case-sensitive).
 *   header_value   "Content-Type: application/json" passes when that header (name in any case) is
 *                  present and its value contains the text, ignoring case; "X-Request-Id" (a header
 *                  name alone) passes when the header is present; text that cannot be a header name
 *                  ("application/json") passes when any header's value contains it.
 *   response_size  bytes ("1024" or "1024 bytes"): passes when the body is at most that size.
 */
export function judgeValidationItem(
  item: ValidationItem,
  answer: Answer,
  responseTimeMs: number,
): ValidationCheckResult {
  const expected = item.expected_value.trim();
  const verdict = judge(item.type, expected, answer, responseTimeMs);
  return {
    id: item.id,
    name: item.name,
    type: item.type,
    expected_value: item.expected_value,
    actual_value: verdict.actual,
    status: verdict.status,
    message: verdict.message,
  };
}

interface Verdict {
  status: 'success' | 'error' | 'warning';
  actual: string | null;
  message: string;
}

const pass = (actual: string | null, message: string): Verdict => ({ status: 'success', actual, message });
const fail = (actual: string | null, message: string): Verdict => ({ status: 'error', actual, message });

function judge(type: ValidationItem['type'], expected: string, answer: Answer, timeMs: number): Verdict {
  switch (type) {
    case 'status_code':
      return judgeStatusCode(expected, answer.view.status);
    case 'response_time':
      return judgeResponseTime(expected, timeMs);
    case 'json_path':
      return judgeJsonPath(expected, answer);
    case 'contains_text':
      return judgeContainsText(expected, answer);
    case 'header_value':
      return judgeHeader(expected, answer);
    case 'response_size':
      return judgeResponseSize(expected, answer);
  }
}

function judgeStatusCode(expected: string, status: number): Verdict {
  const actual = String(status);
  const options = expected.split(',').map((o) => o.trim().toLowerCase());
  if (options.some((o) => !/^\d{3}$|^\dxx$/.test(o))) {
    return fail(actual, `Expected value "${expected}" is not a status code such as 200, 2xx or 200, 201`);
  }
  // One reading of statuses and status classes for every caller (docs/call-core.md "Status classes").
  const matches = statusMatches(expected, status);
  return matches
    ? pass(actual, `Status ${actual} is ${expected}`)
    : fail(actual, `Status ${actual} is not ${expected}`);
}

function judgeResponseTime(expected: string, timeMs: number): Verdict {
  const limit = /^(\d+(?:\.\d+)?)\s*(?:ms)?$/i.exec(expected)?.[1];
  const actual = String(timeMs);
  if (limit === undefined)
    return fail(actual, `Expected value "${expected}" is not a number of milliseconds`);
  return timeMs <= Number(limit)
    ? pass(actual, `Response time ${timeMs} ms is within ${limit} ms`)
    : fail(actual, `Response time ${timeMs} ms is over ${limit} ms`);
}

function judgeResponseSize(expected: string, answer: Answer): Verdict {
  const limit = /^(\d+)\s*(?:b|bytes?)?$/i.exec(expected)?.[1];
  const { sizeBytes, body } = answer.received;
  const actual = sizeBytes === null ? `more than ${body.length}` : String(sizeBytes);
  if (limit === undefined) return fail(actual, `Expected value "${expected}" is not a number of bytes`);
  const max = Number(limit);
  if (sizeBytes === null) {
    // Cut at the read limit with no Content-Length: the size is only known to exceed what was read.
    return body.length > max
      ? fail(actual, `Response size is more than ${body.length} bytes, over ${max} bytes`)
      : {
          status: 'warning',
          actual,
          message: `Response size is unknown: only the first ${body.length} bytes were read`,
        };
  }
  return sizeBytes <= max
    ? pass(actual, `Response size ${sizeBytes} bytes is within ${max} bytes`)
    : fail(actual, `Response size ${sizeBytes} bytes is over ${max} bytes`);
}

function judgeContainsText(expected: string, answer: Answer): Verdict {
  const at = answer.view.body.indexOf(expected);
  if (at >= 0) return pass(`found at character ${at}`, `The body contains "${expected}"`);
  const cut = answer.received.truncated
    ? ` (only the first ${answer.received.body.length} bytes were read)`
    : '';
  return fail('not found', `The body does not contain "${expected}"${cut}`);
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

function judgeHeader(expected: string, answer: Answer): Verdict {
  const headers = answer.view.headers;
  const colon = expected.indexOf(':');
  const name = (colon === -1 ? expected : expected.slice(0, colon)).trim();
  if (!HEADER_NAME.test(name)) {
    const wanted = expected.toLowerCase();
    const found = Object.entries(headers).find(([, value]) => value.toLowerCase().includes(wanted));
    return found
      ? pass(`${found[0]}: ${found[1]}`, `Header ${found[0]} has "${expected}"`)
      : fail(null, `No header has the value "${expected}"`);
  }
  const value = headers[name.toLowerCase()];
  if (colon === -1) {
    return value === undefined
      ? fail(null, `Header ${name} is missing`)
      : pass(value, `Header ${name} is present`);
  }
  const wanted = expected.slice(colon + 1).trim();
  if (value === undefined) return fail(null, `Header ${name} is missing`);
  return value.toLowerCase().includes(wanted.toLowerCase())
    ? pass(value, `Header ${name} has "${wanted}"`)
    : fail(value, `Header ${name} is "${value}", which does not contain "${wanted}"`);
}

type JsonOperator = '=' | '==' | '!=';

function judgeJsonPath(expected: string, answer: Answer): Verdict {
  const { path, operator, value } = splitJsonPathExpectation(expected);
  let first: unknown;
  try {
    first = firstJsonMatch(answer, path);
  } catch (error) {
    // "The body is not JSON" or "Invalid JSONPath …": either way the path cannot be judged.
    if (error instanceof CheckError) return fail(null, error.message);
    throw error;
  }
  // A JSON value is never undefined: undefined is no match (null is one).
  if (first === undefined) return fail(null, `${path} matches nothing`);
  if (operator === undefined) return pass(jsonValueText(first) ?? null, `${path} exists`);
  const expectation = readJsonExpectation(value);
  const actual = shownJsonValue(first, expectation) ?? null;
  const equal = jsonValueEquals(first, expectation);
  const holds = operator === '!=' ? !equal : equal;
  if (holds) return pass(actual, `${path} is ${actual ?? ''} (${operator} ${value})`);
  return operator === '!='
    ? fail(actual, `${path} is ${actual ?? ''}, which it must not be`)
    : fail(actual, `${path} is ${actual ?? ''}, not ${value}`);
}

/** Splits "path op value" at the first =, == or != outside brackets, parentheses and quotes. */
export function splitJsonPathExpectation(expected: string): {
  path: string;
  operator?: JsonOperator;
  value: string;
} {
  let depth = 0;
  let quote: string | undefined;
  for (let i = 0; i < expected.length; i++) {
    const c = expected[i];
    if (quote !== undefined) {
      if (c === '\\') i++;
      else if (c === quote) quote = undefined;
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === '[' || c === '(') depth++;
    else if (c === ']' || c === ')') depth = Math.max(0, depth - 1);
    else if (depth === 0 && (c === '=' || (c === '!' && expected[i + 1] === '='))) {
      const operator: JsonOperator = c === '!' ? '!=' : expected[i + 1] === '=' ? '==' : '=';
      return {
        path: expected.slice(0, i).trim(),
        operator,
        value: expected.slice(i + (operator === '=' ? 1 : 2)).trim(),
      };
    }
  }
  return { path: expected.trim(), value: '' };
}
