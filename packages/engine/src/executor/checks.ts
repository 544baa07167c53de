import { UserPatternError, type FunctionalValidation } from '@aqa/plan';
import {
  compileExtraction as compileEntryExtraction,
  compileRuleCheck,
  EntryCheckError,
  type CompiledExtraction,
  type CompiledRuleCheck,
  type ExtractionSpec,
} from '../call/entry-checks';
import type { ReusedResponseView } from '../call/response-view';

/*
 * A step's assertion and extraction as the load executor runs them: the semantics are the call core's
 * (the assertion a rule of the one dialect, @aqa/plan perf-assertion-rule.ts, compiled by
 * call/entry-checks.ts; docs/call-core.md "A performance plan's assertion"); what is the executor's own
 * is the wording of a plan problem found before the run, and of a failed assertion's error sample.
 */

export type { CompiledExtraction, ExtractionSpec, ExtractType } from '../call/entry-checks';

/**
 * `holds` is the verdict alone, judged on every answer; `failure` words the error sample, and is asked
 * only when the assertion did not hold.
 */
export interface CompiledAssertion {
  readonly holds: (r: ReusedResponseView) => boolean;
  readonly failure: (r: ReusedResponseView) => string;
}

/** Problems found while compiling a plan's checks (bad regex, bad XPath), reported before the run. */
export class PlanCheckError extends Error {}

const clip = (s: string): string => (s.length > 120 ? `${s.slice(0, 117)}...` : s);

/** An entry's assertion (its rule: perfAssertionRule) compiled for the run; `where` names the entry. */
export function compileAssertion(rule: FunctionalValidation, where: string): CompiledAssertion {
  const check = planCheck(() => compileRuleCheck(rule), `${where} assertion`);
  const { subject, operator } = assertionWords(rule);
  const expected = rule.expected_value;
  return {
    holds: check.holds,
    failure: (r) => failureSample(check, r, subject, operator, expected),
  };
}

/**
 * How a sample names what the assertion compared and how, in the entry's own terms: `status`, `body`
 * or the path; `equals`, `not equals`, `contains`, `regex`.
 */
function assertionWords(rule: FunctionalValidation): { subject: string; operator: string } {
  const subject =
    rule.type === 'status_code' || rule.subject === 'status_code'
      ? 'status'
      : rule.subject === 'json' || rule.subject === 'xml'
        ? (rule.path ?? '')
        : 'body';
  const verb = rule.type === 'contains_text' ? 'contains' : rule.type === 'regex' ? 'regex' : 'equals';
  return { subject, operator: rule.negate === true ? `not ${verb}` : verb };
}

/** A failed assertion's error sample (checks.test.ts, run.test.ts pin its words). */
function failureSample(
  check: CompiledRuleCheck,
  r: ReusedResponseView,
  subject: string,
  operator: string,
  expected: string,
): string {
  const read = check.read(r);
  switch (read.kind) {
    case 'not-json':
      return 'assertion failed: response body is not JSON';
    case 'not-xml':
      return 'assertion failed: response body is not XML';
    case 'failed':
      return `assertion failed: ${read.reason}`;
    case 'literal':
      // The value beside a literal is shown as JSON, so the string "7" and the number 7 read apart.
      return `assertion failed: ${subject} ${clip(read.shown ?? 'nothing')} ${operator} ${clip(expected.trim())} is false`;
    case 'text':
      return `assertion failed: ${subject} ${JSON.stringify(clip(read.actual))} ${operator} ${JSON.stringify(clip(expected))} is false`;
  }
}

export function compileExtraction(spec: ExtractionSpec, where: string): CompiledExtraction {
  return planCheck(() => compileEntryExtraction(spec), `${where} extraction`);
}

/** A check compiled, or why it cannot run as a plan problem that names where it is. */
function planCheck<T>(compile: () => T, what: string): T {
  try {
    return compile();
  } catch (cause) {
    if (!(cause instanceof EntryCheckError)) throw cause;
    switch (cause.kind) {
      case 'regex':
        throw new PlanCheckError(
          cause.cause instanceof UserPatternError && cause.cause.construct !== undefined
            ? `${what}: ${cause.message}`
            : `${what}: invalid regular expression ${JSON.stringify(cause.source)} (${cause.message})`,
          { cause },
        );
      case 'xpath':
        throw new PlanCheckError(`${what}: invalid XPath ${JSON.stringify(cause.source)}`, { cause });
      case 'json_path':
        throw new PlanCheckError(`${what}: ${cause.message}`, { cause });
    }
  }
}
