import { FunctionalPlanSchema } from '@aqa/plan';
import { expect, test, type Page } from '@playwright/test';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CountingTarget } from './counting-target';
import { expectNotice, FIXTURES, newAccount, register, signIn, watchMessages } from './helpers';

/**
 * The functional URL input screen (docs/reference/02-running.md §2 "Functional URL Input screen") in a
 * real browser against the built app: three chained calls to a local target that counts what it gets —
 * sign-in captures a token, the profile call sends it as {{token}} (the target refuses it otherwise), the
 * orders call has a rule that fails — saved, read back by ?planId, and started.
 */

const TOKEN = 'tok-4f2a9c';
const SHOTS = join(process.cwd(), 'test-results');

/** What the target received, by path, and how many profile calls carried the captured token. */
const seen = { login: 0, profile: 0, profileWithToken: 0, orders: 0 };

const target = new CountingTarget((request) => {
  const path = (request.url ?? '').split('?')[0];
  if (request.method === 'POST' && path === '/login') {
    seen.login++;
    return { body: JSON.stringify({ token: TOKEN }) };
  }
  if (path === '/profile') {
    seen.profile++;
    if (request.headers.authorization !== `Bearer ${TOKEN}`) {
      return { status: 401, body: '{"error":"no token"}' };
    }
    seen.profileWithToken++;
    return { body: JSON.stringify({ id: 7, name: 'Ada' }) };
  }
  if (path === '/orders') {
    seen.orders++;
    return { body: JSON.stringify({ count: 2 }) };
  }
  return { status: 404, body: '{}' };
});

test.beforeAll(async () => {
  await target.start();
});
test.afterAll(async () => {
  await target.stop();
});

async function shot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

/** Fills the API card at `index` (opened by Add API). */
async function fillApi(
  page: Page,
  index: number,
  api: { name: string; method: string; url: string; body?: string },
) {
  const card = `api-${index}`;
  await page.getByTestId(`${card}-name`).fill(api.name);
  await page.getByTestId(`${card}-method`).selectOption(api.method);
  await page.getByTestId(`${card}-url`).fill(api.url);
  if (api.body !== undefined) await page.getByTestId(`${card}-body`).fill(api.body);
}

/** `aqa test` as CI runs it; awaited, not blocking, since the target answers from this process. */
function runAqaTest(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join('packages', 'engine', 'bin', 'aqa.mjs'), 'test', ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function addRule(page: Page, index: number, type: string, expected: string) {
  const card = `api-${index}`;
  await page.getByTestId(`${card}-rule-type`).selectOption(type);
  await expect(page.getByTestId(`${card}-rule-add`)).toBeDisabled();
  await page.getByTestId(`${card}-rule-expected`).fill(expected);
  await page.getByTestId(`${card}-rule-add`).click();
}

test('builds, saves, reloads and starts three chained API calls', async ({ page }) => {
  test.setTimeout(120_000);
  const messages = watchMessages(page);
  const account = newAccount('functional-editor');
  await register(page, account);
  await signIn(page, account.email, account.password);
  await page.setViewportSize({ width: 1280, height: 900 });

  await page.goto('/functional-test/url-input');
  await expect(page.getByTestId('functional-no-apis')).toHaveText(/No APIs configured/);
  await expect(page.getByTestId('functional-start')).toBeDisabled();

  // The reference's messages for a blank name and blank API fields, in list order.
  await page.getByTestId('add-api').click();
  await page.getByTestId('functional-save').click();
  await expectNotice(messages, 'Test name is required');
  await expect(page.getByTestId('functional-problems').getByRole('listitem')).toHaveText([
    'Test name is required',
    'API #1 name is required',
    'API #1 URL is required',
  ]);

  await page.getByTestId('test-name').fill('Sign-in chain');
  await page.getByTestId('test-description').fill('Login, profile with the token, orders');
  await page.getByTestId('setting-iterations').fill('2');
  await page.getByTestId('setting-thinkTime').fill('0');

  // 1: sign in, capture the token.
  await fillApi(page, 0, {
    name: 'Login',
    method: 'POST',
    url: `${target.origin}/login`,
    body: '{"user":"ada","password":"secret"}',
  });
  await addRule(page, 0, 'status_code', '200');
  await page.getByTestId('api-0-capture-add').click();
  await page.getByTestId('api-0-capture-0-name').fill('token');
  await page.getByTestId('api-0-capture-0-expression').fill('$.token');
  await expect(page.getByTestId('api-0-captures')).toContainText('Later APIs use {{token}}');

  // 2: the profile with {{token}}.
  await page.getByTestId('add-api').click();
  await fillApi(page, 1, { name: 'Profile', method: 'GET', url: `${target.origin}/profile` });
  await page.getByTestId('api-1-tab-authorization').click();
  await page.getByTestId('api-1-auth-type').selectOption('bearer');
  await page.getByTestId('api-1-auth-token').fill('{{token}}');
  await addRule(page, 1, 'json_path', '$.id == 7');

  // 3: orders, with a rule that fails ($.count is 2).
  await page.getByTestId('add-api').click();
  await fillApi(page, 2, { name: 'Orders', method: 'GET', url: `${target.origin}/orders` });
  await page.getByTestId('api-2-rule-type').selectOption('json_path');
  await page.getByTestId('api-2-rule-expected').fill('count == 5');
  await expect(page.getByTestId('api-2-rule-problem')).toHaveText(
    'A JSON path starts with $, optionally followed by == value, != value or ~ regex',
  );
  await page.getByTestId('api-2-rule-expected').fill('');
  await addRule(page, 2, 'json_path', '$.count == 5');
  await expect(page.getByTestId('functional-problems')).toHaveCount(0);

  await page.getByTestId('functional-save').click();
  await expectNotice(messages, /^Saved! Test ID: \S+$/);
  await expect(page).toHaveURL(/\/functional-test\/url-input\?planId=\S+$/);
  await expect(page.getByTestId('functional-save')).toHaveText('Update');
  await page.getByTestId('notice-dismiss').first().click();
  await shot(page, 'functional-editor-1280');

  // Read back from the server.
  await page.reload();
  await expect(page.getByTestId('test-name')).toHaveValue('Sign-in chain');
  await expect(page.getByTestId('setting-iterations')).toHaveValue('2');
  await expect(page.getByTestId('functional-api-count')).toHaveText('3');
  await expect(page.getByTestId('api-0-capture-0-expression')).toHaveValue('$.token');
  await expect(page.getByTestId('api-2-rule-0')).toContainText('$.count == 5');

  // Download for aqa test: the saved plan as a file, and how to run it.
  const dir = mkdtempSync(join(tmpdir(), 'aqa-functional-'));
  const downloading = page.waitForEvent('download');
  await page.getByTestId('functional-cli-download').click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('Sign-in chain.json');
  const planFile = join(dir, download.suggestedFilename());
  await download.saveAs(planFile);
  await expect(page.getByTestId('functional-cli-command')).toHaveText(
    "npx aqa test 'Sign-in chain.json' --junit junit.xml",
  );
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('functional-cli-help')).toHaveCount(0);
  const downloaded = FunctionalPlanSchema.parse(JSON.parse(readFileSync(planFile, 'utf8')));
  expect(downloaded.test_name).toBe('Sign-in chain');
  expect(downloaded.iterations).toBe(2);
  expect(downloaded.apis.map((api) => api.name)).toEqual(['Login', 'Profile', 'Orders']);

  // A 390 px phone: nothing wider than the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId('api-2-rule-0')).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await shot(page, 'functional-editor-390');
  await page.setViewportSize({ width: 1280, height: 900 });

  // Start: the run lands on its result screen, and the target got the chain with the captured token.
  await page.getByTestId('functional-start').click();
  await expect(page).toHaveURL(/\/functional-test-result\/fc_\S+$/, { timeout: 20_000 });
  await expect.poll(() => seen.orders, { timeout: 30_000 }).toBe(2);
  expect(seen).toEqual({ login: 2, profile: 2, profileWithToken: 2, orders: 2 });
  expect(messages.browserDialogs).toEqual([]);

  // The same plan from the command line, as CI runs it: the chain again, and exit 1 for the failed rule.
  const junit = join(dir, 'junit.xml');
  const cli = await runAqaTest([planFile, '--junit', junit]);
  expect(cli.stderr).toBe('');
  expect(cli.code).toBe(1);
  expect(seen).toEqual({ login: 4, profile: 4, profileWithToken: 4, orders: 4 });
  expect(cli.stdout).toMatch(/✗ Orders[^\n]*200/);
  expect(cli.stdout).toContain('$.count == 5');
  const report = readFileSync(junit, 'utf8');
  expect(report.match(/<failure/g)).toHaveLength(2);
  expect(report).toContain('$.count == 5');
});

