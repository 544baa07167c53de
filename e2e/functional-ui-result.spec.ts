import { expect, test, type Page } from '@playwright/test';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { newAccount, register, screenshot, signIn, viewScreenshot, watchMessages } from './helpers';

/**
 * UI runs on the functional result screen (docs/design.md §9 "UI tests") in a real browser against the
 * built app, whose UI runner opens the pages of a local site in its own Chromium: a Selenium-style script
 * typed into the script screen's Selenium variant signs in on one page and fails an assertion on the
 * next; a UI URL plan started through the API checks two pages. The result screen shows each step with
 * its validations, actions, timings and rated Web Vitals, console errors and failed requests, the timeline,
 * and a screenshot that opens large and closes with Escape.
 */

const SITE: Record<string, { status?: number; html: string }> = {
  '/': {
    html: `<!doctype html><html><head><title>Shop</title></head><body>
<h1>Welcome to the shop</h1><p>Fresh bread every morning.</p>
<img src="/missing.png" alt="">
<a href="/login">Sign in</a>
<script>console.error('cart widget failed to start')</script>
</body></html>`,
  },
  '/login': {
    html: `<!doctype html><html><head><title>Sign in</title></head><body>
<h1>Sign in</h1>
<form id="login"><input id="username"><input id="password" type="password">
<button type="submit">Sign in</button></form>
<script>
document.getElementById('login').addEventListener('submit', (event) => {
  event.preventDefault();
  const welcome = document.createElement('p');
  welcome.className = 'welcome';
  welcome.textContent = 'Welcome, ' + document.getElementById('username').value;
  document.body.append(welcome);
  document.title = 'Home';
});
</script></body></html>`,
  },
  '/checkout': {
    html: `<!doctype html><html><head><title>Checkout</title></head><body>
<h1>Checkout</h1><p id="total">41</p></body></html>`,
  },
};

/** The local site the runner opens; it counts the pages it served. */
let site: Server;
let origin = '';
const served: string[] = [];

test.beforeAll(async () => {
  site = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    served.push(path);
    const page = SITE[path];
    response.writeHead(page ? (page.status ?? 200) : 404, { 'Content-Type': 'text/html; charset=utf-8' });
    response.end(page ? page.html : 'not here');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});
test.afterAll(async () => {
  site.closeAllConnections();
  await new Promise<void>((resolve) => site.close(() => resolve()));
});

async function signedIn(page: Page, label: string) {
  const account = newAccount(label);
  await register(page, account);
  await signIn(page, account.email, account.password);
}

/** Waits until the result screen shows the run over (the status is polled every 5 s). */
async function waitForEnd(page: Page, status: 'completed' | 'failed') {
  await expect(page.getByTestId('result-status')).toHaveAttribute('data-status', status, { timeout: 45_000 });
}

