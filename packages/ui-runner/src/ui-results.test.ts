import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSeleniumIdeProject } from '@aqa/converters';
import { functionalHtmlReport, functionalJunitReport } from '@aqa/engine';
import { FunctionalPlanSchema } from '@aqa/plan';
import { UiBrowserPool } from './browser-pool';
import { CHROMIUM, serveSignIn, ShotStore } from './test-helpers';
import { createUiRunner } from './ui-run';

/*
 * What a recorded test's run reports (docs/recorded-ui-tests.md "Results"): each command with the
 * recorder's name for it and, for an assertion, what was expected and found; each page the commands
 * opened with its timings, Web Vitals and screenshot; a failure that names the command. Run in the real
 * Chromium against a sign-in page on loopback, from the Selenium IDE projects in test-fixtures/.
 */

const FIXTURES = fileURLToPath(new URL('../test-fixtures/', import.meta.url));

let site: { origin: string; close: () => Promise<void> };
let pool: UiBrowserPool;

beforeAll(async () => {
  site = await serveSignIn();
  pool = new UiBrowserPool({ executablePath: CHROMIUM, maxBrowsers: 1, stepTimeoutMs: 10_000 });
});
afterAll(async () => {
  await pool.close();
  await site.close();
});

async function runProject(file: string) {
  const read = readSeleniumIdeProject(
    { name: file, text: readFileSync(`${FIXTURES}${file}`, 'utf8') },
    { baseUrl: site.origin },
  );
  const plan = FunctionalPlanSchema.parse(read.plan);
  const shots = new ShotStore();
  const outcome = await createUiRunner(pool)(plan, { saveScreenshot: shots.save }).result;
  return { outcome, shots, plan };
}

describe('the results of a recorded test', () => {
  it('keeps each page the commands opened, with its timings, vitals and screenshot', async () => {
    const { outcome, shots } = await runProject('sign-in.side');
    expect(outcome.status).toBe('completed');
    const step = outcome.validation_results[0];
    expect(step?.success).toBe(true);
    const pages = step?.ui?.pages ?? [];
    // The open (command 1) and the sign-in the click (command 4) submitted.
    expect(pages.map((p) => [p.url, p.action])).toEqual([
      [`${site.origin}/`, 0],
      [`${site.origin}/hello?name=Ada`, 3],
    ]);
    for (const page of pages) {
      expect(page.timings?.load).toBeGreaterThan(0);
      expect(page.vitals.fcp).toBeGreaterThan(0);
      expect(page.screenshot).toMatchObject({ label: 'Page', failure: false });
      // The screenshot is kept with the run: JPEG bytes.
      const kept = shots.shots.get(page.screenshot?.id ?? '');
      expect(kept?.jpeg.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    }
    const actions = step?.ui?.actions ?? [];
    expect(actions.map((a) => a.at)).toEqual(
      [1, 2, 3, 4, 5, 6].map((n) => `Selenium IDE test 'Sign in', command ${n}`),
    );
    expect(actions[5]).toMatchObject({
      action: 'assertText id=out Hello Ada',
      passed: true,
      expected: 'Hello Ada',
      actual: 'Hello Ada',
    });
    // A command that asserts nothing has no expected value.
    expect(actions[2]).not.toHaveProperty('expected');
  });

  it('names the failed command with what was expected and found, and stops the test there', async () => {
    const { outcome, shots } = await runProject('sign-in-fails.side');
    expect(outcome.status).toBe('failed');
    const step = outcome.validation_results[0];
    expect(step?.error).toBe(
      'Selenium IDE test \'Sign in\', command 7 `assertText id=out Hello Ada` — expected the text "Hello Ada" in the element by id: out, found "Hello"; the step\'s last action was skipped',
    );
    const actions = step?.ui?.actions ?? [];
    expect(actions).toHaveLength(7);
    expect(actions[6]).toMatchObject({
      at: "Selenium IDE test 'Sign in', command 7",
      passed: false,
      expected: 'Hello Ada',
      actual: 'Hello',
    });
    // The failure screenshot is of the page the test failed on.
    const failure = step?.ui?.screenshots.find((s) => s.failure);
    expect(failure?.label).toBe('Failure');
    expect(shots.shots.get(failure?.id ?? '')?.failure).toBe(true);
    // The failed command names it, so the result screen shows it beside that command.
    expect(actions[6]?.screenshot).toBe(failure?.id);
    expect(actions.slice(0, 6).every((a) => a.screenshot === undefined)).toBe(true);

    // JUnit: the recorded test is one case, its failure naming the command.
    const result = {
      test_id: 'func_x',
      plan_id: null,
      test_name: 'Sign in, broken',
      description: '',
      status: outcome.status,
      test_type: 'ui',
      source: 'ui_url_input',
      start_time: outcome.start_time,
      end_time: outcome.end_time,
      error: outcome.error,
      summary: outcome.summary,
      validation_results: outcome.validation_results,
      validation_results_total: outcome.summary.total_requests,
      api_results: outcome.api_results,
      timeline_data: outcome.timeline_data,
    } as const;
    const xml = functionalJunitReport(result);
    const cases = [...xml.matchAll(/<testcase classname="([^"]*)" name="([^"]*)"/g)].map((m) => [m[1], m[2]]);
    expect(cases).toEqual([['Sign in, broken', 'Sign in']]);
    expect(xml).toContain(
      "message=\"Selenium IDE test 'Sign in', command 7 `assertText id=out Hello Ada` — expected the text &quot;Hello Ada&quot; in the element by id: out, found &quot;Hello&quot;",
    );
    expect(xml).toMatch(/expected: Hello Ada\s+actual: {3}Hello/);

    // The HTML report: each command by its name, the failed one's expected and actual apart; its pages.
    const html = functionalHtmlReport(result);
    expect(html).toContain(
      '<tr><td>Selenium IDE test &#39;Sign in&#39;, command 7</td><td><code>assertText id=out Hello Ada</code></td><td><span class="badge fail">failed</span></td><td><code>Hello Ada</code></td><td><code>Hello</code></td>',
    );
    expect(html).toContain(`<td><code>${site.origin}/hello?name=</code></td>`);
  });
});
