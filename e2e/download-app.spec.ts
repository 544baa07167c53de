import { expect, test } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newAccount, register, screenshot, signIn } from './helpers';

/**
 * Download App (docs/reference/02-running.md §2 "Download App"): the sidebar item opens the screen, its
 * commands carry this server's address and the saved plan chosen, and Download gives the one-file aqa
 * command line, which Node runs on its own.
 */
test('Download App shows commands with this server and a saved plan, and Download gives aqa.mjs that runs', async ({
  page,
  baseURL,
}) => {
  const account = newAccount('download-app');
  await register(page, account);
  await signIn(page, account.email, account.password);
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const saved = await page.request.post('/api/functional/save-config', {
    headers: { Authorization: `Bearer ${token}` },
    data: { test_name: 'Login smoke', apis: [{ name: 'Health', url: 'http://127.0.0.1:9/health' }] },
  });
  expect(saved.status()).toBe(201);
  const planId = ((await saved.json()) as { id: string }).id;

  await page.getByTestId('nav-download-app').click();
  await expect(page).toHaveURL(/\/download-app$/);
  const origin = new URL(baseURL ?? '').origin;
  const terminal = page.getByTestId('download-terminal-code');
  await expect(terminal).toContainText(`export AQA_SERVER=${origin}`);
  await expect(terminal).toContainText(`curl -fsSL ${origin}/downloads/aqa.mjs -o aqa.mjs`);
  await expect(terminal).toContainText(`node aqa.mjs test --plan ${planId} --junit aqa-junit.xml`);
  await expect(page.getByTestId('download-github-code')).toContainText('AQA_TOKEN: ${{ secrets.AQA_TOKEN }}');
  await expect(page.getByTestId('download-gitlab-code')).toContainText('junit: aqa-junit.xml');
  await page.setViewportSize({ width: 1280, height: 900 });
  await screenshot(page, 'download-app-1280');
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, 'download-app-390');

  const dir = mkdtempSync(join(tmpdir(), 'aqa-e2e-download-'));
  try {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('download-cli').click(),
    ]);
    expect(download.suggestedFilename()).toBe('aqa.mjs');
    const file = join(dir, 'aqa.mjs');
    await download.saveAs(file);
    expect(readFileSync(file, 'utf8').startsWith('#!/usr/bin/env node')).toBe(true);
    const help = execFileSync(process.execPath, [file, '--help'], { cwd: dir, encoding: 'utf8' });
    expect(help).toContain('aqa run --plan ID --server URL');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
