import {
  AGENT_PROTOCOL_VERSION,
  ERROR_KINDS,
  Histogram,
  type AgentNextJobAnswer,
  type AgentRegistration,
  type ShardEvent,
  type ShardIntervalWire,
} from '@aqa/engine';
import type { TestResult } from '@aqa/plan';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testRedisUrl } from './agents-harness';
import { startCountingTarget, type CountingTarget } from './counting-target';
import { closeTestServer, registerAndLogin, startTestServer, type TestServer } from './helpers';
import { waitFor } from './wait-for';

/*
 * Load agents speak only HTTP to the server, with an API token of the agent scope
 * (docs/adr/0023-agents-over-http.md): the registration hands out no Redis URL nor any other secret,
 * other tokens are refused at the agent routes and agent tokens everywhere else, and every agent call
 * is checked against the agent's owner — another user's agent or run is not found. Here the agent is
 * played by the test, call by call; real agent processes are in agents.test.ts.
 */

let server: TestServer;
let target: CountingTarget;
const redisUrl = testRedisUrl();

interface User {
  session: string;
  apiToken: string;
  agentToken: string;
}
let alice: User;
let bob: User;

async function call<T>(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  token: string,
  body?: unknown,
) {
  const response = await server.request({ method, url, token, ...(body === undefined ? {} : { body }) });
  return {
    status: response.statusCode,
    body: (response.body === '' ? undefined : response.json()) as T,
    text: response.body,
    headers: response.headers,
  };
}

async function makeUser(): Promise<User> {
  const { token: session } = await registerAndLogin(server);
  const api = await call<{ token: string; scope: string }>('POST', '/api/tokens', session, { name: 'CI' });
  const agent = await call<{ token: string; scope: string }>('POST', '/api/tokens', session, {
    name: 'Agents',
    scope: 'agent',
  });
  return { session, apiToken: api.body.token, agentToken: agent.body.token };
}

const registration = {
  name: 'agent',
  host: 'test-host',
  cores: 1,
  protocol: AGENT_PROTOCOL_VERSION,
  version: '0.1.0',
};

async function register(user: User, name = 'agent'): Promise<AgentRegistration> {
  const answer = await call<AgentRegistration>('POST', '/api/agents/register', user.agentToken, {
    ...registration,
    name,
  });
  if (answer.status !== 200) throw new Error(`register: ${answer.status} ${answer.text}`);
  return answer.body;
}

