import { FunctionalPlanSchema } from '@aqa/plan';
import { describe, expect, it } from 'vitest';
import { functionalRunProblems } from './plan-checks';

describe('what of a functional plan cannot run', () => {
  it("names a JSONPath filter that may not run in a json_path rule and in a json subject's path", () => {
    const filter = '$.items[?(@.name.match(/^(?=a)/))]';
    const plan = FunctionalPlanSchema.parse({
      test_name: 'Filters',
      apis: [
        {
          name: 'Items',
          url: 'https://api.example.test/items',
          validations: [
            { type: 'json_path', expected_value: `${filter} == a` },
            { type: 'equals', expected_value: 'a', subject: 'json', path: filter },
            { type: 'equals', expected_value: 'a', subject: 'json', path: '$.items[0].name' },
          ],
        },
      ],
    });
    expect(functionalRunProblems(plan).map((p) => p.path.join('.'))).toEqual([
      'apis.0.validations.0.expected_value',
      'apis.0.validations.1.path',
    ]);
  });
});
