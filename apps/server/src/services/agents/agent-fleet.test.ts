import { randomBytes } from 'node:crypto';
import type { AgentJob, ShardEvent } from '@aqa/engine';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../../test/wait-for';
import { AGENTS_TAKEN, AgentFleet, type AgentRunContext, type FleetMonitor } from './agent-fleet';
import {
  agentHeartbeatKey,
  agentJobsKey,
  runAgentsKey,
  runEventSeqKey,
  runStopKey,
  runStreamKey,
  type AgentHeartbeat,
} from './agent-keys';
import { openTestAgentContext, silentLogger as silent, type TestAgentContext } from './agent-test-context';
import type { PlacedAgent, RunAgentState } from './run-agents';

/*
 * The fleet mechanics both agent runners share (docs/adr/0021-load-agents.md "Server side",
 * docs/adr/0023-agents-over-http.md), against the throw-away Redis of the vitest global set-up; the test
 * plays the agents by writing their heartbeat keys and stream events as the agent routes do.
 */

let test: TestAgentContext;
let redis: Redis;
let context: AgentRunContext;
const fleets: AgentFleet[] = [];

beforeAll(() => {
  test = openTestAgentContext();
  ({ redis, context } = test);
});

afterAll(async () => {
  await Promise.all(fleets.map((f) => f.cleanUp()));
  test.close();
});

function placed(name: string): PlacedAgent {
  return { agent_id: `agt_fleet_${randomBytes(6).toString('hex')}`, name, host: 'test', cores: 1, users: 2 };
}

function fleetOf(agents: PlacedAgent[], monitorMs = 100) {
  const runId = `run_fleet_${randomBytes(6).toString('hex')}`;
  const events: ShardEvent[] = [];
  const fleet = new AgentFleet(
    runId,
    agents,
    context,
    silent,
    { monitorMs, streamError: 'Could not read the stream' },
    (e) => events.push(e),
  );
  fleets.push(fleet);
  return { runId, fleet, events };
}

/** A Locust worker job: the fleet does not look inside it. */
function jobOf(runId: string) {
  return (state: RunAgentState): AgentJob => ({
    kind: 'locust-worker',
    locust_worker: {
      run_id: runId,
      agent_index: state.index,
      agent_count: 2,
      files: [],
      locustfile: 'locustfile.py',
      master_host: '127.0.0.1',
      master_port: 5557,
      users: state.placed.users,
      origins: [],
      guard: null,
      ends_at_epoch_ms: Date.now() + 60_000,
    },
  });
}

async function beat(agent: PlacedAgent, at: number, ttlMs: number): Promise<void> {
  const heartbeat: AgentHeartbeat = {
    agent_id: agent.agent_id,
    name: agent.name,
    host: 'test',
    cores: 1,
    run_id: null,
    at,
  };
  await redis.set(agentHeartbeatKey(agent.agent_id), JSON.stringify(heartbeat), 'PX', ttlMs);
}

/** Lost agents end as the runners end them, so each is reported once. */
function watching(rest: Omit<FleetMonitor, 'onLost'>) {
  const lost: string[] = [];
  const watch: FleetMonitor = {
    ...rest,
    onLost: (state, message) => {
      state.end('lost', message);
      lost.push(message);
    },
  };
  return { lost, watch };
}

async function clientNames(): Promise<string[]> {
  const list = (await redis.client('LIST')) as string;
  return [...list.matchAll(/ name=(\S*)/g)].map((m) => m[1]!);
}