function interval(k: number, final: boolean, latenciesUs: number[]): ShardIntervalWire {
  const h = new Histogram();
  for (const v of latenciesUs) h.record(v);
  return {
    shard: 0,
    interval: k,
    final,
    endMs: (k + 1) * 1000,
    activeUsers: final ? 0 : 1,
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

beforeAll(async () => {
  target = await startCountingTarget();
  server = await startTestServer({
    REDIS_URL: redisUrl,
    EXTERNAL_TOOLS: 'off',
    LOGIN_RATE_LIMIT_PER_IP: '1000',
    REGISTER_RATE_LIMIT_PER_IP: '1000',
  });
  [alice, bob] = [await makeUser(), await makeUser()];
}, 30_000);

afterAll(async () => {
  await closeTestServer(server);
  await target.close();
});

describe('agents over HTTP with agent tokens', () => {
  it('answers the registration with the agent id, its heartbeat and its paths: no Redis URL, no secret of the server', async () => {
    const answer = await call<AgentRegistration>(
      'POST',
      '/api/agents/register',
      alice.agentToken,
      registration,
    );
    expect(answer.status, answer.text).toBe(200);
    expect(Object.keys(answer.body).sort()).toEqual([
      'agent_id',
      'heartbeat_ms',
      'heartbeat_ttl_ms',
      'job_wait_ms',
      'max_events_per_post',
      'max_post_bytes',
      'name',
      'paths',
    ]);
    const id = encodeURIComponent(answer.body.agent_id);
    expect(answer.body.paths).toEqual({
      heartbeat: `/api/agents/${id}/heartbeat`,
      next_job: `/api/agents/${id}/jobs/next`,
      events: `/api/agents/${id}/runs/{run_id}/events`,
      leave: `/api/agents/${id}`,
    });
    const { host, port } = new URL(redisUrl);
    expect(answer.text).not.toMatch(/redis/i);
    expect(answer.text).not.toContain(`${host}:${port}`);
    expect(answer.text).not.toContain(`:${port}`);
  });

  it('refuses at registration an API token without the agent scope, and a session, saying what token to create', async () => {
    for (const token of [alice.apiToken, alice.session]) {
      const refused = await call<{ code: string; detail: string }>(
        'POST',
        '/api/agents/register',
        token,
        registration,
      );
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe('AGENT_TOKEN_REQUIRED');
      expect(refused.body.detail).toBe(
        'Load agents need an API token with the scope "Load agent": create one in Settings → API tokens and start aqa agent with it.',
      );
    }
  });

  it('refuses an agent token, in words, on every route that is not an agent route', async () => {
    const doc = (await server.request({ method: 'GET', url: '/api/docs/json' })).json<{
      paths: Record<string, Record<string, { security?: unknown[] }>>;
    }>();
    const agentRoutes = new Set([
      'POST /api/agents/register',
      'PUT /api/agents/{id}/heartbeat',
      'POST /api/agents/{id}/jobs/next',
      'POST /api/agents/{id}/runs/{runId}/events',
      'DELETE /api/agents/{id}',
    ]);
    const publicRoutes = new Set([
      'GET /api/health',
      'POST /api/register',
      'POST /api/login',
      'GET /api/demo-credentials',
      // Single sign-on's navigations (docs/adr/0033-single-sign-on.md): public, no token is read.
      'GET /api/auth/oidc/start',
      'GET /api/auth/oidc/callback',
    ]);
    const refusedWrongly: string[] = [];
    let tried = 0;
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const method of Object.keys(methods)) {
        const key = `${method.toUpperCase()} ${path}`;
        if (
          !path.startsWith('/api/') ||
          agentRoutes.has(key) ||
          publicRoutes.has(key) ||
          path.startsWith('/api/docs')
        )
          continue;
        tried += 1;
        const url = path.replace(/\{[^}]+\}/g, 'x');
        const answer = await call<{ code: string; detail: string }>(
          method.toUpperCase() as 'GET',
          url,
          alice.agentToken,
          method === 'get' || method === 'delete' ? undefined : {},
        );
        if (
          answer.status !== 403 ||
          answer.body.code !== 'AGENT_TOKEN_NOT_ALLOWED' ||
          answer.body.detail !==
            'This is an agent token: it may only register and run load agents (aqa agent). Use an API token of the scope "API", or sign in, for anything else.'
        )
          refusedWrongly.push(`${key} → ${answer.status} ${answer.text.slice(0, 120)}`);
      }
    }
    expect(refusedWrongly).toEqual([]);
    expect(tried).toBeGreaterThan(40);
  }, 60_000);

  it("keeps each user's agents and runs to them: another user's agent token gets 404 for them; the owner's agent runs a shard over HTTP, kept once and in order", async () => {
    const a = await register(alice, 'alice-agent');
    const b = await register(bob, 'bob-agent');
    const heard: string[] = [];
    const beat = async (runId: string | null = null) => {
      const answer = await call<{ stop: boolean }>('PUT', a.paths.heartbeat, alice.agentToken, {
        run_id: runId,
      });
      heard.push(answer.text);
      return answer;
    };
    expect((await beat()).body).toEqual({ stop: false });
    // Not an agent token: refused at the agent routes, in words.
    const notAgent = await call<{ code: string }>('PUT', a.paths.heartbeat, alice.apiToken, { run_id: null });
    expect([notAgent.status, notAgent.body.code]).toEqual([403, 'AGENT_TOKEN_REQUIRED']);

    // Bob's agent token names Alice's agent: not found, whatever the call.
    const asBob = [
      await call('PUT', a.paths.heartbeat, bob.agentToken, { run_id: null }),
      await call('POST', a.paths.next_job, bob.agentToken, { wait_ms: 0 }),
      await call('POST', a.paths.events.replace('{run_id}', 'run_x'), bob.agentToken, {
        first_seq: 1,
        events: [{ type: 'failed', agent_index: 0, message: 'x' }],
      }),
      await call('DELETE', a.paths.leave, bob.agentToken),
    ];
    expect(asBob.map((r) => r.status)).toEqual([404, 404, 404, 404]);

    // A run of Alice's on her agent.
    const saved = await call<{ id: string }>('POST', '/api/save-test-plan', alice.session, {
      name: 'Over HTTP',
      tool: 'k6',
      concurrent_users: 1,
      duration: 1,
      urls: [{ method: 'GET', url: `${target.origin}/http`, name: 'Step' }],
    });
    const beating = setInterval(() => void beat(), 500);
    try {
      const started = await call<{ test_id: string }>('POST', '/api/run-test', alice.session, {
        plan_id: saved.body.id,
        duration_seconds: 2,
        agents: 1,
      });
      expect(started.status, started.text).toBe(201);
      const runId = started.body.test_id;
      const taken = await call<AgentNextJobAnswer>('POST', a.paths.next_job, alice.agentToken, {
        wait_ms: 5000,
      });
      heard.push(taken.text);
      expect(taken.status, taken.text).toBe(200);
      const job = taken.body.job;
      expect(job?.kind).toBe('shard');
      if (job?.kind !== 'shard') throw new Error('no shard');
      expect(job.shard).toMatchObject({ run_id: runId, agent_index: 0, agent_count: 1, users: 1 });
      const events = a.paths.events.replace('{run_id}', encodeURIComponent(runId));

      // Bob's own agent may not write into Alice's run, nor take her jobs.
      const bobEvents = b.paths.events.replace('{run_id}', encodeURIComponent(runId));
      const intrusion = await call('POST', bobEvents, bob.agentToken, {
        first_seq: 1,
        events: [{ type: 'ready', agent_index: 0, agent_id: b.agent_id, shards: 1 }],
      });
      expect(intrusion.status).toBe(404);
      expect(
        (await call<AgentNextJobAnswer>('POST', b.paths.next_job, bob.agentToken, { wait_ms: 0 })).body,
      ).toEqual({
        job: null,
      });

      const post = async (first_seq: number, list: ShardEvent[]) => {
        const answer = await call<{ accepted_through: number; stop: boolean; code?: string }>(
          'POST',
          events,
          alice.agentToken,
          { first_seq, events: list },
        );
        heard.push(answer.text);
        return answer;
      };
      const ready: ShardEvent = { type: 'ready', agent_index: 0, agent_id: a.agent_id, shards: 1 };
      const first: ShardEvent = {
        type: 'interval',
        agent_index: 0,
        wire: interval(0, false, [1000, 2000, 3000]),
      };
      expect((await post(1, [ready, first])).body).toEqual({ accepted_through: 2, stop: false });
      // The same post again (its answer was lost): kept once.
      expect((await post(1, [ready, first])).body).toEqual({ accepted_through: 2, stop: false });
      // A gap: refused, nothing kept.
      const gap = await post(5, [{ type: 'interval', agent_index: 0, wire: interval(2, true, [1]) }]);
      expect([gap.status, gap.body.code]).toEqual([409, 'AGENT_EVENTS_GAP']);
      // Another agent's index: refused.
      const wrongIndex = await post(3, [{ type: 'interval', agent_index: 1, wire: interval(1, true, [1]) }]);
      expect(wrongIndex.status).toBe(400);
      // Part sent before, part new: only the new part is kept.
      const last: ShardEvent = { type: 'interval', agent_index: 0, wire: interval(1, true, [4000, 5000]) };
      const done: ShardEvent = { type: 'done', agent_index: 0, status: 'completed', total_requests: 5 };
      expect((await post(2, [first, last, done])).body).toEqual({ accepted_through: 4, stop: false });

      const result = await waitFor('the run to end', async () => {
        const { body } = await call<TestResult>('GET', `/api/get-test-result/${runId}`, alice.session);
        return body.intermediate ? undefined : body;
      });
      expect(result.status).toBe('completed');
      expect(result.summary?.total_requests).toBe(5);
      expect(result.agents.map((x) => [x.name, x.status, x.requests])).toEqual([['alice-agent', 'done', 5]]);
      // The run is over: its events are no longer taken.
      expect((await post(5, [done])).status).toBe(404);
      // Nothing the agent was answered names Redis.
      expect(heard.join('\n')).not.toMatch(/redis/i);
    } finally {
      clearInterval(beating);
    }
    // Bob may not make Alice's agent leave; Alice's agent token may.
    expect((await call('DELETE', a.paths.leave, alice.agentToken)).status).toBe(204);
  }, 30_000);

  it('tells the agent of a stop in its heartbeat and events answers', async () => {
    const a = await register(alice, 'stopped-agent');
    const beat = (runId: string | null) =>
      call<{ stop: boolean }>('PUT', a.paths.heartbeat, alice.agentToken, { run_id: runId });
    await beat(null);
    const saved = await call<{ id: string }>('POST', '/api/save-test-plan', alice.session, {
      name: 'To stop',
      tool: 'k6',
      concurrent_users: 1,
      duration: 1,
      urls: [{ method: 'GET', url: `${target.origin}/stop`, name: 'Step' }],
    });
    const beating = setInterval(() => void beat(null), 500);
    let runId = '';
    try {
      const started = await call<{ test_id: string }>('POST', '/api/run-test', alice.session, {
        plan_id: saved.body.id,
        duration_seconds: 30,
        agents: 1,
      });
      runId = started.body.test_id;
      const taken = await call<AgentNextJobAnswer>('POST', a.paths.next_job, alice.agentToken, {
        wait_ms: 5000,
      });
      expect(taken.body.job?.kind).toBe('shard');
    } finally {
      clearInterval(beating);
    }
    expect((await beat(runId)).body).toEqual({ stop: false });
    const events = a.paths.events.replace('{run_id}', encodeURIComponent(runId));
    await call('POST', events, alice.agentToken, {
      first_seq: 1,
      events: [{ type: 'ready', agent_index: 0, agent_id: a.agent_id, shards: 1 }],
    });
    const stopping = call('POST', `/api/stop-test/${runId}`, alice.session);
    await waitFor('the stop to be told', async () => ((await beat(runId)).body.stop ? true : undefined));
    const answer = await call<{ stop: boolean }>('POST', events, alice.agentToken, {
      first_seq: 2,
      events: [
        { type: 'interval', agent_index: 0, wire: interval(0, true, [1000]) },
        { type: 'done', agent_index: 0, status: 'stopped', total_requests: 1 },
      ],
    });
    expect(answer.body.stop).toBe(true);
    expect((await stopping).status).toBe(200);
  }, 30_000);

  it("hands an agent a job whose plan carries nearly 10 MB of test data whole, with the run's data seed", async () => {
    // docs/adr/0027-load-profiles.md "On load agents": the data's bound is the plan's own 10 MB; the job
    // is the next-job answer, which no limit of the agent's posts applies to.
    const a = await register(alice, 'data-agent');
    const beat = (runId: string | null) =>
      call<{ stop: boolean }>('PUT', a.paths.heartbeat, alice.agentToken, { run_id: runId });
    await beat(null);
    const beating = setInterval(() => void beat(null), 500);
    const rows = Array.from({ length: 800_000 }, (_, i) => `row-${String(i).padStart(7, '0')}`);
    const csv = ['id', ...rows].join('\n');
    expect(csv.length).toBeGreaterThan(9 * 1024 * 1024);
    const saved = await call<{ id: string }>('POST', '/api/save-test-plan', alice.session, {
      name: 'Big data',
      tool: 'k6',
      concurrent_users: 1,
      duration: 1,
      urls: [{ method: 'GET', url: `${target.origin}/data/{{id}}`, name: 'Step' }],
      data_files: { 'big.csv': csv },
      data_sources: [{ path: 'big.csv', random_order: true }],
    });
    let runId = '';
    try {
      expect(saved.status, saved.text.slice(0, 300)).toBe(201);
      // A beat now: the save held this process's event loop, the beats' with it, for seconds.
      await beat(null);
      const started = await call<{ test_id: string }>('POST', '/api/run-test', alice.session, {
        plan_id: saved.body.id,
        duration_seconds: 30,
        agents: 1,
      });
      expect(started.status, started.text).toBe(201);
      runId = started.body.test_id;
      const taken = await call<AgentNextJobAnswer>('POST', a.paths.next_job, alice.agentToken, {
        wait_ms: 5000,
      });
      const job = taken.body.job;
      if (job?.kind !== 'shard') throw new Error(`no shard: ${taken.text.slice(0, 300)}`);
      expect(job.shard.plan.data_files?.['big.csv']).toBe(csv);
      expect(job.shard.plan.data_sources).toEqual([
        expect.objectContaining({ path: 'big.csv', random_order: true }),
      ]);
      expect(Number.isInteger(job.shard.data_seed)).toBe(true);
    } finally {
      clearInterval(beating);
    }
    // The run ends as a stopped one: the agent says it is ready, is told to stop, and is done.
    const events = a.paths.events.replace('{run_id}', encodeURIComponent(runId));
    await call('POST', events, alice.agentToken, {
      first_seq: 1,
      events: [{ type: 'ready', agent_index: 0, agent_id: a.agent_id, shards: 1 }],
    });
    const stopping = call('POST', `/api/stop-test/${runId}`, alice.session);
    await waitFor('the stop to be told', async () => ((await beat(runId)).body.stop ? true : undefined));
    await call('POST', events, alice.agentToken, {
      first_seq: 2,
      events: [
        { type: 'interval', agent_index: 0, wire: interval(0, true, []) },
        { type: 'done', agent_index: 0, status: 'stopped', total_requests: 0 },
      ],
    });
    expect((await stopping).status).toBe(200);
  }, 60_000);

  it('bounds what an agent sends: events per post, the wait for a job, and its calls per window', async () => {
    const a = await register(bob, 'bounded-agent');
    const events = a.paths.events.replace('{run_id}', 'run_x');
    const tooMany = await call<{ detail: string }>('POST', events, bob.agentToken, {
      first_seq: 1,
      events: Array.from({ length: 501 }, () => ({ type: 'failed', agent_index: 0, message: 'x' })),
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.detail).toContain('events must hold at most 500 events per post');
    const longWait = await call<{ detail: string }>('POST', a.paths.next_job, bob.agentToken, {
      wait_ms: 60_000,
    });
    expect(longWait.status).toBe(400);
    expect(longWait.body.detail).toContain('wait_ms must be a whole number of milliseconds from 0 to 25000');
    // An agent beats once a second; hundreds of calls in a few seconds are throttled, in words.
    let throttled: { status: number; detail: string; retryAfter: string | undefined } | undefined;
    for (let i = 0; i < 400 && throttled === undefined; i++) {
      const answer = await call<{ detail: string }>('PUT', a.paths.heartbeat, bob.agentToken, {
        run_id: null,
      });
      if (answer.status !== 200)
        throttled = {
          status: answer.status,
          detail: answer.body.detail,
          retryAfter: answer.headers['retry-after'] as string,
        };
    }
    expect(throttled?.status).toBe(429);
    expect(throttled?.detail).toMatch(/^This agent made more than 300 calls in 10 seconds/);
    expect(Number(throttled?.retryAfter)).toBeGreaterThan(0);
  }, 30_000);
});