test('a Selenium script from the script screen: its steps, actions, rated vitals and an enlarged failure screenshot', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const messages = watchMessages(page);
  await signedIn(page, 'ui-result-script');
  await page.goto('/functional-test/script-input');
  await page.getByText('Selenium (UI)').click();
  await expect(page.getByRole('heading', { name: 'Selenium Script Configuration' })).toBeVisible();
  const script = `execution:
  - executor: selenium
    iterations: 1
    scenario: shop

scenarios:
  shop:
    requests:
      - label: Sign in
        url: ${origin}/
        actions:
          - assertTitle(Shop)
          - clickByLinkText(Sign in)
          - waitForByID(username, Visible): 5s
          - typeByID(username): ada
          - typeByID(password): secret
          - clickByCSS(button[type=submit])
          - waitForByCSS(.welcome, Visible): 5s
          - assertTextByCSS(.welcome): Welcome, ada
      - label: Checkout
        url: ${origin}/checkout
        actions:
          - assertTextByID(total): 42
`;
  await page.getByTestId('script-content').fill(script);
  await expect(page.getByTestId('selenium-pages-title')).toHaveText('Browser Steps (2) - Execution Order');
  await page.getByTestId('test-name').fill('Shop in a browser');
  await screenshot(page, 'functional-script-selenium-1280');
  await page.getByTestId('functional-start').click();

  await expect(page).toHaveURL(/\/functional-test-result\/fc_[\w-]+$/);
  await waitForEnd(page, 'failed');
  expect(messages.browserDialogs).toEqual([]);
  const [signInStep, checkout] = await page.getByTestId('call-result').all();
  if (!signInStep || !checkout) throw new Error('two steps expected');

  await expect(signInStep.getByTestId('call-outcome')).toHaveText('Success');
  await expect(signInStep.getByTestId('ui-actions')).toContainText('Actions (8/8 passed)');
  await expect(signInStep.getByTestId('ui-action').nth(3)).toContainText('typeByID');
  // The first page's script logs an error and its image is missing: Chromium logs the 404 as a second.
  const consoleErrors = signInStep.getByTestId('ui-console-errors');
  await expect(consoleErrors).toHaveAttribute('data-count', '2');
  await consoleErrors.getByText('Console errors (2)').click();
  await expect(consoleErrors).toContainText('cart widget failed to start');
  const failedRequests = signInStep.getByTestId('ui-failed-requests');
  await expect(failedRequests).toContainText('Failed requests (1)');
  await failedRequests.getByText('Failed requests (1)').click();
  await expect(failedRequests).toContainText(`GET ${origin}/missing.png`);
  await expect(failedRequests).toContainText('HTTP 404');
  // A local page answers within 800 ms: its time to first byte is measured and rated good, in words.
  const ttfb = signInStep.getByTestId('ui-figure-ttfb');
  await expect(ttfb).toHaveAttribute('data-rating', 'good');
  await expect(ttfb.getByTestId('ui-figure-rating')).toHaveText('Good');
  await expect(ttfb.getByTestId('ui-figure-value')).toHaveText(/^[\d.,]+ ms$/);
  await expect(signInStep.getByTestId('ui-figure-fcp').getByTestId('ui-figure-rating')).toHaveText('Good');

  await expect(checkout.getByTestId('call-outcome')).toHaveText('Failed');
  const failed = checkout.getByTestId('ui-action').first();
  await expect(failed).toHaveAttribute('data-passed', 'false');
  await expect(failed.getByTestId('ui-action-message')).toContainText('42');
  await expect(failed.getByTestId('ui-action-message')).toContainText('41');
  await expect(page.getByTestId('functional-timeline')).toHaveAttribute('data-points', '2');

  // The failure screenshot: a thumbnail fetched with the session, enlarged in a dialog, closed by Escape.
  const failureShot = checkout.locator('[data-testid="ui-screenshot"][data-failure="true"]');
  await expect(failureShot).toHaveCount(1);
  const open = failureShot.getByTestId('ui-screenshot-open');
  await expect(open).toBeEnabled();
  await open.click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  const large = dialog.getByRole('img');
  await expect.poll(() => large.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(300);
  await viewScreenshot(page, 'functional-ui-result-dialog-1280');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(open).toBeFocused();
  await screenshot(page, 'functional-ui-result-script-1280');
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, 'functional-ui-result-script-390');
  expect(served).toContain('/checkout');
});

test('a UI URL plan run through the API: each page judged with its validations and its screenshot shown', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signedIn(page, 'ui-result-url');
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const started = await page.request.post('/api/functional/run-test', {
    headers: { Authorization: `Bearer ${token}` },
    data: {
      test_name: 'Shop pages',
      source: 'ui_url_input',
      test_type: 'ui',
      test_framework: 'selenium',
      iterations: 2,
      apis: [
        {
          name: 'Home',
          url: `${origin}/`,
          method: 'GET',
          validations: [
            { type: 'page_title', expected_value: 'Shop' },
            { type: 'element_exists', expected_value: 'h1' },
          ],
        },
        {
          name: 'Sign-in page',
          url: `${origin}/login`,
          method: 'GET',
          validations: [{ type: 'contains_text', expected_value: 'Forgot your password?' }],
        },
      ],
    },
  });
  expect(started.status(), await started.text()).toBe(201);
  const { test_id: testId } = (await started.json()) as { test_id: string };
  await page.goto(`/functional-test-result/${testId}`);
  await waitForEnd(page, 'failed');

  // Two pages × two iterations, under their iteration headings.
  await expect(page.getByTestId('call-result')).toHaveCount(4);
  await expect(page.getByTestId('call-group')).toHaveCount(2);
  const home = page.getByTestId('call-result').first();
  await expect(home.getByTestId('call-passed')).toHaveText('2/2 passed');
  await expect(home.getByTestId('call-status-code')).toHaveText('200');
  const login = page.getByTestId('call-result').nth(1);
  await expect(login.getByTestId('call-outcome')).toHaveText('Failed');
  await expect(login.getByTestId('detail-expected')).toHaveText('Forgot your password?');
  await expect(login.getByTestId('ui-screenshots').getByRole('img').first()).toBeVisible();
  await expect(page.getByTestId('functional-timeline')).toHaveAttribute('data-points', '4');
  await screenshot(page, 'functional-ui-result-url-1280');
});
