import { expect, test, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { expectNotice, newAccount, register, signIn, watchMessages } from './helpers';

/**
 * A recorded test brought to the UI Functional Test screen (docs/recorded-ui-tests.md "Editing and
 * uploading", docs/adr/0030-recorded-ui-tests.md §6) in a real browser against the built app: a small
 * Selenium IDE project (e2e/fixtures/sign-in.side, written for this test in the shape Selenium IDE saves)
 * is uploaded with "Import recording" and read by the server's parse-file; its steps show on the card,
 * two are edited (the page's address, to a local sign-in page, and the verify's text), the plan is saved,
 * and after a reload the edits are still there and nothing else changed. Started, the browser runs every
 * step on that page: the edited verify fails and names its recorder's command as edited, the rest pass.
 */

const SHOTS = join(process.cwd(), 'test-results', 'functional-ui-recording');
const SIDE = join(process.cwd(), 'e2e', 'fixtures', 'sign-in.side');

/** The page the project was recorded on: an e-mail field and a button that greets its owner. */
const SIGN_IN = `<!doctype html><html><head><meta charset="utf-8"><title>Sign in</title></head><body>
<input id="email"><button id="go" type="button">Sign in</button><p id="out"></p>
<script>
document.getElementById('go').addEventListener('click', () => {
  const email = document.getElementById('email').value;
  document.getElementById('out').textContent = email === 'ada@example.com' ? 'Hello Ada' : 'Who are you?';
  document.title = 'Signed in';
});
</script></body></html>`;

let site: Server | undefined;
let origin = '';

test.beforeAll(async () => {
  site = createServer((request, response) => {
    request.resume();
    if ((request.url ?? '').split('?')[0] !== '/sign-in.html') {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(SIGN_IN);
  });
  const server = site;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
test.afterAll(async () => {
  const server = site;
  if (!server) return;
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function shot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

/** Each step's kind, top to bottom: the select's value, or the read-only badge's text. */
async function stepKinds(page: Page): Promise<string[]> {
  const rows = page.getByTestId(/^ui-test-0-action-\d+$/);
  const kinds: string[] = [];
  for (const row of await rows.all()) {
    const select = row.getByTestId(/-kind$/);
    kinds.push(
      (await select.count()) > 0
        ? await select.inputValue()
        : ((await row.getByTestId(/-kind-badge$/).textContent()) ?? ''),
    );
  }
  return kinds;
}

test('imports a Selenium IDE project on the UI screen, edits a step, saves, and finds it kept after a reload', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const messages = watchMessages(page);
  const account = newAccount('ui-recording');
  await register(page, account);
  await signIn(page, account.email, account.password);
  await page.setViewportSize({ width: 1280, height: 900 });

  await page.goto('/functional-test/ui-url-input');
  const help = page.getByTestId('ui-recording-help');
  await expect(help).toContainText('bring the file here with Import recording');
  await expect(help.getByText('Selenium IDE: record, then Save project')).toBeHidden();
  await help.locator('summary').click();
  await expect(help.getByText('Selenium IDE: record, then Save project')).toBeVisible();
  mkdirSync(SHOTS, { recursive: true });
  await help.screenshot({ path: join(SHOTS, 'help-1280.png') });
  await page.getByTestId('import-recording-file').setInputFiles(SIDE);
  await expectNotice(messages, 'Imported 1 UI tests with 6 steps from sign-in.side');
  await expectNotice(
    messages,
    '1 commented-out commands of sign-in.side were skipped, as the recorder skips them',
  );

  await expect(page.getByTestId('test-name')).toHaveValue('Sign in project');
  await expect(page.getByTestId('ui-test-0-name')).toHaveValue('Sign in');
  await expect(page.getByTestId('ui-test-0-action-count')).toHaveText('6 steps');
  expect(await stepKinds(page)).toEqual([
    'go',
    'type',
    'click',
    'executeScript',
    'assertText',
    'assertTitle',
  ]);
  await expect(page.getByTestId('ui-test-0-action-1-fallbacks')).toHaveText('+2 fallbacks');
  await expect(page.getByTestId('ui-test-0-action-3-description')).toHaveText(
    'return document.title → title',
  );
  await expect(page.getByTestId('ui-test-0-action-4-soft')).toBeChecked();
  await page.getByTestId('notice-dismiss').first().click();
  await shot(page, 'imported-1280');

  // The verify's expected text is edited; a blank one would block Save on its field first.
  await page.getByTestId('ui-test-0-action-4-value').fill('');
  await page.getByTestId('ui-test-0-action-4-locator').fill('');
  await page.getByTestId('functional-save').click();
  await expect(page.getByTestId('ui-test-0-action-4-locator-error')).toHaveText(
    'UI Test #1 step 5: a locator is required',
  );
  await page.getByTestId('ui-test-0-action-4-locator').fill('out');
  await page.getByTestId('ui-test-0-action-4-value').fill('Hello Grace');
  await page.getByTestId('ui-test-0-action-0-value').fill(`${origin}/sign-in.html`);
  await page.getByTestId('functional-save').click();
  await expectNotice(messages, /^Saved! Test ID: \S+$/);
  await expect(page).toHaveURL(/\/functional-test\/ui-url-input\?planId=\S+$/);

  await page.reload();
  await expect(page.getByTestId('test-name')).toHaveValue('Sign in project');
  await expect(page.getByTestId('ui-test-0-action-count')).toHaveText('6 steps');
  expect(await stepKinds(page)).toEqual([
    'go',
    'type',
    'click',
    'executeScript',
    'assertText',
    'assertTitle',
  ]);
  await expect(page.getByTestId('ui-test-0-action-4-value')).toHaveValue('Hello Grace');
  await expect(page.getByTestId('ui-test-0-action-4-locator')).toHaveValue('out');
  await expect(page.getByTestId('ui-test-0-action-0-value')).toHaveValue(`${origin}/sign-in.html`);
  await expect(page.getByTestId('ui-test-0-action-4-soft')).toBeChecked();
  await expect(page.getByTestId('ui-test-0-action-4')).toContainText(
    "From Selenium IDE test 'Sign in', command 6, edited in the UI editor",
  );
  // Untouched steps keep their recorder's place and fallbacks.
  await expect(page.getByTestId('ui-test-0-action-1')).toContainText(
    "From Selenium IDE test 'Sign in', command 2",
  );
  await expect(page.getByTestId('ui-test-0-action-1-fallbacks')).toHaveText('+2 fallbacks');
  await expect(page.getByTestId('ui-test-0-action-3-description')).toHaveText(
    'return document.title → title',
  );
  await expect(page.getByTestId('functional-save-state')).toHaveText('All changes saved');
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, 'reloaded-1280');

  // A 390 px phone: nothing wider than the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  // Measured once the layout has settled at the new width (components that size themselves follow a resize).
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth))
    .toBeLessThanOrEqual(0);
  await shot(page, 'reloaded-390');
  await page.getByTestId('ui-test-0-actions').screenshot({ path: join(SHOTS, 'steps-390.png') });
  await page.setViewportSize({ width: 1280, height: 900 });

  // Started: every step runs on the local page; the edited verify fails, named as edited, and the run goes on.
  await page.getByTestId('functional-start').click();
  await expect(page).toHaveURL(/\/functional-test-result\/fc_\S+$/, { timeout: 20_000 });
  await expect(page.getByTestId('result-status')).toHaveAttribute('data-status', /failed|completed/, {
    timeout: 45_000,
  });
  const step = page.getByTestId('call-result').first();
  await expect(step.getByTestId('call-outcome')).toHaveText('Failed');
  await expect(step.getByTestId('ui-actions')).toContainText('Actions (5/6 passed)');
  await expect(step).toContainText("Selenium IDE test 'Sign in', command 6, edited in the UI editor");
  await expect(step).toContainText('Hello Grace');
  // Each command by its recorder's name (docs/recorded-ui-tests.md "Results"), the two edited here
  // said so; the commented-out command 3 was skipped.
  const commands = step.getByTestId('ui-action');
  await expect(commands.getByTestId('ui-action-at')).toHaveText([
    "Selenium IDE test 'Sign in', command 1, edited in the UI editor",
    "Selenium IDE test 'Sign in', command 2",
    "Selenium IDE test 'Sign in', command 4",
    "Selenium IDE test 'Sign in', command 5",
    "Selenium IDE test 'Sign in', command 6, edited in the UI editor",
    "Selenium IDE test 'Sign in', command 7",
  ]);
  // The failed verify: what it expected and what the page said, apart, and the page as it failed.
  const verify = commands.nth(4);
  await expect(verify).toHaveAttribute('data-passed', 'false');
  await expect(verify.getByTestId('ui-action-expected')).toHaveText('Hello Grace');
  await expect(verify.getByTestId('ui-action-actual')).toHaveText('Hello Ada');
  const failureShot = verify.getByTestId('ui-screenshot');
  await expect(failureShot).toHaveAttribute('data-failure', 'true');
  await expect
    .poll(() => failureShot.getByRole('img').evaluate((img: HTMLImageElement) => img.naturalWidth))
    .toBeGreaterThan(300);
  await expect(commands.nth(5).getByTestId('ui-action-values')).toHaveCount(0);
  // The one page the commands opened, measured by the browser, with its screenshot.
  const pages = step.getByTestId('ui-pages');
  await expect(pages).toContainText('Pages (1)');
  const signInPage = pages.getByTestId('ui-page');
  await expect(signInPage).toHaveCount(1);
  await expect(signInPage.getByTestId('ui-page-url')).toHaveText(`${origin}/sign-in.html`);
  await expect(signInPage.getByTestId('ui-page-figure-ttfb').getByTestId('ui-figure-value')).toHaveText(
    /^[\d.,]+ ms$/,
  );
  await expect(signInPage.getByTestId('ui-page-figure-load').getByTestId('ui-figure-value')).toHaveText(
    /^[\d.,]+ ms$/,
  );
  await expect(signInPage.getByTestId('ui-page-figure-fcp')).toHaveAttribute('data-rating', 'good');
  const pageShot = signInPage.getByRole('button', { name: 'Enlarge screenshot: Page 1' });
  await expect(pageShot).toBeEnabled();
  await pageShot.click();
  const dialog = page.getByRole('dialog', { name: 'Sign in — Page 1' });
  await expect(dialog).toBeVisible();
  await expect
    .poll(() => dialog.getByRole('img').evaluate((img: HTMLImageElement) => img.naturalWidth))
    .toBeGreaterThan(300);
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await step.getByTestId('ui-actions').scrollIntoViewIfNeeded();
  await step.screenshot({ path: join(SHOTS, 'result-step-1280.png') });
  await shot(page, 'result-1280');
  await page.setViewportSize({ width: 390, height: 844 });
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth))
    .toBeLessThanOrEqual(0);
  await step.screenshot({ path: join(SHOTS, 'result-step-390.png') });
  expect(messages.browserDialogs).toEqual([]);
});
