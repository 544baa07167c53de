import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { CountingTarget } from './counting-target';
import { DEMO, screenshot, signIn, viewScreenshot } from './helpers';

/**
 * The live result screen (docs/reference/02-running.md §2, §4) in a real browser against the real server and its run manager,
 * which loads a local target that counts every request it receives.
 */

/** Answers at once: a small JSON list, or 404 under /missing. */
const target = new CountingTarget((request) => ({
  status: request.url?.startsWith('/missing') ? 404 : 200,
  body: JSON.stringify({ ok: true, items: [1, 2, 3] }),
}));
let token = '';
let planId = '';

async function login(request: APIRequestContext): Promise<string> {
  const answer = await request.post('/api/login', {
    data: { username: DEMO.username, password: DEMO.password },
  });
  expect(answer.ok()).toBe(true);
  return ((await answer.json()) as { token: string }).token;
}

async function savePlan(request: APIRequestContext): Promise<string> {
  const answer = await request.post('/api/save-test-plan', {
    headers: { Authorization: `Bearer ${token}` },
    data: {
      name: `Results e2e ${Date.now()}`,
      tool: 'k6',
      concurrent_users: 2,
      duration: 1,
      urls: [
        { name: 'List items', method: 'GET', url: `${target.origin}/items`, thinkTime: '50ms' },
        { name: 'Missing page', method: 'GET', url: `${target.origin}/missing`, thinkTime: '50ms' },
      ],
      user_email: DEMO.username,
    },
  });
  expect(answer.status(), await answer.text()).toBeLessThan(300);
  const saved = (await answer.json()) as { id?: string; _id?: string; plan_id?: string };
  const id = saved.id ?? saved._id ?? saved.plan_id;
  expect(id).toBeTruthy();
  return id!;
}

async function startRun(request: APIRequestContext, durationSeconds: number): Promise<string> {
  const answer = await request.post('/api/run-test', {
    headers: { Authorization: `Bearer ${token}` },
    data: { plan_id: planId, duration_seconds: durationSeconds, user_email: DEMO.username },
  });
  expect(answer.status(), await answer.text()).toBe(201);
  const started = (await answer.json()) as { test_id: string };
  expect(started.test_id).toBeTruthy();
  return started.test_id;
}

function digits(text: string | null): number {
  return Number((text ?? '').replace(/[^\d]/g, ''));
}

/** Chooses the theme as Settings stores it; the page reloads to apply it (charts included). */
async function setTheme(page: Page, theme: 'light' | 'dark', reload = true) {
  await page.evaluate((value) => localStorage.setItem('theme', value), theme);
  if (reload) {
    await page.reload();
    await expect(page.getByTestId('test-result-page')).toBeVisible();
  }
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ request }) => {
  await target.start();
  token = await login(request);
  planId = await savePlan(request);
});

test.afterAll(async ({ request }) => {
  await request.post('/api/force-stop-all-tests', { headers: { Authorization: `Bearer ${token}` } });
  await target.stop();
});

