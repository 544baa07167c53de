import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentInfo, TestResult } from '@aqa/plan';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCountingTarget, type CountingTarget } from './counting-target';
import { closeTestServer, registerAndLogin, startTestServer, type TestServer } from './helpers';
import { waitFor } from './wait-for';

/*
 * A Locust plan on load agents in Locust's own master/worker mode (docs/adr/0021-load-agents.md
 * "Locust master/worker"), for real: a server listening on a port with the throw-away Redis runs the
 * Locust master; two `aqa agent` processes (the served aqa.mjs) each run a `locust --worker`; a local
 * target counts what it receives. Debian's python3-locust is what runs; only /usr/bin/python3 imports it.
 */

const hasLocust = spawnSync('/usr/bin/python3', ['-c', 'import locust'], { stdio: 'ignore' }).status === 0;
const REDIS_URL = process.env.AQA_TEST_REDIS_URL ?? '';

interface AgentProcess {
  name: string;
  child: ChildProcess;
  output: () => string;
}

let server: TestServer;
let baseUrl: string;
let target: CountingTarget;
let session: string;
let apiToken: string;
let planId: string;
let cliDir: string;
const agents: AgentProcess[] = [];

function startAgent(name: string, env: Record<string, string> = {}): AgentProcess {
  const child = spawn(
    process.execPath,
    [
      join(cliDir, 'aqa.mjs'),
      'agent',
      '--server',
      baseUrl,
      '--token',
      apiToken,
      '--name',
      name,
      '--cores',
      '1',
    ],
    { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const agent = { name, child, output: () => output };
  agents.push(agent);
  return agent;
}

async function call<T>(method: 'GET' | 'POST', url: string, body?: unknown) {
  const response = await server.request({
    method,
    url,
    token: session,
    ...(body === undefined ? {} : { body }),
  });
  return { status: response.statusCode, body: (response.body === '' ? undefined : response.json()) as T };
}

async function onlineAgents(): Promise<AgentInfo[]> {
  return (await call<AgentInfo[]>('GET', '/api/agents')).body.filter((a) => a.online);
}

async function waitForIdleAgents(count: number): Promise<void> {
  await waitFor(
    `${count} idle agents`,
    async () => ((await onlineAgents()).filter((a) => a.run_id === null).length === count ? true : undefined),
    30_000,
  ).catch((error: unknown) => {
    throw new Error(`${String(error)}\n${agents.map((a) => `${a.name}: ${a.output()}`).join('\n')}`);
  });
}

async function finished(runId: string): Promise<TestResult> {
  return waitFor(
    `run ${runId} to end`,
    async () => {
      const { body } = await call<TestResult>('GET', `/api/get-test-result/${runId}`);
      return body.intermediate ? undefined : body;
    },
    40_000,
  ).catch((error: unknown) => {
    throw new Error(`${String(error)}\n${agents.map((a) => `${a.name}: ${a.output()}`).join('\n')}`);
  });
}

/** Ends an agent as Ctrl-C would (its worker with it), and kills what did not end in time. */
async function stopAgent(agent: AgentProcess): Promise<void> {
  if (agent.child.exitCode !== null || agent.child.signalCode !== null) return;
  const exited = new Promise((resolve) => agent.child.once('exit', resolve));
  agent.child.kill('SIGTERM');
  const timer = setTimeout(() => agent.child.kill('SIGKILL'), 8000);
  await exited;
  clearTimeout(timer);
}

beforeAll(async () => {
  if (!hasLocust) {
    console.warn('Locust runs on load agents are not tested: /usr/bin/python3 cannot import locust');
    return;
  }
  if (REDIS_URL === '')
    throw new Error('AQA_TEST_REDIS_URL is not set: the vitest global set-up starts Redis');
  target = await startCountingTarget();
  server = await startTestServer({
    REDIS_URL,
    LOGIN_RATE_LIMIT_PER_IP: '1000',
    REGISTER_RATE_LIMIT_PER_IP: '1000',
    EXTERNAL_TOOLS: 'on',
    LOCUST_CMD: '/usr/bin/python3 -m locust',
  });
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const address = server.app.server.address();
  if (address === null || typeof address === 'string') throw new Error('the server does not listen');
  baseUrl = `http://127.0.0.1:${address.port}`;
  session = (await registerAndLogin(server)).token;
  apiToken = (await call<{ token: string }>('POST', '/api/tokens', { name: 'agents' })).body.token;
  const saved = await call<{ id: string }>('POST', '/api/save-test-plan', {
    name: 'Locust on agents',
    tool: 'locust',
    concurrent_users: 4,
    duration: 1,
    urls: [{ method: 'GET', url: `${target.origin}/hello`, name: 'Hello', thinkTime: '20ms' }],
  });
  planId = saved.body.id;
  const download = await fetch(`${baseUrl}/downloads/aqa.mjs`);
  if (download.status !== 200) throw new Error(`GET /downloads/aqa.mjs answered ${download.status}`);
  cliDir = mkdtempSync(join(tmpdir(), 'aqa-agents-locust-test-'));
  writeFileSync(join(cliDir, 'aqa.mjs'), Buffer.from(await download.arrayBuffer()));
  startAgent('agent-a');
  startAgent('agent-b');
  await waitForIdleAgents(2);
}, 60_000);

afterAll(async () => {
  await Promise.all(agents.map(stopAgent));
  await closeTestServer(server);
  await target?.close();
  if (cliDir !== undefined) rmSync(cliDir, { recursive: true, force: true });
});

describe.skipIf(!hasLocust)('a Locust plan on load agents (Locust master/worker)', () => {
  it('runs the master here and a worker on each of 2 agents; the stored total is what the target counted', async () => {
    await target.reset();
    const started = await call<{ test_id: string; engine: string; engine_note: string }>(
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
        const { body } = await call<TestResult>('GET', `/api/get-test-result/${runId}`);
        return body.agents.length === 2 && body.agents.every((a) => a.requests_per_second > 0)
          ? body
          : undefined;
      },
      20_000,
    );
    expect(live.agents.every((a) => a.status === 'running')).toBe(true);

    const result = await finished(runId);
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
    await waitForIdleAgents(2);
  }, 40_000);

  it('names a killed agent lost (partial) while Locust goes on; a stop ends the master and its workers; every request is stored', async () => {
    await target.reset();
    const started = await call<{ test_id: string }>('POST', '/api/run-test', {
      plan_id: planId,
      duration_seconds: 60,
      agents: 2,
    });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const runId = started.body.test_id;
    await waitFor(
      'both workers to report to the master',
      async () => {
        const { body } = await call<TestResult>('GET', `/api/get-test-result/${runId}`);
        return body.agents.length === 2 && body.agents.every((a) => a.requests > 0) ? true : undefined;
      },
      20_000,
    );
    // agent-b dies: its worker sees its parent gone, sends its last report and quits; Locust hands its
    // users to agent-a's worker; the server sees the heartbeat stop and names agent-b.
    const victim = agents.find((a) => a.name === 'agent-b')!;
    victim.child.kill('SIGKILL');
    const lost = await waitFor(
      'agent-b to be lost',
      async () => {
        const { body } = await call<TestResult>('GET', `/api/get-test-result/${runId}`);
        return body.agents[1]?.status === 'lost' ? body : undefined;
      },
      10_000,
    );
    expect(lost.agents[1]?.error).toMatch(/^agent agent-b stopped sending heartbeats at second \d+$/);
    expect(lost.agents[0]?.status).toBe('running');

    const stopAsked = Date.now();
    const stopped = await call<{ status: string }>('POST', `/api/stop-test/${runId}`);
    expect(stopped.status).toBe(200);
    expect(stopped.body.status).toBe('stopped');
    // Users stop (up to Locust's 3 s stop timeout), the last reports arrive, the master quits.
    expect(Date.now() - stopAsked).toBeLessThan(15_000);
    const result = await finished(runId);
    const counted = (await target.counts()).total;
    expect(result.partial).toBe(true);
    expect(result.summary?.total_requests).toBe(counted);
    expect(result.agents.map((a) => a.status)).toEqual(['done', 'lost']);
    expect(result.agents.reduce((n, a) => n + a.requests, 0)).toBe(counted);
    // Nothing reaches the target after the stop: no worker was left running.
    await new Promise((r) => setTimeout(r, 1000));
    expect((await target.counts()).total).toBe(counted);
    // agent-b comes back (same host and name: same agent) for the next test.
    startAgent('agent-b');
    await waitForIdleAgents(2);
  }, 45_000);

  it('fails in words, naming the agent, when one agent has no Locust', async () => {
    startAgent('agent-c', { LOCUST_CMD: '/nonexistent/locust' });
    await waitForIdleAgents(3);
    await target.reset();
    const started = await call<{ test_id: string }>('POST', '/api/run-test', {
      plan_id: planId,
      duration_seconds: 4,
      agents: 3,
    });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const result = await finished(started.body.test_id);
    expect(result.status).toBe('failed');
    expect(result.error).toContain(
      'agent agent-c could not run its share: Locust is not installed on agent agent-c: apt-get install python3-locust',
    );
    expect(result.agents.find((a) => a.name === 'agent-c')?.status).toBe('failed');
    expect((await target.counts()).total).toBe(0);
    await waitForIdleAgents(3);
  }, 40_000);
});
