import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { CountingTarget } from './counting-target';
import { confirmWith, newAccount, screenshot, signIn, viewScreenshot } from './helpers';

/**
 * Results history (issue #7) in a real browser against the real server: runs made by the built-in engine
 * against a local target, then found, reopened, compared, exported and deleted from the dashboards.
 */

/** Answers at once, except `/slow`, which waits `slowMs` first. */
let slowMs = 0;
const target = new CountingTarget((request) => ({
  delayMs: request.url?.startsWith('/slow') ? slowMs : 0,
}));
const account = newAccount('history');
const stamp = Date.now();
const ALPHA = `History Alpha ${stamp}`;
const BETA = `History Beta ${stamp}`;
const GAMMA = `History Gamma ${stamp}`;
let token = '';
const plans: Record<'alpha' | 'beta' | 'gamma', string> = { alpha: '', beta: '', gamma: '' };
/** Alpha's runs, oldest first: fast, then slow. */
const alphaRuns: string[] = [];
let betaRun = '';

const auth = () => ({ Authorization: `Bearer ${token}` });

async function savePlan(request: APIRequestContext, name: string, description: string): Promise<string> {
  const answer = await request.post('/api/save-test-plan', {
    headers: auth(),
    data: {
      name,
      description,
      tool: 'k6',
      concurrent_users: 2,
      duration: 1,
      urls: [
        { name: 'Fast', method: 'GET', url: `${target.origin}/fast`, thinkTime: '20ms' },
        { name: 'Slow', method: 'GET', url: `${target.origin}/slow`, thinkTime: '20ms' },
      ],
    },
  });
  expect(answer.status(), await answer.text()).toBeLessThan(300);
  const saved = (await answer.json()) as { id?: string; _id?: string; plan_id?: string };
  return (saved.id ?? saved._id ?? saved.plan_id)!;
}

/** Runs a plan for 2 s with the built-in engine and waits until its results are stored. */
async function runToCompletion(request: APIRequestContext, planId: string): Promise<string> {
  const answer = await request.post('/api/run-test', {
    headers: auth(),
    data: { plan_id: planId, duration_seconds: 2 },
  });
  expect(answer.status(), await answer.text()).toBe(201);
  const { test_id: testId } = (await answer.json()) as { test_id: string };
  await expect
    .poll(
      async () => {
        const result = await request.get(`/api/get-test-result/${testId}`, { headers: auth() });
        return ((await result.json()) as { status: string }).status;
      },
      { timeout: 30_000, intervals: [500] },
    )
    .toBe('completed');
  return testId;
}

async function openAs(page: Page, width: number) {
  await page.setViewportSize({ width, height: width < 500 ? 844 : 900 });
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000);
  await target.start();
  const registered = await request.post('/api/register', {
    data: {
      email: account.email,
      password: account.password,
      confirmPassword: account.password,
      firstName: account.firstName,
      lastName: account.lastName,
      company: account.company,
      role: account.role,
    },
  });
  expect(registered.status(), await registered.text()).toBeLessThan(300);
  const login = await request.post('/api/login', {
    data: { username: account.email, password: account.password },
  });
  token = ((await login.json()) as { token: string }).token;

  plans.alpha = await savePlan(request, ALPHA, 'Checkout flow of the shop');
  plans.beta = await savePlan(request, BETA, 'The SEARCH service');
  plans.gamma = await savePlan(request, GAMMA, 'Never run');
  slowMs = 0;
  alphaRuns.push(await runToCompletion(request, plans.alpha));
  // The second run of Alpha is slower: its slow step waits 40 ms, so the comparison has a real regression.
  slowMs = 40;
  alphaRuns.push(await runToCompletion(request, plans.alpha));
  slowMs = 0;
  betaRun = await runToCompletion(request, plans.beta);
});

test.afterAll(async () => {
  await target.stop();
});

