import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/*
 * The scale-out cluster of the browser test (docs/scale-out.md): two server replicas on one database and
 * one Redis, a local proxy in front of them that sends each request to the replica a rule names (and
 * counts which replica answered what), and load agents as real `aqa agent` processes of the served CLI.
 */

const SERVER_MAIN = 'apps/server/dist/main.mjs';
const AQA_BUNDLE = 'apps/server/dist/aqa.mjs';

export type Replica = 'a' | 'b';

/** A process the cluster started, stopped by its own PID at the end. */
class Child {
  readonly output: string[] = [];
  readonly exited: Promise<number | null>;

  constructor(readonly process: ChildProcess) {
    const keep = (chunk: Buffer) => {
      this.output.push(String(chunk));
      if (this.output.length > 200) this.output.shift();
    };
    process.stdout?.on('data', keep);
    process.stderr?.on('data', keep);
    this.exited = new Promise((resolve) => process.once('exit', (code) => resolve(code)));
  }

  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    if (this.process.exitCode !== null || this.process.signalCode !== null) return;
    this.process.kill(signal);
    const ended = await Promise.race([this.exited.then(() => true), sleep(10_000).then(() => false)]);
    if (!ended) this.process.kill('SIGKILL');
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function waitForHealth(origin: string, child: Child): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.process.exitCode !== null) {
      throw new Error(`The server at ${origin} exited at start:\n${child.output.join('')}`);
    }
    try {
      const response = await fetch(`${origin}/api/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error(`The server at ${origin} did not become healthy:\n${child.output.join('')}`);
}

export interface ReplicaOptions {
  databaseUrl: string;
  redisUrl: string;
}

/** One `node apps/server/dist/main.mjs` on its own port and data folder, sharing the database and Redis. */
export async function startReplica({ databaseUrl, redisUrl }: ReplicaOptions) {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'aqa-e2e-replica-'));
  const child = new Child(
    spawn(process.execPath, [SERVER_MAIN], {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        DATABASE_URL: databaseUrl,
        REDIS_URL: redisUrl,
        LOG_LEVEL: 'warn',
        LOGIN_RATE_LIMIT_PER_IP: '1000',
        EXTERNAL_TOOLS: 'off',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  const origin = `http://127.0.0.1:${port}`;
  await waitForHealth(origin, child);
  return {
    origin,
    child,
    stop: async () => {
      await child.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A reverse proxy on 127.0.0.1 that sends each request to the replica `route` names. Responses are piped
 * as they come, so the live stream (server-sent events) flows through it unbuffered.
 */
export async function startProxy(origins: Record<Replica, string>, route: (path: string) => Replica) {
  const served: { path: string; replica: Replica }[] = [];
  const server: Server = createServer((incoming, outgoing) => {
    const path = incoming.url ?? '/';
    const replica = route(path);
    served.push({ path, replica });
    const upstream = new URL(path, origins[replica]);
    const proxied = httpRequest(
      upstream,
      { method: incoming.method, headers: { ...incoming.headers, host: upstream.host } },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    proxied.on('error', (error) => {
      if (!outgoing.headersSent) outgoing.writeHead(502, { 'content-type': 'text/plain' });
      outgoing.end(`proxy: ${error.message}`);
    });
    incoming.pipe(proxied);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    /** Which replica answered each request, in order. */
    served,
    stop: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** `node apps/server/dist/aqa.mjs agent …`: the served CLI, as a user would run it on another machine. */
export function startAgent(server: string, token: string, name: string) {
  const child = new Child(
    spawn(process.execPath, [AQA_BUNDLE, 'agent', '--server', server, '--name', name], {
      env: { ...process.env, AQA_TOKEN: token },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  return child;
}
