import { randomUUID } from 'node:crypto';
import { Queue, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testPlan, TestTarget } from '../testing/target';
import type { EngineLogger } from '../types';
import { runAgent, type AgentHandle } from './agent';
import {
  agentHeartbeatKey,
  runControlChannel,
  runStopKey,
  SHARD_JOB,
  type AgentHeartbeat,
  type ShardEvent,
  type ShardJob,
} from './protocol';
import type { ShardOutcome } from './run-shard';
import { readShardEvents, startRegistrationServer, type RegistrationServer } from './test-support';

/*
 * The load agent against a real Redis (the tests' throw-away one), a stand-in for the server's
 * registration endpoint, and a real local target that counts what it receives
 * (docs/adr/0021-load-agents.md): shards are queued with BullMQ as the server queues them.
 */

const REDIS_URL = process.env.AQA_TEST_REDIS_URL ?? '';
const TOKEN = 'aqa_agent_test_token';
const PREFIX = `aqa-test-agent-${randomUUID().slice(0, 8)}`;
const quiet: EngineLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };

let redis: Redis;
let server: RegistrationServer;
const target = new TestTarget();
const agents: AgentHandle[] = [];
const queues: Queue[] = [];
const connections: Redis[] = [];

beforeAll(async () => {
  if (REDIS_URL === '')
    throw new Error('AQA_TEST_REDIS_URL is not set (scripts/test-services/global-setup.mjs)');
  redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  server = await startRegistrationServer({ redisUrl: REDIS_URL, token: TOKEN, prefix: PREFIX });
  await target.start();
});

afterAll(async () => {
  await Promise.all(agents.map((a) => a.stop()));
  await Promise.all(queues.map((q) => q.close()));
  for (const c of connections) c.disconnect();
  await server.close();
  await target.close();
  redis.disconnect();
});

async function startAgent(name: string, cores = 2): Promise<AgentHandle> {
  const agent = await runAgent({ server: server.url, token: TOKEN, name, cores, logger: quiet });
  agents.push(agent);
  return agent;
}

function queueOf(agent: AgentHandle): Queue {
  // A connection of its own, which the queue leaves open on close(): closed in afterAll.
  const connection = redis.duplicate();
  connections.push(connection);
  const queue = new Queue(agent.registration.queue, { connection, prefix: agent.registration.prefix });
  queues.push(queue);
  return queue;
}

function shardJob(runId: string, path: string, over: Partial<ShardJob> = {}): ShardJob {
  const users = over.users ?? 3;
  return {
    run_id: runId,
    agent_index: 0,
    agent_count: 1,
    plan: testPlan([{ url: `${target.origin}${path}` }], { concurrent_users: users }),
    duration_seconds: 2,
    users,
    first_user: 0,
    sequence_split: { offset: 0, stride: 1 },
    start_at_epoch_ms: Date.now() + 1000,
    guard: null,
    ...over,
  };
}

const ended = (events: ShardEvent[]): boolean => events.some((e) => e.type === 'done' || e.type === 'failed');
const intervalRequests = (events: ShardEvent[]): number =>
  events.reduce(
    (n, e) => n + (e.type === 'interval' ? e.wire.steps.reduce((m, s) => m + s.requests, 0) : 0),
    0,
  );

/** The job's return value once BullMQ has it. */
async function outcomeOf(queue: Queue, job: Job): Promise<ShardOutcome> {
  for (let i = 0; i < 100; i++) {
    const fresh = await queue.getJob(job.id!);
    if (fresh?.finishedOn !== undefined) return fresh.returnvalue as ShardOutcome;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`job ${job.id} did not finish`);
}

