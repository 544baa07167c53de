import { expect, test, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { newAccount, register, signIn } from './helpers';

/**
 * James's panel (docs/design.md §10): opened with the keyboard on the performance URL editor, it greets
 * the user by first name, previews "double the users and add a 200 ms think time to the login call"
 * before → after, applies it to the form (not the server: Save stays the user's) and undoes it; then Ask
 * James answers a question from the analyser, labelled as such, and Review saved plans names the plan
 * that never ran.
 */

const SHOTS = join(process.cwd(), 'test-results', 'assistant');

async function shot(page: Page, name: string, width: number) {
  mkdirSync(SHOTS, { recursive: true });
  await page.setViewportSize({ width, height: 860 });
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(SHOTS, `${name}-${width}.png`) });
}

test('James adjusts the plan on screen with a preview and Undo, and answers a question from its analyser', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const account = newAccount('james');
  await register(page, account);
  await signIn(page, account.email, account.password);
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const saved = await page.request.post('/api/save-test-plan', {
    headers: { Authorization: `Bearer ${token}` },
    data: {
      name: 'James shop',
      tool: 'jmeter',
      concurrent_users: 10,
      duration: 1,
      urls: [
        { name: 'Login', method: 'POST', url: 'http://127.0.0.1:9/login' },
        { name: 'Catalog', method: 'GET', url: 'http://127.0.0.1:9/catalog' },
      ],
    },
  });
  expect(saved.status()).toBe(201);
  const { id } = (await saved.json()) as { id: string };

  await page.goto(`/create-test/url-input?planId=${id}`);
  await expect(page.getByTestId('plan-users')).toHaveValue('10');
  await expect(page.getByTestId('james-open')).toHaveAttribute('title', /Ctrl\+J/);

  await shot(page, 'header', 390);
  await page.setViewportSize({ width: 1280, height: 860 });
  await page.keyboard.press('Control+j');
  const panel = page.getByRole('dialog', { name: 'James' });
  await expect(panel).toBeVisible();
  await expect(panel.getByTestId('james-greeting')).toHaveText(
    'Hi Ada! How can I help with your tests today?',
  );
  await shot(page, 'menu', 1280);

  await panel.getByTestId('james-offer-adjust').click();
  await panel
    .getByTestId('james-adjust-input')
    .fill('double the users and add a 200 ms think time to the login call and make it snappy');
  await panel.getByTestId('james-adjust-preview').click();
  const rows = panel.getByTestId('james-adjust-rows').locator('tbody tr');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toHaveText(/Concurrent users\s*10\s*20/);
  await expect(rows.nth(1)).toHaveText(/Think time\s*API 1 · Login\s*5s\s*200ms/);
  await expect(panel.getByTestId('james-adjust-problems')).toContainText(
    '"make it snappy" was not understood.',
  );
  await expect(page.getByTestId('plan-users')).toHaveValue('10');
  await shot(page, 'preview', 1280);
  await shot(page, 'preview', 390);
  await page.setViewportSize({ width: 1280, height: 860 });

  await panel.getByTestId('james-adjust-apply').click();
  await expect(panel.getByTestId('james-adjust-applied')).toContainText('Applied 2 changes');
  await expect(page.getByTestId('plan-users')).toHaveValue('20');
  await expect(page.getByTestId('api-0-thinkTime')).toHaveValue('200ms');
  await expect(page.getByTestId('api-1-thinkTime')).toHaveValue('5s');
  // Applied to the form only: the stored plan is as it was until the user saves.
  const stored = await page.request.get(`/api/get-test-plan/${id}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(((await stored.json()) as { concurrent_users: number }).concurrent_users).toBe(10);
  await shot(page, 'applied', 1280);

  await panel.getByTestId('james-adjust-undo').click();
  await expect(panel.getByTestId('james-adjust-undone')).toBeVisible();
  await expect(page.getByTestId('plan-users')).toHaveValue('10');
  await expect(page.getByTestId('api-0-thinkTime')).toHaveValue('5s');

  // Escape closes the panel; the shortcut opens it again where it was.
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await page.keyboard.press('Control+j');
  await expect(panel).toBeVisible();

  await panel.getByTestId('james-back').click();
  await panel.getByTestId('james-offer-ask').click();
  await panel.getByTestId('james-ask-input').fill('What does p95 mean?');
  await panel.getByTestId('james-ask-send').click();
  const answer = panel.getByTestId('james-answer').last();
  await expect(answer).toContainText('95th percentile');
  await expect(answer.getByTestId('james-answer-source')).toHaveText('From your data');
  await shot(page, 'ask', 1280);
  await shot(page, 'ask', 390);

  // Review saved plans: the plan that never ran is a finding, with a link to it.
  await panel.getByTestId('james-back').click();
  await panel.getByTestId('james-offer-review').click();
  const neverRan = panel.locator('[data-testid="james-finding"][data-kind="never_ran"]');
  await expect(neverRan).toContainText('James shop');
  await expect(neverRan.getByRole('link').first()).toHaveAttribute('href', new RegExp(id));
  await shot(page, 'review', 390);
  await page.setViewportSize({ width: 1280, height: 860 });

  // The functional API editor publishes its plan too: the same parser, the functional fields.
  const functional = await page.request.post('/api/functional/save-config', {
    headers: { Authorization: `Bearer ${token}` },
    data: {
      test_name: 'James checks',
      iterations: 3,
      source: 'url_input',
      test_type: 'functional',
      apis: [
        { name: 'Login', url: 'http://127.0.0.1:9/login', method: 'POST' },
        { name: 'Cart', url: 'http://127.0.0.1:9/cart', method: 'GET' },
      ],
    },
  });
  expect(functional.status()).toBe(201);
  const { id: functionalId } = (await functional.json()) as { id: string };
  await page.goto(`/functional-test/url-input?planId=${functionalId}`);
  await expect(page.getByTestId('setting-iterations')).toHaveValue('3');
  // A new page load: James opens on its offers again.
  await page.keyboard.press('Control+j');
  await panel.getByTestId('james-offer-adjust').click();
  await expect(panel).toContainText('Functional test');
  await panel.getByTestId('james-adjust-input').fill('반복 두 배 그리고 timeout 10s for the cart call');
  await panel.getByTestId('james-adjust-preview').click();
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toHaveText(/Iterations\s*3\s*6/);
  await expect(rows.nth(1)).toHaveText(/Timeout\s*API 2 · Cart\s*30s\s*10s/);
  await panel.getByTestId('james-adjust-apply').click();
  await expect(page.getByTestId('setting-iterations')).toHaveValue('6');
  await expect(page.getByTestId('api-1-timeout')).toHaveValue('10');
  await panel.getByTestId('james-adjust-undo').click();
  await expect(page.getByTestId('setting-iterations')).toHaveValue('3');
  await expect(page.getByTestId('api-1-timeout')).toHaveValue('30');
});
