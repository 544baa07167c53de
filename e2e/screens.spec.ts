import { expect, test, type Page } from '@playwright/test';
import { DEMO, screenshot, signIn } from './helpers';

// Screenshots of the first screens in both languages and at both widths, for a person to look at.
const WIDTHS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;

async function chooseLanguage(page: Page, language: 'en' | 'ko') {
  await page.addInitScript((lang) => localStorage.setItem('language', lang), language);
}

for (const language of ['en', 'ko'] as const) {
  for (const size of WIDTHS) {
    test(`sign-in, registration and home screens (${language}, ${size.name})`, async ({ page }) => {
      await page.setViewportSize({ width: size.width, height: size.height });
      await chooseLanguage(page, language);
      await page.goto('/login');
      await expect(page.getByTestId('login-submit')).toBeVisible();
      await screenshot(page, `sign-in-${language}-${size.name}`);

      await page.goto('/register');
      await page.getByTestId('register-submit').click();
      await expect(page.getByTestId('error-email')).toBeVisible();
      await screenshot(page, `register-errors-${language}-${size.name}`);

      await signIn(page, DEMO.username, DEMO.password);
      await expect(page.getByTestId('recent-activity')).toBeVisible();
      await screenshot(page, `home-${language}-${size.name}`);
    });
  }
}
