import { expect, test, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { CountingTarget } from './counting-target';
import { confirmWith, expectNotice, FIXTURES, newAccount, register, signIn, watchMessages } from './helpers';
import { editorText, expectEditorText } from './editor-text';

/**
 * The functional script input screen (docs/reference/02-running.md §2 "Functional Script Input screen")
 * in a real browser against the built app: the sample script pointed at a local target that counts what
 * it gets, an `if:` block the reader cannot run shown on its line, the run on the result screen with an
 * assertion's expected and actual value; then a Postman collection turned into a script.
 */

const SHOTS = join(process.cwd(), 'test-results');
const NESTED_POSTMAN = join(FIXTURES, 'postman', 'postman-to-k6', 'example', 'v2', 'nested-folders.json');

const seen = { getPost: 0, createPost: 0, never: 0, other: 0 };
const target = new CountingTarget((request) => {
  const path = (request.url ?? '').split('?')[0];
  if (request.method === 'GET' && path === '/posts/1') {
    seen.getPost++;
    return { body: JSON.stringify({ id: 1, title: 'first' }) };
  }
  if (request.method === 'POST' && path === '/posts') {
    seen.createPost++;
    return { status: 201, body: JSON.stringify({ id: 101, title: 'hello' }) };
  }
  if (path === '/never') {
    seen.never++;
    return {};
  }
  seen.other++;
  return { status: 404, body: '{}' };
});

test.beforeAll(() => target.start());
test.afterAll(() => target.stop());

async function shot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

async function signedIn(page: Page, label: string) {
  const account = newAccount(label);
  await register(page, account);
  await signIn(page, account.email, account.password);
}

test('runs the edited sample script, shows what will not run on its line, and reads its assertions', async ({
  page,
}) => {
  const messages = watchMessages(page);
  await signedIn(page, 'functional-script');
  await page.goto('/functional-test/script-input');
  await expect(page.getByText('Taurus Script Configuration')).toBeVisible();
  await expect(page.getByTestId('functional-start')).toBeDisabled();

  await page.getByTestId('load-sample').click();
  await expect(page.getByTestId('parsed-apis-title')).toHaveText('Parsed APIs (2) - Execution Order');
  const sample = await editorText(page.getByTestId('script-content'));
  expect(sample).toContain('hold-for: 1m');

  // Point it at the local target, and add a block the reader cannot run.
  const edited = `${sample.replaceAll('https://jsonplaceholder.typicode.com', target.origin)}      - if: \${ready}
        then:
          - ${target.origin}/never
`;
  await page.getByTestId('script-content').fill(edited);
  const ifLine = edited.split('\n').findIndex((line) => line.includes('- if:')) + 1;
  await expect(page.getByTestId(`script-line-marker-${ifLine}`)).toBeVisible();
  const warning = page.getByTestId('script-warning-0');
  await expect(warning).toContainText(`Line ${ifLine}`);
  await expect(warning).toContainText('requests[2]');
  await expect(warning).toContainText('skipped');
  await expect(page.getByTestId('parsed-api-0-url')).toHaveText(`${target.origin}/posts/1`);
  await expect(page.getByTestId('auth-notice')).toContainText('Authorization Notice');

  // A rule of Create post's own: a plan rule naming the API, judged on that API only.
  await page.getByTestId('parsed-api-1-rule-expected').fill('201');
  await page.getByTestId('parsed-api-1-rule-add').click();
  await expect(page.getByTestId('parsed-api-1-rule-list')).toContainText('201');
  await page.getByTestId('test-name').fill('Sample against the target');
  await page.setViewportSize({ width: 1280, height: 900 });
  await shot(page, 'functional-script-1280');
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId('script-content')).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await shot(page, 'functional-script-390');
  await page.getByTestId('script-warnings').scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(SHOTS, 'functional-script-390-editor.png') });
  await page.setViewportSize({ width: 1280, height: 900 });

  await page.getByTestId('functional-start').click();
  await expect(page).toHaveURL(/\/functional-test-result\/fc_\S+$/, { timeout: 20_000 });
  await expect.poll(() => seen.createPost, { timeout: 30_000 }).toBe(1);
  expect(seen).toEqual({ getPost: 1, createPost: 1, never: 0, other: 0 });
  await expect(page.getByTestId('result-status')).toHaveAttribute('data-status', 'completed', {
    timeout: 30_000,
  });
  const groups = page.getByTestId('call-result');
  const getPost = groups.filter({ hasText: 'Get post' }).first();
  const createPost = groups.filter({ hasText: 'Create post' }).first();
  const jsonPath = getPost.getByTestId('validation-detail').filter({ hasText: 'json_path' });
  await expect(jsonPath).toContainText('$.id is 1');
  await expect(jsonPath.getByTestId('detail-actual')).toHaveText('1');
  const created = createPost.getByTestId('validation-detail').filter({ hasText: 'status_code' });
  await expect(created.getByTestId('detail-expected')).toHaveText('201');
  await expect(created.getByTestId('detail-actual')).toHaveText('201');
  // Get post is not judged by Create post's rule.
  await expect(getPost.getByTestId('validation-detail').filter({ hasText: '201' })).toHaveCount(0);
  await shot(page, 'functional-script-result');
  expect(messages.browserDialogs).toEqual([]);

  // Back comes to the script screen with the plan.
  await page.getByTestId('back-button').click();
  await expect(page).toHaveURL(/\/functional-test\/script-input\?planId=\S+$/);
  await expect(page.getByTestId('test-name')).toHaveValue('Sample against the target');
});

test('turns a Postman collection into a script and lists its APIs', async ({ page }) => {
  const messages = watchMessages(page);
  await signedIn(page, 'functional-script-postman');
  await page.goto('/functional-test/script-input');
  await page.getByTestId('file-type').selectOption('postman');
  await page.getByTestId('script-file').setInputFiles(NESTED_POSTMAN);
  // A real collection with tests: the notice says they are not in the script, and where they run.
  await expectNotice(
    messages,
    /^File parsed successfully! \d+ APIs loaded and script generated\. The collection's \d+ tests are not in the script: import it on the API Test screen to run them\.$/,
  );
  await expectEditorText(page.getByTestId('script-content'), /\S/);
  await expect(page.getByTestId('parsed-api-0')).toBeVisible();

  // Deleting an API takes it out of the script.
  const name = (await page.getByTestId('parsed-api-0-name').textContent()) ?? '';
  const before = await page.getByTestId(/^parsed-api-\d+$/).count();
  await page.getByTestId('parsed-api-0-delete').click();
  await confirmWith(
    page,
    `Are you sure you want to delete the API "${name}"? This will also remove all its validations.`,
    'Delete',
  );
  await expect(page.getByTestId(/^parsed-api-\d+$/)).toHaveCount(before - 1);
});
