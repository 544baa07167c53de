import { describe, expect, it } from 'vitest';
import { FunctionalPlanSchema } from './functional/functional-plan';
import { expectedValueProblem } from './functional/validation';
import {
  functionalPlanPatternProblems,
  patternProblemLines,
  perfPlanPatternProblems,
} from './pattern-problems';
import { migratePlan } from './migrate-plan';

/* A plan's patterns that the linear-time engine cannot run (docs/adr/0022-linear-time-patterns.md). */

const LOOKAHEAD = 'lookahead (?=…) is not supported — patterns run on a linear-time engine (RE2 syntax)';
const BACKREFERENCE =
  'backreference \\1 is not supported — patterns run on a linear-time engine (RE2 syntax)';

describe('pattern problems', () => {
  it('names every regex assertion and extraction of a performance plan that cannot run', () => {
    const plan = migratePlan({
      name: 'p',
      urls: [
        {
          url: 'https://a.test',
          assertionType: 'text',
          assertionOperator: 'regex',
          assertionValue: '^(?=a)',
        },
        {
          url: 'https://a.test',
          assertionType: 'text',
          assertionOperator: 'contains',
          assertionValue: '(?=a)',
        },
        { url: 'https://a.test', extractType: 'regex', extractName: 'v', extractValue: '(a)\\1' },
        { url: 'https://a.test', extractType: 'regex', extractName: 'w', extractValue: 'id=(\\d+)' },
      ],
    });
    expect(patternProblemLines(perfPlanPatternProblems(plan.urls))).toEqual([
      `urls[0].assertionValue: ${LOOKAHEAD}`,
      `urls[2].extractValue: ${BACKREFERENCE}`,
    ]);
  });

  it('reads a stored functional plan with such patterns, and names each one', () => {
    // The model reads any regular expression, so a plan stored before still opens.
    const plan = FunctionalPlanSchema.parse({
      test_name: 't',
      source: 'script_input',
      script_content: 'scenarios: {}',
      apis: [
        {
          name: 'a',
          url: 'https://a.test',
          validations: [
            { type: 'regex', expected_value: '(?<=a)b' },
            { type: 'json_path', expected_value: '$.a ~ ^(?=x)' },
            { type: 'json_path', expected_value: '$.a ~ ^x$' },
          ],
          captures: [{ name: 'c', from: 'regex', expression: '(a)\\1' }],
        },
      ],
    });
    expect(patternProblemLines(functionalPlanPatternProblems(plan))).toEqual([
      'apis[0].validations[0].expected_value: lookbehind (?<=…) is not supported — patterns run on a linear-time engine (RE2 syntax)',
      `apis[0].validations[1].expected_value: ${LOOKAHEAD}`,
      `apis[0].captures[0].expression: ${BACKREFERENCE}`,
    ]);
  });

  it('refuses such a pattern in a new rule (the form), in the same words', () => {
    expect(expectedValueProblem('regex', '^(?=a)')).toBe(LOOKAHEAD);
    expect(expectedValueProblem('json_path', '$.a ~ (a)\\1')).toBe(BACKREFERENCE);
    expect(expectedValueProblem('regex', '^(?=a)', 'stored')).toBeUndefined();
    expect(expectedValueProblem('regex', '(')).toBe('Expected value must be a valid regular expression');
    // RE2 syntax JavaScript does not read is a pattern too.
    expect(expectedValueProblem('regex', '(?i)ada')).toBeUndefined();
  });
});
