import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CountingTarget } from './counting-target';
import {
  confirmWith,
  expectNotice,
  FIXTURES,
  newAccount,
  register,
  signIn,
  viewScreenshot,
  watchMessages,
} from './helpers';
import { expectEditorText } from './editor-text';

/**
 * The script-upload screen (docs/reference/01-authoring.md §2 "Performance: script upload") in a real browser against the real
 * server and its importers, with real files from test-fixtures/ and a local target API.
 */

const PETSTORE = join(FIXTURES, 'openapi', 'swagger-petstore', 'v3-openapi.yaml');
const NESTED_POSTMAN = join(FIXTURES, 'postman', 'postman-to-k6', 'example', 'v2', 'nested-folders.json');
const BROKEN_YAML = join(FIXTURES, 'openapi', 'edge-cases', 'invalid_openapi', 'invalid-yaml-syntax.yaml');

/** A target that answers every request with a small JSON body, and counts them. */
const target = new CountingTarget();

test.beforeAll(() => target.start());
test.afterAll(() => target.stop());

async function signedIn(page: Page, label: string) {
  const account = newAccount(label);
  await register(page, account);
  await signIn(page, account.email, account.password);
}

function titles(page: Page) {
  return page.getByTestId(/^api-\d+-title$/).allTextContents();
}

/** Request names of a Postman collection, folders walked depth-first in document order. */
function postmanRequestNames(path: string): string[] {
  interface Item {
    name: string;
    item?: Item[];
  }
  const walk = (items: Item[]): string[] =>
    items.flatMap((item) => (item.item ? walk(item.item) : [item.name]));
  return walk((JSON.parse(readFileSync(path, 'utf8')) as { item: Item[] }).item);
}

/** The choice of operations of a large import, left as it opens (all selected): "Import N selected". */
async function importAll(page: Page, count: number) {
  await expect(page.getByTestId('pick-count')).toHaveText(`${count} of ${count} selected`);
  await expect(page.getByTestId('pick-import')).toHaveText(`Import ${count} selected`);
  await page.getByTestId('pick-import').click();
}

