// A throw-away Redis for the tests (docs/scale-out.md "Tests"): Debian's redis-server on a free port of
// 127.0.0.1 (or of the addresses a test binds it to), nothing saved to disk, stopped (by its PID) when
// the tests end.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.mjs';

export const REDIS_SERVER = '/usr/bin/redis-server';

/** Resolves once something accepts connections on the port, or rejects after `timeoutMs`. */
function waitForPort(host, port, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      const socket = createConnection({ host, port });
      socket.once('connect', () => {
        socket.destroy();
        resolve();
      });
      socket.once('error', () => {
        socket.destroy();
        if (Date.now() > deadline) reject(new Error(`redis-server did not listen on port ${port} in time`));
        else setTimeout(attempt, 50);
      });
    };
    attempt();
  });
}

/**
 * Starts redis-server; returns its URL (on the first address of `bind`) and a stop function. Throws
 * with words when it cannot. `bind`: the addresses it listens on, e.g. a network namespace's veth
 * address for agents that cannot reach this machine's loopback (apps/server/test/agents-netns.test.ts).
 */
export async function startRedis({ bind = ['127.0.0.1'] } = {}) {
  if (!existsSync(REDIS_SERVER)) {
    throw new Error(
      `${REDIS_SERVER} is missing: install Debian's redis-server (apt-get install -y redis-server)`,
    );
  }
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'aqa-test-redis-'));
  // Protected mode refuses clients from other addresses while there is no password; a test binds
  // such addresses only where they exist on this machine (its own veths to network namespaces).
  const loopbackOnly = bind.every((address) => address === '127.0.0.1' || address === '::1');
  const child = spawn(
    REDIS_SERVER,
    [
      ...['--port', String(port), '--bind', ...bind, '--save', '', '--appendonly', 'no', '--dir', dir],
      ...(loopbackOnly ? [] : ['--protected-mode', 'no']),
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += String(chunk)));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    await Promise.race([
      waitForPort(bind[0], port, 10_000),
      exited.then(() => {
        throw new Error(`redis-server exited at start: ${stderr.trim()}`);
      }),
    ]);
  } catch (error) {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    url: `redis://${bind[0]}:${port}`,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
