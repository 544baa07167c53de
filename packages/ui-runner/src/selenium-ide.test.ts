import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSeleniumIdeProject } from '@aqa/converters';
import { FunctionalPlanSchema, type FunctionalPlan } from '@aqa/plan';
import { UiBrowserPool } from './browser-pool';
import { CHROMIUM, serveDirectory, ShotStore } from './test-helpers';
import { createUiRunner } from './ui-run';

/*
 * Selenium IDE's own example suites (packages/ui-runner/test-fixtures/selenium-ide: the project's tests/examples/*.side,
 * run against its side-testkit static pages) imported and run by the UI runner in the real Chromium:
 * each test passes as it does in Selenium IDE (docs/adr/0030-recorded-ui-tests.md §2). Then designed
 * failures: an assert stops its test at the command, a verify lets it go on, each named as Selenium IDE
 * writes it.
 */

const FIXTURES = fileURLToPath(new URL('../test-fixtures/selenium-ide/', import.meta.url));
const BROWSER_TEST_MS = 90_000;

let site: { origin: string; close: () => Promise<void> };
let pool: UiBrowserPool;

beforeAll(async () => {
  site = await serveDirectory(`${FIXTURES}static`);
  pool = new UiBrowserPool({ executablePath: CHROMIUM, maxBrowsers: 1, stepTimeoutMs: 10_000 });
});
afterAll(async () => {
  await pool.close();
  await site.close();
});

function planOf(name: string, text: string): FunctionalPlan {
  const read = readSeleniumIdeProject({ name, text }, { baseUrl: site.origin });
  return FunctionalPlanSchema.parse(read.plan);
}

async function run(plan: FunctionalPlan) {
  return createUiRunner(pool)(plan, { saveScreenshot: new ShotStore().save }).result;
}

describe("Selenium IDE's example suites", () => {
  const sides = readdirSync(`${FIXTURES}sides`).filter((f) => f.endsWith('.side'));

  it.each(sides)(
    '%s: every test passes, every command run',
    async (file) => {
      const text = readFileSync(`${FIXTURES}sides/${file}`, 'utf8');
      const project = JSON.parse(text) as { tests: { name: string; commands: unknown[] }[] };
      const outcome = await run(planOf(file, text));
      const failures = outcome.validation_results
        .filter((c) => !c.success)
        .map((c) => `${c.api_name}: ${c.error}`);
      expect(failures).toEqual([]);
      expect(outcome.status).toBe('completed');
      expect(outcome.validation_results.map((c) => c.api_name)).toEqual(project.tests.map((t) => t.name));
      // Every command ran and passed, in order.
      outcome.validation_results.forEach((call, i) => {
        expect(call.ui?.actions.length).toBe(project.tests[i]?.commands.length);
        expect(call.ui?.actions.every((a) => a.passed)).toBe(true);
      });
    },
    BROWSER_TEST_MS,
  );
});

describe('designed failures, named as Selenium IDE writes them', () => {
  const project = (commands: [string, string, string][]) =>
    JSON.stringify({
      name: 'Failures',
      url: 'http://localhost:8080',
      tests: [
        {
          id: 't1',
          name: 'Sign in',
          commands: commands.map(([command, target, value], i) => ({ id: `c${i}`, command, target, value })),
        },
      ],
    });

  it(
    'a verify fails and the test goes on; an assert stops it at its command',
    async () => {
      const plan = planOf(
        'failures.side',
        project([
          ['open', '/select.html', ''],
          ['verifySelectedLabel', 'id=select', 'Two'],
          ['//select', 'id=select', 'label=Three'],
          ['select', 'id=select', 'label=Three'],
          ['assertSelectedValue', 'id=select', '3'],
          ['assertSelectedLabel', 'id=select', 'One'],
          ['select', 'id=select', 'label=Two'],
        ]),
      );
      const outcome = await run(plan);
      const step = outcome.validation_results[0]!;
      expect(step.success).toBe(false);
      const actions = step.ui!.actions;
      // The commented-out command was skipped; the verify failed and the next commands still ran.
      expect(actions.map((a) => [a.action, a.passed])).toEqual([
        ['open /select.html', true],
        ['verifySelectedLabel id=select Two', false],
        ['select id=select label=Three', true],
        ['assertSelectedValue id=select 3', true],
        ['assertSelectedLabel id=select One', false],
      ]);
      expect(step.error).toBe(
        'Selenium IDE test \'Sign in\', command 6 `assertSelectedLabel id=select One` — expected the selected option\'s label "One" in the select by id: select, found "Three"; the step\'s last action was skipped',
      );
      expect(step.ui!.screenshots.filter((s) => s.failure).length).toBeGreaterThanOrEqual(1);
    },
    BROWSER_TEST_MS,
  );
});
