import type { FunctionalValidation } from './functional/validation';
import type { UrlEntry } from './perf-plan';
import { hasAssertion } from './step-rules';

/*
 * A performance plan entry's own assertion (docs/design.md §4: a type, an operator, a path, an expected
 * value) as one rule of the call core's one dialect, the functional rule set
 * (packages/plan/src/functional/validation.ts, docs/call-core.md "A performance plan's assertion"). The
 * stored entry keeps its own fields; this is the one place they are read as a rule, so a plan saved
 * before is judged the same by the load executor, Validate and a functional run of the converted plan.
 *
 *   equals → equals, not_equals → equals negated, contains → contains_text, regex → regex;
 *   status → the status code (its expected value trimmed; a single status compared whole is a
 *   status_code rule, which judges alike), text → the body, json → the first value the JSONPath finds,
 *   xml → the text of the first node the XPath selects.
 */

const WHOLE_STATUS = /^[1-5]\d\d$/;

/** The entry's assertion as a rule, or null when the entry asserts nothing (step-rules.ts hasAssertion). */
export function perfAssertionRule(
  entry: Pick<UrlEntry, 'assertionType' | 'assertionOperator' | 'assertionPath' | 'assertionValue'>,
): FunctionalValidation | null {
  if (!hasAssertion(entry)) return null;
  const operator = entry.assertionOperator;
  const base = {
    name: '',
    description: '',
    enabled: true,
    ...(operator === 'not_equals' ? { negate: true } : {}),
  };
  const type = operator === 'contains' ? 'contains_text' : operator === 'regex' ? 'regex' : 'equals';
  switch (entry.assertionType) {
    case 'status': {
      const expected = entry.assertionValue.trim();
      if (type === 'equals' && WHOLE_STATUS.test(expected))
        return { ...base, type: 'status_code', expected_value: expected };
      return { ...base, type, subject: 'status_code', expected_value: expected };
    }
    case 'text':
      return { ...base, type, expected_value: entry.assertionValue };
    case 'json':
      return {
        ...base,
        type,
        subject: 'json',
        path: entry.assertionPath.trim(),
        expected_value: entry.assertionValue,
      };
    case 'xml':
      return {
        ...base,
        type,
        subject: 'xml',
        path: entry.assertionPath.trim(),
        expected_value: entry.assertionValue,
      };
  }
}
