import { execFile, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import type { AgentInfo } from '@aqa/plan';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedis, type StartedRedis } from '../../../scripts/test-services/redis.mjs';
import { startAgentsServer, type AgentsHarness } from './agents-harness';

/*
 * Load agents in network namespaces of their own (docs/adr/0021-load-agents.md "Network namespaces",
 * docs/adr/0023-agents-over-http.md): nothing of a run on agents may rely on the agents sharing the
 * server's loopback, and the agents need to reach only the server and the target — never Redis. Two
 * namespaces, each joined to this machine by a veth pair on a /30 of 10.77.x, hold one
 * `aqa agent --once` process each; the server and a target that counts what it receives listen on the
 * host's ends of the veths, and the server's Redis on loopback only, out of the namespaces' reach. Each
 * agent's requests are told apart at the target by their source address.
 *
 * It needs root and iproute2's `ip netns`; without them the suite is skipped and says why.
 */

const IP = ['/usr/sbin/ip', '/sbin/ip', '/usr/bin/ip', '/bin/ip'].find((path) => existsSync(path));

/** Each namespace: the veth's host end and its address, the namespace's end and its address. */
const NETWORKS = [
  { ns: 'aqa7a', hostIf: 'aqa7a0', nsIf: 'aqa7a1', hostIp: '10.77.1.1', nsIp: '10.77.1.2', agent: 'agent-a' },
  { ns: 'aqa7b', hostIf: 'aqa7b0', nsIf: 'aqa7b1', hostIp: '10.77.2.1', nsIp: '10.77.2.2', agent: 'agent-b' },
] as const;
const [A, B] = NETWORKS;

function ip(...args: string[]): void {
  if (IP === undefined) throw new Error('the ip command is not installed');
  execFileSync(IP, args, { stdio: ['ignore', 'ignore', 'pipe'] });
}

/** Why this machine cannot run the suite, in words, or null when it can. */
function netnsUnavailable(): string | null {
  if (process.platform !== 'linux') return 'network namespaces are Linux only';
  const uid = process.getuid?.();
  if (uid !== 0) return `creating network namespaces needs root, and this runs as uid ${String(uid)}`;
  if (IP === undefined) return 'the ip command (iproute2) is not installed';
  const probe = `aqa7probe${process.pid}`;
  try {
    ip('netns', 'add', probe);
    ip('netns', 'del', probe);
    return null;
  } catch (error) {
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    return `ip netns add failed here: ${stderr || (error as Error).message}`;
  }
}

/** Deletes the namespaces and veths of this suite; each delete on its own, absent ones ignored. */
function removeNetworks(): void {
  for (const n of NETWORKS) {
    // Deleting the namespace deletes its veth end, and so the pair; the host end is deleted too in
    // case the namespace was already gone.
    for (const args of [
      ['netns', 'del', n.ns],
      ['link', 'del', n.hostIf],
    ])
      try {
        ip(...args);
      } catch {
        // not there
      }
  }
}

function createNetworks(): void {
  for (const n of NETWORKS) {
    ip('netns', 'add', n.ns);
    ip('link', 'add', n.hostIf, 'type', 'veth', 'peer', 'name', n.nsIf, 'netns', n.ns);
    ip('addr', 'add', `${n.hostIp}/30`, 'dev', n.hostIf);
    ip('link', 'set', n.hostIf, 'up');
    ip('-n', n.ns, 'addr', 'add', `${n.nsIp}/30`, 'dev', n.nsIf);
    ip('-n', n.ns, 'link', 'set', n.nsIf, 'up');
    ip('-n', n.ns, 'link', 'set', 'lo', 'up');
    // The host answers for all its addresses: agent b reaches the server on agent a's link, and
    // agent a the target on agent b's (a packet to a local address needs no forwarding).
    ip('-n', n.ns, 'route', 'add', 'default', 'via', n.hostIp);
  }
}

/** An HTTP target that counts the requests it receives by source address. */
interface Target {
  origin: string;
  bySource: Map<string, number>;
  total(): number;
  close(): Promise<void>;
}

