import { expect, test, type Page } from '@playwright/test';
import { CountingTarget } from './counting-target';
import { newAccount, register, screenshotAtWidth, signIn, watchMessages } from './helpers';

/**
 * Messages and Feedback (docs/reference/02-running.md §2): a load run of a saved plan ends against a local
 * target that counts what it receives; without a reload the sidebar's Messages item shows 1, the Messages
 * screen lists the run with the figures it stored, and opening it marks it read. Then Feedback, opened
 * from that result, comes filled with the page and the run, is sent, and is listed with its date.
 */
const target = new CountingTarget();

test.beforeAll(() => target.start());
test.afterAll(() => target.stop());

const shot = (page: Page, name: string, width: number) =>
  screenshotAtWidth(page, 'messages-feedback', name, width);

test('a run that ends shows on the Messages badge live, opens from Messages, and feedback about it is sent and listed', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const dialogs = watchMessages(page);
  const account = newAccount('messages');
  await register(page, account);
  await signIn(page, account.email, account.password);
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const auth = { Authorization: `Bearer ${token}` };
  const badge = page.getByTestId('messages-unread-badge');
  await expect(page.getByTestId('nav-messages')).toBeVisible();
  await expect(badge).toHaveCount(0);

  const planName = `Checkout ${Date.now()}`;
  const saved = await page.request.post('/api/save-test-plan', {
    headers: auth,
    data: {
      name: planName,
      tool: 'k6',
      concurrent_users: 1,
      duration: 1,
      urls: [{ method: 'GET', url: `${target.origin}/items`, thinkTime: '50ms' }],
    },
  });
  expect(saved.status()).toBe(201);
  const { id: planId } = (await saved.json()) as { id: string };
  const started = await page.request.post('/api/run-test', {
    headers: auth,
    data: { plan_id: planId, duration_seconds: 1 },
  });
  expect(started.status()).toBe(201);
  const { test_id: runId } = (await started.json()) as { test_id: string };
  let total = 0;
  await expect
    .poll(async () => {
      const r = await page.request.get(`/api/get-test-result/${runId}`, { headers: auth });
      const body = (await r.json()) as { status: string; summary: { total_requests: number } | null };
      total = body.summary?.total_requests ?? 0;
      return body.status;
    })
    .toBe('completed');
  expect(total).toBe(target.received);

  // The dashboard never reloads: the sidebar asks for the count every 15 s while the tab is visible.
  await expect(badge).toHaveText('1', { timeout: 20_000 });

  await page.getByTestId('nav-messages').click();
  await expect(page).toHaveURL(/\/messages$/);
  const item = page.getByTestId('message-item');
  await expect(item).toHaveCount(1);
  await expect(item).toHaveAttribute('data-unread', 'true');
  await expect(item.getByTestId('message-kind')).toHaveText('Completed');
  await expect(item.getByTestId('message-link')).toHaveText(`${planName} load test completed`);
  await expect(item.getByTestId('message-body')).toContainText(
    `${new Intl.NumberFormat('en-US').format(total)} request`,
  );
  await shot(page, 'messages', 1280);
  await shot(page, 'messages', 390);
  await page.setViewportSize({ width: 1280, height: 900 });

  await item.getByTestId('message-link').click();
  await expect(page).toHaveURL(new RegExp(`/test-result/${runId}$`));
  await expect(badge).toHaveCount(0);
  const list = await page.request.get('/api/messages', { headers: auth });
  expect(((await list.json()) as { unread: number }).unread).toBe(0);

  // Feedback from the result page: the page and the run come filled in.
  await page.getByTestId('nav-feedback').click();
  await expect(page).toHaveURL(/\/feedback$/);
  await expect(page.getByTestId('feedback-page-field')).toHaveValue(`/test-result/${runId}`);
  await expect(page.getByTestId('feedback-run-field')).toHaveValue(runId);
  await expect(page.getByTestId('feedback-sent-empty')).toBeVisible();
  await page.getByTestId('feedback-send').click();
  await expect(page.getByTestId('feedback-message-error')).toHaveText('Write your feedback');
  await page.getByTestId('feedback-kind-question').click();
  await page.getByTestId('feedback-message').fill('Why is p95 higher than p90 by so much?');
  await page.getByTestId('feedback-send').click();
  await expect(page.getByTestId('feedback-sent')).toHaveText('Thank you. Your feedback was sent.');
  const sent = page.getByTestId('feedback-sent-item');
  await expect(sent).toHaveCount(1);
  await expect(sent).toContainText('Question');
  await expect(sent).toContainText('Why is p95 higher than p90 by so much?');
  await expect(sent).toContainText(`Page: /test-result/${runId}`);
  await expect(sent.getByRole('link')).toHaveText(`Test result: ${runId}`);
  await expect(sent.locator('time')).toHaveText(/\d{4}/);
  await shot(page, 'feedback', 1280);
  await shot(page, 'feedback', 390);
  expect(dialogs.browserDialogs).toEqual([]);
});
