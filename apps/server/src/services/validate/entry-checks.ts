import {
  compileUserPattern,
  hasAssertion,
  hasExtraction,
  jsonValueEquals,
  readJsonExpectation,
  shownJsonValue,
  textExtractionBoundaries,
  UserPatternError,
  type UrlEntry,
  type UserPattern,
} from '@aqa/plan';
import { jsonValueText } from '@aqa/engine/call';
import { CheckError, firstJsonMatch, xpathText, type Answer } from './answer-reading';

/*
 * The entry's own assertion and extraction, with the semantics of docs/design.md §4 as @aqa/plan's step-rules.ts
 * writes them down (the engine and every generator follow the same text).
 */

export interface AssertionVerdict {
  passed: boolean;
  /** What was compared, in words: `$.id "41" equals "42"`. */
  message: string;
}

const clip = (text: string, max = 120): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** The entry's assertion judged against the response; undefined when the entry asserts nothing. */
export function judgeAssertion(entry: UrlEntry, answer: Answer): AssertionVerdict | undefined {
  if (!hasAssertion(entry)) return undefined;
  const expected = entry.assertionValue;
  const operator = entry.assertionOperator.replace('_', ' ');
  let subject: string;
  let actual: string;
  try {
    switch (entry.assertionType) {
      case 'status':
        subject = 'status';
        actual = String(answer.view.status);
        break;
      case 'text':
        subject = 'body';
        actual = answer.view.body;
        break;
      case 'json': {
        subject = entry.assertionPath.trim();
        const first = firstJsonMatch(answer, entry.assertionPath);
        const literal = jsonLiteral(entry);
        if (literal !== undefined) {
          // docs/design.md §4 "JSON literals": "Ada" is the string Ada, 10 the number 10.
          const passed = jsonValueEquals(first, literal) === (entry.assertionOperator === 'equals');
          const comparison = `${subject} ${clip(shownJsonValue(first, literal) ?? 'nothing')} ${operator} ${clip(expected.trim())}`;
          return {
            passed,
            message: passed ? `Assertion passed: ${comparison}` : `Assertion failed: ${comparison} is false`,
          };
        }
        // A path with no match is compared as empty text (step-rules.ts).
        actual = jsonValueText(first) ?? '';
        break;
      }
      case 'xml':
        subject = entry.assertionPath.trim();
        actual = xpathText(answer, entry.assertionPath.trim()) ?? '';
        break;
    }
  } catch (error) {
    if (error instanceof CheckError) {
      return {
        passed: false,
        message: `Assertion failed: ${error.message[0]?.toLowerCase()}${error.message.slice(1)}`,
      };
    }
    throw error;
  }
  let passed: boolean;
  switch (entry.assertionOperator) {
    case 'equals':
      passed = actual === expected;
      break;
    case 'not_equals':
      passed = actual !== expected;
      break;
    case 'contains':
      passed = actual.includes(expected);
      break;
    case 'regex': {
      // On the linear-time engine, as every user pattern (docs/adr/0022-linear-time-patterns.md).
      let pattern: UserPattern;
      try {
        pattern = compileUserPattern(expected);
      } catch (error) {
        if (!(error instanceof UserPatternError)) throw error;
        return {
          passed: false,
          message: `Assertion failed: invalid regular expression ${JSON.stringify(expected)} (${error.message})`,
        };
      }
      passed = pattern.test(actual);
      break;
    }
  }
  const comparison = `${subject} ${JSON.stringify(clip(actual))} ${operator} ${JSON.stringify(clip(expected))}`;
  return {
    passed,
    message: passed ? `Assertion passed: ${comparison}` : `Assertion failed: ${comparison} is false`,
  };
}

/** The JSON literal a json equals / not_equals assertion expects; undefined for bare text and other operators. */
function jsonLiteral(entry: UrlEntry) {
  if (entry.assertionOperator !== 'equals' && entry.assertionOperator !== 'not_equals') return undefined;
  const expectation = readJsonExpectation(entry.assertionValue);
  return expectation.kind === 'text' ? undefined : expectation;
}

/**
 * The value the entry extracts from the response, or undefined when it extracts nothing or finds
 * nothing (the variable then keeps its earlier value, if any).
 */
export function extractValue(entry: UrlEntry, answer: Answer): string | undefined {
  if (!hasExtraction(entry)) return undefined;
  const expression = entry.extractValue;
  try {
    switch (entry.extractType) {
      case 'json': {
        return jsonValueText(firstJsonMatch(answer, expression));
      }
      case 'xml':
        return xpathText(answer, expression.trim());
      case 'regex': {
        const match = compileUserPattern(expression).exec(answer.view.body);
        if (match === null) return undefined;
        return match.length > 1 ? match[1] : match[0];
      }
      case 'text':
        return extractText(answer.view.body, expression);
    }
  } catch {
    // A body that is not JSON/XML, or a bad expression, extracts nothing, as in a load run.
    return undefined;
  }
}

function extractText(body: string, expression: string): string | undefined {
  const boundaries = textExtractionBoundaries(expression);
  if (boundaries.kind === 'whole-body') return body;
  const at = body.indexOf(boundaries.left);
  if (at < 0) return undefined;
  const from = at + boundaries.left.length;
  if (boundaries.kind === 'between') {
    const to = boundaries.right === '' ? body.length : body.indexOf(boundaries.right, from);
    return to < 0 ? undefined : body.slice(from, to);
  }
  const lineEnd = body.slice(from).search(/\r?\n/);
  return lineEnd < 0 ? body.slice(from) : body.slice(from, from + lineEnd);
}
