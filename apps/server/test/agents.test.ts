import {
  AGENT_PROTOCOL_VERSION,
  Histogram,
  type AgentRegistration,
  type ShardEvent,
  type ShardIntervalWire,
} from '@aqa/engine';
import type { AgentInfo, TestResult } from '@aqa/plan';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runStreamKey } from '../src/services/agents/agent-keys';
import { startAgentsServer, testRedisUrl, type AgentsHarness } from './agents-harness';
import { startCountingTarget, type CountingTarget } from './counting-target';
import { closeTestServer, registerAndLogin, startTestServer } from './helpers';
import { waitFor } from './wait-for';

/*
 * Runs on load agents (docs/adr/0021-load-agents.md "Server side"), for real: a server listening on a
 * port with the throw-away Redis, three `aqa agent` processes that speak only HTTP to it with an agent
 * token (docs/adr/0023-agents-over-http.md), and a local target that counts what it receives. The merged
 * figures are checked against the target and against a merge of the agents' own interval reports, read
 * (by the test, as an operator could) from the run's Redis stream their posts were appended to.
 */

/** The throw-away Redis of the vitest global set-up, known once beforeAll has checked it is there. */
let redisUrl = '';
/** Values of {{sequence_number,N}} cycle after N: far more than a short run sends, so none may repeat. */
const SEQUENCE_N = 1_000_000;

/** The listening server, its user and API token, the served CLI and the agents started. */
let h: AgentsHarness;
let target: CountingTarget;
let planId: string;

/**
 * Every event the agents write to the run's stream, read beside the server's own reader until each
 * agent said done or failed (the server deletes the stream once the run ends).
 */
async function readStream(runId: string, agentCount: number): Promise<ShardEvent[]> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 3 });
  const events: ShardEvent[] = [];
  let lastId = '0';
  const ended = () => events.filter((e) => e.type === 'done' || e.type === 'failed').length >= agentCount;
  try {
    // XREAD blocks up to 200 ms itself, so the probe is asked again at once.
    await waitFor(
      () => `the stream of ${runId} to end (${events.length} events)`,
      async () => {
        const reply = await redis.xread('BLOCK', 200, 'STREAMS', runStreamKey(runId), lastId);
        for (const [, entries] of reply ?? []) {
          for (const [id, fields] of entries) {
            lastId = id;
            events.push(JSON.parse(fields[1]!) as ShardEvent);
          }
        }
        return ended() ? true : undefined;
      },
      40_000,
      0,
    );
    return events;
  } finally {
    redis.disconnect();
  }
}

/** The p50 and p99 of every interval report merged with the engine's Histogram, in ms as the summary has them. */
function percentilesOf(wires: ShardIntervalWire[]): { p50: number; p99: number; count: number } {
  const h = new Histogram();
  for (const wire of wires) for (const step of wire.steps) h.addEncoded(step.histogram);
  const ms = (us: number) => Math.round((us / 1000) * 1000) / 1000;
  return { p50: ms(h.valueAtPercentile(50)), p99: ms(h.valueAtPercentile(99)), count: h.totalCount };
}

beforeAll(async () => {
  redisUrl = testRedisUrl();
  target = await startCountingTarget();
  h = await startAgentsServer({
    redisUrl,
    env: { EXTERNAL_TOOLS: 'off' },
    cliDirPrefix: 'aqa-agents-test-',
  });
  const saved = await h.call<{ id: string }>('POST', '/api/save-test-plan', {
    name: 'On agents',
    tool: 'k6',
    concurrent_users: 6,
    duration: 1,
    urls: [
      {
        method: 'GET',
        url: `${target.origin}/seq/{{sequence_number,${SEQUENCE_N}}}`,
        name: 'Numbered',
        thinkTime: '20ms',
      },
    ],
  });
  planId = saved.body.id;
  for (const name of ['agent-a', 'agent-b', 'agent-c']) h.startAgent(name);
  await h.waitForAgents(3);
}, 60_000);