describe('AgentFleet', () => {
  it('claims every agent or none, refusing in the one sentence', async () => {
    const a = placed('a');
    const b = placed('b');
    expect(await context.registry.claim([b.agent_id], 'run_other', 5000)).toBe(true);
    const { fleet } = fleetOf([a, b]);
    await expect(fleet.claim(5000)).rejects.toThrow(AGENTS_TAKEN);
    expect(AGENTS_TAKEN).toBe(
      'Another run took one of the chosen agents just now; start this run again, or run on this server.',
    );
    // a was let go again: another run may take it.
    expect(await context.registry.claim([a.agent_id], 'run_third', 5000)).toBe(true);

    const c = placed('c');
    const { fleet: free } = fleetOf([c]);
    await free.claim(5000);
    expect(await context.registry.claim([c.agent_id], 'run_fourth', 5000)).toBe(false);
  });

  it("names the run's agents, queues one job each, and hands their events over in order on a connection of its own", async () => {
    const a = placed('a');
    const b = placed('b');
    const { runId, fleet, events } = fleetOf([a, b]);
    await waitFor('the stream connection', async () =>
      (await clientNames()).includes(`aqa-run-${runId}-stream`) ? true : undefined,
    );
    await fleet.claim(5000);
    await fleet.dispatch(jobOf(runId), 5000);
    expect(await redis.hgetall(runAgentsKey(runId))).toEqual({ [a.agent_id]: '0', [b.agent_id]: '1' });
    for (const [agent, index] of [
      [a, 0],
      [b, 1],
    ] as const) {
      const queued = (await redis.lrange(agentJobsKey(agent.agent_id), 0, -1)).map(
        (t) => JSON.parse(t) as AgentJob,
      );
      expect(queued).toMatchObject([
        { kind: 'locust-worker', locust_worker: { run_id: runId, agent_index: index } },
      ]);
      expect(await redis.pttl(agentJobsKey(agent.agent_id))).toBeGreaterThan(0);
    }
    const written: ShardEvent[] = [
      { type: 'ready', agent_index: 1, agent_id: b.agent_id, shards: 1 },
      { type: 'ready', agent_index: 0, agent_id: a.agent_id, shards: 1 },
      { type: 'failed', agent_index: 1, message: 'no locust' },
    ];
    for (const event of written) await redis.xadd(runStreamKey(runId), '*', 'e', JSON.stringify(event));
    await waitFor('the three events', () => (events.length >= 3 ? true : undefined), 5000, 20);
    expect(events).toEqual(written);
  });

  it('loses an agent whose heartbeat key expired, saying at which second of the run, and asks the others their deadline', async () => {
    const a = placed('a');
    const b = placed('b');
    const c = placed('c');
    const since = Date.now() - 10_000;
    const { fleet } = fleetOf([a, b, c]);
    // a last beat at second 3 of the run, and its key has expired since; b never beat; c beats and is late.
    fleet.states[0]!.lastBeatAt = since + 2_500;
    await beat(c, Date.now(), 10_000);
    const { lost, watch } = watching({
      since: () => since,
      beforeStart: 'before its share started',
      deadline: (state) => (state.placed.name === 'c' ? 'agent c did not finish its share in time' : null),
    });
    fleet.monitor(watch);
    await waitFor(
      () => `three agents lost (${lost.join('; ')})`,
      () => (lost.length >= 3 ? true : undefined),
      5000,
      20,
    );
    expect(lost.sort()).toEqual([
      'agent a stopped sending heartbeats at second 3',
      'agent b stopped sending heartbeats before its share started',
      'agent c did not finish its share in time',
    ]);
    expect(fleet.states.map((s) => s.lastBeatAt)).toEqual([since + 2_500, null, expect.any(Number)]);
  });

  it('says "before the load started" of a beat before the load or while it has not started', async () => {
    const a = placed('a');
    const b = placed('b');
    const { fleet } = fleetOf([a, b]);
    const at = Date.now();
    await beat(a, at, 1000);
    await beat(b, at, 3000);
    let since: number | null = null;
    const { lost, watch } = watching({ since: () => since, beforeStart: 'before its worker started' });
    fleet.monitor(watch);
    // Both beats are read while the load has not started; a's key expires first. b's expires once the
    // load has started, but its last beat came before.
    await waitFor(
      'both beats read',
      () => (fleet.states.every((s) => s.lastBeatAt === at) ? true : undefined),
      5000,
      20,
    );
    await waitFor('a lost', () => (lost.length >= 1 ? true : undefined), 5000, 20);
    since = at + 1;
    await waitFor('b lost', () => (lost.length >= 2 ? true : undefined), 5000, 20);
    expect(lost).toEqual([
      'agent a stopped sending heartbeats before the load started',
      'agent b stopped sending heartbeats before the load started',
    ]);
    expect(fleet.when(fleet.states[0]!, at - 4_500, 'x')).toBe('at second 5');
  });

  it('reads no heartbeat once closed', async () => {
    const a = placed('a');
    const { fleet } = fleetOf([a], 50);
    const { lost, watch } = watching({ since: () => null, beforeStart: 'before its share started' });
    fleet.close();
    fleet.monitor(watch);
    await new Promise((r) => setTimeout(r, 300));
    expect(lost).toEqual([]);
  });

  it('shows each agent with what only the runner knows laid over it', () => {
    const a = placed('a');
    const b = placed('b');
    const { fleet } = fleetOf([a, b]);
    fleet.states[1]!.end('failed', 'it did not start a Locust worker');
    expect(fleet.views()).toMatchObject([
      { name: 'a', status: 'waiting', users: 2, requests: 0 },
      { name: 'b', status: 'failed', error: 'it did not start a Locust worker' },
    ]);
    expect(
      fleet.views((state, view) => (state.index === 0 ? { ...view, requests: 42 } : view)),
    ).toMatchObject([
      { name: 'a', requests: 42 },
      { name: 'b', requests: 0 },
    ]);
  });

  it('tells the agents to stop, reads their last words, then withdraws jobs, deletes the keys and lets the agents go', async () => {
    const a = placed('a');
    const b = placed('b');
    const { runId, fleet, events } = fleetOf([a, b]);
    await fleet.claim(60_000);
    await fleet.dispatch(jobOf(runId), 60_000);
    await redis.set(runEventSeqKey(runId), '1');
    // a took its job; b's is still queued.
    await redis.lpop(agentJobsKey(a.agent_id));
    await fleet.tellStop();
    expect(await redis.get(runStopKey(runId))).toBe('1');
    expect(await redis.pttl(runStopKey(runId))).toBeGreaterThan(60_000);

    const cleaning = fleet.cleanUp(500);
    // Written after the clean-up began, within its linger: still read.
    const last: ShardEvent = { type: 'done', agent_index: 0, status: 'stopped', total_requests: 7 };
    await redis.xadd(runStreamKey(runId), '*', 'e', JSON.stringify(last));
    await cleaning;
    expect(events).toEqual([last]);
    expect(await redis.llen(agentJobsKey(b.agent_id))).toBe(0);
    expect(await redis.exists(runStreamKey(runId), runAgentsKey(runId), runEventSeqKey(runId))).toBe(0);
    // The stop outlives the run, for an agent that could still take its job.
    expect(await redis.get(runStopKey(runId))).toBe('1');
    expect(await context.registry.claim([a.agent_id, b.agent_id], 'run_next', 1000)).toBe(true);
    await waitFor('the stream connection to close', async () =>
      (await clientNames()).includes(`aqa-run-${runId}-stream`) ? undefined : true,
    );
  });
});
