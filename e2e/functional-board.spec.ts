import { expect, test, type Page } from '@playwright/test';
import { CountingTarget } from './counting-target';
import { confirmWith, newAccount, register, screenshotAtWidth, signIn, watchMessages } from './helpers';

/**
 * The functional dashboard and result screen (docs/reference/02-running.md §2): a plan saved through the
 * API runs against a local target that counts what it receives, with one rule that fails; the dashboard
 * lists the run with its counters, the result screen shows the failed rule's expected and actual and the
 * call's evidence, and the run and the plan are deleted again.
 */
const USERS_BODY = '{"users":[{"id":7,"name":"Ada"}]}';
const ORDER_ERROR = '{"error":"out of stock"}';

const target = new CountingTarget((request) =>
  request.url?.startsWith('/orders') ? { status: 500, body: ORDER_ERROR } : { body: USERS_BODY },
);

test.beforeAll(() => target.start());
test.afterAll(() => target.stop());

const shot = (page: Page, name: string, width: number) =>
  screenshotAtWidth(page, 'functional-board', name, width);

test('a saved plan runs from the functional dashboard, its failed rule reads expected and actual, and run and plan are deleted', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const messages = watchMessages(page);
  const account = newAccount('functional-board');
  await register(page, account);
  await signIn(page, account.email, account.password);
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const auth = { Authorization: `Bearer ${token}` };

  const planName = `Orders check ${Date.now()}`;
  const saved = await page.request.post('/api/functional/save-config', {
    headers: auth,
    data: {
      test_name: planName,
      description: 'Lists users, then orders one thing',
      iterations: 2,
      concurrent_users: 1,
      think_time: 0,
      source: 'url_input',
      test_type: 'functional',
      apis: [
        {
          name: 'List users',
          url: `${target.origin}/users`,
          method: 'GET',
          validations: [
            { type: 'status_code', expected_value: '200' },
            { type: 'json_path', expected_value: '$.users[0].name == Ada' },
          ],
        },
        {
          name: 'Create order',
          url: `${target.origin}/orders`,
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: '{"item":"tea"}',
          validations: [{ type: 'status_code', expected_value: '201' }],
        },
      ],
    },
  });
  expect(saved.status()).toBe(201);
  const { id: planId } = (await saved.json()) as { id: string };

  // The home dashboard's Functional card leads to the functional dashboard.
  await page.getByTestId('card-functional-button').click();
  await expect(page).toHaveURL(/\/functional-dashboard$/);
  await expect(page.getByRole('heading', { name: 'Functional Test Dashboard' })).toBeVisible();
  await expect(page.getByTestId('backend-status')).toContainText('Connected');
  await expect(page.getByTestId('results-empty')).toBeVisible();
  const plan = page.locator(`[data-testid="functional-plan-item"][data-plan-id="${planId}"]`);
  await expect(plan.getByTestId('plan-item-name')).toHaveText(planName);
  await expect(plan.getByTestId('plan-item-type')).toHaveText('Functional');
  await expect(plan.getByTestId('plan-item-source')).toHaveText('URL Input');
  await expect(plan.getByTestId('plan-item-status')).toHaveText('Saved');
  await expect(plan.getByTestId('edit-plan')).toHaveAttribute(
    'href',
    `/functional-test/url-input?planId=${planId}`,
  );

  // Run Test runs the plan as saved and opens its result.
  await plan.getByTestId('run-plan').click();
  await expect(page).toHaveURL(/\/functional-test-result\/fc_[\w-]+$/);
  const testId = page.url().split('/').pop() ?? '';
  await expect(page.getByTestId('result-test-id')).toHaveText(testId);
  await expect(page.getByRole('heading', { name: 'Functional Test Result' })).toBeVisible();
  await expect(page.getByTestId('result-status')).toHaveAttribute('data-status', 'failed', {
    timeout: 20_000,
  });

  // The summary counts what the target received: 2 iterations of 2 calls.
  await expect.poll(() => target.received).toBe(4);
  await expect(page.getByTestId('summary-total-value')).toHaveText('4');
  await expect(page.getByTestId('summary-successful-value')).toHaveText('2');
  await expect(page.getByTestId('summary-failed-value')).toHaveText('2');
  await expect(page.getByTestId('summary-validation-failures-value')).toHaveText('2');
  await expect(page.getByTestId('result-test-name')).toHaveText(planName);
  await expect(page.getByTestId('call-group')).toHaveText(['Iteration 1 · User 1', 'Iteration 2 · User 1']);

  const failedCall = page
    .locator('[data-testid="call-result"][data-success="false"]')
    .filter({ hasText: 'Create order' })
    .first();
  await expect(failedCall.getByTestId('call-status-code')).toHaveText('500');
  const rule = failedCall.locator('[data-testid="validation-detail"][data-passed="false"]');
  await expect(rule.getByTestId('detail-type')).toHaveText('status_code');
  await expect(rule.getByTestId('detail-expected')).toHaveText('201');
  await expect(rule.getByTestId('detail-actual')).toHaveText('500');
  await expect(failedCall.getByTestId('call-timings')).toBeVisible();
  await failedCall.getByText('Request and response').click();
  await expect(failedCall.getByTestId('evidence-request')).toContainText(`POST ${target.origin}/orders`);
  await expect(failedCall.getByTestId('evidence-request-body')).toHaveText('{"item":"tea"}');
  await expect(failedCall.getByTestId('evidence-response-status')).toHaveText('Status 500');
  await expect(failedCall.getByTestId('evidence-response-body')).toHaveText(ORDER_ERROR);

  const passedCall = page.locator('[data-testid="call-result"][data-success="true"]').first();
  await expect(passedCall.getByTestId('call-passed')).toHaveText('2/2 passed');
  await expect(page.getByTestId('api-results')).toContainText('Create order');
  await expect(page.getByTestId('report-junit')).toBeVisible();

  await page.getByTestId('calls-filter-failed').click();
  await expect(page.getByTestId('call-result')).toHaveCount(2);
  await shot(page, 'result', 1280);
  await shot(page, 'result', 390);
  await page.setViewportSize({ width: 1280, height: 900 });

  // The JUnit report names the failed rule.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('report-junit').click(),
  ]);
  expect(download.suggestedFilename()).toBe(`functional_report_${testId}.xml`);

  // Back: a URL-input run goes back to its plan on the API test screen.
  await page.getByTestId('back-button').click();
  await expect(page).toHaveURL(new RegExp(`/functional-test/url-input\\?planId=${planId}$`));

  // Recent Activity lists the functional run, with its own link.
  await page.goto('/dashboard');
  const recent = page.getByTestId('recent-list').getByRole('listitem').filter({ hasText: planName });
  await expect(recent.getByTestId('recent-kind')).toHaveText('Functional');
  await expect(recent.getByTestId('recent-view-result')).toHaveAttribute(
    'href',
    `/functional-test-result/${testId}`,
  );

  // Previous Results has it among the functional runs.
  await page.goto('/previous-results?kind=functional');
  const listed = page.locator(`[data-testid="functional-run-item"][data-test-id="${testId}"]`);
  await expect(listed).toContainText(planName);
  await listed.getByTestId('functional-run-view').click();
  await expect(page).toHaveURL(new RegExp(`/functional-test-result/${testId}$`));
  await expect(page.getByTestId('result-test-name')).toHaveText(planName);

  // The dashboard: the run with its counters and its first 3 of 4 validation results.
  await page.goto('/functional-dashboard');
  await expect(page.getByTestId('counter-total')).toHaveText('1');
  await expect(page.getByTestId('counter-failed')).toHaveText('1');
  await expect(page.getByTestId('counter-completed')).toHaveText('0');
  const item = page.locator(`[data-testid="functional-result-item"][data-test-id="${testId}"]`);
  await expect(item.getByTestId('result-item-name')).toHaveText(planName);
  await expect(item.getByTestId('result-item-summary')).toContainText('Validation failures 2');
  await expect(item.getByTestId('result-item-validations').getByRole('listitem')).toHaveCount(4);
  await expect(item.getByTestId('result-item-more')).toHaveText('+1 more validations');
  await expect(plan.getByTestId('plan-item-status')).toHaveText('Failed');
  await shot(page, 'dashboard', 1280);
  await shot(page, 'dashboard', 390);
  await page.setViewportSize({ width: 1280, height: 900 });

  // Delete the run, then the plan, each after the in-app confirmation.
  await item.getByTestId('delete-result').click();
  await confirmWith(page, 'Are you sure you want to delete?', 'Delete');
  await expect(page.getByTestId('results-empty')).toBeVisible();
  await plan.getByTestId('delete-plan').click();
  await confirmWith(page, 'Are you sure you want to delete?', 'Delete');
  await expect(page.getByTestId('plans-empty')).toBeVisible();
  await expect(page.getByTestId('counter-total')).toHaveText('0');
  expect(messages.browserDialogs).toEqual([]);

  const gone = await page.request.get(`/api/functional/get-test-result/${testId}`, { headers: auth });
  expect(gone.status()).toBe(404);
});
