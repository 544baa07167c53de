import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testPlan, TestTarget } from '../testing/target';
import type { EngineLogger } from '../types';
import { runAgent, type AgentHandle } from './agent';
import { AGENT_PROTOCOL_VERSION, type ShardEvent, type ShardJob } from './protocol';
import { startAgentServer, type AgentServer } from './test-support';

/*
 * The load agent against a stand-in of the server's agent routes (HTTP only, in memory) and a real
 * local target that counts what it receives (docs/adr/0021-load-agents.md,
 * docs/adr/0023-agents-over-http.md): jobs are queued as the server queues them, and the events the
 * agent posts are kept as the server keeps them, each number once.
 */

const TOKEN = 'aqa_agent_test_token';
const quiet: EngineLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };

let server: AgentServer;
const target = new TestTarget();
const agents: AgentHandle[] = [];

beforeAll(async () => {
  server = await startAgentServer({ token: TOKEN });
  await target.start();
});

afterAll(async () => {
  await Promise.all(agents.map((a) => a.stop()));
  await server.close();
  await target.close();
});

async function startAgent(name: string, cores = 2, more: { once?: boolean; idleTimeoutMs?: number } = {}) {
  const agent = await runAgent({ server: server.url, token: TOKEN, name, cores, logger: quiet, ...more });
  agents.push(agent);
  return agent;
}

function shardJob(runId: string, path: string, over: Partial<ShardJob> = {}): ShardJob {
  const users = over.users ?? 3;
  return {
    run_id: runId,
    agent_index: 0,
    agent_count: 1,
    plan: testPlan([{ url: `${target.origin}${path}` }], { concurrent_users: users }),
    data_seed: 1,
    duration_seconds: 2,
    users,
    first_user: 0,
    sequence_split: { offset: 0, stride: 1 },
    start_at_epoch_ms: Date.now() + 1000,
    guard: null,
    ...over,
  };
}

function queue(agent: AgentHandle, job: ShardJob): void {
  server.queue(agent.registration.agent_id, { kind: 'shard', shard: job });
}

const ended = (events: ShardEvent[]): boolean => events.some((e) => e.type === 'done' || e.type === 'failed');
const intervalRequests = (events: ShardEvent[]): number =>
  events.reduce(
    (n, e) => n + (e.type === 'interval' ? e.wire.steps.reduce((m, s) => m + s.requests, 0) : 0),
    0,
  );

