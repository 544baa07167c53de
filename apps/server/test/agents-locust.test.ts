import type { TestResult } from '@aqa/plan';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgentsServer, testRedisUrl, type AgentsHarness } from './agents-harness';
import { startCountingTarget, type CountingTarget } from './counting-target';
import { hasLocust, LOCUST_CMD } from './installed-tools';
import { waitFor } from './wait-for';

/*
 * A Locust plan on load agents in Locust's own master/worker mode (docs/adr/0021-load-agents.md
 * "Locust master/worker"), for real: a server listening on a port with the throw-away Redis runs the
 * Locust master; two `aqa agent` processes (the served aqa.mjs) each run a `locust --worker`; a local
 * target counts what it receives. Debian's python3-locust is what runs; only /usr/bin/python3 imports it.
 */

/** The listening server, its user and API token, the served CLI and the agents started. */
let h: AgentsHarness;
let target: CountingTarget;
let planId: string;

beforeAll(async () => {
  if (!hasLocust) {
    console.warn('Locust runs on load agents are not tested: /usr/bin/python3 cannot import locust');
    return;
  }
  const redisUrl = testRedisUrl();
  target = await startCountingTarget();
  h = await startAgentsServer({
    redisUrl,
    env: { EXTERNAL_TOOLS: 'on', LOCUST_CMD },
    cliDirPrefix: 'aqa-agents-locust-test-',
  });
  const saved = await h.call<{ id: string }>('POST', '/api/save-test-plan', {
    name: 'Locust on agents',
    tool: 'locust',
    concurrent_users: 4,
    duration: 1,
    urls: [{ method: 'GET', url: `${target.origin}/hello`, name: 'Hello', thinkTime: '20ms' }],
  });
  planId = saved.body.id;
  h.startAgent('agent-a');
  h.startAgent('agent-b');
  await h.waitForAgents(2, { idle: true });
}, 60_000);

afterAll(async () => {
  await h?.close({ gracefully: true });
  await target?.close();
});

