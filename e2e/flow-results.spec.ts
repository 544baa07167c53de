import { expect, test, type Page } from '@playwright/test';
import { CountingTarget } from './counting-target';
import { newAccount, register, signIn } from './helpers';

/**
 * Results by flow as well as by API (docs/adr/0027-load-profiles.md "Flows", issue #26 point 3): a plan
 * with two weighted flows and a short users profile runs on the built-in engine, and the live and the
 * stored result screens show each flow's iterations, share, requests and latency — the stored figures
 * the ones the server keeps, and each flow's requests the ones its calls' paths received.
 */
const byPath = new Map<string, number>();
const target = new CountingTarget((request) => {
  const path = new URL(request.url ?? '/', 'http://x').pathname;
  byPath.set(path, (byPath.get(path) ?? 0) + 1);
  return { delayMs: 20 };
});

test.beforeAll(() => target.start());
test.afterAll(() => target.stop());

interface FlowSummary {
  name: string;
  iterations: number;
  total_requests: number;
  failed_requests: number;
  percentile_95: number;
}

async function call(page: Page, index: number, path: string, flow: string) {
  await page.getByTestId(`api-${index}-url`).fill(`${target.origin}${path}`);
  await page.getByTestId(`api-${index}-thinkTime`).fill('50ms');
  await page.getByTestId(`api-${index}-flow`).fill(flow);
}

/** The cells of a flow's row of a per-flow table, by column. */
async function flowCells(page: Page, table: string, flow: string): Promise<Record<string, string>> {
  const row = page.getByTestId(table).locator(`[data-testid="flow-row"][data-flow="${flow}"]`);
  const cells = await row
    .locator('[data-cell]')
    .evaluateAll((all) => all.map((cell) => [cell.getAttribute('data-cell') ?? '', cell.textContent ?? '']));
  return Object.fromEntries(cells) as Record<string, string>;
}

test('a two-flow profile shows each flow’s iterations, requests and latency live and in its result', async ({
  page,
}) => {
  const account = newAccount('flow-results');
  await register(page, account);
  await signIn(page, account.email, account.password);
  await page.goto('/create-test/url-input');
  await page.getByTestId('plan-name').fill(`Two flows ${Date.now()}`);
  await call(page, 0, '/browse', 'browse');
  await page.getByTestId('add-url').click();
  await call(page, 1, '/buy', 'buy');
  // The Flows section lists the names the calls give; browse weighs 3, buy 1.
  await page.getByTestId('flows-add-named').click();
  await page.getByTestId('flow-0-weight').fill('3');
  await page.getByTestId('flow-1-weight').fill('1');

  await page.getByTestId('profile-toggle').check();
  await page.getByTestId('profile-peak').fill('4');
  await page.getByTestId('profile-length').fill('8s');
  await page.getByTestId('profile-preset-average').click();

  await page.getByTestId('run-script').click();
  await expect(page).toHaveURL(/\/test-result\/run_[\w-]+$/);
  // Live: a row per flow, with its requests so far.
  const live = page.getByTestId('live-flow-table');
  await expect(live).toBeVisible({ timeout: 15_000 });
  await expect(live.getByTestId('flow-row')).toHaveCount(2);
  await expect
    .poll(async () =>
      Number((await flowCells(page, 'live-flow-table', 'browse')).requests?.replace(/,/g, '')),
    )
    .toBeGreaterThan(0);
  await page.screenshot({ path: 'test-results/flow-results-live.png', fullPage: true });

  // Stored: the per-flow table of the result, with the summary's figures.
  const stored = page.getByTestId('flow-results');
  await expect(stored).toBeVisible({ timeout: 30_000 });
  const testId = page.url().split('/').pop();
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const answer = await page.request.get(`/api/get-test-result/${testId}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  const body = (await answer.json()) as { status: string; summary: { flows: FlowSummary[] } };
  expect(body.status).toBe('completed');
  const [browse, buy] = body.summary.flows;
  expect([browse!.name, buy!.name]).toEqual(['browse', 'buy']);
  // Each flow's requests are its call's, counted at the target; its shares follow the weights 3 : 1
  // to within a cycle of iterations.
  expect(browse!.total_requests).toBe(byPath.get('/browse'));
  expect(buy!.total_requests).toBe(byPath.get('/buy'));
  expect(Math.abs(browse!.iterations - 3 * buy!.iterations)).toBeLessThanOrEqual(3 + 3 * 4);
  expect(browse!.percentile_95).toBeGreaterThanOrEqual(20);

  const count = (n: number) => n.toLocaleString('en-US');
  for (const flow of [browse!, buy!]) {
    const cells = await flowCells(page, 'flow-results', flow.name);
    expect(cells).toMatchObject({
      iterations: count(flow.iterations),
      requests: count(flow.total_requests),
      failed: '0',
      errorRate: '0%',
    });
    expect(cells.p95).toMatch(/^\d+(\.\d+)? ms$/);
    expect(Number(cells.p95!.replace(' ms', ''))).toBeCloseTo(flow.percentile_95, 0);
  }
  await stored.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/flow-results-stored.png', fullPage: true });
});
