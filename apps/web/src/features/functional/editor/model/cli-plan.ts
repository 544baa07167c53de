import { FunctionalPlanSchema, type FunctionalPlan } from '@aqa/plan';

/**
 * A saved plan as a file for `aqa test` (packages/engine/src/cli/functional-test.ts, docs/design.md §9):
 * the plan as the model reads it — what GET /api/functional/get-test-config/{id} answers, which the CLI
 * accepts as it is — named after the test.
 */

/** The command the help shows; a name with a space or a quote is quoted for the shell. */
export function cliCommand(filename: string): string {
  const file = /^[\w.@%+=:,/-]+$/.test(filename) ? filename : `'${filename.replace(/'/g, `'\\''`)}'`;
  return `npx aqa test ${file} --junit junit.xml`;
}

/** `{test name}.json`, without the characters file systems refuse; a blank name gives functional-plan.json. */
export function cliFileName(testName: string): string {
  const stem = testName
    .replace(/[\\/:*?"<>|\p{Cc}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^\.+/, '')
    .slice(0, 120)
    .trim();
  return `${stem || 'functional-plan'}.json`;
}

/**
 * The plan last saved (its body as sent), read by the model with the id the server gave it; null when
 * there is none or it no longer reads (the screen then offers no download).
 */
export function savedCliPlan(savedBody: string | null, savedId: string | null): FunctionalPlan | null {
  if (savedBody === null || savedId === null) return null;
  let body: unknown;
  try {
    body = JSON.parse(savedBody);
  } catch {
    return null;
  }
  const parsed = FunctionalPlanSchema.safeParse(body);
  return parsed.success ? { ...parsed.data, id: savedId } : null;
}

/** The file's text: the plan as indented JSON. */
export function cliPlanText(plan: FunctionalPlan): string {
  return `${JSON.stringify(plan, null, 2)}\n`;
}
