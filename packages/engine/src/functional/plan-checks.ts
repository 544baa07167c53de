import {
  functionalPlanPatterns,
  iterationDataProblem,
  parseJsonPathRule,
  patternProblems,
  type FunctionalPlan,
  type PatternProblem,
} from '@aqa/plan';
import { jsonPathProblem } from '../call/json-path-filter';

/** A JSONPath of a plan, where it is. */
export interface JsonPathSource {
  path: (string | number)[];
  jsonPath: string;
}

/**
 * Every JSONPath of a functional plan: its json_path rules' paths, the paths of its rules on a json
 * subject, and its json_path captures.
 */
export function functionalJsonPaths(plan: Pick<FunctionalPlan, 'apis'>): JsonPathSource[] {
  const sources: JsonPathSource[] = [];
  plan.apis.forEach((api, a) => {
    api.validations.forEach((validation, v) => {
      if (validation.subject === 'json' && validation.path !== undefined) {
        sources.push({ path: ['apis', a, 'validations', v, 'path'], jsonPath: validation.path });
      }
      if (validation.type !== 'json_path') return;
      const rule = parseJsonPathRule(validation.expected_value);
      if (rule !== null)
        sources.push({ path: ['apis', a, 'validations', v, 'expected_value'], jsonPath: rule.path });
    });
    (api.captures ?? []).forEach((capture, c) => {
      if (capture.from === 'json_path') {
        sources.push({ path: ['apis', a, 'captures', c, 'expression'], jsonPath: capture.expression });
      }
    });
  });
  return sources;
}

/** Why a JSONPath cannot be judged (json-path-filter.ts), or undefined when it can. */
export function jsonPathFilterProblem(jsonPath: string): string | undefined {
  return jsonPathProblem(jsonPath);
}

/**
 * What of a functional plan cannot run, each with its field: a pattern the linear-time engine cannot
 * run (docs/adr/0022-linear-time-patterns.md), a data file that does not read
 * (docs/adr/0029-postman-collections.md). A run with any ends at its start, in these words, before
 * a call is sent (worker-entry.ts). A JSONPath that cannot be judged is refused on save
 * (functionalJsonPaths with jsonPathFilterProblem) and, in a plan that was not saved through the
 * server, fails its own rule or capture, in words, while every call still runs (judge.ts, captures.ts).
 */
export function functionalRunProblems(
  plan: Pick<FunctionalPlan, 'apis'> & Partial<Pick<FunctionalPlan, 'iteration_data'>>,
): PatternProblem[] {
  const problems = patternProblems(functionalPlanPatterns(plan));
  const dataProblem = iterationDataProblem(plan.iteration_data);
  if (dataProblem !== undefined) problems.push({ path: ['iteration_data'], message: dataProblem });
  return problems;
}
