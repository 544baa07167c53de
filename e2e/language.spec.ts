import { expect, test } from '@playwright/test';
import { DEMO, signIn } from './helpers';

test('switching to Korean in Setting translates the shell and the home screen, and it sticks', async ({
  page,
}) => {
  await signIn(page, DEMO.username, DEMO.password);
  await page.goto('/settings');
  await page.getByTestId('settings-language').click();
  await page.getByRole('option', { name: '한국어' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'ko');
  await page.goto('/dashboard');
  await expect(page.getByRole('button', { name: '로그아웃' })).toBeVisible();
  await expect(page.getByText('Welcome to Anybody can do QA')).toHaveCount(0);

  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', 'ko');
  await page.getByRole('button', { name: '로그아웃' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByTestId('login-submit')).toHaveText('로그인');
});

test.describe('a first visit from a Korean browser', () => {
  test.use({ locale: 'ko-KR' });
  test('follows the browser language', async ({ page }) => {
    await page.goto('/login');
    await expect(page.locator('html')).toHaveAttribute('lang', 'ko');
    await expect(page.getByText('Welcome Back')).toHaveCount(0);
  });
});