afterAll(async () => {
  await h?.close();
  await target?.close();
});

describe('runs on load agents', () => {
  it('splits 6 users over 3 agent processes and merges exactly what the target received', async () => {
    await target.reset();
    const started = await h.call<{ test_id: string; engine: string; engine_note: string }>(
      'POST',
      '/api/run-test',
      { plan_id: planId, duration_seconds: 3, agents: 3 },
    );
    expect(started.status).toBe(201);
    expect(started.body.engine_note).toBe(
      'ran with the built-in engine on 3 load agents: agent-a, agent-b, agent-c',
    );
    const runId = started.body.test_id;
    const stream = readStream(runId, 3);
    // While it runs: the agents say which run they run, and the live result shows their part.
    const busy = await waitFor('the agents to take their shards', async () => {
      const online = await h.onlineAgents();
      return online.filter((a) => a.run_id === runId).length === 3 ? online : undefined;
    });
    expect(busy).toHaveLength(3);
    const live = await waitFor('live figures of every agent', async () => {
      const { body } = await h.call<TestResult>('GET', `/api/get-test-result/${runId}`);
      return body.agents.every((a) => a.status === 'running' && a.requests > 0) ? body : undefined;
    }).catch(async (error: unknown) => {
      const { body } = await h.call<TestResult>('GET', `/api/get-test-result/${runId}`);
      throw new Error(`${String(error)}: ${JSON.stringify(body)}\n${h.outputs()}`);
    });
    expect(live.agents.map((a) => a.users)).toEqual([2, 2, 2]);

    const events = await stream;
    const result = await h.finished(runId);
    const counts = await target.counts();
    const seqPaths = Object.entries(counts.byPath).filter(([path]) => path.startsWith('/seq/'));
    const sent = seqPaths.reduce((n, [, c]) => n + c, 0);

    expect(result.status).toBe('completed');
    expect(result.partial).toBe(false);
    expect(result.summary?.total_requests).toBe(sent);
    expect(sent).toBeGreaterThan(100);
    // Each agent ran 2 users and shows its own requests, which add up to the merged total.
    expect(result.agents.map((a) => [a.name, a.users, a.status, a.error])).toEqual([
      ['agent-a', 2, 'done', null],
      ['agent-b', 2, 'done', null],
      ['agent-c', 2, 'done', null],
    ]);
    for (const agent of result.agents) expect(agent.requests).toBeGreaterThan(0);
    expect(result.agents.reduce((n, a) => n + a.requests, 0)).toBe(sent);
    // {{sequence_number,N}} is split by stride: no value was sent twice, across all three agents.
    expect(seqPaths.every(([, c]) => c === 1)).toBe(true);
    expect(seqPaths).toHaveLength(sent);

    // The merged percentiles are those of the agents' own histograms merged again here.
    const wires = events.flatMap((e) => (e.type === 'interval' ? [e.wire] : []));
    const byAgent = [0, 1, 2].map((i) =>
      events
        .filter((e) => e.type === 'interval' && e.agent_index === i)
        .reduce((n, e) => n + (e.type === 'interval' ? e.wire.steps[0]!.requests : 0), 0),
    );
    expect(byAgent).toEqual(result.agents.map((a) => a.requests));
    const merged = percentilesOf(wires);
    expect(merged.count).toBe(sent);
    expect(result.summary?.percentile_50).toBe(merged.p50);
    expect(result.summary?.percentile_99).toBe(merged.p99);
    // The stream is gone once the run is stored, and the agents are idle again.
    await waitFor('the agents to be idle', async () =>
      (await h.onlineAgents()).every((a) => a.run_id === null) ? true : undefined,
    );
  }, 40_000);

  it('splits a load profile over the agents: the merged iterations are the plan’s, each sent once', async () => {
    await target.reset();
    // 30 iterations a second for 3 s from a pool of 6: 90 planned, each one call of its own number.
    const profile = {
      model: 'arrival_rate',
      start: 30,
      max_users: 6,
      graceful_stop: '2s',
      stages: [{ duration: '3s', target: 30 }],
    };
    const saved = await h.call<{ id: string }>('POST', '/api/save-test-plan', {
      name: 'Profiled on agents',
      tool: 'k6',
      concurrent_users: 6,
      duration: 1,
      load_profile: profile,
      urls: [
        { method: 'GET', url: `${target.origin}/prof/{{sequence_number,${SEQUENCE_N}}}`, thinkTime: '0s' },
      ],
    });
    expect(saved.status).toBe(201);
    const started = await h.call<{ test_id: string; engine_note: string }>('POST', '/api/run-test', {
      plan_id: saved.body.id,
      agents: 3,
    });
    expect(started.status).toBe(201);
    expect(started.body.engine_note).toBe(
      'ran with the built-in engine on 3 load agents: agent-a, agent-b, agent-c',
    );
    const result = await h.finished(started.body.test_id);
    const counts = await target.counts();
    const paths = Object.entries(counts.byPath).filter(([path]) => path.startsWith('/prof/'));
    const sent = paths.reduce((n, [, c]) => n + c, 0);

    expect(result.status).toBe('completed');
    expect(result.load_profile).toMatchObject({ model: 'arrival_rate', max_users: 6 });
    // The pool split 2 + 2 + 2, and every agent took its third of the schedule.
    expect(result.agents.map((a) => [a.users, a.status])).toEqual([
      [2, 'done'],
      [2, 'done'],
      [2, 'done'],
    ]);
    for (const agent of result.agents) expect(agent.requests).toBeGreaterThanOrEqual(25);
    const { iterations_started: ran, iterations_dropped: dropped } = result.summary!;
    expect(ran! + dropped!).toBe(90);
    expect(ran).toBe(sent);
    expect(result.summary?.total_requests).toBe(sent);
    // Each iteration's number went to one agent only.
    expect(paths.every(([, c]) => c === 1)).toBe(true);
    // Idle again before the next test asks for agents by name.
    await waitFor('the agents to be idle', async () =>
      (await h.onlineAgents()).every((a) => a.run_id === null) ? true : undefined,
    );
  }, 40_000);

  it('stops a run on agents: each agent ends its share gracefully and every request it sent is counted', async () => {
    await target.reset();
    const started = await h.call<{ test_id: string }>('POST', '/api/run-test', {
      plan_id: planId,
      duration_seconds: 30,
      agents: 2,
    });
    expect(started.status).toBe(201);
    const runId = started.body.test_id;
    await waitFor(
      'both agents to report',
      async () => {
        const { body } = await h.call<TestResult>('GET', `/api/get-test-result/${runId}`);
        return body.agents.length === 2 && body.agents.every((a) => a.requests > 0) ? true : undefined;
      },
      15_000,
    );
    const asked = Date.now();
    const stopped = await h.call<{ status: string }>('POST', `/api/stop-test/${runId}`);
    expect(stopped.body.status).toBe('stopped');
    expect(Date.now() - asked).toBeLessThan(5_000);
    const result = await h.finished(runId);
    const counts = await target.counts();
    const sent = Object.entries(counts.byPath)
      .filter(([path]) => path.startsWith('/seq/'))
      .reduce((n, [, c]) => n + c, 0);
    expect(result.status).toBe('stopped');
    expect(result.partial).toBe(false);
    expect(result.agents.map((a) => [a.name, a.status])).toEqual([
      ['agent-a', 'done'],
      ['agent-b', 'done'],
    ]);
    expect(result.summary?.total_requests).toBe(sent);
  }, 40_000);

  it('goes on without an agent killed mid-run, names it, and marks the result partial', async () => {
    const started = await h.call<{ test_id: string }>('POST', '/api/run-test', {
      plan_id: planId,
      duration_seconds: 9,
      agents: 3,
    });
    expect(started.status).toBe(201);
    const runId = started.body.test_id;
    await waitFor(
      'every agent to report',
      async () => {
        const { body } = await h.call<TestResult>('GET', `/api/get-test-result/${runId}`);
        return body.agents.every((a) => a.requests > 0) ? true : undefined;
      },
      15_000,
    );
    const victim = h.agents[2]!;
    victim.child.kill('SIGKILL');
    const killedAt = Date.now();
    const lost = await waitFor(
      'the killed agent to be lost',
      async () => {
        const { body } = await h.call<TestResult>('GET', `/api/get-test-result/${runId}`);
        return body.agents.find((a) => a.name === victim.name && a.status === 'lost');
      },
      15_000,
    );
    expect(Date.now() - killedAt).toBeLessThan(8_000);
    expect(lost.error).toMatch(/^agent agent-c stopped sending heartbeats at second \d+$/);

    const result = await h.finished(runId);
    expect(result.status).toBe('completed');
    expect(result.partial).toBe(true);
    expect(result.agents.map((a) => [a.name, a.status])).toEqual([
      ['agent-a', 'done'],
      ['agent-b', 'done'],
      ['agent-c', 'lost'],
    ]);
    expect(result.agents[2]!.error).toBe(lost.error);
    // The others' data is all there: every request they (and the lost agent before it died) reported.
    expect(result.summary?.total_requests).toBe(result.agents.reduce((n, a) => n + a.requests, 0));
    expect(result.agents[0]!.requests).toBeGreaterThan(result.agents[2]!.requests);
  }, 40_000);

  it('refuses a run on more agents than are online and idle, with the numbers and what to do', async () => {
    // Both agents left of the run before must be idle again, not merely online, for the numbers below.
    await h.waitForAgents(2, { idle: true });
    const refused = await h.call<{ detail: string }>('POST', '/api/run-test', {
      plan_id: planId,
      duration_seconds: 3,
      agents: 3,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toBe(
      'Only 2 of your agents are online and idle; this run asks for 3. Start more with `aqa agent --server URL --token T`, or run on this server.',
    );
    const tooFewUsers = await h.call<{ detail: string }>('POST', '/api/run-test', {
      plan_id: planId,
      concurrent_users: 1,
      duration_seconds: 3,
      agents: 2,
    });
    expect(tooFewUsers.body.detail).toBe(
      'This run has 1 virtual user; a run on 2 agents needs at least one user per agent.',
    );
    const notWhole = await h.call<{ detail: string }>('POST', '/api/run-test', {
      plan_id: planId,
      agents: 1.5,
    });
    expect(notWhole.body.detail).toContain('agents must be a whole number of load agents from 1 to 50');
  });

  it("keeps each user's agents to themselves", async () => {
    const other = (await registerAndLogin(h.server)).token;
    const mine = (await h.call<AgentInfo[]>('GET', '/api/agents')).body;
    expect(mine.map((a) => a.name)).toEqual(['agent-a', 'agent-b', 'agent-c']);
    expect((await h.call<AgentInfo[]>('GET', '/api/agents', undefined, other)).body).toEqual([]);
    const forget = await h.call('DELETE', `/api/agents/${mine[0]!.agent_id}`, undefined, other);
    expect(forget.status).toBe(404);
    const planOfOther = await h.call<{ id: string }>(
      'POST',
      '/api/save-test-plan',
      { name: 'Other', tool: 'k6', concurrent_users: 2, duration: 1, urls: [{ url: `${target.origin}/x` }] },
      other,
    );
    const refused = await h.call<{ detail: string }>(
      'POST',
      '/api/run-test',
      { plan_id: planOfOther.body.id, agents: 1 },
      other,
    );
    expect(refused.body.detail).toMatch(/^None of your agents is online and idle; this run asks for 1\./);
    // The owner forgets the killed agent: it is gone from the list.
    const lost = mine.find((a) => a.name === 'agent-c')!;
    expect((await h.call('DELETE', `/api/agents/${lost.agent_id}`)).status).toBe(204);
    expect((await h.call<AgentInfo[]>('GET', '/api/agents')).body.map((a) => a.name)).toEqual([
      'agent-a',
      'agent-b',
    ]);
  });

  it('says Redis is needed when the server has none, and refuses an agent of another protocol', async () => {
    const plain = await startTestServer();
    try {
      const { token } = await registerAndLogin(plain);
      const agentToken = (
        await plain.request({
          method: 'POST',
          url: '/api/tokens',
          token,
          body: { name: 'a', scope: 'agent' },
        })
      ).json<{ token: string }>().token;
      const registered = await plain.request({
        method: 'POST',
        url: '/api/agents/register',
        token: agentToken,
        body: { name: 'x', host: 'h', cores: 1, protocol: AGENT_PROTOCOL_VERSION, version: '0.1.0' },
      });
      expect(registered.statusCode).toBe(503);
      expect(registered.json<{ code: string; detail: string }>()).toMatchObject({
        code: 'AGENTS_UNAVAILABLE',
        detail: expect.stringMatching(/^Load agents need Redis: set REDIS_URL on the server/) as unknown,
      });
      const saved = await plain.request({
        method: 'POST',
        url: '/api/save-test-plan',
        token,
        body: {
          name: 'No Redis',
          tool: 'k6',
          concurrent_users: 2,
          duration: 1,
          urls: [{ url: `${target.origin}/x` }],
        },
      });
      const run = await plain.request({
        method: 'POST',
        url: '/api/run-test',
        token,
        body: { plan_id: saved.json<{ id: string }>().id, duration_seconds: 2, agents: 1 },
      });
      expect(run.statusCode).toBe(503);
      expect(run.json<{ code: string }>().code).toBe('AGENTS_UNAVAILABLE');
    } finally {
      await closeTestServer(plain);
    }
    const otherProtocol = await h.call<{ detail: string }>(
      'POST',
      '/api/agents/register',
      { name: 'old', host: 'h', cores: 1, protocol: 99, version: '0.0.1' },
      h.apiToken,
    );
    expect(otherProtocol.status).toBe(400);
    expect(otherProtocol.body.detail).toContain(
      `This agent speaks agent protocol 99; this server speaks ${AGENT_PROTOCOL_VERSION}.`,
    );
    // An agent of the BullMQ days (protocol 1) is told to fetch the aqa this server serves.
    const older = await h.call<{ detail: string }>(
      'POST',
      '/api/agents/register',
      { name: 'old', host: 'h', cores: 1, protocol: 1, version: '0.0.1' },
      h.apiToken,
    );
    expect(older.body.detail).toContain('Run the aqa program this server serves (GET /downloads/aqa.mjs).');
    // Nor an agent of protocol 2, which would run a plan's flows, test data or abort thresholds on its
    // own (docs/adr/0027-load-profiles.md "On load agents").
    const beforeFlows = await h.call<{ detail: string; code: string }>(
      'POST',
      '/api/agents/register',
      { name: 'old', host: 'h', cores: 1, protocol: 2, version: '0.0.2' },
      h.apiToken,
    );
    expect(beforeFlows.status).toBe(400);
    expect(beforeFlows.body.code).toBe('AGENT_PROTOCOL_MISMATCH');
    const fine = await h.call<AgentRegistration>(
      'POST',
      '/api/agents/register',
      { name: 'by-hand', host: 'h', cores: 2, protocol: AGENT_PROTOCOL_VERSION, version: '0.1.0' },
      h.apiToken,
    );
    expect(fine.status).toBe(200);
    expect(JSON.stringify(fine.body)).not.toMatch(/redis/i);
  });
});