async function startTarget(host: string): Promise<Target> {
  const bySource = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const source = req.socket.remoteAddress ?? '?';
    bySource.set(source, (bySource.get(source) ?? 0) + 1);
    req.resume();
    req.on('end', () => res.end('ok'));
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return {
    origin: `http://${host}:${(server.address() as AddressInfo).port}`,
    bySource,
    total: () => [...bySource.values()].reduce((n, c) => n + c, 0),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const unavailable = netnsUnavailable();
if (unavailable !== null) console.warn(`agents-netns.test.ts skipped: ${unavailable}`);

/** The listening server, its user and API token, the served CLI and the agents started. */
let h: AgentsHarness;
let redis: StartedRedis | undefined;
let target: Target | undefined;

/** What a TCP connection from inside `ns` to host:port meets: 'connected' or the error's code. */
async function connectFrom(ns: string, host: string, port: number): Promise<string> {
  const script = `require('node:net').connect(${port}, '${host}')
    .on('connect', function () { console.log('connected'); this.destroy(); })
    .on('error', (e) => console.log(e.code))`;
  const { stdout } = await promisify(execFile)(IP!, ['netns', 'exec', ns, process.execPath, '-e', script]);
  return stdout.trim();
}

describe.skipIf(unavailable !== null)('load agents in separate network namespaces', () => {
  beforeAll(async () => {
    removeNetworks();
    createNetworks();
    // The server dials its Redis on loopback; the agents never need it, and cannot reach it.
    redis = await startRedis({ bind: ['127.0.0.1'] });
    target = await startTarget(B.hostIp);
    h = await startAgentsServer({
      redisUrl: redis.url,
      env: {
        EXTERNAL_TOOLS: 'off',
        // The target guard needs nothing: 10.77.x is private, not link-local, and not this server's port.
      },
      host: A.hostIp,
      tokenName: 'netns agents',
      cliDirPrefix: 'aqa-agents-netns-',
    });
    // `aqa agent --once` inside each namespace.
    for (const n of NETWORKS)
      h.startAgent(n.agent, {
        launcher: [IP!, 'netns', 'exec', n.ns],
        args: ['--once', '--idle-timeout', '60'],
      });
    await h.waitForAgents(2, { timeoutMs: 20_000 });
  }, 60_000);

  afterAll(async () => {
    await h?.close().catch(() => undefined);
    await target?.close();
    await redis?.stop();
    removeNetworks();
  });

  it('runs 4 users on two agents that reach only the server and the target, over their veths, and not Redis; each exits once its shard is done', async () => {
    // The namespaces are apart: the server's Redis cannot be reached from inside them, on any address
    // of the host, while the server can.
    const redisPort = Number(new URL(redis!.url).port);
    for (const n of NETWORKS)
      for (const host of ['127.0.0.1', A.hostIp, B.hostIp])
        expect(await connectFrom(n.ns, host, redisPort), `${n.ns} → ${host}:${redisPort}`).toBe(
          'ECONNREFUSED',
        );
    const serverPort = Number(new URL(h.baseUrl).port);
    expect(await connectFrom(B.ns, A.hostIp, serverPort)).toBe('connected');
    const saved = await h.call<{ id: string }>('POST', '/api/save-test-plan', {
      name: 'Across namespaces',
      tool: 'k6',
      concurrent_users: 4,
      duration: 1,
      urls: [{ method: 'GET', url: `${target!.origin}/netns`, name: 'Counted', thinkTime: '20ms' }],
    });
    const started = await h.call<{ test_id: string; engine_note: string }>('POST', '/api/run-test', {
      plan_id: saved.body.id,
      duration_seconds: 3,
      agents: 2,
    });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    expect(started.body.engine_note).toBe('ran with the built-in engine on 2 load agents: agent-a, agent-b');
    const runId = started.body.test_id;
    const result = await h.finished(runId, 25_000);

    const counted = target!.total();
    expect(result.status, h.outputs()).toBe('completed');
    expect(result.partial).toBe(false);
    expect(counted).toBeGreaterThan(50);
    expect(result.summary?.total_requests).toBe(counted);
    expect(result.agents.map((a) => [a.name, a.users, a.status, a.error])).toEqual([
      ['agent-a', 2, 'done', null],
      ['agent-b', 2, 'done', null],
    ]);
    // Each agent's requests came from its own namespace's address, and only from there.
    expect(Object.fromEntries(target!.bySource)).toEqual({
      [A.nsIp]: result.agents[0]!.requests,
      [B.nsIp]: result.agents[1]!.requests,
    });
    expect(result.agents.every((a) => a.requests > 0)).toBe(true);

    // --once: each agent exits 0 after its shard and leaves the user's list of agents.
    const codes = await Promise.all(h.agents.map((a) => a.exited));
    expect(codes, h.outputs()).toEqual([0, 0]);
    for (const agent of h.agents)
      expect(agent.output()).toContain(
        `Agent ${agent.name} ran its one shard (completed) and left the server's list`,
      );
    expect((await h.call<AgentInfo[]>('GET', '/api/agents')).body).toEqual([]);
  }, 40_000);
});