test('a 20-second run: live tiles every second, then the completed results with every chart', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, DEMO.username, DEMO.password);
  const before = target.received;
  const testId = await startRun(request, 20);
  await page.goto(`/test-result/${testId}`);

  await expect(page.getByTestId('result-test-id')).toHaveText(testId);
  await expect(page.getByTestId('result-status')).toHaveAttribute('data-phase', 'running');
  await expect(page.getByTestId('stop-test')).toHaveText('Stop Test');

  // Live: the tiles fill in from the stream and the progress bar moves.
  const rps = page.getByTestId('tile-rps-value');
  await expect(rps).toHaveText(/\d+(\.\d)? req\/s/);
  await expect(page.getByTestId('tile-active-users-value')).toHaveText(/^[12]$/);
  await expect(page.getByTestId('tile-avg-value')).toHaveText(/ms$/);
  await expect(page.getByTestId('tile-error-rate-value')).toHaveText(/%$/);
  const progress = page.getByTestId('progress-bar');
  const firstProgress = Number(await progress.getAttribute('aria-valuenow'));
  const firstTotals = await page.getByTestId('live-totals').textContent();
  await viewScreenshot(page, 'results-running-light-desktop');
  await expect
    .poll(async () => Number(await progress.getAttribute('aria-valuenow')))
    .toBeGreaterThan(firstProgress);
  await expect(page.getByTestId('progress-elapsed')).toContainText('/ 20 s');
  await expect.poll(() => page.getByTestId('live-totals').textContent()).not.toBe(firstTotals);

  // A new measured second reaches the screen every second: over 6 s the request count shown changes at
  // least 5 times, never more than 1.6 s apart (a second plus scheduling jitter on a busy machine).
  const changes = await page.evaluate(async () => {
    const totals = document.querySelector('[data-testid="live-totals"]');
    if (!totals) return [];
    const seen: { at: number; text: string }[] = [{ at: performance.now(), text: totals.textContent ?? '' }];
    const observer = new MutationObserver(() => {
      const text = totals.textContent ?? '';
      if (text !== seen[seen.length - 1]?.text) seen.push({ at: performance.now(), text });
    });
    observer.observe(totals, { characterData: true, childList: true, subtree: true });
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    observer.disconnect();
    return seen;
  });
  const counts = changes.map((change) => Number(change.text.match(/^[\d,]+/)?.[0].replace(/,/g, '')));
  expect(changes.length - 1, JSON.stringify(changes)).toBeGreaterThanOrEqual(5);
  for (let i = 1; i < changes.length; i++) {
    expect(counts[i], 'the count only grows').toBeGreaterThan(counts[i - 1] ?? 0);
    if (i > 1) expect((changes[i]?.at ?? 0) - (changes[i - 1]?.at ?? 0)).toBeLessThan(1_600);
  }
  await expect(page.getByTestId('performance-timeline')).not.toHaveAttribute('data-points', '0');

  // Completed: every chart drawn from the measured data.
  await expect(page.getByTestId('result-status')).toHaveAttribute('data-phase', 'completed', {
    timeout: 30_000,
  });
  await expect(page.getByTestId('stop-test')).toHaveCount(0);
  await expect(page.getByTestId('live-progress')).toHaveCount(0);
  const total = page.getByTestId('summary-total-requests-value');
  await expect(total).toHaveText(/\d/);
  const counted = target.received - before;
  expect(counted).toBeGreaterThan(0);
  expect(digits(await total.textContent())).toBe(counted);

  for (const chart of [
    'chart-distribution',
    'chart-success-failure',
    'chart-metrics',
    'chart-api-comparison',
    'chart-throughput',
    'chart-error-trend',
    'chart-api-timeline',
  ]) {
    const card = page.getByTestId(chart);
    await expect(card, chart).toBeVisible();
    expect(Number(await card.getAttribute('data-points')), chart).toBeGreaterThan(0);
    const box = await card.locator('canvas').boundingBox();
    expect(box?.width ?? 0, chart).toBeGreaterThan(100);
  }
  const timeline = page.getByTestId('performance-timeline');
  expect(Number(await timeline.getAttribute('data-points'))).toBeGreaterThanOrEqual(3);
  expect((await page.getByTestId('timeline-chart').boundingBox())?.height).toBe(600);
  await expect(page.getByTestId('timeline-avg')).toContainText('ms');

  // The histogram counts every request that got an answer.
  const distribution = page.getByTestId('chart-distribution');
  await expect(distribution).toHaveAttribute('data-points', '6');

  // Detailed statistics and the engine that really ran, in words.
  await expect(page.getByTestId('stat-duration')).toContainText('s');
  // The plan's tool is k6; where k6 is not installed the built-in engine ran, and the screen says so.
  const engines = (await (
    await request.get('/api/engines', { headers: { Authorization: `Bearer ${token}` } })
  ).json()) as { tool: string; installed: boolean; usable: boolean }[];
  const k6Installed = engines.some((engine) => engine.tool === 'k6' && engine.installed);
  // An installed k6 runs the plan only once it passed the server's check (usable).
  const k6Ran = engines.some((engine) => engine.tool === 'k6' && engine.usable);
  await expect(page.getByTestId('stat-tool')).toContainText(k6Ran ? 'k6' : 'Built-in engine');
  if (!k6Installed) {
    await expect(page.getByTestId('engine-note')).toHaveText(
      /^Ran with the built-in engine: .*k6 is not installed on this server\.$/,
    );
  }
  await expect(page.getByTestId('stat-bandwidth')).toContainText('KB/s');

  // Per API: the failing step is red, the healthy one green.
  const rows = page.getByTestId('api-result');
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: 'List items' }).getByTestId('error-rate-badge')).toHaveAttribute(
    'data-level',
    'success',
  );
  await expect(rows.filter({ hasText: 'Missing page' }).getByTestId('error-rate-badge')).toHaveAttribute(
    'data-level',
    'destructive',
  );
  const tableTotals = await page.getByTestId('api-table-total').allTextContents();
  expect(tableTotals.map(digits).reduce((a, b) => a + b, 0)).toBe(counted);

  await screenshot(page, 'results-completed-light-desktop');
  await setTheme(page, 'dark');
  await expect(page.getByTestId('chart-throughput')).toBeVisible();
  await page.waitForTimeout(300);
  await screenshot(page, 'results-completed-dark-desktop');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(300);
  await screenshot(page, 'results-completed-dark-phone');
  await setTheme(page, 'light');
  await expect(page.getByTestId('chart-throughput')).toBeVisible();
  await page.waitForTimeout(300);
  expect((await page.getByTestId('timeline-chart').boundingBox())?.height).toBe(400);
  await screenshot(page, 'results-completed-light-phone');

  // A finished run opens by its link with the same figures.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/test-result/${testId}`);
  await expect(page.getByTestId('result-status')).toHaveAttribute('data-phase', 'completed');
  expect(digits(await page.getByTestId('summary-total-requests-value').textContent())).toBe(counted);
  await expect(page.getByTestId('chart-throughput')).toBeVisible();
});

