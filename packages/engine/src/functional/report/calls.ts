import type { CallResult, FunctionalResult, ValidationDetail } from '@aqa/plan';

/*
 * How the reports and the `aqa test` lines name a call and word a failed rule (docs/design.md §9),
 * so JUnit, HTML and the terminal say the same thing.
 */

/** A schema rule's expected value is a whole JSON Schema; a line quotes only its start. */
const QUOTE_CHARS = 300;

/** True when the run had more than one iteration or user, so a call's name must say which. */
export function hasSeveralPasses(result: Pick<FunctionalResult, 'validation_results'>): boolean {
  return result.validation_results.some((call) => (call.iteration ?? 1) > 1 || (call.user ?? 1) > 1);
}

/** "Get user", or "Get user (iteration 2, user 1)" when the run had several passes. */
export function callName(call: CallResult, severalPasses: boolean): string {
  const name = call.api_name === '' ? `${call.method} ${call.url}` : call.api_name;
  return severalPasses ? `${name} (iteration ${call.iteration ?? 1}, user ${call.user ?? 1})` : name;
}

/** No response came back: a network error or a time-out, which CI reads as an error, not a failure. */
export function hasNoResponse(call: CallResult): boolean {
  return call.status_code === null;
}

export function quote(text: string, limit = QUOTE_CHARS): string {
  return text.length > limit ? `${text.slice(0, limit)}… (${text.length} characters)` : text;
}

/** A rule's label: its type, and its name when it has one. */
export function ruleLabel(detail: ValidationDetail): string {
  return detail.name ? `${detail.type} "${detail.name}"` : detail.type;
}

/** The lines of a failed rule: what was expected, what came back, why, and each schema violation. */
export function failedRuleLines(detail: ValidationDetail): string[] {
  // A Postman test or script (type script) says what failed in its message; "expected pass" or
  // "runs without error" beside it would add nothing, and a script error is no missing response.
  if (detail.type === 'script') return [`${ruleLabel(detail)}: ${detail.message}`];
  const lines = [
    `${ruleLabel(detail)}: ${detail.message}`,
    `  expected: ${quote(detail.expected)}`,
    `  actual:   ${detail.actual === null ? '(no response)' : quote(detail.actual)}`,
  ];
  for (const violation of detail.violations ?? []) {
    lines.push(`  at ${violation.path || '/'}: ${violation.message}`);
  }
  return lines;
}

export function failedRules(call: CallResult): ValidationDetail[] {
  return call.validation_details.filter((detail) => !detail.passed);
}
