import {
  headerItemParts,
  perfItemRule,
  splitJsonPathItem,
  type ValidationCheckResult,
  type ValidationDetail,
  type ValidationItem,
} from '@aqa/plan';
import { isHttpValidation, judge } from '@aqa/engine/call';
import { notJsonReason, type Answer } from './answer-reading';

/**
 * How Validate judges each validation item (docs/reference/01-authoring.md §3 "Validation item"): the
 * item is read as a rule of the call core's one dialect (`perfItemRule`, packages/plan
 * perf-item-rules.ts) and judged by the core's judge; what stays here is Validate's answer mapping, the
 * words of each verdict as Validate has always answered them, and its read limit (a size that is
 * unknown when the body was cut). The expected value is trimmed; "PASS" is status "success", "FAIL"
 * is "error".
 *
 *   status_code    "200" equals the status; "2xx" matches the class; "200, 201, 204" any of them.
 *   response_time  milliseconds ("500" or "500ms"): passes when the measured time is ≤ it.
 *   json_path      "$.user.id" passes when the path matches something (null counts);
 *                  "$.user.name = Ada" or "$.user.name == Ada" when the first match equals the value,
 *                  "$.user.name != Ada" when it does not (docs/design.md §4 "JSON literals").
 *                  The operator is the first =, == or != outside brackets, parentheses and quotes,
 *                  so filters such as $.items[?(@.id==2)].name keep theirs. A leading $ may be left out.
 *   contains_text  passes when the body contains the text (case-sensitive).
 *   header_value   "Content-Type: application/json" passes when that header (name in any case) is
 *                  present and its value contains the text, ignoring case; "X-Request-Id" (a header
 *                  name alone) passes when the header is present; text that cannot be a header name
 *                  ("application/json") passes when any header's value contains it.
 *   response_size  bytes ("1024" or "1024 bytes"): passes when the body is at most that size.
 */
export function judgeValidationItem(item: ValidationItem, answer: Answer): ValidationCheckResult {
  const expected = item.expected_value.trim();
  const rule = perfItemRule(item);
  const verdict =
    rule === null || !isHttpValidation(rule)
      ? notOfItsType(item.type, expected, answer)
      : words(item.type, expected, judgeRule(rule, answer), answer);
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
const verdict = (passed: boolean, actual: string | null, message: string): Verdict =>
  passed ? pass(actual, message) : fail(actual, message);

/** The core's verdict; a JSON path the engine cannot read at all is a verdict in words too. */
function judgeRule(
  rule: Parameters<typeof judge>[0],
  answer: Answer,
): ValidationDetail | { invalid: string } {
  try {
    return judge(rule, answer.view);
  } catch (error) {
    if (rule.type === 'json_path' && error instanceof Error) return { invalid: error.message };
    throw error;
  }
}

function notOfItsType(type: ValidationItem['type'], expected: string, answer: Answer): Verdict {
  switch (type) {
    case 'status_code':
      return fail(
        String(answer.view.status),
        `Expected value "${expected}" is not a status code such as 200, 2xx or 200, 201`,
      );
    case 'response_time':
      return fail(String(answer.view.timeMs), `Expected value "${expected}" is not a number of milliseconds`);
    default:
      return fail(sizeText(answer), `Expected value "${expected}" is not a number of bytes`);
  }
}

function sizeText({ received }: Answer): string {
  return received.sizeBytes === null ? `more than ${received.body.length}` : String(received.sizeBytes);
}

/** The core's verdict on an item in Validate's words. */
function words(
  type: ValidationItem['type'],
  expected: string,
  judged: ValidationDetail | { invalid: string },
  answer: Answer,
): Verdict {
  if ('invalid' in judged) {
    const { path } = splitJsonPathItem(expected);
    return fail(null, `Invalid JSONPath ${path}: ${judged.invalid}`);
  }
  const { passed } = judged;
  const { view, received } = answer;
  switch (type) {
    case 'status_code': {
      const actual = String(view.status);
      return verdict(passed, actual, `Status ${actual} is ${passed ? '' : 'not '}${expected}`);
    }
    case 'response_time': {
      const limit = judged.expected;
      return verdict(
        passed,
        String(view.timeMs),
        `Response time ${view.timeMs} ms is ${passed ? 'within' : 'over'} ${limit} ms`,
      );
    }
    case 'response_size': {
      const max = judged.expected;
      if (received.sizeBytes === null) {
        // Cut at the read limit with no Content-Length: the size is only known to exceed what was read.
        return passed
          ? {
              status: 'warning',
              actual: sizeText(answer),
              message: `Response size is unknown: only the first ${received.body.length} bytes were read`,
            }
          : fail(
              sizeText(answer),
              `Response size is more than ${received.body.length} bytes, over ${max} bytes`,
            );
      }
      return verdict(
        passed,
        sizeText(answer),
        `Response size ${received.sizeBytes} bytes is ${passed ? 'within' : 'over'} ${max} bytes`,
      );
    }
    case 'contains_text': {
      if (passed)
        return pass(`found at character ${view.body.indexOf(expected)}`, `The body contains "${expected}"`);
      const cut = received.truncated ? ` (only the first ${received.body.length} bytes were read)` : '';
      return fail('not found', `The body does not contain "${expected}"${cut}`);
    }
    case 'header_value':
      return headerWords(expected, passed, view.headers);
    case 'json_path':
      return jsonPathWords(expected, judged, answer);
  }
}

function headerWords(expected: string, passed: boolean, headers: Record<string, string>): Verdict {
  const { name, wanted } = headerItemParts(expected);
  if (name === null) {
    const lower = expected.toLowerCase();
    const found = Object.entries(headers).find(([, value]) => value.toLowerCase().includes(lower));
    return passed && found
      ? pass(`${found[0]}: ${found[1]}`, `Header ${found[0]} has "${expected}"`)
      : fail(null, `No header has the value "${expected}"`);
  }
  const value = headers[name.toLowerCase()];
  if (value === undefined) return fail(null, `Header ${name} is missing`);
  if (!expected.includes(':')) return pass(value, `Header ${name} is present`);
  return passed
    ? pass(value, `Header ${name} has "${wanted}"`)
    : fail(value, `Header ${name} is "${value}", which does not contain "${wanted}"`);
}

function jsonPathWords(expected: string, judged: ValidationDetail, answer: Answer): Verdict {
  const { path, operator, value } = splitJsonPathItem(expected);
  const code = judged.message_phrase?.code;
  const { actual, passed } = judged;
  switch (code) {
    case 'judge.jsonPath.notJson':
      return fail(null, notJsonReason(answer));
    case 'judge.jsonPath.cannotJudge': {
      const problem = judged.message_phrase?.params?.problem;
      return fail(null, `Invalid JSONPath ${path}${typeof problem === 'string' ? `: ${problem}` : ''}`);
    }
    case 'judge.jsonPath.notARule':
      return fail(null, `Invalid JSONPath ${path}`);
    case 'judge.jsonPath.missing':
      return fail(null, `${path} matches nothing`);
  }
  if (operator === undefined) return pass(actual, `${path} exists`);
  if (passed) return pass(actual, `${path} is ${actual ?? ''} (${operator} ${value})`);
  return operator === '!='
    ? fail(actual, `${path} is ${actual ?? ''}, which it must not be`)
    : fail(actual, `${path} is ${actual ?? ''}, not ${value}`);
}
