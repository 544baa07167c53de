import { expect, test } from '@playwright/test';
import {
  confirmWith,
  expectNotice,
  newAccount,
  register,
  screenshot,
  signIn,
  watchMessages,
} from './helpers';

/*
 * Schedules (docs/adr/0031-schedules.md): a user schedules a saved API test on the Schedules screen, sees
 * the expression in words and its next five times while typing, finds it listed with its next run, turns
 * it off and deletes it. Firing at the time is proven against a moved clock by the API tests
 * (apps/server/test/schedules.test.ts).
 */
test('a user schedules a saved API test every weekday at 02:00 in Seoul, turns it off and deletes it', async ({
  page,
}) => {
  const messages = watchMessages(page);
  const account = newAccount('schedules');
  await register(page, account);
  const login = await page.request.post('/api/login', {
    data: { username: account.email, password: account.password },
  });
  const { token } = (await login.json()) as { token: string };
  const saved = await page.request.post('/api/functional/save-config', {
    headers: { Authorization: `Bearer ${token}` },
    data: { test_name: 'Nightly API', iterations: 1, apis: [{ name: 'Home', url: 'http://127.0.0.1:9/' }] },
  });
  expect(saved.status()).toBe(201);
  await signIn(page, account.email, account.password);

  await page.getByTestId('nav-schedules').click();
  await expect(page.getByTestId('schedule-list-empty')).toHaveText(/Nothing scheduled yet/);
  const cron = page.getByTestId('schedule-cron');
  await cron.fill('0 2 * *');
  await expect(page.getByTestId('schedule-preview-problem')).toHaveText(
    'A cron expression has five fields (minute hour day-of-month month day-of-week); this one has 4',
  );
  await page.getByTestId('schedule-add').click();
  await expect(page.getByText('Choose the plan to run')).toBeVisible();

  await page.getByTestId('schedule-preset').filter({ hasText: 'Weekdays 02:00' }).click();
  await page.getByTestId('schedule-timezone').selectOption('Asia/Seoul');
  await expect(page.getByTestId('schedule-preview-words')).toHaveText(
    'Runs: At 02:00, Monday through Friday (Asia/Seoul)',
  );
  const next = page.getByTestId('schedule-preview-next').getByRole('listitem');
  await expect(next).toHaveCount(5);
  await expect(next.first()).toContainText('02:00');
  await page.getByTestId('schedule-plan').selectOption({ label: 'Nightly API' });
  await page.getByTestId('schedule-add').click();
  await expectNotice(messages, 'Scheduled "Nightly API"');

  const row = page.getByTestId('schedule-row');
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId('schedule-row-when')).toContainText(
    'At 02:00, Monday through Friday (Asia/Seoul)',
  );
  await expect(row.getByTestId('schedule-row-next')).toContainText('02:00');
  await expect(row.getByTestId('schedule-row-last')).toContainText('Not yet');
  await screenshot(page, 'schedules-added');

  // The server has it, with the same next five times.
  const listed = await page.request.get('/api/schedules', { headers: { Authorization: `Bearer ${token}` } });
  const [schedule] = ((await listed.json()) as { schedules: { next_runs: string[]; timezone: string }[] })
    .schedules;
  expect(schedule?.timezone).toBe('Asia/Seoul');
  expect(schedule?.next_runs).toHaveLength(5);
  expect(schedule?.next_runs.every((at) => at.endsWith('T17:00:00.000Z'))).toBe(true);

  await row.getByTestId('schedule-toggle').click();
  await expectNotice(messages, 'Schedule of "Nightly API" turned off');
  await expect(row.getByTestId('schedule-row-next')).toHaveText('Off');
  await row.getByTestId('schedule-delete').click();
  await confirmWith(page, 'Delete the schedule of "Nightly API"? The runs it started stay.', 'Delete');
  await expect(page.getByTestId('schedule-list-empty')).toBeVisible();
});