test('performance dashboard: counters, search by name or description, filter, cards with trend', async ({
  page,
}) => {
  await openAs(page, 1280);
  await signIn(page, account.email, account.password);
  await page.goto('/performance-dashboard');
  await expect(page.getByRole('heading', { name: 'Performance Test Dashboard' })).toBeVisible();
  await expect(page.getByTestId('counter-total_plans')).toHaveText('3');
  await expect(page.getByTestId('counter-completed_tests')).toHaveText('3');
  await expect(page.getByTestId('counter-failed_tests')).toHaveText('0');
  await expect(page.getByTestId('counter-running_tests')).toHaveText('0');
  const cards = page.getByTestId('plan-card');
  await expect(cards).toHaveCount(3);

  const alpha = cards.filter({ hasText: ALPHA });
  await expect(alpha.getByTestId('plan-card-tool')).toHaveText('k6');
  await expect(alpha.getByTestId('plan-card-apis')).toHaveText('2');
  await expect(alpha.getByTestId('plan-card-users')).toHaveText('2');
  await expect(alpha.getByTestId('plan-card-duration')).toHaveText('60 s');
  await expect(alpha.getByTestId('plan-card-source')).toHaveText('URL input');
  await expect(alpha.getByTestId('plan-card-result')).toHaveCount(2);
  await expect(alpha.getByTestId('plan-trend')).toHaveAttribute('data-runs', '2');
  await expect(alpha.getByTestId('edit-plan')).toHaveAttribute(
    'href',
    `/create-test/url-input?planId=${plans.alpha}`,
  );
  await expect(cards.filter({ hasText: GAMMA }).getByTestId('plan-card-no-results')).toBeVisible();
  await screenshot(page, 'history-dashboard-en-desktop');

  // Search: name, and description in another case; the server filters.
  const search = page.getByTestId('plan-search');
  await search.fill('alpha');
  await expect(cards).toHaveCount(1);
  await expect(cards).toContainText(ALPHA);
  await search.fill('search SERVICE');
  await expect(cards).toHaveCount(1);
  await expect(cards).toContainText(BETA);
  await search.fill('nothing like this');
  await expect(page.getByText('No plans found')).toBeVisible();
  await search.fill('');
  await expect(cards).toHaveCount(3);

  await page.getByTestId('plan-filter').selectOption('no_results');
  await expect(cards).toHaveCount(1);
  await expect(cards).toContainText(GAMMA);
  await page.getByTestId('plan-filter').selectOption('with_results');
  await expect(cards).toHaveCount(2);
  await page.getByTestId('plan-filter').selectOption('all');
  await expect(cards).toHaveCount(3);

  // View Details and the Voice Command panel, which edits the plan through the text-command call.
  await alpha.getByTestId('plan-details').click();
  const modal = page.getByTestId('plan-details-modal');
  await expect(modal.getByTestId('plan-details-description')).toHaveText('Checkout flow of the shop');
  await expect(modal.getByTestId('plan-details-urls')).toContainText(`${target.origin}/slow`);
  await viewScreenshot(page, 'history-dashboard-details-en-desktop');
  await page.keyboard.press('Escape');
  await cards.filter({ hasText: GAMMA }).getByTestId('plan-voice').click();
  const panel = cards.filter({ hasText: GAMMA }).getByTestId('voice-panel');
  await panel.getByTestId('voice-command-input').fill('set users to 3');
  await panel.getByTestId('voice-command-send').click();
  await expect(panel.getByTestId('voice-command-message')).toHaveAttribute('data-kind', 'success');
  await expect(cards.filter({ hasText: GAMMA }).getByTestId('plan-card-users')).toHaveText('3');

  await openAs(page, 390);
  await page.reload();
  await expect(cards).toHaveCount(3);
  await screenshot(page, 'history-dashboard-en-phone');

  // A card's View Result opens that run's live result screen.
  await openAs(page, 1280);
  await cards.filter({ hasText: BETA }).getByTestId('plan-card-view-result').first().click();
  await expect(page).toHaveURL(new RegExp(`/test-result/${betaRun}$`));
  await expect(page.getByTestId('result-status')).toHaveAttribute('data-phase', 'completed');
  await expect(page.getByTestId('report-html')).toBeVisible();
});

test('home dashboard: Recent Activity opens a run, and the saved plans are listed', async ({ page }) => {
  await openAs(page, 1280);
  await signIn(page, account.email, account.password);
  const recent = page.getByTestId('recent-list');
  await expect(recent.getByRole('listitem')).toHaveCount(3);
  const plansList = page.getByTestId('saved-plans-list');
  await expect(plansList.getByTestId('saved-plan')).toHaveCount(3);
  await expect(plansList).toContainText(ALPHA);
  await screenshot(page, 'history-home-en-desktop');
  await openAs(page, 390);
  await page.reload();
  await expect(page.getByTestId('saved-plans-list')).toBeVisible();
  await screenshot(page, 'history-home-en-phone');
  await openAs(page, 1280);
  await page.reload();

  await recent.getByRole('listitem').filter({ hasText: BETA }).getByText('View Result').click();
  await expect(page).toHaveURL(new RegExp(`/test-result/${betaRun}$`));
  await expect(page.getByTestId('result-title')).toHaveText(BETA);
});

