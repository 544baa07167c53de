import type { FunctionalResult } from '@aqa/plan';

/** A functional run as pretty JSON, in the wire model's names (packages/plan/src/functional/functional-result.ts). */
export function functionalJsonReport(result: FunctionalResult): string {
  return `${JSON.stringify(result, null, 2)}\n`;
}
