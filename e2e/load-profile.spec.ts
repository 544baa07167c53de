import { expect, test } from '@playwright/test';
import { CountingTarget } from './counting-target';
import { newAccount, register, signIn } from './helpers';

/**
 * A load profile from the editor to the result (docs/adr/0027-load-profiles.md): a preset fills the
 * stages, the chart previews the shape, the run follows it on the built-in engine, and the live and
 * stored results draw the planned line over the measured one with the iterations started and dropped.
 */
const target = new CountingTarget(() => ({ delayMs: 150 }));

test.beforeAll(() => target.start());
test.afterAll(() => target.stop());

test('an arrival-rate profile is previewed, runs along its plan, and its result shows plan and iterations', async ({
  page,
}) => {
  const account = newAccount('load-profile');
  await register(page, account);
  await signIn(page, account.email, account.password);
  await page.goto('/create-test/url-input');
  await page.getByTestId('plan-name').fill(`Profiled ${Date.now()}`);
  await page.getByTestId('api-0-url').fill(`${target.origin}/items`);
  // No pause after the call: an iteration is the call alone (the form's default think time is 5 s).
  await page.getByTestId('api-0-thinkTime').fill('0s');

  await page.getByTestId('profile-toggle').check();
  await page.getByTestId('profile-peak').fill('6');
  await page.getByTestId('profile-length').fill('6s');
  await page.getByTestId('profile-preset-average').click();
  await expect(page.getByTestId('profile-chart')).toBeVisible();
  await page.getByTestId('profile-model-arrival_rate').check();
  // A pool of one user at 150 ms an answer holds about 6 iterations a second: at the peak some are dropped.
  await page.getByTestId('profile-max-users').fill('1');

  await page.getByTestId('run-script').click();
  await expect(page).toHaveURL(/\/test-result\/run_[\w-]+$/);
  await expect(page.getByTestId('live-panel')).toBeVisible({ timeout: 15_000 });
  // The iterations so far are tiles; the dropped ones shown, even at 0 (docs/adr/0027-load-profiles.md "8. Live and stored results").
  await expect(page.getByTestId('tile-iterations-value')).toHaveText(/^\d+$/, { timeout: 15_000 });
  await expect(page.getByTestId('tile-dropped-iterations-value')).toHaveText(/^\d+$/);
  await expect(page.getByTestId('timeline-planned-note').first()).toContainText('iterations per second');

  // Finished: the stored result has the same plan line and the iterations in its statistics.
  await expect(page.getByTestId('stat-iterations-started')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('timeline-planned-note').first()).toBeVisible();
  const testId = page.url().split('/').pop();
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const result = await page.request.get(`/api/get-test-result/${testId}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  const body = (await result.json()) as {
    status: string;
    load_profile?: { model: string; max_users?: number };
    summary: {
      iterations_started: number;
      iterations_dropped: number;
      total_requests: number;
      schedule_lag: { p95: number; p99: number };
    };
  };
  expect(body.status).toBe('completed');
  expect(body.load_profile).toMatchObject({ model: 'arrival_rate', max_users: 1 });
  // Each started iteration is the plan's one call, and the target saw every one of them.
  expect(body.summary.total_requests).toBe(body.summary.iterations_started);
  expect(body.summary.iterations_started).toBeGreaterThan(10);
  // Started and dropped add up to the plan's iterations: 3 on the ramp up, 24 held, 3 on the ramp down.
  expect(body.summary.iterations_started + body.summary.iterations_dropped).toBe(30);
  expect(target.received).toBe(body.summary.total_requests);
  // The result's tiles show the same counts as the stored summary.
  await expect(page.getByTestId('tile-iterations-value')).toHaveText(String(body.summary.iterations_started));
  await expect(page.getByTestId('tile-dropped-iterations-value')).toHaveText(
    String(body.summary.iterations_dropped),
  );
  // Beside them the schedule lag the server stored with the run (docs/adr/0027-load-profiles.md "2. The schedule").
  const lagValue = await page.getByTestId('tile-schedule-lag-value').textContent();
  expect(Number(lagValue?.replace(/[^\d.]/g, ''))).toBeCloseTo(body.summary.schedule_lag.p99, 0);
  await expect(page.getByTestId('tile-schedule-lag')).toContainText('Over the whole run');
});