test('previous results: the run list, a run with its charts, rename and baseline', async ({ page }) => {
  await openAs(page, 1280);
  await signIn(page, account.email, account.password);
  await page.goto('/previous-results');
  const items = page.getByTestId('run-item');
  await expect(items).toHaveCount(3);
  await expect(page.getByText('Select a test result')).toBeVisible();
  const first = page.locator(`[data-testid="run-item"][data-test-id="${alphaRuns[0]}"]`);
  await expect(first.getByTestId('run-item-duration')).toHaveText(/^0m [23]s$/);
  await expect(first.getByText('Completed')).toBeVisible();
  await first.click();
  await expect(page).toHaveURL(new RegExp(`\\?testId=${alphaRuns[0]}$`));

  const detail = page.getByTestId('run-detail');
  await expect(detail.getByTestId('info-test-id')).toHaveText(alphaRuns[0]!);
  await expect(detail.getByTestId('info-plan-name')).toHaveText(ALPHA);
  await expect(detail.getByTestId('perf-summary-total')).toHaveText(/^[\d,]+$/);
  const timeline = detail.getByTestId('performance-timeline');
  await expect(timeline).toBeVisible();
  expect(Number(await timeline.getAttribute('data-points'))).toBeGreaterThanOrEqual(2);
  await expect(detail.getByTestId('chart-throughput')).not.toHaveAttribute('data-points', '0');
  await expect(detail.getByTestId('run-api-results').getByTestId('api-result')).toHaveCount(2);
  await viewScreenshot(page, 'history-results-en-desktop');
  await screenshot(page, 'history-results-full-en-desktop');

  // Name and notes, then the plan's baseline.
  await detail.getByTestId('run-edit').click();
  const dialog = page.getByTestId('run-edit-dialog');
  await dialog.getByTestId('run-edit-name').fill('Alpha before the change');
  await dialog.getByTestId('run-edit-notes').fill('Fast target');
  await dialog.getByTestId('run-edit-save').click();
  // docs/reference/02-running.md §2: the plan name stays the title; the run's own name comes under it.
  await expect(detail.getByTestId('run-detail-title')).toHaveText(ALPHA);
  await expect(detail.getByTestId('run-detail-own-name')).toHaveText('Alpha before the change');
  await expect(detail.getByTestId('run-notes')).toHaveText('Fast target');
  await expect(first.getByTestId('run-item-name')).toHaveText(ALPHA);
  await expect(first.getByTestId('run-item-own-name')).toHaveText('Alpha before the change');
  await detail.getByTestId('run-baseline').click();
  await expect(detail.getByTestId('baseline-mark')).toBeVisible();
  await expect(detail.getByTestId('run-baseline')).toHaveText('Clear baseline');

  await openAs(page, 390);
  await page.reload();
  await expect(page.getByTestId('run-detail')).toBeVisible();
  await viewScreenshot(page, 'history-results-en-phone');
  await screenshot(page, 'history-results-full-en-phone');

  // Open result screen leads to the live screen of the same run.
  await openAs(page, 1280);
  await page.getByTestId('run-open-result').click();
  await expect(page).toHaveURL(new RegExp(`/test-result/${alphaRuns[0]}$`));
});

