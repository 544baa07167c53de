import { expect, test } from '@playwright/test';
import { CountingTarget } from './counting-target';
import { newAccount, register, signIn } from './helpers';

/** Run Script on the URL-input screen: an unsaved plan is saved first, then the live result opens (docs/reference/01-authoring.md §4). */
const target = new CountingTarget();

test.beforeAll(() => target.start());
test.afterAll(() => target.stop());

test('Run Script saves the new plan, opens its live result, and Stop Test stops it', async ({ page }) => {
  // Its own account: other specs stop the demo user's runs when they finish.
  const account = newAccount('run-from-plan');
  await register(page, account);
  await signIn(page, account.email, account.password);
  await page.goto('/create-test/url-input');
  await page.getByTestId('plan-name').fill(`Run from the screen ${Date.now()}`);
  await page.getByTestId('plan-users').fill('2');
  await page.getByTestId('api-0-url').fill(`${target.origin}/health`);
  await page.getByTestId('run-script').click();

  await expect(page).toHaveURL(/\/test-result\/run_[\w-]+$/);
  await expect(page.getByTestId('save-status')).toHaveCount(0);
  await expect(page.getByTestId('live-panel')).toBeVisible({ timeout: 15_000 });
  await expect.poll(() => target.received, { timeout: 15_000 }).toBeGreaterThan(0);

  await page.getByTestId('stop-test').click();
  // Stop asks first (docs/reference/02-running.md §4).
  await page.getByTestId('confirm-accept').click();
  await expect(page.getByTestId('stop-test')).toHaveCount(0, { timeout: 10_000 });
  await expect(page.getByTestId('stopped-notice').first()).toBeVisible({ timeout: 10_000 });

  // The plan was saved on the way: it is in the user's list.
  const testId = page.url().split('/').pop();
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const result = await page.request.get(`/api/get-test-result/${testId}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  const body = (await result.json()) as { status: string; plan_id: string | null };
  expect(body.status).toBe('stopped');
  expect(body.plan_id).not.toBeNull();

  // The home dashboard's Recent Activity lists the run, and View Result opens it again.
  await page.goto('/dashboard');
  const recent = page.getByTestId('recent-list');
  await expect(recent).toContainText('Run from the screen');
  await recent.getByText('View Result').first().click();
  await expect(page).toHaveURL(new RegExp(`/test-result/${testId}$`));
});
