import { expect, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

/** test-fixtures/ at the repository root: real files written by other people (see its README). */
export const FIXTURES = join(process.cwd(), 'test-fixtures');

export const DEMO = { username: 'demo@anybodyqa.dev', password: 'demo1234' };

/** A new, unique account for one test (the e2e database is shared by the whole run). */
export function newAccount(label: string) {
  const id = `${label}-${Date.now()}-${Math.floor(performance.now() * 1000) % 100000}`;
  return {
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: `${id}@example.com`,
    password: 'secret-pass-1',
    company: 'Analytical Engines',
    role: 'QA Engineer',
  };
}

export async function register(page: Page, account: ReturnType<typeof newAccount>) {
  await page.goto('/register');
  await page.getByTestId('register-first-name').fill(account.firstName);
  await page.getByTestId('register-last-name').fill(account.lastName);
  await page.getByTestId('register-email').fill(account.email);
  await page.getByTestId('register-password').fill(account.password);
  await page.getByTestId('register-confirm-password').fill(account.password);
  await page.getByTestId('register-company').fill(account.company);
  await page.getByTestId('register-role').fill(account.role);
  await page.getByTestId('register-submit').click();
  await expect(page).toHaveURL(/\/login$/);
  // The success notice outlives the registration screen: it is read on the sign-in screen.
  await expect(
    page.getByRole('status').filter({ hasText: 'Account created successfully! Please sign in.' }),
  ).toBeVisible();
}

export async function signIn(page: Page, username: string, password: string) {
  if (!page.url().endsWith('/login')) await page.goto('/login');
  await page.getByTestId('login-username').fill(username);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

const SHOTS = join(process.cwd(), 'e2e', 'screenshots');

/**
 * A full-page screenshot at a width, into test-results/{folder}/{name}-{width}.png, for a person to look
 * at: from the top, so the fixed header and sidebar are where a person sees them; the layout settles first.
 */
export async function screenshotAtWidth(page: Page, folder: string, name: string, width: number) {
  const dir = join(process.cwd(), 'test-results', folder);
  mkdirSync(dir, { recursive: true });
  await page.setViewportSize({ width, height: 900 });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(dir, `${name}-${width}.png`), fullPage: true });
}

/** Saves a full-page screenshot for a person to look at (e2e/screenshots, not committed). */
export async function screenshot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

/**
 * The app's messages are in-app notices and confirmations, never the browser's blocking alert() or
 * confirm(). A browser dialog that opens anyway is recorded (and dismissed), so a test can prove none did.
 * The one browser question the app asks is the leave-page one (`beforeunload`, unsaved work on reload or
 * tab close: docs/reference/01-authoring.md §4): it is counted and accepted, as the test meant to leave.
 */
export interface PageMessages {
  page: Page;
  browserDialogs: string[];
  leaveQuestions: number;
}

export function watchMessages(page: Page): PageMessages {
  const messages: PageMessages = { page, browserDialogs: [], leaveQuestions: 0 };
  page.on('dialog', (dialog) => {
    if (dialog.type() === 'beforeunload') {
      messages.leaveQuestions += 1;
      void dialog.accept();
      return;
    }
    messages.browserDialogs.push(dialog.message());
    void dialog.dismiss();
  });
  return messages;
}

/** Waits until the page shows `message` in an in-app notice, word for word, and no browser dialog opened. */
export async function expectNotice(messages: PageMessages, message: string | RegExp) {
  const texts = messages.page.getByTestId('notice-text');
  const seen = async () => texts.allTextContents();
  const matches = (text: string) => (typeof message === 'string' ? text === message : message.test(text));
  await expect
    .poll(async () => (await seen()).some(matches), {
      message: `a notice saying ${String(message)}; seen: ${JSON.stringify(await seen())}`,
    })
    .toBe(true);
  expect(messages.browserDialogs).toEqual([]);
}

/** Answers the in-app confirmation that asks `question` with its confirm button, named by the action. */
export async function confirmWith(page: Page, question: string, action: string) {
  const dialog = page.getByRole('alertdialog', { name: question });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: action, exact: true }).click();
  await expect(dialog).toHaveCount(0);
}

/** Saves what the viewport shows now (e2e/screenshots): for screens longer than one view. */
export async function viewScreenshot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
}
