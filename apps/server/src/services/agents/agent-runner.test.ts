import { randomBytes } from 'node:crypto';
import {
  ERROR_KINDS,
  Histogram,
  TargetGuard,
  type RunResult,
  type RunSnapshot,
  type ShardEvent,
  type ShardIntervalWire,
} from '@aqa/engine';
import { PerfPlanSchema, type PerfPlan } from '@aqa/plan';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../../test/wait-for';
import { agentHeartbeatKey, runStopKey, runStreamKey, type AgentHeartbeat } from './agent-keys';
import type { AgentRunContext } from './agent-fleet';
import { AgentRegistry } from './agent-registry';
import { AgentRunner } from './agent-runner';
import { openTestAgentContext, silentLogger as silent, type TestAgentContext } from './agent-test-context';
import type { PlacedAgent } from './run-agents';

/*
 * The agent runner against the throw-away Redis, with the agents played by the test: it writes their
 * heartbeat keys and shard events as the agent routes do for `aqa agent` (docs/adr/0023-agents-over-http.md).
 * The real agent processes are in apps/server/test/agents.test.ts; here are the endings they cannot
 * easily show.
 */

const timing = { startDelayMs: 200, readyGraceMs: 3000, monitorMs: 200, endGraceMs: 5000 };

const plan: PerfPlan = PerfPlanSchema.parse({
  name: 'Fake agents',
  tool: 'k6',
  concurrent_users: 4,
  duration: 1,
  urls: [{ method: 'GET', url: 'http://127.0.0.1:9/x', name: 'x' }],
});

let test: TestAgentContext;
let redis: Redis;
let context: AgentRunContext;

beforeAll(() => {
  test = openTestAgentContext();
  ({ redis, context } = test);
});

afterAll(() => test.close());

function placed(name: string): PlacedAgent {
  return { agent_id: `agt_test_${randomBytes(6).toString('hex')}`, name, host: 'test', cores: 1, users: 2 };
}

async function beat(agent: PlacedAgent, runId: string | null): Promise<void> {
  const heartbeat: AgentHeartbeat = {
    agent_id: agent.agent_id,
    name: agent.name,
    host: 'test',
    cores: 1,
    run_id: runId,
    at: Date.now(),
  };
  await redis.set(agentHeartbeatKey(agent.agent_id), JSON.stringify(heartbeat), 'PX', 1000);
}

function interval(shard: number, k: number, final: boolean, latenciesUs: number[]): ShardIntervalWire {
  const h = new Histogram();
  for (const v of latenciesUs) h.record(v);
  return {
    shard,
    interval: k,
    final,
    endMs: (k + 1) * 1000,
    activeUsers: final ? 0 : 2,
    busy: 0.1,
    steps: [
      {
        requests: latenciesUs.length,
        successes: latenciesUs.length,
        errors: new Array<number>(ERROR_KINDS.length).fill(0),
        samples: ERROR_KINDS.map(() => []),
        bytesSent: 0,
        bytesReceived: 0,
        histogram: h.encode(),
      },
    ],
  };
}

async function write(runId: string, event: ShardEvent): Promise<void> {
  await redis.xadd(runStreamKey(runId), '*', 'e', JSON.stringify(event));
}

function start(
  agents: PlacedAgent[],
  run: { plan: PerfPlan; durationSeconds: number } = { plan, durationSeconds: 2 },
) {
  const runId = `run_test_${randomBytes(6).toString('hex')}`;
  const runner = new AgentRunner(context, agents, new TargetGuard({ allow: [], deny: [] }), silent, timing);
  const handle = runner.start(run.plan, { durationSeconds: run.durationSeconds, logger: silent, runId });
  const snapshots: RunSnapshot[] = [];
  const consumed = (async () => {
    for await (const s of handle.snapshots) snapshots.push(s);
  })();
  return { runId, handle, snapshots, consumed };
}

