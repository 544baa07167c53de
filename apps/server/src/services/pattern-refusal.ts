import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { functionalJsonPaths, jsonPathFilterProblem } from '@aqa/engine';
import {
  functionalPlanPatterns,
  perfPlanPatterns,
  userPatternProblem,
  type FunctionalPlan,
  type PatternProblem,
} from '@aqa/plan';
import { ValidationError } from '../errors';

/*
 * A plan with a pattern the linear-time engine cannot run (or a JSONPath filter that may not run) is a
 * 400 naming each field and what cannot run (docs/adr/0022-linear-time-patterns.md):
 * "urls.2.assertionValue: lookahead (?=…) is not supported — patterns run on a linear-time engine (RE2 syntax)".
 * A plan may hold thousands of patterns and RE2 compiles each in a fraction of a millisecond, so they are
 * judged a slice at a time, the event loop free between slices.
 */

/** The most of the event loop one slice of checks takes. */
const SLICE_MS = 5;

/** One thing to check: where it is, and why it cannot run (undefined: it can). */
type Check = { path: (string | number)[]; problem: () => string | undefined };

async function problemsOf(checks: readonly Check[]): Promise<PatternProblem[]> {
  const problems: PatternProblem[] = [];
  let sliceStart = performance.now();
  for (const { path, problem } of checks) {
    const message = problem();
    if (message !== undefined) problems.push({ path, message });
    if (performance.now() - sliceStart >= SLICE_MS) {
      await nextTurn();
      sliceStart = performance.now();
    }
  }
  return problems;
}

function refuse(problems: readonly PatternProblem[], code: string): void {
  if (problems.length === 0) return;
  throw new ValidationError(
    problems.map((problem) => ({ field: problem.path.join('.'), message: problem.message })),
    { code, namesFields: true },
  );
}

/**
 * Compiles a performance plan's patterns a slice at a time and keeps them (user-pattern.ts keeps what it
 * compiled), so the run's one synchronous compile that follows finds them ready; that compile reports
 * what cannot run, with every other problem of the plan.
 */
export async function precompilePerfPlanPatterns(
  urls: Parameters<typeof perfPlanPatterns>[0],
): Promise<void> {
  await problemsOf(
    perfPlanPatterns(urls).map(({ path, source }) => ({ path, problem: () => userPatternProblem(source) })),
  );
}

/** Refuses a performance plan's regex assertions and extractions that cannot run. */
export async function refusePerfPlanPatterns(
  urls: Parameters<typeof perfPlanPatterns>[0],
  code = 'PATTERN_NOT_SUPPORTED',
): Promise<void> {
  const checks = perfPlanPatterns(urls).map(({ path, source }) => ({
    path,
    problem: () => userPatternProblem(source),
  }));
  refuse(await problemsOf(checks), code);
}

/** Refuses a functional plan's patterns and JSONPath filters that cannot run. */
export async function refuseFunctionalPlanPatterns(
  plan: Pick<FunctionalPlan, 'apis'>,
  code = 'PATTERN_NOT_SUPPORTED',
): Promise<void> {
  const checks: Check[] = [
    ...functionalPlanPatterns(plan).map(({ path, source }) => ({
      path,
      problem: () => userPatternProblem(source),
    })),
    ...functionalJsonPaths(plan).map(({ path, jsonPath }) => ({
      path,
      problem: () => jsonPathFilterProblem(jsonPath),
    })),
  ];
  refuse(await problemsOf(checks), code);
}