test('the Petstore OpenAPI file becomes a plan: duplicate, remove, generate, save, reopen at step 2', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signedIn(page, 'script-petstore');
  const messages = watchMessages(page);
  await page.goto('/create-test/script-input');
  await expect(page.getByTestId('script-input-page')).toHaveAttribute('data-step', 'upload');
  await expect(page.getByTestId('breadcrumbs')).toHaveText(/PLANS\s*>\s*Create Test\s*>\s*Upload script/);
  await viewScreenshot(page, 'script-input-step1-1280');

  await page.getByTestId('upload-file').setInputFiles(PETSTORE);
  await page.getByTestId('upload-base-url').fill(`${target.origin}/api/v3`);
  await page.getByTestId('upload-proceed').click();
  // More than 10 operations: the choice of docs/reference/01-authoring.md §2 comes first, all selected.
  await expect(page.getByTestId('operation-picker')).toBeVisible();
  await viewScreenshot(page, 'script-input-pick-1280');
  await importAll(page, 19);

  await expect(page.getByTestId('script-input-page')).toHaveAttribute('data-step', 'configure');
  await expect(page.getByTestId('api-count')).toHaveText('19 in plan');
  const imported = await titles(page);
  expect(imported).toHaveLength(19);
  expect(imported[0]).toBe('Update an existing pet.');
  await expect(page.getByTestId('import-result')).toContainText('Imported 19 APIs from v3-openapi.yaml');
  await expect(page.getByTestId('import-warnings')).toContainText('petstore_auth');
  // Petstore gives its path parameters no example: the calls hold {{petId}}, listed as needing a value.
  await expect(page.getByTestId('import-needs-value')).toContainText('Needs a value (3)');
  await expect(page.getByTestId('import-needs-value')).toContainText('{{petId}} — used by GET /pet/{petId}');
  await expect(page.getByTestId('api-0-summary-url')).toHaveText(`${target.origin}/api/v3/pet`);
  await expect(page.getByTestId('plan-name')).toHaveValue('Swagger Petstore - OpenAPI 3.0');
  await viewScreenshot(page, 'script-input-step2-1280');

  // Duplicate: the copy follows its original, its URL suffixed _copy (docs/reference/01-authoring.md §9) and its name too.
  await page.getByTestId('api-0-duplicate').click();
  await expect(page.getByTestId('api-1-title')).toHaveText('Update an existing pet._copy');
  await expect(page.getByTestId('api-1-summary-url')).toHaveText(`${target.origin}/api/v3/pet_copy`);
  await expect(page.getByTestId('api-0-summary-url')).toHaveText(`${target.origin}/api/v3/pet`);
  await expect(page.getByTestId('api-count')).toHaveText('20 in plan');

  // Remove asks first.
  await page.getByTestId('api-19-remove').click();
  await confirmWith(page, `Remove API 20 (DELETE ${target.origin}/api/v3/user/{{username}})?`, 'Remove');
  await expect(page.getByTestId('api-count')).toHaveText('19 in plan');
  const edited = await titles(page);
  expect(edited).toEqual([imported[0], 'Update an existing pet._copy', ...imported.slice(1, 18)]);

  // An expanded card has the three tabs.
  await page.getByTestId('api-1-toggle').click();
  await expect(page.getByTestId('api-1').getByRole('tab')).toHaveText(['Basic', 'Authorization', 'Headers']);
  await expect(page.getByTestId('api-1-name')).toHaveValue('Update an existing pet._copy');
  await page.getByTestId('api-0').scrollIntoViewIfNeeded();
  await viewScreenshot(page, 'script-input-step2-1280-card');

  // docs/reference/01-authoring.md §5: Validate waits for a script.
  await expect(page.getByTestId('validate-plan')).toBeDisabled();
  await page.getByTestId('generate-plan').click();
  await expectEditorText(page.getByTestId('script-text'), /<jmeterTestPlan/);
  await expect(page.getByTestId('script-filename')).toHaveText('performance_test_jmeter.jmx');

  // Validate calls the local target once per API, from the server.
  const before = target.received;
  await page.getByTestId('validate-plan').click();
  const card = page.getByTestId('validation-card');
  await expect(card.getByTestId('validation-totals')).toContainText('Total APIs19', { timeout: 30_000 });
  expect(target.received - before).toBeGreaterThanOrEqual(19);
  await page
    .getByTestId('plan-actions')
    .evaluate((element) => window.scrollTo(0, element.getBoundingClientRect().top + window.scrollY - 72));
  await viewScreenshot(page, 'script-input-step2-1280-actions');

  await page.getByTestId('save-plan').click();
  await expectNotice(messages, 'Test plan saved successfully!');
  await expect(page).toHaveURL(/\/create-test\/script-input\?planId=[\w-]+$/);
  await expect(page.getByTestId('save-plan')).toHaveText('Update Test Plan');

  await page.reload();
  await expect(page.getByTestId('script-input-page')).toHaveAttribute('data-step', 'configure');
  await expect(page.getByTestId('plan-name')).toHaveValue('Swagger Petstore - OpenAPI 3.0');
  await expect(page.getByTestId('api-count')).toHaveText('19 in plan');
  expect(await titles(page)).toEqual(edited);
  await expect(page.getByTestId('upload-step')).toHaveCount(0);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByTestId('api-0-toggle').click();
  await page
    .getByTestId('api-0')
    .evaluate((element) => window.scrollTo(0, element.getBoundingClientRect().top + window.scrollY - 72));
  await viewScreenshot(page, 'script-input-step2-390-card');
  await page
    .getByTestId('plan-actions')
    .evaluate((element) => window.scrollTo(0, element.getBoundingClientRect().top + window.scrollY - 72));
  await viewScreenshot(page, 'script-input-step2-390-actions');
  await page.goto('/create-test/script-input');
  await expect(page.getByTestId('script-input-page')).toHaveAttribute('data-step', 'upload');
  await page.getByTestId('upload-kind-csv').check();
  await viewScreenshot(page, 'script-input-step1-390');
});

test('a Postman collection with nested folders imports every request in order', async ({ page }) => {
  await signedIn(page, 'script-postman');
  await page.goto('/create-test/script-input');
  await page.getByTestId('upload-kind-postman').check();
  await page.getByTestId('upload-file').setInputFiles(NESTED_POSTMAN);
  await page.getByTestId('upload-proceed').click();
  await importAll(page, 20);

  await expect(page.getByTestId('script-input-page')).toHaveAttribute('data-step', 'configure');
  // fixtures/README.md: requests 20, in 6 folders up to 2 deep.
  await expect(page.getByTestId('api-count')).toHaveText('20 in plan');
  const expected = postmanRequestNames(NESTED_POSTMAN);
  expect(expected).toHaveLength(20);
  expect(await titles(page)).toEqual(expected);
  await expect(page.getByTestId('import-warnings')).toContainText('not run by a load test');
});

