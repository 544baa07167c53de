import { expect, test } from '@playwright/test';
import { DEMO, newAccount, register, signIn } from './helpers';

test('a new user registers, signs in, is greeted, and logs out to /login', async ({ page }) => {
  const account = newAccount('journey');
  await register(page, account);

  await signIn(page, account.email, account.password);
  // Greeted by the first name given at sign-up (issue 24).
  await expect(page.getByText(`Welcome, ${account.firstName}!`)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Welcome to Anybody can do QA' })).toBeVisible();

  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText('Welcome Back')).toBeVisible();

  // Signed out, a protected screen shows the sign-in screen.
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/login$/);
});

test('the sign-in screen shows the spec texts and the demo credentials, which sign in', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByText('Test Smarter. Test Faster. Test by Anyone.')).toBeVisible();
  const weekday = await page.evaluate(() => new Date().toLocaleDateString('en-US', { weekday: 'long' }));
  await expect(page.getByText(`Happy ${weekday}!!`)).toBeVisible();
  for (const text of ['Lightning Fast', 'Execute tests in seconds', 'Secure', 'Enterprise-grade security']) {
    await expect(page.getByText(text, { exact: true })).toBeVisible();
  }
  await expect(page.getByText('Collaborative', { exact: true })).toBeVisible();
  await expect(page.getByText('Team-friendly platform')).toBeVisible();
  await expect(page.getByText('Sign in to continue your testing journey')).toBeVisible();
  await expect(page.getByTestId('demo-username')).toHaveText(DEMO.username);
  await expect(page.getByTestId('demo-password')).toHaveText(DEMO.password);

  await page.getByTestId('login-username').fill(DEMO.username);
  await page.getByTestId('login-password').fill(DEMO.password);
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('login-submit')).toHaveText('Signing in...');
  await expect(page.getByTestId('login-submit')).toBeDisabled();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText('Welcome, Demo!')).toBeVisible();
});

test('signing in with empty fields says so in a notice, and a wrong password shows the server message', async ({
  page,
}) => {
  await page.goto('/login');
  const browserDialogs: string[] = [];
  page.on('dialog', (dialog) => {
    browserDialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await page.getByTestId('login-submit').click();
  // An in-app error notice (role="alert"), not the browser's blocking alert().
  await expect(page.getByTestId('notice-text')).toHaveText('Please enter username and password');
  await expect(
    page.getByRole('alert').filter({ hasText: 'Please enter username and password' }),
  ).toBeVisible();
  await page.getByTestId('notice-dismiss').click();
  await expect(page.getByTestId('notice')).toHaveCount(0);

  await page.getByTestId('login-username').fill(DEMO.username);
  await page.getByTestId('login-password').fill('not-the-password');
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('login-error')).toContainText('Invalid username or password');
  await expect(page).toHaveURL(/\/login$/);
  expect(browserDialogs).toEqual([]);
});

test('each registration error shows under its field and clears when the field is edited', async ({
  page,
}) => {
  await page.goto('/login');
  await page.getByRole('link', { name: /Sign up/ }).click();
  await expect(page).toHaveURL(/\/register$/);
  await expect(page.getByText('Create your account')).toBeVisible();

  await page.getByTestId('register-submit').click();
  await expect(page.getByTestId('error-firstName')).toHaveText('First name is required');
  await expect(page.getByTestId('error-lastName')).toHaveText('Last name is required');
  await expect(page.getByTestId('error-email')).toHaveText('Email is required');
  await expect(page.getByTestId('error-password')).toHaveText('Password is required');

  await page.getByTestId('register-first-name').fill('   ');
  await page.getByTestId('register-email').fill('not-an-email');
  await page.getByTestId('register-password').fill('12345');
  await page.getByTestId('register-confirm-password').fill('54321');
  await expect(page.getByTestId('error-email')).toHaveCount(0);
  await page.getByTestId('register-submit').click();
  await expect(page.getByTestId('error-firstName')).toHaveText('First name is required');
  await expect(page.getByTestId('error-email')).toHaveText('Please enter a valid email');
  await expect(page.getByTestId('error-password')).toHaveText('Password must be at least 6 characters');
  await expect(page.getByTestId('error-confirmPassword')).toHaveText('Passwords do not match');

  // Each error sits under its own field.
  for (const [field, testId] of [
    ['email', 'register-email'],
    ['password', 'register-password'],
  ] as const) {
    const input = await page.getByTestId(testId).boundingBox();
    const error = await page.getByTestId(`error-${field}`).boundingBox();
    expect(error!.y).toBeGreaterThan(input!.y);
  }
  await page.getByTestId('register-password').fill('123456');
  await expect(page.getByTestId('error-password')).toHaveCount(0);
});

test('registering an email that exists already shows the server message', async ({ page }) => {
  const account = newAccount('dup');
  await register(page, account);
  await page.goto('/register');
  await page.getByTestId('register-first-name').fill('Another');
  await page.getByTestId('register-last-name').fill('Person');
  await page.getByTestId('register-email').fill(account.email.toUpperCase());
  await page.getByTestId('register-password').fill('secret-pass-2');
  await page.getByTestId('register-confirm-password').fill('secret-pass-2');
  // The server's answer is held for a moment, so the button's state while it waits can be seen; a
  // fast answer would otherwise come before the first look.
  await page.route('**/api/register', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await route.continue();
  });
  await page.getByTestId('register-submit').click();
  await expect(page.getByTestId('register-submit')).toHaveText('Creating account...');
  await expect(page.getByTestId('register-error')).toContainText('An account with this email already exists');
  await expect(page).toHaveURL(/\/register$/);
});

test('a revoked or unknown token sends the user to sign-in', async ({ page }) => {
  await page.goto('/login');
  await page.evaluate(() => {
    localStorage.setItem('token', 'not-a-real-token');
    localStorage.setItem(
      'user',
      JSON.stringify({ username: 'ghost@example.com', email: 'ghost@example.com' }),
    );
  });
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
});
