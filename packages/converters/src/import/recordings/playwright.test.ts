import { describe, expect, it } from 'vitest';
import { FunctionalPlanSchema } from '@aqa/plan';
import { ImportError } from '../import-model';
import { looksLikePlaywright, readPlaywrightScript } from './playwright';

/*
 * Scripts as `npx playwright codegen` writes them (docs/adr/0030-recorded-ui-tests.md §2): the test runner's
 * form and the library's, read with a parser into actions with their lines; anything else refused by line.
 */

const CODEGEN = `import { test, expect } from '@playwright/test';

test('sign in', async ({ page }) => {
  await page.goto('http://127.0.0.1:8080/login');
  await page.getByLabel('Email').fill('ada@example.com');
  await page.getByPlaceholder('Password').fill('secret');
  await page.getByPlaceholder('Password').press('Enter');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByTestId('remember').check();
  await page.locator('#plan').selectOption('pro');
  await page.getByText('Welcome').click({ button: 'right' });
  await expect(page.getByRole('heading')).toHaveText('Hello Ada');
  await expect(page.locator('#note')).toContainText('signed');
  await expect(page.getByLabel('Email')).toHaveValue('ada@example.com');
  await expect(page.getByTestId('banner')).not.toBeVisible();
  await expect(page).toHaveTitle('Home');
  await expect(page).toHaveURL('http://127.0.0.1:8080/home');
});

test.describe('more', () => {
  test('second', async ({ page }) => {
    await page.goto('http://127.0.0.1:8080/');
  });
});
`;

const LIBRARY = `const { chromium } = require('playwright');

(async () => {
  const browser = await chromium.launch({
    headless: false
  });
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto('http://127.0.0.1:8080/');
  await page.getByRole('link', { name: 'Next' }).click();

  // ---------------------
  await context.close();
  await browser.close();
})();
`;

describe('Playwright codegen scripts', () => {
  it("reads the test runner's form: one step per test, one action per statement, with its line", () => {
    expect(looksLikePlaywright(CODEGEN)).toBe(true);
    const read = readPlaywrightScript({ name: 'sign-in.spec.ts', text: CODEGEN });
    expect(read.format).toBe('playwright');
    expect(read.plan.test_name).toBe('sign-in');
    expect(read.plan.apis.map((a) => [a.name, a.actions?.length])).toEqual([
      ['sign in', 14],
      ['second', 1],
    ]);
    const actions = read.plan.apis[0]!.actions;
    expect(actions[0]).toEqual({
      kind: 'go',
      source: {
        action: "page.goto('http://127.0.0.1:8080/login')",
        path: "Playwright test 'sign in', line 4",
        line: 4,
      },
      url: 'http://127.0.0.1:8080/login',
    });
    expect(actions.slice(1).map(({ source: _source, ...rest }) => rest)).toEqual([
      { kind: 'type', locators: [{ by: 'label', value: 'Email' }], text: 'ada@example.com' },
      { kind: 'type', locators: [{ by: 'placeholder', value: 'Password' }], text: 'secret' },
      { kind: 'keys', locators: [{ by: 'placeholder', value: 'Password' }], keys: 'KEY_ENTER' },
      { kind: 'click', locators: [{ by: 'role', value: 'button', name: 'Sign in', exact: true }] },
      { kind: 'check', locators: [{ by: 'testid', value: 'remember' }] },
      { kind: 'select', locators: [{ by: 'css', value: '#plan' }], option: 'pro', by: 'value' },
      { kind: 'click', locators: [{ by: 'text', value: 'Welcome' }], button: 'right' },
      { kind: 'assertText', locators: [{ by: 'role', value: 'heading' }], expected: 'Hello Ada' },
      { kind: 'assertText', locators: [{ by: 'css', value: '#note' }], expected: 'signed', contains: true },
      { kind: 'assertValue', locators: [{ by: 'label', value: 'Email' }], expected: 'ada@example.com' },
      { kind: 'assertNotVisible', locators: [{ by: 'testid', value: 'banner' }] },
      { kind: 'assertTitle', expected: 'Home' },
      { kind: 'assertUrl', expected: 'http://127.0.0.1:8080/home' },
    ]);
    expect(FunctionalPlanSchema.safeParse(read.plan).success).toBe(true);
  });

  it("reads the library's form, leaving out its own set-up and tear-down", () => {
    const read = readPlaywrightScript({ name: 'flow.js', text: LIBRARY });
    expect(read.plan.apis).toHaveLength(1);
    expect(read.plan.apis[0]!.name).toBe('flow');
    expect(read.plan.apis[0]!.actions.map((a) => a.kind)).toEqual(['go', 'click']);
  });

  it('refuses what is outside the subset, naming the line', () => {
    const refused = (body: string) => () =>
      readPlaywrightScript({
        name: 't.spec.js',
        text: `import { test, expect } from '@playwright/test';\ntest('t', async ({ page }) => {\n${body}\n});\n`,
      });
    expect(refused("  const popup = page.waitForEvent('popup');")).toThrow(
      /t\.spec\.js: line 3: it is not an awaited page action or assertion/,
    );
    expect(refused("  await page.getByRole('row').nth(2).click();")).toThrow(/line 3: a chained locator/);
    expect(refused('  await page.getByText(/Hello/).click();')).toThrow(
      /line 3: the getByText argument is not a string/,
    );
    expect(refused("  await expect(page.locator('#x')).toHaveCount(2);")).toThrow(
      /line 3: \.toHaveCount\(…\) is not an assertion AnybodyQA reads/,
    );
    expect(refused("  await page.getByLabel('x').press('Control+A');")).toThrow(
      /line 3: the key "Control\+A"/,
    );
    expect(() =>
      readPlaywrightScript({
        name: 'typed.spec.ts',
        text: "import { test } from '@playwright/test';\nconst n: number = 1;\n",
      }),
    ).toThrow(ImportError);
    expect(looksLikePlaywright('const x = 1;')).toBe(false);
  });
});
