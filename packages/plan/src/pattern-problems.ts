import type { FunctionalPlan } from './functional/functional-plan';
import { parseJsonPathRule } from './functional/validation';
import type { UrlEntry } from './perf-plan';
import { hasAssertion, hasExtraction } from './step-rules';
import { userPatternProblem } from './user-pattern';

/*
 * Every pattern of a plan that the linear-time engine cannot run, with its field
 * (docs/adr/0022-linear-time-patterns.md). The model reads such a plan (a stored one must still open,
 * to be mended); saving it, Validate, a run's start and the command line refuse it with these words:
 * "urls[2].assertionValue: lookahead (?=…) is not supported — patterns run on a linear-time engine
 * (RE2 syntax)".
 */

export interface PatternProblem {
  /** The field's path in the plan: ['urls', 2, 'assertionValue'], ['apis', 0, 'captures', 1, 'expression']. */
  path: (string | number)[];
  /** What cannot be run, in words. */
  message: string;
}

/** A problem's path as the command line and a run's refusal write it: `urls[2].assertionValue`. */
export function patternFieldText(path: readonly (string | number)[]): string {
  return path
    .map((part, i) => (typeof part === 'number' ? `[${part}]` : i === 0 ? part : `.${part}`))
    .join('');
}

/** A pattern of a plan, where it is. */
export interface PatternSource {
  path: (string | number)[];
  source: string;
}

/** Every pattern of the sources that cannot run (a server checks them in slices: pattern-refusal.ts). */
export function patternProblems(sources: readonly PatternSource[]): PatternProblem[] {
  return sources.flatMap(({ path, source }) => {
    const message = userPatternProblem(source);
    return message === undefined ? [] : [{ path, message }];
  });
}

/** A performance plan's regex assertions and regex extractions that cannot run. */
export function perfPlanPatternProblems(urls: Parameters<typeof perfPlanPatterns>[0]): PatternProblem[] {
  return patternProblems(perfPlanPatterns(urls));
}

/** A functional plan's regex rules, `~` comparisons and regex captures that cannot run. */
export function functionalPlanPatternProblems(plan: Pick<FunctionalPlan, 'apis'>): PatternProblem[] {
  return patternProblems(functionalPlanPatterns(plan));
}

/** A performance plan's regex assertions and regex extractions. */
export function perfPlanPatterns(
  urls: readonly Pick<
    UrlEntry,
    | 'assertionType'
    | 'assertionOperator'
    | 'assertionPath'
    | 'assertionValue'
    | 'extractType'
    | 'extractName'
    | 'extractValue'
  >[],
): PatternSource[] {
  const problems: PatternSource[] = [];
  urls.forEach((entry, i) => {
    if (entry.assertionOperator === 'regex' && hasAssertion(entry)) {
      add(problems, ['urls', i, 'assertionValue'], entry.assertionValue);
    }
    if (entry.extractType === 'regex' && hasExtraction(entry)) {
      add(problems, ['urls', i, 'extractValue'], entry.extractValue);
    }
  });
  return problems;
}

/** A functional plan's regex rules, `~` comparisons and regex captures. */
export function functionalPlanPatterns(plan: Pick<FunctionalPlan, 'apis'>): PatternSource[] {
  const problems: PatternSource[] = [];
  plan.apis.forEach((api, a) => {
    api.validations.forEach((validation, v) => {
      const field = ['apis', a, 'validations', v, 'expected_value'];
      if (validation.type === 'regex') add(problems, field, validation.expected_value);
      if (validation.type === 'json_path') {
        const rule = parseJsonPathRule(validation.expected_value);
        if (rule?.operator === '~') add(problems, field, rule.value ?? '');
      }
    });
    (api.captures ?? []).forEach((capture, c) => {
      if (capture.from === 'regex')
        add(problems, ['apis', a, 'captures', c, 'expression'], capture.expression);
    });
  });
  return problems;
}

/** Problems as one sentence each: "urls[2].assertionValue: lookahead (?=…) is not supported — …". */
export function patternProblemLines(problems: readonly PatternProblem[]): string[] {
  return problems.map((p) => `${patternFieldText(p.path)}: ${p.message}`);
}

function add(sources: PatternSource[], path: (string | number)[], source: string): void {
  sources.push({ path, source });
}
