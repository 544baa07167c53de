import { expect, test } from '@playwright/test';
import { screenshot } from './helpers';

// The API reference at /api/docs: Swagger UI served by the app itself, running under the app's CSP.
test('the API reference at /api/docs shows the calls, with no CSP violation or script error', async ({
  page,
}) => {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  const foreign: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith('http://127.0.0.1') && !request.url().startsWith('data:')) {
      foreign.push(request.url());
    }
  });

  const response = await page.goto('/api/docs');
  expect(response?.status()).toBe(200);
  expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
  await expect(page).toHaveTitle('AnybodyQA API');

  // Swagger UI has read /api/docs/json and lists the operations, grouped by tag.
  await expect(page.locator('.information-container .title')).toContainText('AnybodyQA API');
  const getResult = page.locator('.opblock-summary-path', { hasText: '/api/get-test-result/{id}' });
  await expect(getResult).toBeVisible();
  await expect(page.locator('.opblock-summary-path', { hasText: '/api/login' })).toBeVisible();

  // An operation opens to its parameters and responses, rendered from the document's schemas.
  await getResult.click();
  const opened = page.locator('.opblock.is-open');
  await expect(opened.locator('.parameters-container')).toContainText('id');
  await expect(opened.locator('.responses-wrapper')).toContainText('200');
  await screenshot(page, 'api-docs');

  expect(problems).toEqual([]);
  expect(foreign).toEqual([]);
});

test('/api/docs/json is the OpenAPI document, public', async ({ request }) => {
  const response = await request.get('/api/docs/json');
  expect(response.status()).toBe(200);
  const doc = (await response.json()) as { openapi: string; paths: Record<string, unknown> };
  expect(doc.openapi).toMatch(/^3\.\d+\.\d+$/);
  expect(Object.keys(doc.paths)).toContain('/api/get-test-result/{id}');
});
