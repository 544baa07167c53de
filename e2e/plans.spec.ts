import { expect, test, type Page } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  confirmWith,
  DEMO,
  expectNotice,
  newAccount,
  register,
  signIn,
  viewScreenshot,
  watchMessages,
} from './helpers';
import { editorHost, expectEditorText } from './editor-text';

/**
 * The URL-input screen (docs/reference/01-authoring.md §2) in a real browser against the real server, with a local target API
 * that the server's Validate really calls.
 */

interface ReceivedRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  body: string;
}

/** A small API: issues order ids as JSON, serves items and orders, and wants one bearer token. */
class TargetApi {
  readonly token = `tok_${randomBytes(24).toString('hex')}`;
  readonly received: ReceivedRequest[] = [];
  readonly issuedIds: string[] = [];
  private server: Server | undefined;
  private nextId = 1;
  baseUrl = '';

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      void this.handle(request).then(({ status, body }) => {
        response.writeHead(status, { 'Content-Type': 'application/json' });
        response.end(JSON.stringify(body));
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    this.baseUrl = `http://127.0.0.1:${port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async handle(request: IncomingMessage): Promise<{ status: number; body: unknown }> {
    let body = '';
    for await (const chunk of request) body += String(chunk);
    const url = new URL(request.url ?? '/', 'http://target');
    this.received.push({
      method: request.method ?? '',
      path: url.pathname + url.search,
      authorization: request.headers.authorization,
      body,
    });
    if (request.headers.authorization !== `Bearer ${this.token}`) {
      return { status: 401, body: { error: 'bad token' } };
    }
    if (request.method === 'POST' && url.pathname === '/api/orders') {
      const id = `ord-${this.nextId++}-${randomBytes(3).toString('hex')}`;
      this.issuedIds.push(id);
      return { status: 201, body: { id, status: 'created' } };
    }
    if (request.method === 'GET' && url.pathname === '/api/items') {
      return { status: 200, body: { status: 'ok', page: url.searchParams.get('page'), items: [1, 2, 3] } };
    }
    const order = /^\/api\/orders\/([\w-]+)$/.exec(url.pathname);
    if (request.method === 'GET' && order?.[1] && this.issuedIds.includes(order[1])) {
      return { status: 200, body: { id: order[1], status: 'paid' } };
    }
    return { status: 404, body: { error: 'not found' } };
  }
}

const TOOLS = [
  { value: 'jmeter', ext: 'jmx', marker: '<jmeterTestPlan' },
  { value: 'k6', ext: 'js', marker: "from 'k6/http'" },
  { value: 'locust', ext: 'py', marker: 'Locust' },
  { value: 'taurus', ext: 'yml', marker: 'executor: jmeter' },
  { value: 'soapui', ext: 'xml', marker: 'con:soapui-project' },
] as const;

const PLAN_NAME = 'Checkout flow';

async function openScreen(page: Page) {
  await page.getByTestId('nav-performance-input-urls').click();
  await expect(page).toHaveURL(/\/create-test\/url-input$/);
  await expect(page.getByTestId('breadcrumbs')).toHaveText(/PLANS\s*>\s*Create Test\s*>\s*Input URLs/);
}

/** Three calls: create an order (JSON id extracted), list items (asserted), read the order by its id. */
async function buildThreeStepPlan(page: Page, target: TargetApi) {
  await page.getByTestId('plan-name').fill(PLAN_NAME);
  await page.getByTestId('plan-users').fill('5');
  await page.getByTestId('plan-duration').fill('2');

  // Step 1: POST with a body; choosing POST opens the Payload tab.
  await page.getByTestId('api-0-method').selectOption('POST');
  await expect(page.getByTestId('api-0-tab-payload')).toHaveAttribute('data-state', 'active');
  await page.getByTestId('api-0-url').fill(`${target.baseUrl}/api/orders`);
  await page.getByTestId('api-0-payload').fill('{"item": "book-{{sequence_number,100}}"}');
  await page.getByTestId('api-0-tab-authorization').click();
  await page.getByTestId('api-0-auth-type').selectOption('bearer');
  await page.getByTestId('api-0-auth-token').fill(target.token);
  await page.getByTestId('api-0-extractType').selectOption('json');
  await page.getByTestId('api-0-extractName').fill('orderId');
  await page.getByTestId('api-0-extractValue').fill('$.id');
  await page.getByTestId('api-0-validation-type').selectOption('status_code');
  await page.getByTestId('api-0-validation-expected').fill('201');
  await page.getByTestId('api-0-validation-expected').press('Enter');
  await expect(page.getByTestId('api-0-validation-list')).toContainText('Validation 1');

  // Step 2: GET with a query parameter and a JSON assertion.
  await page.getByTestId('add-url').click();
  await page.getByTestId('api-1-url').fill(`${target.baseUrl}/api/items`);
  await expect(page.getByTestId('api-1-tab-parameters')).toHaveAttribute('data-state', 'active');
  await page.getByTestId('api-1-parameters-name-0').fill('page');
  await page.getByTestId('api-1-parameters-value-0').fill('1');
  await page.getByTestId('api-1-tab-authorization').click();
  await page.getByTestId('api-1-auth-type').selectOption('bearer');
  await page.getByTestId('api-1-auth-token').fill(target.token);
  await page.getByTestId('api-1-assertionType').selectOption('json');
  await page.getByTestId('api-1-assertionPath').fill('$.status');
  await page.getByTestId('api-1-assertionOperator').selectOption('equals');
  await page.getByTestId('api-1-assertionValue').fill('ok');

  // Step 3: GET the order with the id extracted in step 1.
  await page.getByTestId('add-url').click();
  await page.getByTestId('api-2-url').fill(`${target.baseUrl}/api/orders/{{orderId}}`);
  await page.getByTestId('api-2-tab-authorization').click();
  await page.getByTestId('api-2-auth-type').selectOption('bearer');
  await page.getByTestId('api-2-auth-token').fill(target.token);
  await page.getByTestId('api-2-assertionType').selectOption('status');
  await page.getByTestId('api-2-assertionValue').fill('200');
  await page.getByTestId('api-2-validation-type').selectOption('json_path');
  await page.getByTestId('api-2-validation-expected').fill('$.status == paid');
  await page.getByTestId('api-2-validation-add').click();
  for (const index of [0, 1, 2]) await page.getByTestId(`api-${index}-thinkTime`).fill('1s');
}

test.describe('performance plan from URLs', () => {
  let target: TargetApi;

  test.beforeEach(async () => {
    target = new TargetApi();
    await target.start();
  });
  test.afterEach(async () => {
    await target.stop();
  });

  test('build, generate for every tool, validate, save, reload and inspect a three-step plan', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const account = newAccount('plans');
    await register(page, account);
    await signIn(page, account.email, account.password);
    const messages = watchMessages(page);
    await openScreen(page);

    await expect(page.getByTestId('save-plan')).toBeDisabled();
    await expect(page.getByTestId('sequence-hint')).toContainText(
      '{{sequence_number,100}} works for dynamic parameter values',
    );
    await expect(editorHost(page.getByTestId('script-text'))).toContainText(
      'Generated script will appear here...',
    );
    await expect(editorHost(page.getByTestId('script-text'))).toHaveAttribute('data-rows', '16');
    await expect(page.getByTestId('script-download')).toBeDisabled();

    await buildThreeStepPlan(page, target);
    await viewScreenshot(page, 'plans-built-en-desktop');

    // Generate: every tool's script appears in the preview, with the download name of docs/design.md §5.
    await page.getByTestId('generate-plan').click();
    await expectEditorText(page.getByTestId('script-text'), /\S/);
    for (const tool of TOOLS) {
      await page.getByTestId('plan-tool').selectOption(tool.value);
      await page.getByTestId('generate-plan').click();
      await expect(page.getByTestId('generate-plan')).toHaveText('Generate Test Plan');
      await expectEditorText(page.getByTestId('script-text'), new RegExp(escapeRegExp(tool.marker)));
      const expectedName = `testplan_${tool.value}_Checkout_flow.${tool.ext}`;
      await expect(page.getByTestId('script-filename')).toHaveText(expectedName);
      const download = page.waitForEvent('download');
      await page.getByTestId('script-download').click();
      expect((await download).suggestedFilename()).toBe(expectedName);
    }
    // The preview follows the plan without another Generate.
    await page.getByTestId('plan-tool').selectOption('taurus');
    await page.getByTestId('plan-users').fill('7');
    await expectEditorText(page.getByTestId('script-text'), /concurrency: 7/);
    await page.getByTestId('plan-tool').selectOption('k6');
    await expectEditorText(page.getByTestId('script-text'), /vus: 7/);
    await expect(page.getByTestId('notice')).toHaveCount(0);
    expect(messages.browserDialogs).toEqual([]);

    // Validate: the server really calls the target, once per API, with the extracted id in step 3.
    await page.getByTestId('validate-plan').click();
    const results = page.getByTestId('validation-dialog');
    await expect(results).toBeVisible();
    await expect(results.getByTestId('validation-totals')).toContainText('3');
    for (const index of [0, 1, 2]) {
      await expect(results.getByTestId(`validation-result-${index}-status`)).toHaveText('PASS');
    }
    await expect(results.getByTestId('validation-result-0-code')).toHaveText('201');
    await expect(results.getByTestId('validation-result-2-check-0-actual')).toHaveText('paid');
    await expect(results.getByTestId('validation-result-1-time')).toHaveText(/^\d+ ms$/);
    expect(target.received.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /api/orders',
      'GET /api/items?page=1',
      `GET /api/orders/${target.issuedIds[0]}`,
    ]);
    expect(target.received.every((r) => r.authorization === `Bearer ${target.token}`)).toBe(true);
    expect(target.received[0]?.body).toBe('{"item": "book-1"}');
    await viewScreenshot(page, 'plans-validation-en-desktop');
    await results.getByTestId('validation-close').click();

    // Save: created, the id remembered in the address.
    await page.getByTestId('save-plan').click();
    await expectNotice(messages, 'Test plan saved successfully!');
    await expect(page).toHaveURL(/\?planId=[\w-]+$/);
    await expect(page.getByTestId('save-status')).toHaveText('All changes saved');
    const planId = new URL(page.url()).searchParams.get('planId');
    expect(planId).toBeTruthy();

    // Reload: the plan comes back whole.
    await page.reload();
    await expect(page.getByTestId('plan-state')).toHaveText('Saved plan');
    await expect(page.getByTestId('plan-name')).toHaveValue(PLAN_NAME);
    await expect(page.getByTestId('save-bar-name')).toHaveValue(PLAN_NAME);
    await expect(page.getByTestId('plan-tool')).toHaveValue('k6');
    await expect(page.getByTestId('plan-users')).toHaveValue('7');
    await expect(page.getByTestId('plan-duration')).toHaveValue('2');
    await expect(page.getByTestId('api-0-method')).toHaveValue('POST');
    await expect(page.getByTestId('api-0-url')).toHaveValue(`${target.baseUrl}/api/orders`);
    await expect(page.getByTestId('api-0-payload')).toHaveValue('{"item": "book-{{sequence_number,100}}"}');
    await expect(page.getByTestId('api-0-extractType')).toHaveValue('json');
    await expect(page.getByTestId('api-0-extractName')).toHaveValue('orderId');
    await expect(page.getByTestId('api-0-extractValue')).toHaveValue('$.id');
    await expect(page.getByTestId('api-0-validation-list')).toContainText('201');
    await expect(page.getByTestId('api-1-url')).toHaveValue(`${target.baseUrl}/api/items`);
    await expect(page.getByTestId('api-1-parameters-name-0')).toHaveValue('page');
    await expect(page.getByTestId('api-1-parameters-value-0')).toHaveValue('1');
    await expect(page.getByTestId('api-1-assertionPath')).toHaveValue('$.status');
    await expect(page.getByTestId('api-1-assertionValue')).toHaveValue('ok');
    await expect(page.getByTestId('api-2-url')).toHaveValue(`${target.baseUrl}/api/orders/{{orderId}}`);
    await expect(page.getByTestId('api-2-assertionType')).toHaveValue('status');
    await expect(page.getByTestId('api-2-validation-list')).toContainText('$.status == paid');
    await expect(page.getByTestId('api-2-thinkTime')).toHaveValue('1s');
    await page.getByTestId('api-2-tab-authorization').click();
    await expect(page.getByTestId('api-2-auth-type')).toHaveValue('bearer');
    await expect(page.getByTestId('api-2-auth-token')).toHaveValue(target.token);
    await expectEditorText(page.getByTestId('script-text'), /from 'k6\/http'/);

    // The details modal shows the first 20 characters of the token, never the whole of it.
    await page.getByTestId('view-details').click();
    const details = page.getByTestId('details-dialog');
    await expect(details.getByTestId('details-name')).toHaveText(PLAN_NAME);
    await expect(details.getByTestId('details-tool')).toHaveText('K6');
    await expect(details.getByTestId('details-users')).toHaveText('7');
    await expect(details.getByTestId('details-duration')).toHaveText('2 min');
    await expect(details.getByTestId('details-api-count')).toHaveText('3');
    await expect(details.getByTestId('details-api-0-auth')).toHaveText(`${target.token.slice(0, 20)}…`);
    expect(await details.textContent()).not.toContain(target.token);
    await details.getByTestId('details-script').locator('summary').click();
    expect(await details.textContent()).not.toContain(target.token);
    await viewScreenshot(page, 'plans-details-en-desktop');
    await details.getByTestId('details-close').click();

    // Saving again updates the same plan.
    await page.getByTestId('plan-duration').fill('3');
    await expect(page.getByTestId('save-status')).toHaveText('Unsaved changes');
    await page.getByTestId('save-plan').click();
    await expectNotice(messages, 'Test plan updated successfully!');
    expect(new URL(page.url()).searchParams.get('planId')).toBe(planId);

    // The storage hand-off of docs/reference/01-authoring.md §4 opens the same plan, and its entry is removed once read.
    await page.evaluate((id) => localStorage.setItem('loadSavedPlanId', id ?? ''), planId);
    await page.getByTestId('nav-plans').click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.getByTestId('quick-performance-url').click();
    await expect(page.getByTestId('plan-name')).toHaveValue(PLAN_NAME);
    await expect(page.getByTestId('plan-duration')).toHaveValue('3');
    await expect(page).toHaveURL(new RegExp(`planId=${planId}`));
    expect(await page.evaluate(() => localStorage.getItem('loadSavedPlanId'))).toBeNull();
  });

  test('the list keeps one entry, reorders by buttons and by drag, and explains bad input', async ({
    page,
  }) => {
    test.setTimeout(90_000);
    const messages = watchMessages(page);
    await signIn(page, DEMO.username, DEMO.password);
    await openScreen(page);

    // Delete is blocked on the last entry, and pressing it says why (docs/reference/01-authoring.md §5).
    await expect(page.getByTestId('api-0-remove')).toHaveAttribute('aria-disabled', 'true');
    // In the middle of the screen, clear of the sticky save bar, where a person would press it.
    await page.getByTestId('api-0-remove').evaluate((button) => button.scrollIntoView({ block: 'center' }));
    await page.getByTestId('api-0-remove').click({ force: true });
    await expectNotice(messages, 'Cannot remove the last API. At least one API is required.');
    await expect(page.getByTestId('api-0')).toBeVisible();
    await expect(page.getByTestId('api-1')).toHaveCount(0);
    await expect(page.getByTestId('api-0-up')).toBeDisabled();
    await expect(page.getByTestId('api-0-down')).toBeDisabled();
    // One parameter and one header row always stay.
    await page.getByTestId('api-0-tab-headers').click();
    await expect(page.getByTestId('api-0-headers-remove-0')).toHaveAttribute('aria-disabled', 'true');

    // Bad input, in the spec's words.
    await expect(page.getByTestId('save-plan')).toBeDisabled();
    await page.getByTestId('generate-plan').click();
    await expectNotice(messages, 'Please enter a plan name');
    await expect(page.getByTestId('plan-name-error')).toHaveText('Please enter a plan name');
    await page.getByTestId('save-bar-name').fill('Broken plan');
    await expect(page.getByTestId('plan-name')).toHaveValue('Broken plan');
    await page.getByTestId('generate-plan').click();
    await expectNotice(messages, 'No APIs to generate script for');
    await page.getByTestId('validate-plan').click();
    await expectNotice(messages, 'No APIs to validate');
    await page.getByTestId('save-plan').click();
    await expectNotice(messages, 'Please enter at least one valid URL');
    await page.getByTestId('download-script').click();
    await expectNotice(messages, 'No script generated yet. Please generate a script first.');

    await page.getByTestId('api-0-url').fill('not a url');
    await page.getByTestId('plan-users').fill('5000');
    await page.getByTestId('save-plan').click();
    await expectNotice(messages, /^Failed to save test plan: /);
    await expect(page.getByTestId('plan-users-error')).toHaveText(
      'Concurrent users must be a whole number from 1 to 1000',
    );
    await expect(page.getByTestId('api-0-url-message')).toContainText('Enter a full URL');
    await page.evaluate(() => window.scrollTo(0, 0));
    await viewScreenshot(page, 'plans-errors-en-desktop');

    // Three entries: move with the buttons, then drag the last to the top.
    await page.getByTestId('plan-users').fill('10');
    await page.getByTestId('api-0-url').fill('https://example.test/one');
    await page.getByTestId('add-url').click();
    await page.getByTestId('api-1-url').fill('https://example.test/two');
    await page.getByTestId('add-url').click();
    await page.getByTestId('api-2-url').fill('https://example.test/three');
    await expect(page.getByTestId('api-2-down')).toBeDisabled();
    await page.getByTestId('api-0-down').click();
    await expect(page.getByTestId('api-0-url')).toHaveValue('https://example.test/two');
    await expect(page.getByTestId('api-1-url')).toHaveValue('https://example.test/one');
    await page.getByTestId('api-1-up').click();
    await expect(page.getByTestId('api-0-url')).toHaveValue('https://example.test/one');

    for (const index of [0, 1, 2]) await page.getByTestId(`api-${index}-toggle`).click();
    const handle = page.getByTestId('api-2-drag');
    const top = await page.getByTestId('api-0').boundingBox();
    const from = await handle.boundingBox();
    if (!top || !from) throw new Error('entries are not on screen');
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + from.width / 2, from.y - 10, { steps: 5 });
    await page.mouse.move(from.x + from.width / 2, top.y + 4, { steps: 10 });
    await page.mouse.up();
    await expect(page.getByTestId('api-0-url')).toHaveValue('https://example.test/three');
    await expect(page.getByTestId('api-1-url')).toHaveValue('https://example.test/one');
    await expect(page.getByTestId('api-2-url')).toHaveValue('https://example.test/two');

    // With more than one entry, delete asks and removes.
    await page.getByTestId('api-1-remove').click();
    await confirmWith(page, 'Remove API 2 (GET https://example.test/one)?', 'Remove');
    await expect(page.getByTestId('api-2')).toHaveCount(0);
    await expect(page.getByTestId('api-1-url')).toHaveValue('https://example.test/two');
  });
});

// Screenshots of the screen for a person to look at: both widths, light and dark, English and Korean.
const VIEWS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
  { name: 'wide', width: 1920, height: 1080 },
] as const;

for (const theme of ['light', 'dark'] as const) {
  for (const view of VIEWS) {
    if (view.name === 'wide' && theme === 'dark') continue;
    test(`screenshots of the URL-input screen (${theme}, ${view.name})`, async ({ page }) => {
      test.setTimeout(90_000);
      const target = new TargetApi();
      await target.start();
      try {
        const language = theme === 'dark' ? 'ko' : 'en';
        await page.addInitScript(
          ([t, l]) => {
            localStorage.setItem('theme', t);
            localStorage.setItem('language', l);
          },
          [theme, language] as const,
        );
        await page.setViewportSize({ width: view.width, height: view.height });
        await signIn(page, DEMO.username, DEMO.password);
        await page.goto('/create-test/url-input');
        await expect(page.getByTestId('url-input-page')).toBeVisible();
        const tag = `${theme}-${language}-${view.name}`;
        await viewScreenshot(page, `plans-empty-${tag}`);
        await buildThreeStepPlan(page, target);
        await page.getByTestId('generate-plan').click();
        await expectEditorText(page.getByTestId('script-text'), /\S/);
        await page.getByTestId('plan-settings').scrollIntoViewIfNeeded();
        await page.evaluate(() => window.scrollTo(0, 0));
        await viewScreenshot(page, `plans-top-${tag}`);
        await page.getByTestId('api-1').scrollIntoViewIfNeeded();
        await page.getByTestId('api-1-tab-parameters').click();
        await viewScreenshot(page, `plans-entry-${tag}`);
        await page.getByTestId('api-2-validations').scrollIntoViewIfNeeded();
        await viewScreenshot(page, `plans-validations-${tag}`);
        await page.getByTestId('script-panel').scrollIntoViewIfNeeded();
        await viewScreenshot(page, `plans-script-${tag}`);
        await page.getByTestId('validate-plan').click();
        await expect(page.getByTestId('validation-result-2-status')).toHaveText('PASS');
        await viewScreenshot(page, `plans-validation-${tag}`);
        await page.getByTestId('validation-close').click();
        await page.getByTestId('view-details').click();
        await expect(page.getByTestId('details-dialog')).toBeVisible();
        await viewScreenshot(page, `plans-details-${tag}`);
        await page.getByTestId('details-close').click();

        // What a tool cannot express is listed under the script; a hand-edited script says so.
        await page.getByTestId('plan-tool').selectOption('k6');
        await page.getByTestId('api-1-extractType').selectOption('xml');
        await page.getByTestId('api-1-extractName').fill('total');
        await page.getByTestId('api-1-extractValue').fill('//total');
        await expect(page.getByTestId('script-warnings')).toBeVisible();
        await page.getByTestId('script-warnings').scrollIntoViewIfNeeded();
        await viewScreenshot(page, `plans-warnings-${tag}`);
        await page.getByTestId('script-edit-toggle').click();
        await page.getByTestId('script-text').press('End');
        await page.getByTestId('script-text').pressSequentially('// tuned by hand');
        await expect(page.getByTestId('script-mode')).toContainText(
          language === 'ko' ? '직접 수정함' : 'Edited by hand',
        );
        await page.getByTestId('script-panel').scrollIntoViewIfNeeded();
        await viewScreenshot(page, `plans-script-edited-${tag}`);
      } finally {
        await target.stop();
      }
    });
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
