import { UserPatternError } from '@aqa/plan';
import {
  compileAssertion as compileEntryAssertion,
  compileExtraction as compileEntryExtraction,
  EntryCheckError,
  type AssertionSpec,
  type CompiledAssertion as EntryAssertion,
  type CompiledExtraction,
  type ExtractionSpec,
} from '../call/entry-checks';
import type { ReusedResponseView } from '../call/response-view';

/*
 * A step's assertion and extraction as the load executor runs them: the semantics are the call core's
 * (call/entry-checks.ts, docs/call-core.md); what is the executor's own is the wording of a plan
 * problem found before the run, and of a failed assertion's error sample.
 */

export type {
  AssertionOperator,
  AssertionSpec,
  AssertionType,
  CompiledExtraction,
  ExtractionSpec,
  ExtractType,
} from '../call/entry-checks';

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

export function compileAssertion(spec: AssertionSpec, where: string): CompiledAssertion {
  const assertion = planCheck(() => compileEntryAssertion(spec), `${where} assertion`);
  const operator = spec.operator.replace('_', ' ');
  const subject =
    spec.type === 'status'
      ? 'status'
      : spec.type === 'text'
        ? 'body'
        : spec.type === 'json'
          ? spec.path.trim() || '$'
          : spec.path;
  const expected = spec.type === 'status' ? spec.expected.trim() : spec.expected;
  return {
    holds: assertion.holds,
    failure: (r) => failureSample(assertion, r, subject, operator, expected),
  };
}

/** A failed assertion's error sample (checks.test.ts, run.test.ts pin its words). */
function failureSample(
  assertion: EntryAssertion,
  r: ReusedResponseView,
  subject: string,
  operator: string,
  expected: string,
): string {
  const read = assertion.read(r);
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
