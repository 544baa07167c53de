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
 * Settings → API tokens (docs/adr/0012-api-tokens-and-sessions.md): a token is shown once with Copy,
 * works as a bearer token on the API but not on the token calls, and stops at once when revoked.
 */
test('a user creates an API token, copies it once, uses it on the API, and revokes it', async ({
  page,
  context,
  baseURL,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  const messages = watchMessages(page);
  const account = newAccount('tokens');
  await register(page, account);
  await signIn(page, account.email, account.password);

  await page.getByTestId('nav-setting').click();
  const card = page.getByTestId('api-tokens');
  await expect(card.getByTestId('token-list-empty')).toHaveText(/No API tokens yet/);

  // The rules are checked in the page first.
  await card.getByTestId('token-expiry').fill('0');
  await card.getByTestId('token-create').click();
  await expect(card.getByTestId('token-name-error')).toHaveText('Please enter a token name');
  await expect(card.getByTestId('token-expiry-error')).toContainText('whole number of days from 1 to 3650');

  await card.getByTestId('token-name').fill('GitHub Actions');
  await card.getByTestId('token-expiry').fill('30');
  await card.getByTestId('token-create').click();
  const created = card.getByTestId('token-created');
  await expect(created).toContainText('Copy it now: it will not be shown again.');
  const token = await created.getByTestId('token-value').inputValue();
  expect(token).toMatch(/^aqa_[A-Za-z0-9_-]{43}$/);
  await created.getByTestId('token-copy').click();
  await expectNotice(messages, 'Token copied to clipboard');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
  await screenshot(page, 'settings-tokens-created');

  // The token acts for its user on the API, and may not manage tokens.
  const bearer = { Authorization: `Bearer ${token}` };
  const plans = await page.request.get('/api/get-test-plans', { headers: bearer });
  expect(plans.status()).toBe(200);
  const me = await page.request.get('/api/me', { headers: bearer });
  expect(((await me.json()) as { user: { email: string } }).user.email).toBe(account.email);
  const list = await page.request.get('/api/tokens', { headers: bearer });
  expect(list.status()).toBe(403);
  expect(await list.text()).toContain('API tokens cannot manage API tokens');

  // Shown once: after a reload only its name and dates are left, now with its last use.
  await page.reload();
  const row = card.getByTestId('token-row');
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId('token-row-name')).toHaveText('GitHub Actions');
  await expect(row.getByTestId('token-row-dates')).toHaveText(/^Created .+ · Last used .+ · Expires .+$/);
  await expect(card.getByTestId('token-created')).toHaveCount(0);
  expect(await page.content()).not.toContain(token);
  await screenshot(page, 'settings-tokens-list');

  await row.getByTestId('token-revoke').click();
  await confirmWith(
    page,
    'Revoke the token "GitHub Actions"? Anything that uses it stops working at once. This cannot be undone.',
    'Revoke',
  );
  await expectNotice(messages, 'Token "GitHub Actions" revoked');
  await expect(card.getByTestId('token-list-empty')).toBeVisible();
  const refused = await page.request.get('/api/get-test-plans', { headers: bearer });
  expect(refused.status()).toBe(401);
  expect(((await refused.json()) as { detail: string }).detail).toBe(
    'This API token has been revoked. Create a new one in Settings.',
  );
  expect(messages.browserDialogs).toEqual([]);
});
