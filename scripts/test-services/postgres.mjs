// A throw-away PostgreSQL for the tests (docs/adr/0019-postgresql.md "Tests"): Debian's server in a
// temporary data folder, listening on a free port of 127.0.0.1 with trust authentication, its unix
// socket inside that folder, durability off for speed (nothing in it outlives the tests), and stopped
// by its PID when the tests end.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { postgresBinary } from '../lib/system-packages.mjs';
import { freePort } from './free-port.mjs';

/** PostgreSQL refuses to run as root: as root, it runs as Debian's `postgres` user instead. */
const RUN_AS = 'postgres';

function isRoot() {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

/** The user id and group id of `name`, read with id(1). */
function idsOf(name) {
  const uid = spawnSync('id', ['-u', name], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', name], { encoding: 'utf8' });
  if (uid.status !== 0 || gid.status !== 0) {
    throw new Error(`There is no "${name}" user to run PostgreSQL as (Debian's postgresql package makes it)`);
  }
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/**
 * The command line that runs `binary` as the PostgreSQL user. setpriv execs in place (unlike runuser,
 * which stays as the parent), so the child's PID is PostgreSQL's own and stopping it needs no guess.
 */
function asPostgresUser(binary, args) {
  if (!isRoot()) return { command: binary, args };
  return {
    command: 'setpriv',
    args: ['--reuid', RUN_AS, '--regid', RUN_AS, '--init-groups', '--', binary, ...args],
  };
}

/** Resolves once the server answers on its socket, or rejects after `timeoutMs`. */
async function waitUntilReady(pgIsReady, socketDir, port, exited, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let gone = false;
  void exited.then(() => (gone = true));
  for (;;) {
    if (gone) throw new Error('postgres exited at start');
    const probe = spawnSync(pgIsReady, ['-h', socketDir, '-p', String(port), '-q'], { stdio: 'ignore' });
    if (probe.status === 0) return;
    if (Date.now() > deadline)
      throw new Error(`PostgreSQL did not accept connections on port ${port} in time`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Starts PostgreSQL; returns a superuser URL to its `postgres` database and a stop function. Throws with
 * words when it cannot (the package missing, initdb failing).
 */
export async function startPostgres() {
  const postgres = postgresBinary();
  if (postgres === null) {
    throw new Error("PostgreSQL is missing: install Debian's postgresql (apt-get install -y postgresql)");
  }
  const bin = dirname(postgres);
  const dir = mkdtempSync(join(tmpdir(), 'aqa-test-pg-'));
  const dataDir = join(dir, 'data');
  if (isRoot()) {
    const { uid, gid } = idsOf(RUN_AS);
    chownSync(dir, uid, gid);
  }
  chmodSync(dir, 0o700);
  const user = isRoot() ? RUN_AS : (process.env.USER ?? 'postgres');

  const init = asPostgresUser(join(bin, 'initdb'), [
    '-D',
    dataDir,
    '-U',
    user,
    '--auth=trust',
    '--encoding=UTF8',
    '--locale=C.UTF-8',
    '--no-sync',
  ]);
  const initialised = spawnSync(init.command, init.args, { encoding: 'utf8' });
  if (initialised.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`initdb failed: ${(initialised.stderr || initialised.stdout).trim()}`);
  }

  const port = await freePort();
  const settings = {
    listen_addresses: '127.0.0.1',
    port: String(port),
    unix_socket_directories: dir,
    // Throw-away data: nothing needs to survive a crash, and the tests run faster without flushing.
    fsync: 'off',
    synchronous_commit: 'off',
    full_page_writes: 'off',
    // Every test server opens its own pool; the default 100 is short when suites run side by side.
    max_connections: '300',
    logging_collector: 'off',
  };
  const run = asPostgresUser(postgres, [
    '-D',
    dataDir,
    ...Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
  ]);
  const child = spawn(run.command, run.args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += String(chunk)));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    await waitUntilReady(join(bin, 'pg_isready'), dir, port, exited, 20_000);
  } catch (error) {
    child.kill('SIGKILL');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 2000))]);
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`${error.message}: ${stderr.trim().split('\n').slice(-3).join(' | ')}`, { cause: error });
  }
  return {
    url: `postgres://${encodeURIComponent(user)}@127.0.0.1:${port}/postgres`,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        // SIGINT is PostgreSQL's "fast shutdown": sessions are ended, nothing is waited for.
        child.kill('SIGINT');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null && child.signalCode === null) {
          child.kill('SIGKILL');
          await Promise.race([exited, new Promise((r) => setTimeout(r, 2000))]);
        }
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
