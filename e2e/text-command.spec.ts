import { expect, test } from '@playwright/test';
import { DEMO, signIn } from './helpers';

test('a saved plan is edited by a typed text command, and a command that is not understood changes nothing', async ({
  page,
  request,
}) => {
  const login = await request.post('/api/login', {
    data: { username: DEMO.username, password: DEMO.password },
  });
  const { token } = (await login.json()) as { token: string };
  const saved = await request.post('/api/save-test-plan', {
    headers: { Authorization: `Bearer ${token}` },
    data: {
      name: 'Text command plan',
      tool: 'jmeter',
      concurrent_users: 10,
      duration: 1,
      urls: [
        { method: 'GET', url: 'http://127.0.0.1:9/a' },
        { method: 'GET', url: 'http://127.0.0.1:9/b' },
      ],
    },
  });
  const { id } = (await saved.json()) as { id: string };

  await signIn(page, DEMO.username, DEMO.password);
  await page.goto(`/create-test/url-input?planId=${id}`);
  await expect(page.getByTestId('text-command-panel')).toBeVisible();
  await expect(page.getByTestId('plan-users')).toHaveValue('10');

  await page.getByTestId('text-command-input').fill('set users to 50 and think time 2s for API 2');
  await page.getByTestId('text-command-apply').click();
  await expect(page.getByTestId('text-command-message')).toContainText('Applied 2 changes');
  await expect(page.getByTestId('text-command-changes')).toContainText('think time → 2s for API 2');
  await expect(page.getByTestId('plan-users')).toHaveValue('50');

  const stored = await request.get(`/api/get-test-plan/${id}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  const plan = (await stored.json()) as { concurrent_users: number; urls: { thinkTime: string }[] };
  expect(plan.concurrent_users).toBe(50);
  expect(plan.urls[1]?.thinkTime).toBe('2s');

  // A second command, in Korean, changes the tool; the screen and the stored plan both show it.
  await page.getByTestId('text-command-input').fill('k6로 변경해줘');
  await page.getByTestId('text-command-apply').click();
  await expect(page.getByTestId('text-command-message')).toContainText('Applied 1 change');
  await expect(page.getByTestId('plan-tool')).toHaveValue('k6');
  const retooled = await request.get(`/api/get-test-plan/${id}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(((await retooled.json()) as { tool: string; concurrent_users: number }).tool).toBe('k6');

  await page.getByTestId('text-command-input').fill('make it faster please');
  await page.getByTestId('text-command-apply').click();
  await expect(page.getByTestId('text-command-message')).toContainText('was not understood');
  const unchanged = await request.get(`/api/get-test-plan/${id}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(((await unchanged.json()) as { concurrent_users: number }).concurrent_users).toBe(50);
});