describe.skipIf(!hasLocust)('a Locust plan on load agents (Locust master/worker)', () => {
  it('runs the master here and a worker on each of 2 agents; the stored total is what the target counted', async () => {
    await target.reset();
    const started = await h.call<{ test_id: string; engine: string; engine_note: string }>(
      'POST',
      '/api/run-test',
      { plan_id: planId, duration_seconds: 4, agents: 2 },
    );
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    expect(started.body.engine).toBe('locust');
    expect(started.body.engine_note).toMatch(
      /^ran in Locust.*, in its own master\/worker mode: the master on this server, a worker on each of 2 load agents: agent-a, agent-b$/,
    );
    const runId = started.body.test_id;
    // Live: each agent's own throughput, measured between two of its worker's reports to the master.
    const live = await waitFor(
      'both workers to report to the master',
      async () => {
        const { body } = await h.call<TestResult>('GET', `/api/get-test-result/${runId}`);
        return body.agents.length === 2 && body.agents.every((a) => a.requests_per_second > 0)
          ? body
          : undefined;
      },
      20_000,
    );
    expect(live.agents.every((a) => a.status === 'running')).toBe(true);

    const result = await h.finished(runId);
    const counted = (await target.counts()).total;
    expect(result.error).toBeNull();
    expect(result.status).toBe('completed');
    expect(result.partial).toBe(false);
    expect(counted).toBeGreaterThan(50);
    expect(result.summary?.total_requests).toBe(counted);
    // Each worker's users and requests as it reported them to Locust's master; they add up to the total.
    expect(result.agents.map((a) => [a.name, a.users, a.status, a.error])).toEqual([
      ['agent-a', 2, 'done', null],
      ['agent-b', 2, 'done', null],
    ]);
    for (const agent of result.agents) expect(agent.requests).toBeGreaterThan(0);
    expect(result.agents.reduce((n, a) => n + a.requests, 0)).toBe(counted);
    await h.waitForAgents(2, { idle: true });
  }, 40_000);

  it('runs a Locust plan with flows and test data on the agents in the built-in engine, saying why (agentsRunBuiltin)', async () => {
    await target.reset();
    const saved = await h.call<{ id: string }>('POST', '/api/save-test-plan', {
      name: 'Locust flows on agents',
      tool: 'locust',
      concurrent_users: 4,
      duration: 1,
      flows: [
        { name: 'browse', weight: 3 },
        { name: 'buy', weight: 1 },
      ],
      urls: [
        { method: 'GET', url: `${target.origin}/browse/{{user}}`, thinkTime: '0s', flow: 'browse' },
        { method: 'GET', url: `${target.origin}/buy/{{user}}`, thinkTime: '0s', flow: 'buy' },
      ],
      data_files: { 'users.csv': ['user', ...Array.from({ length: 40 }, (_, i) => `u${i}`)].join('\n') },
      data_sources: [{ path: 'users.csv', loop: false, share: 'all' }],
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    const started = await h.call<{ test_id: string; engine: string; engine_note: string }>(
      'POST',
      '/api/run-test',
      { plan_id: saved.body.id, duration_seconds: 4, agents: 2 },
    );
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    // On this server Locust runs such a plan; on agents its master/worker mode would give each worker
    // the whole CSV, so the built-in engine runs it there.
    expect(started.body.engine).toBe('builtin');
    expect(started.body.engine_note).toMatch(
      /^ran with the built-in engine on 2 load agents: agent-a, agent-b \(Locust's master\/worker mode does not split/,
    );
    const result = await h.finished(started.body.test_id);
    expect(result.status).toBe('completed');
    // Both agents' shares merged: a lost agent's figures are not (its words say why it was lost).
    const agents = `${JSON.stringify(result.agents.map((a) => [a.name, a.status, a.error, a.requests]))}\n${h.outputs()}`;
    expect(result.partial, agents).toBe(false);
    const counts = (await target.counts()).byPath;
    // Every row once across both agents, split 3:1 between the flows.
    const rows = Object.keys(counts).map((path) => path.split('/')[2]);
    expect(new Set(rows).size).toBe(40);
    expect(Object.values(counts).every((n) => n === 1)).toBe(true);
    expect(
      result.summary?.flows?.map((f) => [f.name, f.iterations]),
      agents,
    ).toEqual([
      ['browse', 30],
      ['buy', 10],
    ]);
    await h.waitForAgents(2, { idle: true });
  }, 40_000);

  it('names a killed agent lost (partial) while Locust goes on; a stop ends the master and its workers; every request is stored', async () => {
    await target.reset();
    const started = await h.call<{ test_id: string }>('POST', '/api/run-test', {
      plan_id: planId,
      duration_seconds: 60,
      agents: 2,
    });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const runId = started.body.test_id;
    await waitFor(
      'both workers to report to the master',
      async () => {
        const { body } = await h.call<TestResult>('GET', `/api/get-test-result/${runId}`);
        return body.agents.length === 2 && body.agents.every((a) => a.requests > 0) ? true : undefined;
      },
      20_000,
    );
    // agent-b dies: its worker sees its parent gone, sends its last report and quits; Locust hands its
    // users to agent-a's worker; the server sees the heartbeat stop and names agent-b.
    const victim = h.agents.find((a) => a.name === 'agent-b')!;
    victim.child.kill('SIGKILL');
    const lost = await waitFor(
      'agent-b to be lost',
      async () => {
        const { body } = await h.call<TestResult>('GET', `/api/get-test-result/${runId}`);
        return body.agents[1]?.status === 'lost' ? body : undefined;
      },
      10_000,
    );
    expect(lost.agents[1]?.error).toMatch(/^agent agent-b stopped sending heartbeats at second \d+$/);
    expect(lost.agents[0]?.status).toBe('running');

    const stopAsked = Date.now();
    const stopped = await h.call<{ status: string }>('POST', `/api/stop-test/${runId}`);
    expect(stopped.status).toBe(200);
    expect(stopped.body.status).toBe('stopped');
    // Users stop (up to Locust's 3 s stop timeout), the last reports arrive, the master quits.
    expect(Date.now() - stopAsked).toBeLessThan(15_000);
    const result = await h.finished(runId);
    const counted = (await target.counts()).total;
    expect(result.partial).toBe(true);
    expect(result.summary?.total_requests).toBe(counted);
    expect(result.agents.map((a) => a.status)).toEqual(['done', 'lost']);
    expect(result.agents.reduce((n, a) => n + a.requests, 0)).toBe(counted);
    // Nothing reaches the target after the stop: no worker was left running.
    await new Promise((r) => setTimeout(r, 1000));
    expect((await target.counts()).total).toBe(counted);
    // agent-b comes back (same host and name: same agent) for the next test.
    h.startAgent('agent-b');
    await h.waitForAgents(2, { idle: true });
  }, 45_000);

  it('fails in words, naming the agent, when one agent has no Locust', async () => {
    h.startAgent('agent-c', { env: { LOCUST_CMD: '/nonexistent/locust' } });
    await h.waitForAgents(3, { idle: true });
    await target.reset();
    const started = await h.call<{ test_id: string }>('POST', '/api/run-test', {
      plan_id: planId,
      duration_seconds: 4,
      agents: 3,
    });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const result = await h.finished(started.body.test_id);
    expect(result.status).toBe('failed');
    expect(result.error).toContain(
      'agent agent-c could not run its share: Locust is not installed on agent agent-c: apt-get install python3-locust',
    );
    expect(result.agents.find((a) => a.name === 'agent-c')?.status).toBe('failed');
    expect((await target.counts()).total).toBe(0);
    await h.waitForAgents(3, { idle: true });
  }, 40_000);
});