describe('aqa agent', () => {
  it('runs a queued shard from the common start: ready, intervals that sum to what the target counted, done; heartbeats name the run', async () => {
    const agent = await startAgent('one');
    expect(server.received.at(-1)).toMatchObject({ name: 'one', cores: 2, protocol: 1 });
    const id = agent.registration.agent_id;
    let firstAt = 0;
    target.reset();
    target.route = (_req, res) => {
      firstAt ||= Date.now();
      res.end('ok');
    };
    const runId = randomUUID();
    const job = shardJob(runId, '/one');
    const queue = queueOf(agent);
    const queued = await queue.add(SHARD_JOB, job);

    await readShardEvents(redis, runId, (ev) => ev.some((e) => e.type === 'ready'));
    const beat = JSON.parse((await redis.get(agentHeartbeatKey(id))) ?? 'null') as AgentHeartbeat;
    expect(beat).toMatchObject({ agent_id: id, name: 'one', run_id: runId, cores: 2, pid: process.pid });

    const events = await readShardEvents(redis, runId, ended);
    expect(events[0]).toEqual({ type: 'ready', agent_index: 0, agent_id: id, shards: 2 });
    const done = events.at(-1)!;
    expect(done).toMatchObject({ type: 'done', status: 'completed' });
    expect(events.filter((e) => e.type === 'interval').length).toBeGreaterThanOrEqual(4);
    expect(target.count).toBeGreaterThan(0);
    expect(intervalRequests(events)).toBe(target.count);
    expect(done.type === 'done' && done.total_requests).toBe(target.count);
    // The load began at the common start, not when the job arrived.
    expect(firstAt).toBeGreaterThanOrEqual(job.start_at_epoch_ms - 25);
    expect(await outcomeOf(queue, queued)).toEqual({ status: 'completed', total_requests: target.count });
    expect(JSON.parse((await redis.get(agentHeartbeatKey(id))) ?? 'null')).toMatchObject({ run_id: null });

    await agent.stop();
    expect(await redis.exists(agentHeartbeatKey(id))).toBe(0);
  });

  it('two agents with sequence_split stride 2 never send the same {{sequence_number,N}} value', async () => {
    const [a, b] = await Promise.all([startAgent('even', 1), startAgent('odd', 1)]);
    target.reset();
    target.route = (_req, res) => void res.end('ok');
    const runId = randomUUID();
    const plan = testPlan([{ url: `${target.origin}/seq/{{sequence_number,1000000}}` }], {
      concurrent_users: 2,
    });
    const start = Date.now() + 1000;
    const common = { plan, users: 2, agent_count: 2, start_at_epoch_ms: start };
    await queueOf(a).add(
      SHARD_JOB,
      shardJob(runId, '', {
        ...common,
        agent_index: 0,
        first_user: 0,
        sequence_split: { offset: 0, stride: 2 },
      }),
    );
    await queueOf(b).add(
      SHARD_JOB,
      shardJob(runId, '', {
        ...common,
        agent_index: 1,
        first_user: 2,
        sequence_split: { offset: 1, stride: 2 },
      }),
    );
    const events = await readShardEvents(
      redis,
      runId,
      (ev) => ev.filter((e) => e.type === 'done' || e.type === 'failed').length === 2,
    );
    expect(events.filter((e) => e.type === 'failed')).toEqual([]);
    const totals = events.flatMap((e) => (e.type === 'done' ? [e.total_requests] : []));
    expect(totals[0]! + totals[1]!).toBe(target.count);
    const values = target.recorded.map((r) => Number(r.path.split('/').at(-1)));
    expect(values).toHaveLength(target.count);
    // Fewer iterations than N: every value is used at most once, by one agent or the other.
    expect(new Set(values).size).toBe(values.length);
    expect(values.some((v) => v % 2 === 1) && values.some((v) => v % 2 === 0)).toBe(true);
  });

  it('stops its shard when the run is stopped: on the control channel mid-run, and by the stop key before it starts', async () => {
    const agent = await startAgent('stoppable');
    const queue = queueOf(agent);
    target.reset();
    target.route = (_req, res) => void res.end('ok');
    const runId = randomUUID();
    const queued = await queue.add(
      SHARD_JOB,
      shardJob(runId, '/stop', { duration_seconds: 30, start_at_epoch_ms: Date.now() + 500 }),
    );
    await readShardEvents(redis, runId, (ev) => ev.some((e) => e.type === 'interval'));
    const stoppedAt = Date.now();
    await redis.publish(runControlChannel(runId), 'stop');
    const events = await readShardEvents(redis, runId, ended, 5000);
    expect(Date.now() - stoppedAt).toBeLessThan(3000);
    expect(events.at(-1)).toMatchObject({ type: 'done', status: 'stopped', total_requests: target.count });
    expect(intervalRequests(events)).toBe(target.count);
    expect(await outcomeOf(queue, queued)).toEqual({ status: 'stopped', total_requests: target.count });

    // Stopped before the agent took the shard: it ends at once, without a request.
    const late = randomUUID();
    await redis.set(runStopKey(late), '1', 'PX', 60_000);
    target.reset();
    await queue.add(SHARD_JOB, shardJob(late, '/never', { duration_seconds: 30 }));
    const lateEvents = await readShardEvents(redis, late, ended, 5000);
    expect(lateEvents.at(-1)).toMatchObject({ type: 'done', status: 'stopped', total_requests: 0 });
    expect(target.count).toBe(0);
  });

  it('answers failed in words for a plan that cannot run and for a shard that arrives after its run ended; a stop of the agent mid-shard ends it stopped', async () => {
    const agent = await startAgent('careful', 1);
    const queue = queueOf(agent);
    const broken = randomUUID();
    const plan = { ...testPlan([{ url: `${target.origin}/x` }]), urls: [] };
    const failed = await queue.add(SHARD_JOB, shardJob(broken, '', { plan }));
    const brokenEvents = await readShardEvents(redis, broken, ended);
    expect(brokenEvents).toEqual([
      {
        type: 'failed',
        agent_index: 0,
        message: expect.stringMatching(/^the plan cannot run: urls/) as string,
      },
    ]);
    expect(await outcomeOf(queue, failed)).toMatchObject({ status: 'failed', total_requests: 0 });

    const late = randomUUID();
    await queue.add(SHARD_JOB, shardJob(late, '/late', { start_at_epoch_ms: Date.now() - 60_000 }));
    expect(await readShardEvents(redis, late, ended)).toEqual([
      {
        type: 'failed',
        agent_index: 0,
        message: expect.stringMatching(/reached agent .* 58 s after its run should have ended/) as string,
      },
    ]);

    // The agent is stopped (Ctrl-C) while its shard runs: the shard ends stopped, its figures written.
    target.reset();
    const running = randomUUID();
    await queue.add(
      SHARD_JOB,
      shardJob(running, '/agent-stop', { duration_seconds: 30, start_at_epoch_ms: Date.now() + 300 }),
    );
    await readShardEvents(redis, running, (ev) => ev.some((e) => e.type === 'interval'));
    await agent.stop();
    await agent.closed;
    const events = await readShardEvents(redis, running, ended, 1000);
    expect(events.at(-1)).toMatchObject({ type: 'done', status: 'stopped', total_requests: target.count });
    expect(intervalRequests(events)).toBe(target.count);
    expect(await redis.exists(agentHeartbeatKey(agent.registration.agent_id))).toBe(0);
  });

  it('--once: runs one shard, takes no second one, leaves the server and ends with its outcome; failed when it failed', async () => {
    const agent = await runAgent({
      server: server.url,
      token: TOKEN,
      name: 'once',
      cores: 1,
      logger: quiet,
      once: true,
    });
    agents.push(agent);
    const id = agent.registration.agent_id;
    const queue = queueOf(agent);
    target.reset();
    target.route = (_req, res) => void res.end('ok');
    const [first, second] = [randomUUID(), randomUUID()];
    const start = Date.now() + 500;
    const taken = await queue.add(
      SHARD_JOB,
      shardJob(first, '/once', { duration_seconds: 1, start_at_epoch_ms: start }),
    );
    const left = await queue.add(
      SHARD_JOB,
      shardJob(second, '/twice', { duration_seconds: 1, start_at_epoch_ms: start }),
    );
    const end = await agent.closed;
    expect(target.count).toBeGreaterThan(0);
    expect(end).toEqual({ reason: 'once', outcome: { status: 'completed', total_requests: target.count } });
    expect(await outcomeOf(queue, taken)).toEqual({ status: 'completed', total_requests: target.count });
    expect(await queue.getJobState(left.id!)).toBe('waiting');
    expect(target.recorded.every((r) => r.path === '/once')).toBe(true);
    expect(await redis.exists(agentHeartbeatKey(id))).toBe(0);
    expect(server.unregistered).toContain(id);

    // Its one shard failed: the end says so (aqa agent --once exits 1 on it).
    const failing = await runAgent({
      server: server.url,
      token: TOKEN,
      name: 'once-failing',
      cores: 1,
      logger: quiet,
      once: true,
    });
    agents.push(failing);
    const plan = { ...testPlan([{ url: `${target.origin}/x` }]), urls: [] };
    await queueOf(failing).add(SHARD_JOB, shardJob(randomUUID(), '', { plan }));
    expect(await failing.closed).toMatchObject({
      reason: 'once',
      outcome: {
        status: 'failed',
        total_requests: 0,
        message: expect.stringMatching(/^the plan cannot run/) as string,
      },
    });
    expect(server.unregistered).toContain(failing.registration.agent_id);
  });

  it('--idle-timeout: a shard longer than the idle time runs to its end, and the agent ends that long after it', async () => {
    const agent = await runAgent({
      server: server.url,
      token: TOKEN,
      name: 'idle',
      cores: 1,
      logger: quiet,
      idleTimeoutMs: 1500,
    });
    agents.push(agent);
    const id = agent.registration.agent_id;
    target.reset();
    target.route = (_req, res) => void res.end('ok');
    const runId = randomUUID();
    await queueOf(agent).add(
      SHARD_JOB,
      shardJob(runId, '/idle', { duration_seconds: 2, start_at_epoch_ms: Date.now() + 300 }),
    );
    const events = await readShardEvents(redis, runId, ended);
    const shardEnded = Date.now();
    expect(events.at(-1)).toMatchObject({ type: 'done', status: 'completed', total_requests: target.count });
    expect(server.unregistered).not.toContain(id);
    expect(await agent.closed).toEqual({ reason: 'idle', idle_ms: 1500 });
    // The idle time counts again from the shard's end (the stream's done is written just before it).
    expect(Date.now() - shardEnded).toBeGreaterThanOrEqual(1300);
    expect(await redis.exists(agentHeartbeatKey(id))).toBe(0);
    expect(server.unregistered).toContain(id);

    // Without any shard: it ends after the idle time from its start.
    const startedAt = Date.now();
    const unused = await runAgent({
      server: server.url,
      token: TOKEN,
      name: 'unused',
      cores: 1,
      logger: quiet,
      idleTimeoutMs: 1000,
    });
    agents.push(unused);
    expect(await unused.closed).toEqual({ reason: 'idle', idle_ms: 1000 });
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(1000);
    expect(server.unregistered).toContain(unused.registration.agent_id);
  });

  it('refuses to start with words: a refused token, an older server, a server without Redis, an unreachable Redis', async () => {
    await expect(runAgent({ server: server.url, token: 'wrong', logger: quiet })).rejects.toThrow(
      `the server at ${server.url} refused the token (401: The API token is not valid)`,
    );
    await expect(runAgent({ server: `${server.url}/old`, token: TOKEN, logger: quiet })).rejects.toThrow(
      'has no agents endpoint (404 to POST /api/agents/register): it is an older AnybodyQA server',
    );
    await expect(runAgent({ server: 'http://127.0.0.1:6399', token: TOKEN, logger: quiet })).rejects.toThrow(
      'cannot reach the server at http://127.0.0.1:6399: connection refused',
    );
    const noRedis = await startRegistrationServer({ redisUrl: REDIS_URL, token: TOKEN, prefix: PREFIX });
    const badRedis = await startRegistrationServer({
      redisUrl: 'redis://:secret@127.0.0.1:6398',
      token: TOKEN,
      prefix: PREFIX,
    });
    try {
      noRedis.refuse(503, {
        detail: 'Load agents need Redis: set REDIS_URL on the server',
        code: 'NO_REDIS',
      });
      await expect(runAgent({ server: noRedis.url, token: TOKEN, logger: quiet })).rejects.toThrow(
        'cannot take agents now (503): Load agents need Redis: set REDIS_URL on the server',
      );
      await expect(runAgent({ server: badRedis.url, token: TOKEN, logger: quiet })).rejects.toThrow(
        "cannot reach the server's Redis at redis://:***@127.0.0.1:6398: connection refused",
      );
    } finally {
      await noRedis.close();
      await badRedis.close();
    }
  });
});
