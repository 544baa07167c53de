import { expect, test } from '@playwright/test';
import { DEMO } from './helpers';

test('voice sign-in: a scripted recognizer hearing "login" fills the demo credentials', async ({ page }) => {
  await page.addInitScript(() => {
    // A stand-in for the Web Speech API that "hears" one phrase and records how it was configured.
    class ScriptedRecognition {
      lang = '';
      continuous = true;
      interimResults = true;
      onresult: ((event: unknown) => void) | null = null;
      onerror: ((event: unknown) => void) | null = null;
      onend: (() => void) | null = null;
      onstart: (() => void) | null = null;
      start() {
        (window as unknown as { __voiceConfig: unknown }).__voiceConfig = {
          lang: this.lang,
          continuous: this.continuous,
          interimResults: this.interimResults,
        };
        this.onstart?.();
        setTimeout(() => {
          const transcript = 'Login with demo credentials';
          const result = Object.assign([{ transcript, confidence: 0.95 }], { isFinal: true });
          this.onresult?.({ resultIndex: 0, results: [result] });
          this.onend?.();
        }, 300);
      }
      stop() {
        this.onend?.();
      }
      abort() {
        this.onend?.();
      }
      addEventListener() {}
      removeEventListener() {}
    }
    Object.assign(window, {
      SpeechRecognition: ScriptedRecognition,
      webkitSpeechRecognition: ScriptedRecognition,
    });
  });
  await page.goto('/login');
  await expect(page.getByText(/Login with demo credentials/).first()).toBeVisible();
  await page.getByTestId('voice-toggle').click();
  await expect(page.getByTestId('voice-text')).toHaveValue('Login with demo credentials');
  await expect(page.getByTestId('login-username')).toHaveValue(DEMO.username);
  await expect(page.getByTestId('login-password')).toHaveValue(DEMO.password);
  const config = await page.evaluate(() => (window as unknown as { __voiceConfig: unknown }).__voiceConfig);
  expect(config).toEqual({ lang: 'en-US', continuous: false, interimResults: false });
});

test('voice sign-in in a browser without speech recognition shows the unsupported alert', async ({
  page,
}) => {
  await page.addInitScript(() => {
    for (const name of ['SpeechRecognition', 'webkitSpeechRecognition']) {
      Object.defineProperty(window, name, { value: undefined, configurable: true });
    }
  });
  await page.goto('/login');
  const browserDialogs: string[] = [];
  page.on('dialog', (dialog) => {
    browserDialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await page.getByTestId('voice-toggle').click();
  // An in-app error notice (role="alert"), not the browser's blocking alert().
  await expect(
    page.getByRole('alert').filter({ hasText: 'Speech recognition is not supported in this browser.' }),
  ).toBeVisible();
  expect(browserDialogs).toEqual([]);
});
