import { expect, test } from '@playwright/test';
import { newAccount, register, signIn } from './helpers';

test('a user edits the profile and changes the password, which then signs in', async ({ page }) => {
  const account = newAccount('profile');
  await register(page, account);
  await signIn(page, account.email, account.password);

  await page.getByTestId('nav-profile').click();
  await expect(page.getByTestId('profile-email')).toHaveValue(account.email);
  await page.getByTestId('profile-company').fill('Difference Engines Ltd');
  await page.getByTestId('profile-role').fill('DevOps');
  await page.getByTestId('profile-save').click();
  await expect(page.getByTestId('profile-message')).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('profile-company')).toHaveValue('Difference Engines Ltd');
  await expect(page.getByTestId('profile-role')).toHaveValue('DevOps');

  await page.getByTestId('password-current').fill('wrong-password');
  await page.getByTestId('password-new').fill('brand-new-pass');
  await page.getByTestId('password-confirm').fill('brand-new-pass');
  await page.getByTestId('password-submit').click();
  await expect(page.getByTestId('password-message')).toContainText('Current password is incorrect');

  await page.getByTestId('password-current').fill(account.password);
  await page.getByTestId('password-submit').click();
  await expect(page.getByTestId('password-message')).not.toContainText('incorrect');

  await page.getByTestId('logout-button').click();
  await expect(page).toHaveURL(/\/login$/);
  await signIn(page, account.email, 'brand-new-pass');
  await expect(page.getByTestId('header-greeting')).toHaveText(`Welcome, ${account.firstName}!`);
});