test('compare: the slower run against the baseline shows the regression in red', async ({ page }) => {
  await openAs(page, 1280);
  await signIn(page, account.email, account.password);
  await page.goto(`/previous-results?testId=${alphaRuns[1]}`);
  await page.getByTestId('run-compare').click();
  // No base chosen: the plan's baseline (the first run) is taken.
  await expect(page).toHaveURL(new RegExp(`base=${alphaRuns[0]}`));
  await expect(page).toHaveURL(new RegExp(`candidate=${alphaRuns[1]}`));
  const metrics = page.getByTestId('compare-metric');
  await expect(metrics).toHaveCount(5);
  const p95 = page.locator('[data-testid="compare-metric"][data-key="percentile_95"]');
  await expect(p95.getByTestId('compare-metric-delta')).toHaveAttribute('data-tone', 'worse');
  await expect(p95.getByTestId('compare-metric-delta')).toHaveText(/^\+[\d,.]+%/);
  const errorRate = page.locator('[data-testid="compare-metric"][data-key="error_rate"]');
  await expect(errorRate.getByTestId('compare-metric-delta')).toHaveText(/^[+−]?[\d,.]+ pp/);
  // Issue #7: with a base of plan Alpha, the candidate picker offers only Alpha's runs.
  const candidates = page.getByTestId('compare-candidate').locator('option:not([value=""])');
  await expect(candidates).toHaveCount(alphaRuns.length);
  await expect(page.getByTestId('compare-plans-differ')).toHaveCount(0);
  const slowApi = page.getByTestId('compare-api').filter({ hasText: '/slow' });
  await expect(slowApi.getByTestId('compare-api-p95')).toHaveAttribute('data-tone', 'worse');
  for (const chart of ['p95', 'rps', 'errors']) {
    const card = page.getByTestId(`compare-chart-${chart}`);
    await expect(card).toBeVisible();
    expect(Number(await card.getAttribute('data-points'))).toBeGreaterThanOrEqual(4);
  }
  await screenshot(page, 'history-compare-en-desktop');
  await openAs(page, 390);
  await page.reload();
  await expect(page.getByTestId('compare-chart-p95')).toBeVisible();
  await screenshot(page, 'history-compare-en-phone');
});

test('reports: the HTML report opens offline with its charts; JSON and CSV hold the series', async ({
  page,
}, testInfo) => {
  await openAs(page, 1280);
  await signIn(page, account.email, account.password);
  await page.goto(`/previous-results?testId=${alphaRuns[1]}`);
  await expect(page.getByTestId('run-detail')).toBeVisible();

  const [html] = await Promise.all([page.waitForEvent('download'), page.getByTestId('report-html').click()]);
  expect(html.suggestedFilename()).toMatch(new RegExp(`^report_.+_${alphaRuns[1]}\\.html$`));
  // Saved under its own name: a file without the .html extension would open as plain text.
  const htmlPath = testInfo.outputPath(html.suggestedFilename());
  await html.saveAs(htmlPath);
  const [json] = await Promise.all([page.waitForEvent('download'), page.getByTestId('report-json').click()]);
  const report = JSON.parse(readFileSync(await json.path(), 'utf8')) as {
    run: { test_id: string };
    chart_data: { series: unknown[] };
  };
  expect(report.run.test_id).toBe(alphaRuns[1]);
  expect(report.chart_data.series.length).toBeGreaterThanOrEqual(2);
  const [csv] = await Promise.all([page.waitForEvent('download'), page.getByTestId('report-csv').click()]);
  expect(readFileSync(await csv.path(), 'utf8')).toMatch(
    /^second,active_users,requests,requests_per_second,/,
  );

  // Offline: every request leaving the file is refused, and the report still shows its charts.
  const report404: string[] = [];
  await page.route('**/*', (route) => {
    if (route.request().url().startsWith('file:')) return route.continue();
    report404.push(route.request().url());
    return route.abort();
  });
  await page.goto(pathToFileURL(htmlPath).href);
  await expect(page.locator('body')).toContainText(ALPHA);
  expect(await page.locator('svg').count()).toBeGreaterThanOrEqual(3);
  expect(await page.locator('svg polyline, svg path, svg rect').count()).toBeGreaterThan(3);
  expect(report404).toEqual([]);
  await screenshot(page, 'history-report-html-desktop');
});

test('delete a run from previous results and a plan from the performance dashboard', async ({ page }) => {
  await openAs(page, 1280);
  await signIn(page, account.email, account.password);
  await page.goto(`/previous-results?testId=${betaRun}`);
  await expect(page.getByTestId('run-item')).toHaveCount(3);
  await page.getByTestId('run-delete').click();
  await confirmWith(page, 'Are you sure you want to delete?', 'Delete');
  await expect(page.getByTestId('run-item')).toHaveCount(2);
  await expect(page.getByText('Select a test result')).toBeVisible();
  await expect(page.locator(`[data-testid="run-item"][data-test-id="${betaRun}"]`)).toHaveCount(0);

  await page.goto('/performance-dashboard');
  const cards = page.getByTestId('plan-card');
  await expect(cards).toHaveCount(3);
  await cards.filter({ hasText: GAMMA }).getByTestId('plan-delete').click();
  await confirmWith(page, 'Are you sure you want to delete?', 'Delete');
  await expect(cards).toHaveCount(2);
  await expect(page.getByTestId('counter-total_plans')).toHaveText('2');
  await expect(page.getByTestId('counter-completed_tests')).toHaveText('2');
});
