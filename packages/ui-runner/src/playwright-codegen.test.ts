import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPlaywrightScript } from '@aqa/converters';
import { FunctionalPlanSchema } from '@aqa/plan';
import { UiBrowserPool } from './browser-pool';
import { CHROMIUM, serveDirectory, ShotStore } from './test-helpers';
import { createUiRunner } from './ui-run';

/*
 * A script as `playwright codegen` writes it, read into a UI plan and run by the UI runner in the real
 * Chromium against a sign-in page served on loopback (docs/adr/0030-recorded-ui-tests.md §2): it passes
 * as it does under Playwright, and a changed expectation fails at its line, named by its statement.
 */

const PAGES = {
  'login.html': `<!doctype html><title>Sign in</title>
    <form action="/home.html" method="get">
      <label for="email">Email</label><input id="email" name="email">
      <input placeholder="Password" type="password" name="pw">
      <label><input type="checkbox" data-testid="remember" name="remember"> Remember me</label>
      <select id="plan" name="plan"><option value="free">Free</option><option value="pro">Pro</option></select>
      <button type="submit">Sign in</button>
    </form>`,
  'home.html': `<!doctype html><title>Home</title><h1>Hello Ada</h1><p id="note">You are signed in.</p>
    <div data-testid="banner" hidden>Promotion</div>`,
};

let dir: string;
let site: { origin: string; close: () => Promise<void> };
let pool: UiBrowserPool;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'aqa-codegen-'));
  for (const [name, html] of Object.entries(PAGES)) writeFileSync(join(dir, name), html);
  site = await serveDirectory(dir);
  pool = new UiBrowserPool({ executablePath: CHROMIUM, maxBrowsers: 1, stepTimeoutMs: 10_000 });
});
afterAll(async () => {
  await pool.close();
  await site.close();
  rmSync(dir, { recursive: true, force: true });
});

const script = (heading: string) => `import { test, expect } from '@playwright/test';

test('sign in', async ({ page }) => {
  await page.goto('${site.origin}/login.html');
  await page.getByLabel('Email').fill('ada@example.com');
  await page.getByPlaceholder('Password').fill('secret');
  await page.getByTestId('remember').check();
  await page.locator('#plan').selectOption('pro');
  await expect(page.getByLabel('Email')).toHaveValue('ada@example.com');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading')).toHaveText('${heading}');
  await expect(page.locator('#note')).toContainText('signed in');
  await expect(page.getByTestId('banner')).not.toBeVisible();
  await expect(page).toHaveTitle('Home');
  await expect(page).toHaveURL('${site.origin}/home.html?email=ada%40example.com&pw=secret&remember=on&plan=pro');
});
`;

async function run(text: string) {
  const plan = FunctionalPlanSchema.parse(readPlaywrightScript({ name: 'sign-in.spec.js', text }).plan);
  return createUiRunner(pool)(plan, { saveScreenshot: new ShotStore().save }).result;
}

describe('a Playwright codegen script', () => {
  it('passes as it does under Playwright, every statement run', async () => {
    const outcome = await run(script('Hello Ada'));
    const step = outcome.validation_results[0]!;
    expect(step.error).toBeNull();
    expect(step.success).toBe(true);
    expect(step.ui!.actions).toHaveLength(12);
    expect(step.ui!.actions.every((a) => a.passed)).toBe(true);
  }, 90_000);

  it('fails at the statement whose expectation does not hold, naming it and its line', async () => {
    const outcome = await run(script('Hello Grace'));
    const step = outcome.validation_results[0]!;
    expect(step.success).toBe(false);
    expect(step.error).toBe(
      "expect(page.getByRole('heading')).toHaveText('Hello Grace') (line 11) failed: expected the text \"Hello Grace\" in the element by role: heading, found \"Hello Ada\"; the step's 4 remaining actions were skipped",
    );
    expect(step.ui!.actions.map((a) => a.passed)).toEqual([true, true, true, true, true, true, true, false]);
  }, 90_000);
});
