import { hasExtraction, perfAssertionRule, type UrlEntry } from '@aqa/plan';
import {
  bodyJson,
  bodyXml,
  compileEntryExtraction,
  compileRuleCheck,
  EntryCheckError,
  type AssertionReading,
} from '@aqa/engine/call';
import { notJsonReason, type Answer } from './answer-reading';

/*
 * The entry's own assertion (a rule of the one dialect: @aqa/plan perf-assertion-rule.ts) and extraction,
 * judged by the call core as a load run judges them (packages/engine/src/call/entry-checks.ts,
 * docs/call-core.md "A performance plan's assertion"); what stays here is Validate's wording of the
 * verdict, in the entry's own terms.
 */

export interface AssertionVerdict {
  passed: boolean;
  /** What was compared, in words: `$.id "41" equals "42"`. */
  message: string;
}

const clip = (text: string, max = 120): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** The entry's assertion judged against the response; undefined when the entry asserts nothing. */
export function judgeAssertion(entry: UrlEntry, answer: Answer): AssertionVerdict | undefined {
  // The entry's assertion as a rule of the one dialect (docs/call-core.md "A performance plan's assertion").
  const rule = perfAssertionRule(entry);
  if (rule === null) return undefined;
  let reading: AssertionReading;
  try {
    reading = compileRuleCheck(rule).read(answer.view);
  } catch (error) {
    if (error instanceof EntryCheckError) return failed(unrunnable(entry, error, answer));
    throw error;
  }
  const expected = entry.assertionValue;
  const operator = entry.assertionOperator.replace('_', ' ');
  const subject =
    entry.assertionType === 'status'
      ? 'status'
      : entry.assertionType === 'text'
        ? 'body'
        : entry.assertionPath.trim();
  let comparison: string;
  switch (reading.kind) {
    case 'not-json':
      return failed(notJsonReason(answer));
    case 'not-xml':
      return failed('The body is not XML');
    case 'failed':
      return failed(
        entry.assertionType === 'xml'
          ? `Invalid XPath ${entry.assertionPath.trim()}: ${reading.reason}`
          : `Invalid JSONPath ${entry.assertionPath}: ${reading.reason}`,
      );
    case 'literal':
      // docs/design.md §4 "JSON literals": "Ada" is the string Ada, 10 the number 10.
      comparison = `${subject} ${clip(reading.shown ?? 'nothing')} ${operator} ${clip(expected.trim())}`;
      break;
    case 'text':
      comparison = `${subject} ${JSON.stringify(clip(reading.actual))} ${operator} ${JSON.stringify(clip(expected))}`;
      break;
  }
  return {
    passed: reading.passed,
    message: reading.passed ? `Assertion passed: ${comparison}` : `Assertion failed: ${comparison} is false`,
  };
}

function failed(reason: string): AssertionVerdict {
  return { passed: false, message: `Assertion failed: ${reason[0]?.toLowerCase()}${reason.slice(1)}` };
}

/**
 * Why an assertion whose expression cannot run failed. A body that cannot be read as the assertion
 * reads it is said first, as it is when the expression runs.
 */
function unrunnable(entry: UrlEntry, error: EntryCheckError, answer: Answer): string {
  if (entry.assertionType === 'json' && bodyJson(answer.view) === null) return notJsonReason(answer);
  if (entry.assertionType === 'xml' && 'notXml' in bodyXml(answer.view)) return 'The body is not XML';
  switch (error.kind) {
    case 'regex':
      return `invalid regular expression ${JSON.stringify(entry.assertionValue)} (${error.message})`;
    case 'xpath':
      return `Invalid XPath ${error.source}: ${error.message}`;
    case 'json_path':
      return `Invalid JSONPath ${entry.assertionPath}: ${error.message}`;
  }
}

/**
 * The value the entry extracts from the response, or undefined when it extracts nothing or finds
 * nothing (the variable then keeps its earlier value, if any), as in a load run.
 */
export function extractValue(entry: UrlEntry, answer: Answer): string | undefined {
  if (!hasExtraction(entry)) return undefined;
  try {
    return compileEntryExtraction({ type: entry.extractType, expression: entry.extractValue })(answer.view);
  } catch (error) {
    // An expression that cannot run extracts nothing, as it would not start a load run.
    if (error instanceof EntryCheckError) return undefined;
    throw error;
  }
}
