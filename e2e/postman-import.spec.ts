import { expect, test, type Page } from '@playwright/test';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ParityApi } from '../packages/engine/test/postman-parity/parity-api';
import {
  PARITY_DIR,
  runNewman,
  type AssertionOutcome,
} from '../packages/engine/test/postman-parity/run-newman';
import { expectNotice, newAccount, register, signIn, viewScreenshot, watchMessages } from './helpers';

/**
 * Issue #27's "Done when", in a real browser against the built app: a Postman user imports a collection
 * with its environment (and a CSV data file) on the API test screen, reads how its tests came over, saves,
 * runs, and reads every assertion on the result screen and in the JUnit report it downloads there. The
 * truth is real Newman 6 run on the same files against the same local API (the parity suite's,
 * packages/engine/test/postman-parity), so each assertion must pass or fail on the screen exactly as it
 * does in Newman (docs/adr/0029-postman-collections.md §3).
 */

const api = new ParityApi();
let dir = '';
/** The suite's environment with baseUrl pointed at this run's API, as a user would edit it. */
let environmentFile = '';

test.beforeAll(async () => {
  await api.start();
  dir = mkdtempSync(join(tmpdir(), 'aqa-postman-e2e-'));
  const environment = JSON.parse(
    readFileSync(join(PARITY_DIR, 'environments/local.postman_environment.json'), 'utf8'),
  ) as { values: { key: string; value: string }[] };
  for (const value of environment.values) if (value.key === 'baseUrl') value.value = api.origin;
  environmentFile = join(dir, 'local.postman_environment.json');
  writeFileSync(environmentFile, JSON.stringify(environment, null, 2));
});
test.afterAll(async () => {
  await api.close();
  rmSync(dir, { recursive: true, force: true });
});

const collectionFile = (name: string) => join(PARITY_DIR, 'collections', `${name}.postman_collection.json`);

/** The tests a collection's scripts write (`pm.test`, `pm.test.skip`, legacy `tests[…]`), read from the file. */
function testsWritten(file: string): number {
  interface Item {
    event?: { script?: { exec?: string | string[] } }[];
    item?: Item[];
  }
  const count = (item: Item): number =>
    (item.event ?? []).reduce((sum, event) => {
      const source = ([] as string[]).concat(event.script?.exec ?? []).join('\n');
      return sum + (source.match(/\bpm\.test(\.skip)?\s*\(|\btests\s*\[/g) ?? []).length;
    }, 0) + (item.item ?? []).reduce((sum, child) => sum + count(child), 0);
  return count(JSON.parse(readFileSync(file, 'utf8')) as Item);
}

interface Outcome {
  iteration: number;
  request: string;
  assertion: string;
  passed: boolean;
}

/** Each outcome by iteration, request, test name and its occurrence among the same (as runner-parity.test.ts). */
function keyed(list: readonly Outcome[]): Map<string, boolean> {
  const seen = new Map<string, number>();
  const out = new Map<string, boolean>();
  for (const o of list) {
    const base = `${o.iteration} | ${o.request} | ${o.assertion}`;
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.set(`${base} | #${n + 1}`, o.passed);
  }
  return out;
}

const newmanKeyed = (outcomes: readonly AssertionOutcome[]) => keyed(outcomes);

/**
 * Every named assertion the result screen shows, as a person reads it: the "Iteration N · User N" heading
 * above the call (none when the run had one iteration), the call's name, each rule's or test's name and
 * its pass mark.
 */
async function assertionsOnScreen(page: Page): Promise<Outcome[]> {
  return page.getByTestId('validation-results').evaluate((section) => {
    const found: { iteration: number; request: string; assertion: string; passed: boolean }[] = [];
    let iteration = 1;
    for (const element of section.querySelectorAll(
      '[data-testid="call-group"], [data-testid="call-result"]',
    )) {
      if (element.getAttribute('data-testid') === 'call-group') {
        iteration = Number(/Iteration (\d+)/i.exec(element.textContent ?? '')?.[1] ?? NaN);
        continue;
      }
      const request = element.querySelector('[data-testid="call-name"]')?.textContent ?? '';
      for (const detail of element.querySelectorAll('[data-testid="validation-detail"]')) {
        const name = detail.querySelector('[data-testid="detail-name"]')?.textContent;
        // An unnamed rule is one the importer did not write (the default status rule): Newman has none.
        if (!name) continue;
        found.push({
          iteration,
          request,
          assertion: name,
          passed: detail.getAttribute('data-passed') === 'true',
        });
      }
    }
    return found;
  });
}

const unescapeXml = (text: string) =>
  text
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&apos;', "'")
    .replaceAll('&amp;', '&');

/** Every test case of a JUnit report: its suite's call and iteration, its name, and whether it failed. */
function junitCases(xml: string): Outcome[] {
  const cases: Outcome[] = [];
  for (const suite of xml.matchAll(/<testsuite\s+name="([^"]*)"[^>]*>([\s\S]*?)<\/testsuite>/g)) {
    const suiteName = unescapeXml(suite[1]!);
    const call = /^(.*) \(iteration (\d+), user \d+\)$/.exec(suiteName);
    for (const testCase of suite[2]!.matchAll(
      /<testcase\s[^>]*name="([^"]*)"[^>]*?(\/>|>([\s\S]*?)<\/testcase>)/g,
    )) {
      cases.push({
        iteration: call ? Number(call[2]) : 1,
        request: call ? call[1]! : suiteName,
        assertion: unescapeXml(testCase[1]!),
        passed: !/<failure|<error/.test(testCase[3] ?? ''),
      });
    }
  }
  return cases;
}

