import { expect, test, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { expectNotice, newAccount, register, signIn, watchMessages } from './helpers';

/**
 * The UI Functional Test screen (docs/reference/02-running.md §2 "UI tests") in a real
 * browser against the built app: three pages of a small local shop that counts what it serves, built in
 * the wrong order and put right by a drag and by the arrows, each with what it must show; saved, opened
 * again from the functional dashboard's Edit Plan, and started — the run's browser opens the pages in
 * the saved order, twice.
 */

const SHOTS = join(process.cwd(), 'test-results', 'functional-ui-editor');

/** What the shop served: `METHOD /path` in the order asked. */
const served: string[] = [];

const PAGES: Record<string, { title: string; body: string }> = {
  '/': { title: 'Shop', body: '<h1>Welcome to the shop</h1><a href="/cart">Cart</a>' },
  '/cart': { title: 'Cart – Shop', body: '<h1>Your cart</h1><button id="checkout">Check out</button>' },
  '/search': { title: 'Search – Shop', body: '<h1>Results</h1><ul id="results"><li>Tea</li></ul>' },
};

let shop: Server | undefined;
let origin = '';

test.beforeAll(async () => {
  shop = createServer((request, response) => {
    request.resume();
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    const page = PAGES[path];
    if (!page) {
      // The browser's own asks (a favicon) are answered, not counted.
      response.writeHead(404).end();
      return;
    }
    served.push(`${request.method ?? 'GET'} ${path}`);
    const html = `<!doctype html><html><head><meta charset="utf-8"><title>${page.title}</title></head><body>${page.body}</body></html>`;
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(html);
  });
  const server = shop;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
test.afterAll(async () => {
  const server = shop;
  if (!server) return;
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function shot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

/** The names on the UI test cards, top to bottom. */
async function cardNames(page: Page): Promise<string[]> {
  return page.getByTestId(/^ui-test-\d+-title$/).allTextContents();
}

/**
 * Drags a card by its handle onto another card with the mouse, in steps as a hand moves (Playwright's
 * dragTo moves in one jump, which a long page scrolled between source and target can leave undragged).
 */
async function dragCard(page: Page, from: number, onto: number) {
  const handle = await page.getByTestId(`ui-test-${from}-drag`).boundingBox();
  const target = await page.getByTestId(`ui-test-${onto}`).boundingBox();
  if (!handle || !target) throw new Error('The handle and the target card must both be on screen');
  await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
  await page.mouse.down();
  await page.mouse.move(handle.x + handle.width / 2 + 10, handle.y, { steps: 5 });
  await page.mouse.move(target.x + target.width / 2, target.y + target.height / 2, { steps: 10 });
  await page.mouse.up();
}

async function addCheck(page: Page, index: number, type: string, expected: string) {
  const card = `ui-test-${index}`;
  await page.getByTestId(`${card}-rule-type`).selectOption(type);
  await page.getByTestId(`${card}-rule-expected`).fill(expected);
  await page.getByTestId(`${card}-rule-add`).click();
}

test('builds a three-page UI plan, reorders it, saves it, opens it from the dashboard and starts it', async ({
  page,
}) => {
  test.setTimeout(150_000);
  const messages = watchMessages(page);
  const account = newAccount('functional-ui');
  await register(page, account);
  await signIn(page, account.email, account.password);
  await page.setViewportSize({ width: 1280, height: 900 });

  // The dashboard's UI Plan opens the screen, empty.
  await page.goto('/functional-dashboard');
  await page.getByTestId('create-ui-plan').click();
  await expect(page).toHaveURL(/\/functional-test\/ui-url-input$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('UI Functional Test');
  await expect(page.getByTestId('ui-no-tests')).toContainText('No UI tests configured');
  await expect(page.getByTestId('functional-start')).toBeDisabled();
  await expect(page.getByTestId('functional-save')).toBeDisabled();

  // The reference's messages, in list order.
  await page.getByTestId('add-ui-test').click();
  await page.getByTestId('functional-save').click();
  await expectNotice(messages, 'Test name is required');
  await expect(page.getByTestId('functional-problems').getByRole('listitem')).toHaveText([
    'Test name is required',
    'UI Test #1 name is required',
    'UI Test #1 URL is required',
  ]);
  await page.getByTestId('setting-iterations').fill('11');
  await expect(page.getByTestId('iterations-error')).toHaveText(
    'Iterations must be a whole number from 1 to 10',
  );
  await page.getByTestId('setting-iterations').fill('2');
  await page.getByTestId('test-name').fill('Shop pages');
  await page.getByTestId('test-description').fill('Home, cart, search');

  // Built in the wrong order: Search, Cart, Home.
  await page.getByTestId('ui-test-0-name').fill('Search');
  await page.getByTestId('ui-test-0-method').selectOption('POST');
  await page.getByTestId('ui-test-0-url').fill(`${origin}/search`);
  await addCheck(page, 0, 'element_exists', '//ul[@id="results"]/li');
  await page.getByTestId('add-ui-test').click();
  await page.getByTestId('ui-test-1-name').fill('Cart');
  await page.getByTestId('ui-test-1-url').fill(`${origin}/cart`);
  await addCheck(page, 1, 'element_exists', '#checkout');
  await page.getByTestId('add-ui-test').click();
  await page.getByTestId('ui-test-2-name').fill('Home');
  await page.getByTestId('ui-test-2-url').fill(`${origin}/`);
  await addCheck(page, 2, 'contains_text', 'Welcome to the shop');
  await addCheck(page, 2, 'page_title', 'Shop');
  await expect(page.getByTestId('ui-test-count')).toHaveText('3');
  await expect(page.getByTestId('functional-problems')).toHaveCount(0);

  // With the cards folded to a line each: Home dragged by its handle onto the first card, then Search
  // moved down past Cart by its arrow.
  for (const index of [0, 1, 2]) await page.getByTestId(`ui-test-${index}-toggle`).click();
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.getByTestId('ui-tests').scrollIntoViewIfNeeded();
  await dragCard(page, 2, 0);
  expect(await cardNames(page)).toEqual(['Home', 'Search', 'Cart']);
  await expect(page.getByTestId('ui-test-0-up')).toBeDisabled();
  await expect(page.getByTestId('ui-test-2-down')).toBeDisabled();
  await page.getByTestId('ui-test-1-down').click();
  expect(await cardNames(page)).toEqual(['Home', 'Cart', 'Search']);
  // The moved card keeps the keyboard: at the end of the list, its other arrow has the focus.
  await expect(page.getByTestId('ui-test-2-up')).toBeFocused();
  await shot(page, 'ui-editor-folded-1280');
  for (const index of [0, 1, 2]) await page.getByTestId(`ui-test-${index}-toggle`).click();

  await page.getByTestId('functional-save').click();
  await expectNotice(messages, /^Saved! Test ID: \S+$/);
  await expect(page).toHaveURL(/\/functional-test\/ui-url-input\?planId=\S+$/);
  const planId = new URL(page.url()).searchParams.get('planId') ?? '';
  await expect(page.getByTestId('functional-save')).toHaveText('Update');
  await page.getByTestId('notice-dismiss').first().click();
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, 'ui-editor-1280');

  // A 390 px phone: nothing wider than the screen, the arrows at hand.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId('ui-test-2-up')).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await shot(page, 'ui-editor-390');
  await page.getByTestId('ui-test-2').screenshot({ path: join(SHOTS, 'ui-editor-card-390.png') });
  await page.setViewportSize({ width: 1280, height: 900 });

  // Opened again from the dashboard's plan list: its source, and the saved order and checks.
  await page.goto('/functional-dashboard');
  const plan = page.locator(`[data-testid="functional-plan-item"][data-plan-id="${planId}"]`);
  await expect(plan.getByTestId('plan-item-source')).toHaveText(/UI URL Input/);
  await plan.getByTestId('edit-plan').click();
  await expect(page).toHaveURL(new RegExp(`/functional-test/ui-url-input\\?planId=${planId}$`));
  await expect(page.getByTestId('test-name')).toHaveValue('Shop pages');
  await expect(page.getByTestId('setting-iterations')).toHaveValue('2');
  expect(await cardNames(page)).toEqual(['Home', 'Cart', 'Search']);
  await expect(page.getByTestId('ui-test-2-method')).toHaveValue('POST');
  await expect(page.getByTestId('ui-test-0-rule-list')).toContainText('Page title');
  await expect(page.getByTestId('ui-test-2-rule-0')).toContainText('//ul[@id="results"]/li');

  // Start: the result screen, and the browser opened the pages in the saved order, twice.
  await page.getByTestId('functional-start').click();
  await expect(page).toHaveURL(/\/functional-test-result\/fc_\S+$/, { timeout: 20_000 });
  await expect.poll(() => served.length, { timeout: 60_000 }).toBe(6);
  expect(served).toEqual(['GET /', 'GET /cart', 'POST /search', 'GET /', 'GET /cart', 'POST /search']);
  expect(messages.browserDialogs).toEqual([]);
});
