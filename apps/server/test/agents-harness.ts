import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentInfo, TestResult } from '@aqa/plan';
import { closeTestServer, registerAndLogin, startTestServer, type TestServer } from './helpers';
import { waitFor } from './wait-for';

/*
 * What the load-agent API tests share (docs/adr/0021-load-agents.md "Server side"): a server listening
 * on a real port with Redis, a user with a session and an agent token (docs/adr/0023-agents-over-http.md),
 * the served command line
 * (GET /downloads/aqa.mjs) in a folder of its own as an agent machine has it, and `aqa agent`
 * processes of that file, started and stopped by PID.
 */

/** One `aqa agent` process: its name, the process, all it printed, and its exit code once it exits. */
export interface AgentProcess {
  name: string;
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** How to start one agent: beside the plain command line, and all optional. */
export interface AgentOptions {
  /** Variables beside PATH, e.g. LOCUST_CMD. */
  env?: Record<string, string>;
  /** Arguments after `--cores 1`, e.g. `--once`. */
  args?: readonly string[];
  /** A command the agent runs under, e.g. `ip netns exec NS`; node runs directly without one. */
  launcher?: readonly string[];
}

/** How to start the server of a suite. */
export interface AgentsServerOptions {
  /** The Redis the server runs agents through (REDIS_URL). */
  redisUrl: string;
  /** More of the server's environment, e.g. EXTERNAL_TOOLS. */
  env?: Record<string, string>;
  /** The address it listens on; 127.0.0.1 unless the agents reach it elsewhere. */
  host?: string;
  /** The name of the agent token the agents use. */
  tokenName?: string;
  /** The start of the name of the temp folder the command line is saved in. */
  cliDirPrefix: string;
}

export type Method = 'GET' | 'POST' | 'DELETE';

/** A listening server with a signed-in user, its API token, the served CLI and the agents started. */
export interface AgentsHarness {
  server: TestServer;
  baseUrl: string;
  session: string;
  /** An API token of the agent scope: what the agents start with. */
  apiToken: string;
  cliFile: string;
  /** Every agent started, in order, including those that have exited. */
  agents: AgentProcess[];
  /** One API call as the user (or as `token`): status and parsed body. */
  call<T>(method: Method, url: string, body?: unknown, token?: string): Promise<{ status: number; body: T }>;
  /** The user's agents that are online. */
  onlineAgents(): Promise<AgentInfo[]>;
  /** Starts `aqa agent --server … --token … --name NAME --cores 1` and keeps it in `agents`. */
  startAgent(name: string, options?: AgentOptions): AgentProcess;
  /** Every agent's name and output, one a line, for failure messages. */
  outputs(): string;
  /** Waits until exactly `count` agents are online (idle ones only with `idle`); failing, shows their output. */
  waitForAgents(count: number, options?: { idle?: boolean; timeoutMs?: number }): Promise<void>;
  /** Polls get-test-result until the run is final and returns it; failing, shows the agents' output. */
  finished(runId: string, timeoutMs?: number): Promise<TestResult>;
  /** Stops every agent (SIGKILL, or SIGTERM as Ctrl-C with `gracefully`), then the server and the folder. */
  close(options?: { gracefully?: boolean }): Promise<void>;
}

/** The URL of the throw-away Redis the vitest global set-up starts; fails in words without it. */
export function testRedisUrl(): string {
  const url = process.env.AQA_TEST_REDIS_URL ?? '';
  if (url === '') throw new Error('AQA_TEST_REDIS_URL is not set: the vitest global set-up starts Redis');
  return url;
}

/** Starts the server, listens, signs a user in, makes the agents' API token and saves the served CLI. */
export async function startAgentsServer(options: AgentsServerOptions): Promise<AgentsHarness> {
  const host = options.host ?? '127.0.0.1';
  // The suites sign several users in; the rate limits of one person at a login form would get in the way.
  const server = await startTestServer({
    REDIS_URL: options.redisUrl,
    LOGIN_RATE_LIMIT_PER_IP: '1000',
    REGISTER_RATE_LIMIT_PER_IP: '1000',
    ...options.env,
  });
  let cliDir: string | undefined;
  try {
    await server.app.listen({ port: 0, host });
    const address = server.app.server.address();
    if (address === null || typeof address === 'string') throw new Error('the server does not listen');
    const baseUrl = `http://${host}:${address.port}`;
    const session = (await registerAndLogin(server)).token;
    const call = async <T>(method: Method, url: string, body?: unknown, token = session) => {
      const response = await server.request({ method, url, token, ...(body === undefined ? {} : { body }) });
      return { status: response.statusCode, body: (response.body === '' ? undefined : response.json()) as T };
    };
    const tokenName = options.tokenName ?? 'agents';
    const apiToken = (
      await call<{ token: string }>('POST', '/api/tokens', { name: tokenName, scope: 'agent' })
    ).body.token;
    const download = await fetch(`${baseUrl}/downloads/aqa.mjs`);
    if (download.status !== 200) throw new Error(`GET /downloads/aqa.mjs answered ${download.status}`);
    cliDir = mkdtempSync(join(tmpdir(), options.cliDirPrefix));
    const cliFile = join(cliDir, 'aqa.mjs');
    writeFileSync(cliFile, Buffer.from(await download.arrayBuffer()));
    return harness({ server, baseUrl, session, apiToken, cliFile, cliDir, call });
  } catch (error) {
    await closeTestServer(server);
    if (cliDir !== undefined) rmSync(cliDir, { recursive: true, force: true });
    throw error;
  }
}

/** The harness over a started server: its calls, its agents and how it all ends. */
function harness(parts: {
  server: TestServer;
  baseUrl: string;
  session: string;
  apiToken: string;
  cliFile: string;
  cliDir: string;
  call: AgentsHarness['call'];
}): AgentsHarness {
  const { server, baseUrl, apiToken, cliFile, cliDir, call } = parts;
  const agents: AgentProcess[] = [];
  const outputs = () => agents.map((a) => `${a.name}: ${a.output()}`).join('\n');
  const onlineAgents = async () =>
    (await call<AgentInfo[]>('GET', '/api/agents')).body.filter((a) => a.online);
  return {
    ...parts,
    agents,
    onlineAgents,
    outputs,
    startAgent(name, options = {}) {
      const argv = ['agent', '--server', baseUrl, '--token', apiToken, '--name', name, '--cores', '1'];
      const agent = spawnAgent(name, [cliFile, ...argv, ...(options.args ?? [])], options);
      agents.push(agent);
      return agent;
    },
    async waitForAgents(count, { idle = false, timeoutMs = 30_000 } = {}) {
      await waitFor(
        `${count} ${idle ? 'idle' : 'online'} agents`,
        async () => {
          const online = await onlineAgents();
          return (idle ? online.filter((a) => a.run_id === null) : online).length === count
            ? true
            : undefined;
        },
        timeoutMs,
      ).catch((error: unknown) => {
        throw new Error(`${String(error)}\n${outputs()}`);
      });
    },
    async finished(runId, timeoutMs = 40_000) {
      return waitFor(
        `run ${runId} to end`,
        async () => {
          const { body } = await call<TestResult>('GET', `/api/get-test-result/${runId}`);
          return body.intermediate ? undefined : body;
        },
        timeoutMs,
      ).catch((error: unknown) => {
        throw new Error(`${String(error)}\n${outputs()}`);
      });
    },
    async close({ gracefully = false } = {}) {
      try {
        await Promise.all(agents.map((agent) => stopAgent(agent, gracefully)));
        await closeTestServer(server);
      } finally {
        rmSync(cliDir, { recursive: true, force: true });
      }
    },
  };
}

/** Spawns node with `nodeArgs` (under the launcher, if any), keeping what it prints. */
function spawnAgent(name: string, nodeArgs: string[], options: AgentOptions): AgentProcess {
  const [command = process.execPath, ...args] = [...(options.launcher ?? []), process.execPath, ...nodeArgs];
  const child = spawn(command, args, {
    env: { PATH: process.env.PATH ?? '', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { name, child, output: () => output, exited };
}

/**
 * Ends an agent still running and waits for it: SIGKILL, or SIGTERM as Ctrl-C would (so a Locust worker
 * ends with it) and SIGKILL if it has not ended 8 s later.
 */
async function stopAgent(agent: AgentProcess, gracefully: boolean): Promise<void> {
  if (agent.child.exitCode !== null || agent.child.signalCode !== null) return;
  if (!gracefully) {
    agent.child.kill('SIGKILL');
    await agent.exited;
    return;
  }
  agent.child.kill('SIGTERM');
  const timer = setTimeout(() => agent.child.kill('SIGKILL'), 8000);
  await agent.exited;
  clearTimeout(timer);
}