test('a malformed or mismatched file gets a clear message and the screen stays usable', async ({ page }) => {
  await signedIn(page, 'script-broken');
  await page.goto('/create-test/script-input');

  await page.getByTestId('upload-proceed').click();
  await expect(page.getByTestId('upload-error')).toHaveText('Please select a Swagger file first');

  await page.getByTestId('upload-file').setInputFiles(BROKEN_YAML);
  await page.getByTestId('upload-proceed').click();
  await expect(page.getByTestId('upload-error')).toContainText(
    'invalid-yaml-syntax.yaml: YAML syntax error at line 7, column 1',
  );
  await expect(page.getByTestId('upload-proceed')).toBeEnabled();

  // An OpenAPI document offered as a Postman collection: the server says what the file is.
  await page.getByTestId('upload-kind-postman').check();
  await page.getByTestId('upload-file').setInputFiles({
    name: 'petstore.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify({ openapi: '3.0.0', info: { title: 't', version: '1' }, paths: {} })),
  });
  await page.getByTestId('upload-proceed').click();
  await expect(page.getByTestId('upload-error')).toContainText('petstore.json');
  await expect(page.getByTestId('upload-error')).toContainText('not a Postman collection');

  // The same screen then imports a good file.
  await page.getByTestId('upload-kind-swagger').check();
  await page.getByTestId('upload-file').setInputFiles(PETSTORE);
  await page.getByTestId('upload-proceed').click();
  await importAll(page, 19);
  await expect(page.getByTestId('api-count')).toHaveText('19 in plan');
});

test('Run Script from the upload screen saves the plan and opens its live result', async ({ page }) => {
  await signedIn(page, 'script-run');
  await page.goto('/create-test/script-input');
  await page.getByTestId('upload-kind-curl').check();
  await page.getByTestId('upload-curl').fill(`curl ${target.origin}/health`);
  await page.getByTestId('upload-proceed').click();
  await expect(page.getByTestId('api-count')).toHaveText('1 in plan');
  // A pasted command gives the plan no name: the user names it.
  await expect(page.getByTestId('plan-name')).toHaveValue('');
  await page.getByTestId('plan-name').fill(`Run from upload ${Date.now()}`);
  await page.getByTestId('plan-users').fill('2');

  const before = target.received;
  await page.getByTestId('run-script').click();
  await expect(page).toHaveURL(/\/test-result\/run_[\w-]+$/);
  await expect(page.getByTestId('live-panel')).toBeVisible({ timeout: 15_000 });
  await expect.poll(() => target.received - before, { timeout: 15_000 }).toBeGreaterThan(0);

  // Bounded: the run is stopped as soon as it is seen working.
  await page.getByTestId('stop-test').click();
  // Stop asks first (docs/reference/02-running.md §4).
  await page.getByTestId('confirm-accept').click();
  await expect(page.getByTestId('stop-test')).toHaveCount(0, { timeout: 10_000 });
});

test('the plan exports to a Postman collection and a CSV file that import again with the same APIs', async ({
  page,
}) => {
  await signedIn(page, 'script-export');
  await page.goto('/create-test/script-input');
  await page.getByTestId('upload-kind-swagger').check();
  await page.getByTestId('upload-file').setInputFiles(PETSTORE);
  await page.getByTestId('upload-base-url').fill(target.origin);
  await page.getByTestId('upload-proceed').click();
  await importAll(page, 19);
  await expect(page.getByTestId('api-count')).toHaveText('19 in plan');
  const original = await titles(page);

  await page.getByTestId('view-details').click();
  const dialog = page.getByTestId('details-dialog');
  const [postman] = await Promise.all([
    page.waitForEvent('download'),
    dialog.getByTestId('export-postman').click(),
  ]);
  expect(postman.suggestedFilename()).toBe('Swagger_Petstore_-_OpenAPI_3.0.postman_collection.json');
  const postmanPath = await postman.path();
  const collection = JSON.parse(readFileSync(postmanPath, 'utf8')) as { item: { name: string }[] };
  expect(collection.item).toHaveLength(19);
  // Imported calls have no think time, so the collection holds all the plan says: nothing to warn about.
  await expect(dialog.getByTestId('export-warnings')).toHaveCount(0);
  const [csv] = await Promise.all([page.waitForEvent('download'), dialog.getByTestId('export-csv').click()]);
  expect(csv.suggestedFilename()).toBe('Swagger_Petstore_-_OpenAPI_3.0.csv');
  const csvPath = await csv.path();
  await page.keyboard.press('Escape');

  // Each file, uploaded again, gives the same APIs in the same order.
  for (const [kind, path, name] of [
    ['postman', postmanPath, 'petstore.postman_collection.json'],
    ['csv', csvPath, 'petstore.csv'],
  ] as const) {
    await page.getByTestId('upload-another').click();
    await page.getByTestId(`upload-kind-${kind}`).check();
    await page
      .getByTestId('upload-file')
      .setInputFiles({ name, mimeType: 'text/plain', buffer: readFileSync(path) });
    await page.getByTestId('upload-proceed').click();
    await importAll(page, 19);
    await expect(page.getByTestId('api-count'), kind).toHaveText('19 in plan');
    expect(await titles(page), kind).toEqual(original);
  }
});
