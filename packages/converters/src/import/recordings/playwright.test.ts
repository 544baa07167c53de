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
      {
        kind: 'assertText',
        locators: [{ by: 'role', value: 'heading' }],
        expected: 'Hello Ada',
        retry_ms: 5000,
      },
      {
        kind: 'assertText',
        locators: [{ by: 'css', value: '#note' }],
        expected: 'signed',
        contains: true,
        retry_ms: 5000,
      },
      {
        kind: 'assertValue',
        locators: [{ by: 'label', value: 'Email' }],
        expected: 'ada@example.com',
        retry_ms: 5000,
      },
      { kind: 'assertNotVisible', locators: [{ by: 'testid', value: 'banner' }], retry_ms: 5000 },
      { kind: 'assertTitle', expected: 'Home', retry_ms: 5000 },
      { kind: 'assertUrl', expected: 'http://127.0.0.1:8080/home', retry_ms: 5000 },
    ]);
    expect(FunctionalPlanSchema.safeParse(read.plan).success).toBe(true);
  });

  it("reads the library's form, leaving out its own set-up and tear-down", () => {
    const read = readPlaywrightScript({ name: 'flow.js', text: LIBRARY });
    expect(read.plan.apis).toHaveLength(1);
    expect(read.plan.apis[0]!.name).toBe('flow');
    expect(read.plan.apis[0]!.actions.map((a) => a.kind)).toEqual(['go', 'click']);
    // A second tab opened by hand (codegen's openPage) has no window to follow.
    const twoTabs = LIBRARY.replace(
      "  await page.goto('http://127.0.0.1:8080/');",
      "  const page1 = await context.newPage();\n  await page.goto('http://127.0.0.1:8080/');",
    );
    expect(() => readPlaywrightScript({ name: 'flow.js', text: twoTabs })).toThrow(
      /flow\.js: line 9: it opens a second page by hand \(page1 = …newPage\(\)\), which is not read: record the test in one tab/,
    );
  });

  it('reads popups as codegen writes them: the wait, the window kept, each line on its page', () => {
    const read = readPlaywrightScript({
      name: 'popup.spec.js',
      text: [
        "import { test, expect } from '@playwright/test';",
        "test('popup', async ({ page }) => {",
        "  await page.goto('http://127.0.0.1:8080/');",
        "  const page1Promise = page.waitForEvent('popup');",
        "  await page.getByRole('link', { name: 'Help' }).click();",
        '  const page1 = await page1Promise;',
        "  await expect(page1.getByRole('heading')).toHaveText('Help');",
        "  await page1.goto('http://127.0.0.1:8080/more');",
        '  await page1.close();',
        "  await expect(page).toHaveTitle('Home');",
        '  const [page2] = await Promise.all([',
        "    page.waitForEvent('popup'),",
        "    page.getByText('Terms').click(),",
        '  ]);',
        '  await page2.bringToFront();',
        '});',
      ].join('\n'),
    });
    const actions = read.plan.apis[0]!.actions;
    expect(actions.map((a) => [a.source.line, a.kind, 'handle' in a ? a.handle : a.source.action])).toEqual([
      [3, 'go', "page.goto('http://127.0.0.1:8080/')"],
      [5, 'click', "page.getByRole('link', { name: 'Help' }).click()"],
      [6, 'waitForWindow', 'const page1 = await page1Promise'],
      [7, 'selectWindow', 'handle={{page1}}'],
      [7, 'assertText', "expect(page1.getByRole('heading')).toHaveText('Help')"],
      [8, 'go', "page1.goto('http://127.0.0.1:8080/more')"],
      [9, 'closeWindow', 'page1.close()'],
      [10, 'selectWindow', 'main'],
      [10, 'assertTitle', "expect(page).toHaveTitle('Home')"],
      [11, 'click', expect.stringContaining("page.getByText('Terms').click()")],
      [11, 'waitForWindow', expect.stringContaining('const [page2] = await Promise.all(')],
      [15, 'selectWindow', 'handle={{page2}}'],
    ]);
    expect(actions[2]).toMatchObject({ variable: 'page1', timeout_ms: 30_000 });
    expect(actions[3]!.source.action).toBe('page1 (the page line 7 acts in)');
    expect(actions[11]!.source.action).toBe('page2.bringToFront()');
    expect(FunctionalPlanSchema.safeParse(read.plan).success).toBe(true);
  });

  it('refuses what is outside the subset, naming the line', () => {
    const refused = (body: string) => () =>
      readPlaywrightScript({
        name: 't.spec.js',
        text: `import { test, expect } from '@playwright/test';\ntest('t', async ({ page }) => {\n${body}\n});\n`,
      });
    expect(refused("  await page2.getByText('x').click();")).toThrow(
      /t\.spec\.js: line 3: page2 is not a page of the test: use the test's page, or a popup kept with const page2 = await …Promise after waitForEvent\('popup'\)/,
    );
    expect(refused("  const p = page.waitForEvent('popup', { timeout: 1 });")).toThrow(
      /line 3: the options of waitForEvent\('popup'\) are not read: take them out/,
    );
    expect(refused('  const x = 1;')).toThrow(/line 3: it is not an awaited page action or assertion/);
    expect(refused("  await page.getByRole('row').filter({ has: page.getByText('x') }).click();")).toThrow(
      /line 3: only \.filter\(\{ hasText \}\) is read/,
    );
    expect(refused("  await page.getByRole('row').nth(1).filter({ hasText: 'x' }).click();")).toThrow(
      /line 3: \.filter\(…\) after a position or another filter is not read/,
    );
    expect(refused("  await page.getByRole('row').and(page.getByText('x')).click();")).toThrow(
      /line 3: \.and\(…\) in a locator is not read/,
    );
    expect(refused("  await page.frameLocator('#f').click();")).toThrow(
      /line 3: it acts on a frame, not on an element in it/,
    );
    expect(refused('  await page.getByText(/a(?=b)/y).click();')).toThrow(
      /line 3: the getByText argument \/a\(\?=b\)\/y has flags/,
    );
    expect(refused("  await expect(page.locator('#x')).toHaveCount('2');")).toThrow(
      /line 3: toHaveCount takes a whole number/,
    );
    expect(refused("  await expect(page.locator('#x')).toHaveText(['a', 'b']);")).toThrow(
      /line 3: the text is a list/,
    );
    expect(refused("  await expect(page.locator('#x')).toBeEnabled();")).toThrow(
      /line 3: \.toBeEnabled\(…\) is not an assertion AnybodyQA reads/,
    );
    expect(refused("  await expect(page.locator('#x')).toBeVisible({ ratio: 1 });")).toThrow(
      /line 3: the toBeVisible option ratio is not read/,
    );
    expect(refused("  await page.getByLabel('x').press('Hyper+A');")).toThrow(/line 3: the key "Hyper\+A"/);
    expect(() =>
      readPlaywrightScript({
        name: 'typed.spec.ts',
        text: "import { test } from '@playwright/test';\nconst n: number = 1;\n",
      }),
    ).toThrow(ImportError);
    expect(looksLikePlaywright('const x = 1;')).toBe(false);
  });

  it('reads chained locators, frames, regular expressions, key combinations, waitForURL and more matchers', () => {
    const body = [
      "  await page.getByRole('listitem').filter({ hasText: /pro/i }).getByRole('button', { name: /choose/i }).click();",
      "  await page.locator('#list li').nth(1).click();",
      "  await page.getByRole('row').last().locator('input').press('Control+Shift+ArrowLeft');",
      "  await page.frameLocator('#pay').getByLabel('Card').fill('4242');",
      "  await page.locator('#outer').contentFrame().locator('#inner').contentFrame().getByText('Deep').click();",
      "  await page.waitForURL('**/done*');",
      '  await expect(page.getByText(/thank you/i)).toHaveText(/thank you, ada/i, { timeout: 8000 });',
      "  await expect(page.locator('#q')).toBeEmpty();",
      "  await expect(page.locator('#go')).toHaveAttribute('aria-pressed', 'true');",
      "  await expect(page.locator('li')).toHaveCount(3);",
      "  await expect(page.locator('#agree')).toBeChecked({ checked: false });",
      '  await expect(page).toHaveURL(/done/);',
    ].join('\n');
    const read = readPlaywrightScript({
      name: 'more.spec.js',
      text: `import { test, expect } from '@playwright/test';\ntest('more', async ({ page }) => {\n${body}\n});\n`,
    });
    const actions = read.plan.apis[0]!.actions.map(({ source: _source, ...rest }) => rest);
    expect(actions).toEqual([
      {
        kind: 'click',
        locators: [
          {
            by: 'role',
            value: 'button',
            name: 'choose',
            nameFlags: 'i',
            chain: [{ by: 'role', value: 'listitem', hasText: 'pro', hasTextFlags: 'i' }],
          },
        ],
      },
      { kind: 'click', locators: [{ by: 'css', value: '#list li', nth: 1 }] },
      {
        kind: 'keys',
        locators: [{ by: 'css', value: 'input', chain: [{ by: 'role', value: 'row', nth: -1 }] }],
        keys: 'KEY_CONTROL+KEY_SHIFT+KEY_LEFT',
      },
      {
        kind: 'type',
        locators: [{ by: 'label', value: 'Card', chain: [{ by: 'css', value: '#pay', frame: true }] }],
        text: '4242',
      },
      {
        kind: 'click',
        locators: [
          {
            by: 'text',
            value: 'Deep',
            chain: [
              { by: 'css', value: '#outer', frame: true },
              { by: 'css', value: '#inner', frame: true },
            ],
          },
        ],
      },
      { kind: 'assertUrl', expected: '^.*/done[^/]*$', expectedFlags: '', retry_ms: 30_000 },
      {
        kind: 'assertText',
        locators: [{ by: 'text', value: 'thank you', valueFlags: 'i' }],
        expected: 'thank you, ada',
        expectedFlags: 'i',
        retry_ms: 8000,
      },
      { kind: 'assertEmpty', locators: [{ by: 'css', value: '#q' }], retry_ms: 5000 },
      {
        kind: 'assertAttribute',
        locators: [{ by: 'css', value: '#go' }],
        attribute: 'aria-pressed',
        expected: 'true',
        retry_ms: 5000,
      },
      { kind: 'assertCount', locators: [{ by: 'css', value: 'li' }], count: 3, retry_ms: 5000 },
      { kind: 'assertNotChecked', locators: [{ by: 'css', value: '#agree' }], retry_ms: 5000 },
      { kind: 'assertUrl', expected: 'done', expectedFlags: '', retry_ms: 5000 },
    ]);
    expect(FunctionalPlanSchema.safeParse(read.plan).success).toBe(true);
  });
});