describe('aqa agent', () => {
  it('runs a queued shard from the common start: ready, intervals that sum to what the target counted, done; heartbeats name the run', async () => {
    const agent = await startAgent('one');
    expect(server.received.at(-1)).toMatchObject({ name: 'one', cores: 2, protocol: AGENT_PROTOCOL_VERSION });
    const id = agent.registration.agent_id;
    let firstAt = 0;
    target.reset();
    target.route = (_req, res) => {
      firstAt ||= Date.now();
      res.end('ok');
    };
    const runId = randomUUID();
    const job = shardJob(runId, '/one');
    queue(agent, job);

    await server.waitForEvents(runId, (ev) => ev.some((e) => e.type === 'ready'));
    expect(server.agents.get(id)?.heartbeat).toMatchObject({ run_id: runId });

    const events = await server.waitForEvents(runId, ended);
    expect(events[0]).toEqual({ type: 'ready', agent_index: 0, agent_id: id, shards: 2 });
    const done = events.at(-1)!;
    expect(done).toMatchObject({ type: 'done', status: 'completed' });
    expect(events.filter((e) => e.type === 'interval').length).toBeGreaterThanOrEqual(4);
    expect(target.count).toBeGreaterThan(0);
    expect(intervalRequests(events)).toBe(target.count);
    expect(done.type === 'done' && done.total_requests).toBe(target.count);
    // The load began at the common start, not when the job arrived.
    expect(firstAt).toBeGreaterThanOrEqual(job.start_at_epoch_ms - 25);
    // Numbered from 1, each post following the one before.
    const posts = server.posts.filter((p) => p.runId === runId);
    expect(posts[0]!.body.first_seq).toBe(1);
    expect(
      posts.every(
        (p, i) =>
          i === 0 || p.body.first_seq === posts[i - 1]!.body.first_seq + posts[i - 1]!.body.events.length,
      ),
    ).toBe(true);
    await new Promise((r) => setTimeout(r, 1500));
    expect(server.agents.get(id)?.heartbeat).toMatchObject({ run_id: null });

    await agent.stop();
    // Stopped: offline at once, still on the list.
    expect(server.agents.get(id)?.heartbeat).toBeNull();
    expect(server.unregistered).not.toContain(id);
  });

  it('posts again what the server did not answer, and the kept events are each there once, in order', async () => {
    const agent = await startAgent('retrying', 1);
    target.reset();
    target.route = (_req, res) => void res.end('ok');
    const runId = randomUUID();
    // The first two posts are kept but their answers lost (503), the next two neither kept nor answered.
    server.failPosts(2, 503, true);
    queue(agent, shardJob(runId, '/retry', { users: 1 }));
    await server.waitForEvents(runId, (ev) => ev.some((e) => e.type === 'ready'));
    server.failPosts(2, 502, false);
    const events = await server.waitForEvents(runId, ended);
    const posts = server.posts.filter((p) => p.runId === runId);
    // Sent again with the same numbers.
    expect(posts.length).toBeGreaterThan(new Set(posts.map((p) => p.body.first_seq)).size);
    expect(events[0]).toMatchObject({ type: 'ready' });
    expect(events.filter((e) => e.type === 'ready')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'done')).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ type: 'done', status: 'completed', total_requests: target.count });
    // Each worker's intervals once, in order: 0, 1, 2, …
    const intervals = events.flatMap((e) => (e.type === 'interval' ? [e.wire.interval] : []));
    expect(intervals).toEqual(intervals.map((_, i) => i));
    expect(intervalRequests(events)).toBe(target.count);
    await agent.stop();
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
    queue(
      a,
      shardJob(runId, '', {
        ...common,
        agent_index: 0,
        first_user: 0,
        sequence_split: { offset: 0, stride: 2 },
      }),
    );
    queue(
      b,
      shardJob(runId, '', {
        ...common,
        agent_index: 1,
        first_user: 2,
        sequence_split: { offset: 1, stride: 2 },
      }),
    );
    const events = await server.waitForEvents(
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
    await Promise.all([a.stop(), b.stop()]);
  });

  it("stops its shard when the server's answers say the run was stopped: mid-run, and before its start", async () => {
    const agent = await startAgent('stoppable');
    target.reset();
    target.route = (_req, res) => void res.end('ok');
    const runId = randomUUID();
    queue(agent, shardJob(runId, '/stop', { duration_seconds: 30, start_at_epoch_ms: Date.now() + 500 }));
    await server.waitForEvents(runId, (ev) => ev.some((e) => e.type === 'interval'));
    const stoppedAt = Date.now();
    server.stop(runId);
    const events = await server.waitForEvents(runId, ended, 5000);
    // A heartbeat or an events answer says it within a second; the engine stops within two.
    expect(Date.now() - stoppedAt).toBeLessThan(4000);
    expect(events.at(-1)).toMatchObject({ type: 'done', status: 'stopped', total_requests: target.count });
    expect(intervalRequests(events)).toBe(target.count);

    // Stopped before the agent's first answer about it: it ends before the start, without a request.
    const late = randomUUID();
    target.reset();
    queue(agent, shardJob(late, '/never', { duration_seconds: 30, start_at_epoch_ms: Date.now() + 3000 }));
    server.stop(late);
    const lateEvents = await server.waitForEvents(late, ended, 8000);
    expect(lateEvents.at(-1)).toMatchObject({ type: 'done', status: 'stopped', total_requests: 0 });
    expect(target.count).toBe(0);
    await agent.stop();
  });

  it('answers failed in words for a plan that cannot run and for a shard that arrives after its run ended; a stop of the agent mid-shard ends it stopped', async () => {
    const agent = await startAgent('careful', 1);
    const broken = randomUUID();
    const plan = { ...testPlan([{ url: `${target.origin}/x` }]), urls: [] };
    queue(agent, shardJob(broken, '', { plan }));
    expect(await server.waitForEvents(broken, ended)).toEqual([
      {
        type: 'failed',
        agent_index: 0,
        message: expect.stringMatching(/^the plan cannot run: urls/) as string,
      },
    ]);

    const late = randomUUID();
    queue(agent, shardJob(late, '/late', { start_at_epoch_ms: Date.now() - 60_000 }));
    expect(await server.waitForEvents(late, ended)).toEqual([
      {
        type: 'failed',
        agent_index: 0,
        message: expect.stringMatching(/reached agent .* 58 s after its run should have ended/) as string,
      },
    ]);

    // The agent is stopped (Ctrl-C) while its shard runs: the shard ends stopped, its figures sent.
    target.reset();
    const running = randomUUID();
    queue(
      agent,
      shardJob(running, '/agent-stop', { duration_seconds: 30, start_at_epoch_ms: Date.now() + 300 }),
    );
    await server.waitForEvents(running, (ev) => ev.some((e) => e.type === 'interval'));
    await agent.stop();
    expect(await agent.closed).toEqual({ reason: 'stopped' });
    const events = server.events(running);
    expect(events.at(-1)).toMatchObject({ type: 'done', status: 'stopped', total_requests: target.count });
    expect(intervalRequests(events)).toBe(target.count);
    expect(server.agents.get(agent.registration.agent_id)?.heartbeat).toBeNull();
  });

  it('--once: runs one shard, takes no second one, leaves the server and ends with its outcome; failed when it failed', async () => {
    const agent = await startAgent('once', 1, { once: true });
    const id = agent.registration.agent_id;
    target.reset();
    target.route = (_req, res) => void res.end('ok');
    const [first, second] = [randomUUID(), randomUUID()];
    const start = Date.now() + 500;
    queue(agent, shardJob(first, '/once', { duration_seconds: 1, start_at_epoch_ms: start }));
    queue(agent, shardJob(second, '/twice', { duration_seconds: 1, start_at_epoch_ms: start }));
    const end = await agent.closed;
    expect(target.count).toBeGreaterThan(0);
    expect(end).toEqual({ reason: 'once', outcome: { status: 'completed', total_requests: target.count } });
    expect(server.events(second)).toEqual([]);
    expect(target.recorded.every((r) => r.path === '/once')).toBe(true);
    expect(server.unregistered).toContain(id);

    // Its one shard failed: the end says so (aqa agent --once exits 1 on it).
    const failing = await startAgent('once-failing', 1, { once: true });
    const plan = { ...testPlan([{ url: `${target.origin}/x` }]), urls: [] };
    queue(failing, shardJob(randomUUID(), '', { plan }));
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
    const agent = await startAgent('idle', 1, { idleTimeoutMs: 1500 });
    const id = agent.registration.agent_id;
    target.reset();
    target.route = (_req, res) => void res.end('ok');
    const runId = randomUUID();
    queue(agent, shardJob(runId, '/idle', { duration_seconds: 2, start_at_epoch_ms: Date.now() + 300 }));
    const events = await server.waitForEvents(runId, ended);
    const shardEnded = Date.now();
    expect(events.at(-1)).toMatchObject({ type: 'done', status: 'completed', total_requests: target.count });
    expect(server.unregistered).not.toContain(id);
    expect(await agent.closed).toEqual({ reason: 'idle', idle_ms: 1500 });
    // The idle time counts again from the shard's end (its done is posted just before it).
    expect(Date.now() - shardEnded).toBeGreaterThanOrEqual(1300);
    expect(server.unregistered).toContain(id);

    // Without any shard: it ends after the idle time from its start.
    const startedAt = Date.now();
    const unused = await startAgent('unused', 1, { idleTimeoutMs: 1000 });
    expect(await unused.closed).toEqual({ reason: 'idle', idle_ms: 1000 });
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(1000);
    expect(server.unregistered).toContain(unused.registration.agent_id);
  });

  it('ends in words when the server refuses it after it started (the agent removed from its list)', async () => {
    const agent = await startAgent('removed', 1);
    server.agents.delete(agent.registration.agent_id);
    expect(await agent.closed).toEqual({
      reason: 'refused',
      message: expect.stringContaining('with 404: No agent of yours has this id') as string,
    });
  });

  it('refuses to start with words: a refused token, a token without the agent scope, an older server, a server without Redis', async () => {
    await expect(runAgent({ server: server.url, token: 'wrong', logger: quiet })).rejects.toThrow(
      `the server at ${server.url} refused the token (401: The API token is not valid)`,
    );
    await expect(runAgent({ server: `${server.url}/old`, token: TOKEN, logger: quiet })).rejects.toThrow(
      'has no agents endpoint (404 to POST /api/agents/register): it is an older AnybodyQA server',
    );
    await expect(runAgent({ server: 'http://127.0.0.1:6399', token: TOKEN, logger: quiet })).rejects.toThrow(
      'cannot reach the server at http://127.0.0.1:6399: connection refused',
    );
    const refusing = await startAgentServer({ token: TOKEN });
    try {
      refusing.refuse(403, {
        detail: 'Load agents need an agent token',
        code: 'AGENT_TOKEN_REQUIRED',
      });
      await expect(runAgent({ server: refusing.url, token: TOKEN, logger: quiet })).rejects.toThrow(
        'refused the token for agents (403: Load agents need an agent token); an agent needs an API token with the scope "Load agent" — create one in Settings → API tokens',
      );
      refusing.refuse(503, {
        detail: 'Load agents need Redis: set REDIS_URL on the server',
        code: 'AGENTS_UNAVAILABLE',
      });
      await expect(runAgent({ server: refusing.url, token: TOKEN, logger: quiet })).rejects.toThrow(
        'cannot take agents now (503): Load agents need Redis: set REDIS_URL on the server',
      );
    } finally {
      await refusing.close();
    }
  });
});
