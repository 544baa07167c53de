import { defineConfig } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM_ARGS } from '@aqa/ui-runner/chromium-args';

/** The browser tests run against the built app on its own port and a fresh SQLite database. */
const PORT = Number(process.env.E2E_PORT ?? 5210);
const dataDir = mkdtempSync(join(tmpdir(), 'aqa-e2e-'));

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results/e2e-artifacts',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 2,
  retries: 0,
  reporter: [
    ['list'],
    ['json', { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ?? 'test-results/e2e.json' }],
  ],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      // The flags UI runs launch Chromium with, so the tests see the browser as the product has it.
      args: CHROMIUM_ARGS,
    },
    locale: 'en-US',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  webServer: {
    command: 'node apps/server/dist/main.mjs',
    url: `http://127.0.0.1:${PORT}/api/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      // Many sign-ins from one address in a short time; the limit itself is proven by the API tests.
      LOGIN_RATE_LIMIT_PER_IP: '1000',
      // Many specs register an account each, two at a time: more than 10 a minute from one address.
      REGISTER_RATE_LIMIT_PER_IP: '1000',
      // Signed-out and revoked tokens from one address, likewise (docs/adr/0012-api-tokens-and-sessions.md).
      TOKEN_FAILURES_PER_IP: '1000',
      // Runs use the built-in engine here; runs in JMeter and Locust are proven by the API tests.
      EXTERNAL_TOOLS: 'off',
    },
  },
});
