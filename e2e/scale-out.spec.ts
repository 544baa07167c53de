import { expect, test } from '@playwright/test';
import { startPostgres } from '../scripts/test-services/postgres.mjs';
import { startRedis } from '../scripts/test-services/redis.mjs';
import { CountingTarget } from './counting-target';
import { DEMO, screenshotAtWidth, signIn } from './helpers';
import { startAgent, startProxy, startReplica } from './scale-out/cluster';

/*
 * Issue #17's "done when", in the browser (docs/scale-out.md): two server replicas on one PostgreSQL and
 * one Redis behind a proxy, three `aqa agent` processes; the user signs in and starts a run from the
 * browser through replica A, watches it live through replica B (the proxy sends the live stream and the
 * result there), and reads one merged result equal to what the target counted.
 */

type Cluster = {
  proxy: Awaited<ReturnType<typeof startProxy>>;
  stops: (() => Promise<void>)[];
};

const target = new CountingTarget();
let cluster: Cluster;

/** Everything the live result reads goes to replica B; the rest (sign-in, save, run-test) to A. */
const toReplica = (path: string) =>
  path.startsWith('/api/test-stream/') || path.startsWith('/api/get-test-result/') ? 'b' : 'a';

test.describe.configure({ mode: 'serial', timeout: 180_000 });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const stops: (() => Promise<void>)[] = [];
  await target.start();
  stops.push(() => target.stop());
  const postgres = await startPostgres();
  stops.push(postgres.stop);
  const redis = await startRedis();
  stops.push(redis.stop);
  const shared = { databaseUrl: postgres.url, redisUrl: redis.url };
  // A first: it migrates the database and seeds the demo account; then B joins it.
  const a = await startReplica(shared);
  stops.push(a.stop);
  const b = await startReplica(shared);
  stops.push(b.stop);
  const proxy = await startProxy({ a: a.origin, b: b.origin }, toReplica);
  stops.push(proxy.stop);
  cluster = { proxy, stops };
});

test.afterAll(async () => {
  for (const stop of (cluster?.stops ?? []).reverse()) await stop().catch(() => undefined);
});

test('a run on three agents, started through one replica and watched through the other, merges exactly', async ({
  page,
}) => {
  const origin = cluster.proxy.origin;
  await page.goto(`${origin}/login`);
  await signIn(page, DEMO.username, DEMO.password);
  const session = await page.evaluate(() => localStorage.getItem('token'));
  const auth = { Authorization: `Bearer ${session}` };

  // The agents register with an agent token of the user (docs/adr/0023-agents-over-http.md), through
  // the proxy like any client; they speak only HTTP to the replicas and never see Redis.
  const created = await page.request.post(`${origin}/api/tokens`, {
    headers: auth,
    data: { name: `agents ${Date.now()}`, scope: 'agent' },
  });
  expect(created.status()).toBe(201);
  const { token } = (await created.json()) as { token: string };
  const agents = [1, 2, 3].map((i) => startAgent(origin, token, `e2e-agent-${i}`));
  cluster.stops.push(...agents.map((agent) => () => agent.stop()));
  await expect
    .poll(
      async () => {
        const answer = await page.request.get(`${origin}/api/agents`, { headers: auth });
        const list = (await answer.json()) as { name: string; online: boolean }[];
        return list.filter((agent) => agent.online && agent.name.startsWith('e2e-agent-')).length;
      },
      { timeout: 30_000 },
    )
    .toBe(3);

  // The plan, from the browser: 6 users split over the 3 agents.
  await page.goto(`${origin}/create-test/url-input`);
  await page.getByTestId('plan-name').fill(`Scale-out ${Date.now()}`);
  await page.getByTestId('plan-users').fill('6');
  await page.getByTestId('api-0-url').fill(`${target.origin}/items?n={{sequence_number,1000}}`);
  await page.getByTestId('api-0-thinkTime').fill('100ms');
  await page.getByTestId('run-placement').selectOption('3');
  await page.getByTestId('run-script').click();
  await expect(page).toHaveURL(/\/test-result\/run_[\w-]+$/);
  const testId = page.url().split('/').pop() ?? '';

  // Live through replica B: each agent with its 2 users and its own throughput.
  await expect(page.getByTestId('live-panel')).toBeVisible({ timeout: 20_000 });
  const rows = page.getByTestId('run-agent');
  await expect(rows).toHaveCount(3, { timeout: 20_000 });
  for (const row of await rows.all()) await expect(row).toContainText('Running', { timeout: 15_000 });
  await expect.poll(() => target.received, { timeout: 15_000 }).toBeGreaterThan(60);
  await page.waitForTimeout(3000);
  await page.getByTestId('run-agents').scrollIntoViewIfNeeded();
  await screenshotAtWidth(page, 'scale-out', 'live-on-agents', 1280);
  const streamedByB = cluster.proxy.served.filter(
    (s) => s.path === `/api/test-stream/${testId}` && s.replica === 'b',
  );
  expect(streamedByB.length).toBeGreaterThan(0);

  await page.getByTestId('stop-test').click();
  // Stop asks first (docs/reference/02-running.md §4).
  await page.getByTestId('confirm-accept').click();
  await expect(page.getByTestId('stopped-notice').first()).toBeVisible({ timeout: 20_000 });

  // One merged result, equal to what the target counted; every agent ran its share.
  const answer = await page.request.get(`${origin}/api/get-test-result/${testId}`, { headers: auth });
  const result = (await answer.json()) as {
    status: string;
    summary: { total_requests: number };
    agents: { name: string; users: number; status: string; requests: number }[];
    partial: boolean;
  };
  expect(result.status).toBe('stopped');
  expect(result.partial).toBe(false);
  expect(result.summary.total_requests).toBe(target.received);
  expect(result.agents.map((agent) => agent.users)).toEqual([2, 2, 2]);
  expect(result.agents.every((agent) => agent.status === 'done' && agent.requests > 0)).toBe(true);
  expect(result.agents.reduce((sum, agent) => sum + agent.requests, 0)).toBe(target.received);
  await expect(page.getByTestId('run-agent')).toHaveCount(3);
  await screenshotAtWidth(page, 'scale-out', 'result-on-agents', 1280);
});