const PETSTORE = join(FIXTURES, 'openapi', 'swagger-petstore', 'v3-openapi.yaml');
const BROKEN_YAML = join(FIXTURES, 'openapi', 'edge-cases', 'invalid_openapi', 'invalid-yaml-syntax.yaml');

test('imports APIs with their rules from an OpenAPI file, and says why a file cannot be read', async ({
  page,
}) => {
  const messages = watchMessages(page);
  const account = newAccount('functional-import');
  await register(page, account);
  await signIn(page, account.email, account.password);
  await page.goto('/functional-test/url-input');
  await expect(page.getByTestId('functional-no-apis')).toBeVisible();

  await page.getByTestId('import-apis-file').setInputFiles(BROKEN_YAML);
  await expectNotice(messages, /^Failed to parse file: \S.*/);
  await expect(page.getByTestId('functional-no-apis')).toBeVisible();

  await page.getByTestId('import-apis-file').setInputFiles(PETSTORE);
  await expectNotice(messages, /^Added \d+ APIs from v3-openapi\.yaml$/);
  const count = Number(await page.getByTestId('functional-api-count').textContent());
  expect(count).toBeGreaterThan(5);
  // A long list starts collapsed, one line per API.
  await expect(page.getByTestId('api-0-name')).toHaveCount(0);
  await page.getByTestId('api-0-toggle').click();
  // The document's promise as rules: the documented status, and the JSON body's schema.
  const rules = page.getByTestId('api-0-rule-list');
  await expect(rules).toContainText('Status code');
  await expect(rules).toContainText('Response schema');
  await expect(page.getByTestId('api-0-url')).toHaveValue(/\/pet/);
  await page.getByTestId('api-0').screenshot({ path: join(SHOTS, 'functional-editor-import.png') });

  // In Korean, the screen and the model's messages.
  await page.evaluate(() => window.localStorage.setItem('language', 'ko'));
  // The imported APIs are not saved: the browser asks before the page goes (a beforeunload dialog,
  // docs/reference/01-authoring.md §4), and leaving drops them.
  await page.reload();
  expect(messages.leaveQuestions).toBe(1);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('API 기능 테스트');
  await expect(page.getByTestId('functional-no-apis')).toContainText('구성된 API가 없습니다');
  await page.getByTestId('add-api').click();
  await page.getByTestId('functional-save').click();
  await expectNotice(messages, '테스트 이름은 필수입니다');
  await expect(page.getByTestId('functional-problems').getByRole('listitem')).toHaveText([
    '테스트 이름은 필수입니다',
    'API #1 이름은 필수입니다',
    'API #1 URL은 필수입니다',
  ]);
  await shot(page, 'functional-editor-ko');
});