describe('AgentRunner', () => {
  it('goes on when an agent fails mid-run: that agent is named, the others finish, the result is partial', async () => {
    const a = placed('a');
    const b = placed('b');
    await Promise.all([beat(a, null), beat(b, null)]);
    const { runId, handle, consumed } = start([a, b]);
    const beating = setInterval(() => void Promise.all([beat(a, runId), beat(b, runId)]), 200);
    try {
      await write(runId, { type: 'ready', agent_index: 0, agent_id: a.agent_id, shards: 1 });
      await write(runId, { type: 'ready', agent_index: 1, agent_id: b.agent_id, shards: 1 });
      await write(runId, { type: 'interval', agent_index: 0, wire: interval(0, 0, false, [1000, 2000]) });
      await write(runId, { type: 'interval', agent_index: 1, wire: interval(0, 0, false, [3000]) });
      await write(runId, { type: 'failed', agent_index: 1, message: 'the engine worker crashed' });
      await write(runId, { type: 'interval', agent_index: 0, wire: interval(0, 1, true, [4000, 5000]) });
      await write(runId, { type: 'done', agent_index: 0, status: 'completed', total_requests: 4 });
      const result: RunResult = await handle.result;
      await consumed;
      expect(result.status).toBe('completed');
      expect(result.summary.total_requests).toBe(5);
      expect(handle.agents?.()).toMatchObject([
        { name: 'a', status: 'done', requests: 4, error: null },
        {
          name: 'b',
          status: 'failed',
          requests: 1,
          error: 'agent b could not run its share: the engine worker crashed',
        },
      ]);
      // The run's hold on its agents is released and its stream deleted.
      expect(await redis.exists(runStreamKey(runId))).toBe(0);
      expect(await new AgentRegistry(redis).claim([a.agent_id, b.agent_id], 'next', 1000)).toBe(true);
    } finally {
      clearInterval(beating);
    }
  });

  it("fails an agent whose report the merge cannot take, in words, and goes on with the others' figures", async () => {
    const a = placed('a');
    const b = placed('b');
    await Promise.all([beat(a, null), beat(b, null)]);
    const { runId, handle, consumed } = start([a, b]);
    const beating = setInterval(() => void Promise.all([beat(a, runId), beat(b, runId)]), 200);
    try {
      await write(runId, { type: 'ready', agent_index: 0, agent_id: a.agent_id, shards: 1 });
      await write(runId, { type: 'ready', agent_index: 1, agent_id: b.agent_id, shards: 1 });
      await write(runId, { type: 'interval', agent_index: 0, wire: interval(0, 0, false, [1000]) });
      // A worker b never announced, and a second far past the run's end (the merge would walk to it).
      await write(runId, { type: 'interval', agent_index: 1, wire: interval(3, 0, false, [2000]) });
      await write(runId, {
        type: 'interval',
        agent_index: 1,
        wire: interval(0, 1_000_000_000, true, [2000]),
      });
      await write(runId, { type: 'interval', agent_index: 0, wire: interval(0, 1, true, [3000]) });
      await write(runId, { type: 'done', agent_index: 0, status: 'completed', total_requests: 2 });
      const result = await handle.result;
      await consumed;
      expect(result.summary.total_requests).toBe(2);
      expect(handle.agents?.()).toMatchObject([
        { name: 'a', status: 'done', requests: 2 },
        {
          name: 'b',
          status: 'failed',
          requests: 0,
          error: 'agent b sent a report the server cannot use: worker 3 is not one of its 1',
        },
      ]);
    } finally {
      clearInterval(beating);
    }
  });

  it("says the run was cut short when an agent's engine ended workers still busy past the run's end", async () => {
    const a = placed('a');
    await beat(a, null);
    const { runId, handle, consumed } = start([a]);
    const beating = setInterval(() => void beat(a, runId), 200);
    try {
      await write(runId, { type: 'ready', agent_index: 0, agent_id: a.agent_id, shards: 1 });
      await write(runId, { type: 'interval', agent_index: 0, wire: interval(0, 0, false, [1000]) });
      await write(runId, { type: 'interval', agent_index: 0, wire: interval(0, 1, true, [2000]) });
      await write(runId, {
        type: 'done',
        agent_index: 0,
        status: 'completed',
        total_requests: 2,
        cut_short: 'worker 1 of 1 was still busy 2.5 s after the planned end',
      });
      const result = await handle.result;
      await consumed;
      expect(result.summary.total_requests).toBe(2);
      expect(result.cut_short).toBe('agent a: worker 1 of 1 was still busy 2.5 s after the planned end');
    } finally {
      clearInterval(beating);
    }
  });

  it("merges the agents' flows and data ends as one machine's, and stops them all when the merged seconds break an abort threshold", async () => {
    // docs/adr/0027-load-profiles.md "On load agents": the server, not an agent, judges the run.
    const featured = PerfPlanSchema.parse({
      name: 'Featured',
      tool: 'k6',
      concurrent_users: 4,
      duration: 1,
      flows: [
        { name: 'browse', weight: 3 },
        { name: 'buy', weight: 1 },
      ],
      urls: [
        { url: 'http://127.0.0.1:9/browse/{{id}}', name: 'browse', flow: 'browse' },
        { url: 'http://127.0.0.1:9/buy', name: 'buy', flow: 'buy' },
      ],
      data_files: { 'ids.csv': 'id\n1\n2\n3' },
      data_sources: [{ path: 'ids.csv', loop: false }],
      load_profile: { model: 'users', stages: [{ duration: '30s', target: 4 }] },
      abort_thresholds: ['p95<50'],
    });
    const a = placed('a');
    const b = placed('b');
    await Promise.all([beat(a, null), beat(b, null)]);
    const { runId, handle, snapshots, consumed } = start([a, b], { plan: featured, durationSeconds: 30 });
    const beating = setInterval(() => void Promise.all([beat(a, runId), beat(b, runId)]), 200);
    try {
      await write(runId, { type: 'ready', agent_index: 0, agent_id: a.agent_id, shards: 1 });
      await write(runId, { type: 'ready', agent_index: 1, agent_id: b.agent_id, shards: 1 });
      // Ten fast seconds (the first judgement, at 10 s, holds), then slow ones: the window of 11 s breaks.
      for (let k = 0; k < 11; k++)
        for (const agent of [0, 1])
          await write(runId, {
            type: 'interval',
            agent_index: agent,
            wire: {
              ...interval(0, k, false, k < 10 ? [1000, 2000] : [200_000, 300_000]),
              flows: [3, 1],
              ...(k === 2 ? { dataEnded: [agent + 1] } : {}),
            },
          });
      await waitFor('the run to ask its agents to stop', async () =>
        (await redis.exists(runStopKey(runId))) === 1 ? true : undefined,
      );
      for (const agent of [0, 1]) {
        await write(runId, { type: 'interval', agent_index: agent, wire: interval(0, 11, true, []) });
        await write(runId, { type: 'done', agent_index: agent, status: 'stopped', total_requests: 22 });
      }
      const result = await handle.result;
      await consumed;
      expect(result.status).toBe('stopped');
      expect(result.aborted).toMatchObject({ threshold: 'p95<50', at_ms: 11_000 });
      expect(result.aborted?.text).toMatch(/^p95 \d+ ms broke p95<50 at 11s$/);
      // Both agents' 2 users each held from the first second on.
      expect(result.breaking_point).toMatchObject({ model: 'users', value: 4, at_ms: 1000 });
      expect(snapshots[0]?.flows?.map(({ name, iterations }) => ({ name, iterations }))).toEqual([
        { name: 'browse', iterations: 6 },
        { name: 'buy', iterations: 2 },
      ]);
      // Each flow's requests of the second are its calls', merged from both agents: every call is in a
      // flow, so together they are the second's.
      expect(snapshots[0]!.flows!.reduce((sum, f) => sum + f.requests!, 0)).toBe(snapshots[0]!.requests);
      expect(result.flows?.map((f) => [f.name, f.iterations, f.share])).toEqual([
        ['browse', 66, 75],
        ['buy', 22, 25],
      ]);
      expect(result.data_exhausted).toEqual([
        {
          path: 'ids.csv',
          rows: 3,
          share: 'all',
          ended: 3,
          message: 'test data "ids.csv" ran out after its 3 rows (loop: false): 3 users ended there',
        },
      ]);
      expect(handle.agents?.().map((agent) => agent.status)).toEqual(['done', 'done']);
    } finally {
      clearInterval(beating);
    }
  });

  it('fails the run, in words, when every agent stops sending heartbeats', async () => {
    const a = placed('a');
    const b = placed('b');
    await Promise.all([beat(a, null), beat(b, null)]);
    const { runId, handle } = start([a, b]);
    await write(runId, { type: 'ready', agent_index: 0, agent_id: a.agent_id, shards: 1 });
    await write(runId, { type: 'ready', agent_index: 1, agent_id: b.agent_id, shards: 2 });
    // No more heartbeats: the keys expire after 1 s.
    await expect(handle.result).rejects.toThrow(
      /^All 2 load agents of the run stopped: agent a stopped sending heartbeats (before the load started|at second \d+); agent b stopped sending heartbeats (before the load started|at second \d+)$/,
    );
    expect(handle.agents?.().map((agent) => agent.status)).toEqual(['lost', 'lost']);
  });
});