test('live on a phone, in dark mode', async ({ page, request }) => {
  test.setTimeout(60_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, DEMO.username, DEMO.password);
  await setTheme(page, 'dark', false);
  const testId = await startRun(request, 6);
  await page.goto(`/test-result/${testId}`);
  await expect(page.getByTestId('tile-rps-value')).toHaveText(/req\/s/);
  await expect(page.getByTestId('performance-timeline')).not.toHaveAttribute('data-points', '0');
  await page.waitForTimeout(1_500);
  await screenshot(page, 'results-running-dark-phone');
  await expect(page.getByTestId('result-status')).toHaveAttribute('data-phase', 'completed', {
    timeout: 30_000,
  });
});

test('Stop Test stops a longer run, which then shows the part that ran', async ({ page, request }) => {
  test.setTimeout(60_000);
  await signIn(page, DEMO.username, DEMO.password);
  const testId = await startRun(request, 60);
  await page.goto(`/test-result/${testId}`);
  await expect(page.getByTestId('tile-rps-value')).toHaveText(/req\/s/);
  await expect(page.getByTestId('result-status')).toHaveAttribute('data-phase', 'running');

  await page.getByTestId('stop-test').click();
  // Stop asks first (docs/reference/02-running.md §4).
  await page.getByTestId('confirm-accept').click();
  await expect(page.getByTestId('result-status')).toHaveAttribute('data-phase', 'stopped', {
    timeout: 15_000,
  });
  await expect(page.getByTestId('stop-test')).toHaveCount(0);
  expect(await page.evaluate(() => localStorage.getItem('currentTestId'))).toBeNull();
  await expect(page.getByTestId('summary-total-requests-value')).toHaveText(/\d/, { timeout: 15_000 });
  await expect(page.getByTestId('stopped-notice')).toBeVisible();

  const answer = await request.get(`/api/get-test-result/${testId}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(((await answer.json()) as { status: string }).status).toBe('stopped');
  await viewScreenshot(page, 'results-stopped-light-desktop');

  // The distribution in bars fitted to what this fast target measured, beside the 100 ms bars.
  const distribution = page.getByTestId('chart-distribution');
  await expect(distribution.getByTestId('distribution-mode')).toHaveAttribute('data-mode', 'fixed');
  await distribution.getByRole('button', { name: 'Fitted to the range' }).click();
  await expect(distribution.getByTestId('distribution-mode')).toHaveAttribute('data-mode', 'fitted');
  await expect(distribution).toContainText('in bars fitted to the fastest and slowest responses');
  await expect(distribution.locator('canvas')).toBeVisible();
});

test('an id the server never issued: "Test not found" at once, no Stop, no progress, and ways back', async ({
  page,
}) => {
  await signIn(page, DEMO.username, DEMO.password);
  await page.goto('/test-result/run_doesnotexist');
  const panel = page.getByTestId('not-found-panel');
  await expect(panel).toBeVisible();
  await expect(panel.getByRole('heading', { name: 'Test not found' })).toBeVisible();
  await expect(page.getByTestId('not-found-message')).toContainText('run_doesnotexist');
  await expect(page.getByTestId('result-status')).toHaveAttribute('data-phase', 'notFound');
  await expect(page.getByTestId('stop-test')).toHaveCount(0);
  await expect(page.getByTestId('live-panel')).toHaveCount(0);
  await expect(page.getByRole('progressbar')).toHaveCount(0);
  await expect(page.getByTestId('waiting-panel')).toHaveCount(0);
  expect(await page.evaluate(() => localStorage.getItem('currentTestId'))).toBeNull();
  await viewScreenshot(page, 'results-not-found-light-desktop');

  await panel.getByRole('link', { name: 'Previous Results' }).click();
  await expect(page).toHaveURL(/\/previous-results$/);
  await page.goBack();
  await expect(page.getByTestId('not-found-panel')).toBeVisible();
  await page.getByTestId('not-found-panel').getByRole('link', { name: 'Dashboard' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('a run handed over by Run Script gets a moment to appear, then is not found either', async ({
  page,
}) => {
  await signIn(page, DEMO.username, DEMO.password);
  await page.clock.install();
  await page.evaluate(() => localStorage.setItem('currentTestId', 'run_handedover'));
  await page.goto('/test-result/run_handedover');
  await expect(page.getByTestId('waiting-panel')).toContainText('Test Result Preparing...');
  await expect(page.getByTestId('waiting-not-found')).toBeVisible();
  await expect(page.getByTestId('result-status')).toHaveAttribute('data-phase', 'running');

  await page.clock.fastForward('00:16');
  await expect(page.getByTestId('not-found-panel')).toBeVisible();
  await expect(page.getByTestId('stop-test')).toHaveCount(0);
  expect(await page.evaluate(() => localStorage.getItem('currentTestId'))).toBeNull();
});
