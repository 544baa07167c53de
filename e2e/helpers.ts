import { expect, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

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
  const dialog = page.waitForEvent('dialog');
  await page.getByTestId('register-submit').click();
  const alert = await dialog;
  expect(alert.message()).toBe('Account created successfully! Please sign in.');
  await alert.accept();
  await expect(page).toHaveURL(/\/login$/);
}

export async function signIn(page: Page, username: string, password: string) {
  if (!page.url().endsWith('/login')) await page.goto('/login');
  await page.getByTestId('login-username').fill(username);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

const SHOTS = join(process.cwd(), 'e2e', 'screenshots');

/** Saves a full-page screenshot for a person to look at (e2e/screenshots, not committed). */
export async function screenshot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

/**
 * Accepts every alert and confirm of the page and keeps their texts, in order, for the test to read
 * (the spec's messages are window.alert).
 */
export function collectDialogs(page: Page): string[] {
  const messages: string[] = [];
  page.on('dialog', (dialog) => {
    messages.push(dialog.message());
    void dialog.accept();
  });
  return messages;
}

/** Waits until the page has shown `message` in an alert (collected by collectDialogs). */
export async function expectDialog(messages: string[], message: string | RegExp) {
  await expect
    .poll(() => messages.some((m) => (typeof message === 'string' ? m === message : message.test(m))), {
      message: `an alert saying ${String(message)}; seen: ${JSON.stringify(messages)}`,
    })
    .toBe(true);
}

/** Saves what the viewport shows now (e2e/screenshots): for screens longer than one view. */
export async function viewScreenshot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
}
