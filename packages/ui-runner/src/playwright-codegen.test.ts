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
  'shop.html': `<!doctype html><title>Plan shop</title>
    <ul><li>Free <button>Choose</button></li><li>Pro plan <button>Choose</button></li></ul>
    <p id="picked"></p><input id="q"><input type="checkbox" id="agree">
    <iframe id="pay" src="card.html"></iframe>
    <script>
      for (const b of document.querySelectorAll('li button'))
        b.onclick = () => setTimeout(() => {
          document.getElementById('picked').textContent = 'You picked ' + b.parentElement.firstChild.textContent.trim();
          b.setAttribute('aria-pressed', 'true');
        }, 500);
    </script>`,
  'card.html': `<!doctype html><label for="card">Card</label><input id="card">
    <button onclick="document.getElementById('ok').textContent = 'Paid ' + document.getElementById('card').value">Pay</button>
    <p id="ok"></p>`,
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
      "expect(page.getByRole('heading')).toHaveText('Hello Grace') (line 11) failed: expected the text \"Hello Grace\" in the element by role: heading, found \"Hello Ada\" (looked again for 5 s); the step's 4 remaining actions were skipped",
    );
    expect(step.ui!.actions.map((a) => a.passed)).toEqual([true, true, true, true, true, true, true, false]);
  }, 90_000);
});

/** Chained locators, frames, regular expressions, key combinations and the other matchers (the text shows late). */
const shop = (picked: string) => `import { test, expect } from '@playwright/test';

test('choose a plan', async ({ page }) => {
  await page.goto('${site.origin}/shop.html');
  await page.getByRole('listitem').filter({ hasText: /pro/i }).getByRole('button', { name: /choose/i }).click();
  await expect(page.locator('#picked')).toHaveText(${picked});
  await expect(page.locator('li').last().getByRole('button')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.locator('li').first().getByRole('button')).not.toHaveAttribute('aria-pressed');
  await expect(page.locator('li')).toHaveCount(2);
  await expect(page.locator('#q')).toBeEmpty();
  await page.locator('#q').fill('abc');
  await page.locator('#q').press('Control+A');
  await page.locator('#q').press('Backspace');
  await expect(page.locator('#q')).toBeEmpty();
  await expect(page.locator('#agree')).toBeChecked({ checked: false });
  await page.frameLocator('#pay').getByLabel('Card').fill('4242');
  await page.locator('#pay').contentFrame().getByRole('button', { name: 'Pay' }).click();
  await expect(page.frameLocator('#pay').locator('#ok')).toHaveText('Paid 4242');
  await expect(page).toHaveTitle(/shop/i);
  await page.waitForURL('**/shop.html');
});
`;

describe('a codegen script with chained locators, frames, regular expressions and more matchers', () => {
  it('passes as it does under Playwright, the late text waited for as expect waits', async () => {
    const plan = FunctionalPlanSchema.parse(
      readPlaywrightScript({ name: 'shop.spec.js', text: shop('/you picked pro/i') }).plan,
    );
    const step = (await createUiRunner(pool)(plan, { saveScreenshot: new ShotStore().save }).result)
      .validation_results[0]!;
    expect(step.error).toBeNull();
    expect(step.ui!.actions).toHaveLength(17);
    expect(step.ui!.actions.filter((a) => !a.passed)).toEqual([]);
  }, 90_000);

  it('fails at the line whose expectation never holds, after looking again for 5 s', async () => {
    const plan = FunctionalPlanSchema.parse(
      readPlaywrightScript({ name: 'shop.spec.js', text: shop('/you picked free/i') }).plan,
    );
    const started = Date.now();
    const step = (await createUiRunner(pool)(plan, { saveScreenshot: new ShotStore().save }).result)
      .validation_results[0]!;
    expect(Date.now() - started).toBeGreaterThan(5_000);
    expect(step.success).toBe(false);
    expect(step.error).toBe(
      "expect(page.locator('#picked')).toHaveText(/you picked free/i) (line 6) failed: expected the text to match /you picked free/i in the element by css: #picked, found \"You picked Pro plan\" (looked again for 5 s); the step's 14 remaining actions were skipped",
    );
    expect(step.ui!.actions.map((a) => a.passed)).toEqual([true, true, false]);
  }, 90_000);
});
