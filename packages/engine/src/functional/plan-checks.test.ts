import { FunctionalPlanSchema } from '@aqa/plan';
import { describe, expect, it } from 'vitest';
import { functionalJsonPaths, functionalRunProblems, jsonPathFilterProblem } from './plan-checks';

describe('what of a functional plan cannot run', () => {
  it("names a JSONPath that cannot be judged in a json_path rule, a json subject's path and a capture, for the save to refuse; the run judges it", () => {
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
            { type: 'json_path', expected_value: "$.roles[?(@=='qa')]" },
          ],
          captures: [{ name: 'id', from: 'json_path', expression: '$.items[?(@.id==]' }],
        },
      ],
    });
    const refused = functionalJsonPaths(plan).flatMap(({ path, jsonPath }) => {
      const problem = jsonPathFilterProblem(jsonPath);
      return problem === undefined ? [] : [`${path.join('.')}: ${problem}`];
    });
    expect(refused).toEqual([
      'apis.0.validations.0.expected_value: /^(?=a)/: lookahead (?=…) is not supported — patterns run on a linear-time engine (RE2 syntax)',
      'apis.0.validations.1.path: /^(?=a)/: lookahead (?=…) is not supported — patterns run on a linear-time engine (RE2 syntax)',
      'apis.0.captures.0.expression: $.items[?(@.id==] does not close: ] at character 17 comes before its ( is closed',
    ]);
    // A plan not saved through the server still runs: each such rule fails on its own (judge.ts).
    expect(functionalRunProblems(plan)).toEqual([]);
  });
});