const RUNS = [
  {
    collection: 'data-driven',
    data: 'orders.csv',
    // The counts the importer reaches for this collection (docs/adr/0029-postman-collections.md §1): the
    // login's test maps to a rule, the two requests' scripts run as written.
    counts: '6 tests: 1 rule, 5 scripts, 0 left out',
  },
  { collection: 'shop', data: undefined, counts: '38 tests: 8 rules, 30 scripts, 0 left out' },
  // Its environment picked after the collection, as a user who imports one file at a time.
  {
    collection: 'legacy',
    data: undefined,
    counts: '12 tests: 0 rules, 12 scripts, 0 left out',
    environmentAfter: true,
  },
] as const;

for (const run of RUNS) {
  test(`imports the ${run.collection} collection with its environment${'environmentAfter' in run ? ' picked after it' : ''}${run.data ? ' and CSV' : ''}, and every assertion passes or fails as in Newman`, async ({
    page,
  }) => {
    test.setTimeout(90_000);
    const messages = watchMessages(page);
    const file = collectionFile(run.collection);
    const data = run.data === undefined ? undefined : join(PARITY_DIR, 'data-files', run.data);
    // The truth: Newman on the same files against the same API.
    const newman = await runNewman({
      collection: file,
      environment: environmentFile,
      ...(data === undefined ? {} : { data }),
    });
    const newmanFailed = newman.filter((o) => !o.passed).length;
    // Each collection fails some assertions on purpose (the suite's README): a run passing all proves less.
    expect(newmanFailed).toBeGreaterThan(0);

    const account = newAccount(`postman-${run.collection}`);
    await register(page, account);
    await signIn(page, account.email, account.password);
    await page.getByTestId('nav-functional-api-test').click();
    await expect(page).toHaveURL(/\/functional-test\/url-input$/);

    const environmentAfter = 'environmentAfter' in run && run.environmentAfter;
    // The collection, its environment and the CSV picked together (or the environment after).
    await page
      .getByTestId('import-apis-file')
      .setInputFiles([
        file,
        ...(environmentAfter ? [] : [environmentFile]),
        ...(data === undefined ? [] : [data]),
      ]);
    if (environmentAfter) {
      await expect(page.getByTestId('postman-import-counts')).toHaveText(run.counts);
      await page.getByTestId('import-apis-file').setInputFiles(environmentFile);
      await expectNotice(messages, 'Set for the collection: local.postman_environment.json');
    }
    await expect(page.getByTestId('environment-name')).toHaveValue('Local parity API');
    const countsLine = page.getByTestId('postman-import-counts');
    await expect(countsLine).toHaveText(run.counts);
    expect(Number(/^(\d+) tests?:/.exec(run.counts)?.[1])).toBe(testsWritten(file));
    await expectNotice(messages, new RegExp(`\\. ${run.counts.replace(/[()]/g, '\\$&')}$`));
    await expect(page.getByTestId('postman-import-summary')).toContainText(
      `Postman tests of ${run.collection}.postman_collection.json`,
    );
    if (data !== undefined) {
      const rows = readFileSync(data, 'utf8').trim().split('\n').length - 1;
      await expect(page.getByTestId('setting-iterations')).toHaveValue(String(rows));
    }
    await page.getByTestId('postman-import-summary').scrollIntoViewIfNeeded();
    await viewScreenshot(page, `postman-import-${run.collection}-counts`);

    await page.getByTestId('functional-save').click();
    await expectNotice(messages, /^Saved! Test ID: /);
    // The counts stay on the screen once the notice has gone and the plan is saved.
    await expect(countsLine).toHaveText(run.counts);
    await page.getByTestId('functional-start').click();
    await expect(page).toHaveURL(/\/functional-test-result\/fc_\S+$/, { timeout: 20_000 });
    // Newman fails some assertions, so the run is failed, once it is over.
    await expect(page.getByTestId('result-status')).toHaveAttribute('data-status', 'failed', {
      timeout: 45_000,
    });

    // On the screen: every Newman assertion, passed or failed as Newman has it, and no other.
    const onScreen = keyed(await assertionsOnScreen(page));
    const theirs = newmanKeyed(newman);
    expect(Object.fromEntries(onScreen)).toEqual(Object.fromEntries(theirs));
    // Every call was answered: a rule that found nothing says so, never "no response".
    await expect(page.getByTestId('detail-actual').filter({ hasText: /^no response$/ })).toHaveCount(0);
    // "API Results": an API fails where Newman failed one of its assertions, naming that test.
    for (const request of new Set(newman.map((o) => o.request))) {
      const row = page
        .getByTestId('api-result-row')
        .filter({ has: page.getByRole('heading', { name: request, exact: true }) });
      const failedHere = newman.filter((o) => o.request === request && !o.passed);
      await expect(row.getByTestId('api-status')).toHaveAttribute(
        'data-status',
        failedHere.length > 0 ? 'failed' : 'success',
      );
      for (const failure of failedHere)
        await expect(
          row.getByTestId('api-rule').filter({ hasText: `${failure.assertion}: Failed` }),
        ).toHaveCount(1);
    }
    await page.locator('[data-testid="call-result"][data-success="false"]').first().scrollIntoViewIfNeeded();
    await viewScreenshot(page, `postman-import-${run.collection}-result`);

    // The JUnit report of the result screen: one test case per assertion, failing as Newman's fail.
    const download = page.waitForEvent('download');
    await page.getByTestId('report-junit').click();
    const junitPath = join(dir, `${run.collection}.xml`);
    await (await download).saveAs(junitPath);
    const xml = readFileSync(junitPath, 'utf8');
    const cases = junitCases(xml);
    expect(cases).toHaveLength(newman.length);
    expect(Object.fromEntries(keyed(cases))).toEqual(Object.fromEntries(theirs));
    expect((xml.match(/<failure/g) ?? []).length).toBe(newmanFailed);
    expect(messages.browserDialogs).toEqual([]);
  });
}
