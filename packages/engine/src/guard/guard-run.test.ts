import { afterAll, beforeAll, expect, it } from 'vitest';
import { compilePlan } from '../executor/compile';
import { checkTargets } from '../preflight';
import { startRun } from '../run';
import { TestTarget, testPlan } from '../testing/target';
import { TargetGuard } from './guard';

const target = new TestTarget();
beforeAll(async () => {
  await target.start();
});
afterAll(async () => {
  await target.close();
});

it('a built-in run whose guard denies the target sends it nothing and counts each refusal as a connect failure', async () => {
  const local = `http://localhost:${target.port}`;
  const plan = testPlan(
    [
      { url: `${target.origin}/by-address`, thinkTime: '100ms' },
      // A name is refused on what it resolves to, in the worker thread's own lookup.
      { url: `${local}/by-name`, thinkTime: '100ms' },
      {
        url: `${target.origin}/with-token`,
        thinkTime: '100ms',
        authorization: { type: 'oauth2', token: 'cid:sec', tokenUrl: `${local}/token`, scope: '' },
      },
    ],
    { concurrent_users: 2 },
  );
  const guard = new TargetGuard({ allow: [], deny: ['127.0.0.1', '::1'] });
  const handle = startRun(plan, { durationSeconds: 1, workers: 2, guard });
  for await (const _ of handle.snapshots) {
    // drained
  }
  const result = await handle.result;

  expect(target.count).toBe(0);
  expect(target.connections).toBe(0);
  const [byAddress, byName, withToken] = result.api_results;
  expect(byAddress!.failed_requests).toBeGreaterThan(0);
  expect(byAddress!.successful_requests).toBe(0);
  expect(byAddress!.errors.connect?.samples[0]).toBe(
    'Requests to 127.0.0.1 are refused: it is in AQA_TARGETS_DENY (127.0.0.1).',
  );
  expect(byName!.failed_requests).toBeGreaterThan(0);
  expect(byName!.errors.connect?.samples[0]).toMatch(
    /^Requests to localhost \((127\.0\.0\.1|::1)\) are refused: it is in AQA_TARGETS_DENY/,
  );
  expect(withToken!.failed_requests).toBeGreaterThan(0);
  expect(JSON.stringify(withToken!.errors)).toContain(
    `OAuth2 token request to ${local}/token failed: Requests to localhost`,
  );
});

it('the reachability preflight opens no connection to a name that resolves to a refused address', async () => {
  const compiled = compilePlan(testPlan([{ url: `http://localhost:${target.port}/x` }]), 1);
  const guard = new TargetGuard({ allow: [], deny: ['127.0.0.1', '::1'] });
  const connectionsBefore = target.connections;
  const [check] = await checkTargets(compiled, { guard, timeoutMs: 2000 });
  expect(check?.ok).toBe(false);
  expect(check?.error).toMatch(
    /^AQA_TARGET_REFUSED: Requests to localhost \((127\.0\.0\.1|::1)\) are refused/,
  );
  expect(target.connections).toBe(connectionsBefore);
  const [allowed] = await checkTargets(compiled, { guard: new TargetGuard({ allow: [], deny: [] }) });
  expect(allowed?.ok).toBe(true);
});
