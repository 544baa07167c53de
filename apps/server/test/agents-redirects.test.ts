import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgentsServer, testRedisUrl, type AgentsHarness } from './agents-harness';
import { hasLocust, LOCUST_CMD } from './installed-tools';
import {
  DENIED_HOST,
  RedirectWatch,
  countPlatform,
  redirectSteps,
  startCanary,
  startRedirectingTarget,
  type Canary,
  type RedirectingTarget,
} from './redirect-canary';

/*
 * Redirects on load agents (docs/adr/0015-target-guard.md "Redirects"): an agent runs the built-in
 * engine with the server's guard settings, or a Locust worker of the server's generated locustfile;
 * neither follows a target's 302 to a canary on a denied address or to the platform's own port.
 * redirects-guard.test.ts holds the same for the runners on the server.
 */

let h: AgentsHarness;
let canary: Canary;
let target: RedirectingTarget;
let watch: RedirectWatch;

beforeAll(async () => {
  if (!hasLocust)
    console.warn('Locust redirects on agents are not tested: /usr/bin/python3 cannot import locust');
  canary = await startCanary();
  h = await startAgentsServer({
    redisUrl: testRedisUrl(),
    env: {
      AQA_TARGETS_DENY: DENIED_HOST,
      DEMO_ACCOUNT: 'on',
      EXTERNAL_TOOLS: 'on',
      LOCUST_CMD,
    },
    cliDirPrefix: 'aqa-agents-redirects-test-',
  });
  const platform = countPlatform(h.server);
  target = await startRedirectingTarget({ denied: canary.origin, platform: platform.origin });
  watch = new RedirectWatch(canary, platform, target);
  h.startAgent('agent-a');
  await h.waitForAgents(1, { idle: true });
}, 60_000);

afterAll(async () => {
  await h?.close({ gracefully: true });
  await target?.close();
  await canary?.close();
});

/** Runs a plan of the redirect steps in `tool`'s format on the one agent for 3 s. */
async function runOnAgent(tool: 'soapui' | 'locust') {
  const saved = await h.call<{ id: string }>('POST', '/api/save-test-plan', {
    name: `Redirects on an agent (${tool})`,
    tool,
    concurrent_users: 1,
    duration: 1,
    urls: redirectSteps(target.origin),
  });
  expect(saved.status, JSON.stringify(saved.body)).toBe(201);
  const started = await h.call<{ test_id: string; engine: string }>('POST', '/api/run-test', {
    plan_id: saved.body.id,
    duration_seconds: 3,
    agents: 1,
  });
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  expect(started.body.engine).toBe(tool === 'soapui' ? 'builtin' : 'locust');
  const result = await h.finished(started.body.test_id);
  await h.waitForAgents(1, { idle: true });
  return result;
}

describe('a target that redirects to a denied address and to the platform itself, run on a load agent', () => {
  it('the built-in engine on the agent records each 302 as the answer and follows neither', async () => {
    const before = watch.counts();
    const result = await runOnAgent('soapui');
    expect(result.agents.map((a) => [a.name, a.status])).toEqual([['agent-a', 'done']]);
    watch.expectEveryAnswerThe302(result, before);
    watch.expectNothingPastTheRedirects(before);
  }, 40_000);

  it.skipIf(!hasLocust)(
    "a Locust worker on the agent runs the server's locustfile, which follows neither",
    async () => {
      const before = watch.counts();
      const result = await runOnAgent('locust');
      watch.expectEveryAnswerThe302(result, before);
      watch.expectNothingPastTheRedirects(before);
    },
    60_000,
  );
});
