// `npm run backup`: an online, consistent copy of the server's SQLite database, taken while the server
// runs (docs/operations.md "Backups"). It reads DATA_DIR and DATABASE_URL as the server does.
//
//   npm run backup                          → <DATA_DIR>/backups/anybodyqa-<UTC time>.db
//   npm run backup -- --to /safe/place.db   → that file (never overwritten)
//
// The copy is made by SQLite's `VACUUM INTO` (libsql has no backup API): one read transaction, so the
// file is a snapshot of one moment even while a run writes its seconds; in WAL mode the server's
// writers are not blocked while it reads. The copy goes to a temporary name beside the destination
// and is linked into place only once it is whole and passes SQLite's integrity check.
//
// A server on PostgreSQL (DATABASE_URL=postgres://…) is backed up with PostgreSQL's own pg_dump, which
// takes the same kind of consistent snapshot while the server runs; this command says so and stops
// (docs/operations.md "PostgreSQL").
import { chmodSync, existsSync, linkSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'libsql';
import { ConfigError, parseConfig } from '../apps/server/src/config';
import { describePostgresTarget } from '../apps/server/src/db/database';

/** What a backup holds, counted in the copy itself. */
interface BackupSummary {
  file: string;
  bytes: number;
  counts: Record<'users' | 'plans' | 'runs' | 'run_points', number>;
}

/** `2026-11-25T13-40-05Z`: sortable, and a valid file name everywhere. */
function timestamp(at: Date): string {
  return at
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/:/g, '-');
}

function defaultBackupFile(dataDir: string, at = new Date()): string {
  return join(dataDir, 'backups', `anybodyqa-${timestamp(at)}.db`);
}

/**
 * The copy is a database no server uses yet: the servers registered in the original (migration 0013,
 * docs/adr/0020-server-replicas.md) are left out, or a server started on a restored copy while the
 * original still runs would take them for live replicas of its own and refuse to start.
 */
function forgetServers(file: string): void {
  const copy = new Database(file);
  try {
    const table = copy
      .prepare("select name from sqlite_master where type = 'table' and name = 'server_instances'")
      .get();
    if (table !== undefined) copy.exec('delete from server_instances');
  } finally {
    copy.close();
  }
}

function backupDatabase(source: string, destination: string): BackupSummary {
  if (!existsSync(source))
    throw new Error(`There is no database at ${source}: check DATA_DIR or DATABASE_URL.`);
  if (existsSync(destination))
    throw new Error(`${destination} already exists; a backup never overwrites a file.`);
  mkdirSync(dirname(destination), { recursive: true });
  const partial = `${destination}.partial-${process.pid}`;
  const db = new Database(source, { timeout: 10_000 });
  try {
    db.prepare('VACUUM INTO ?').run(partial);
  } catch (cause) {
    rmSync(partial, { force: true });
    throw new Error(`Could not copy ${source}`, { cause });
  } finally {
    db.close();
  }
  try {
    forgetServers(partial);
    const copy = new Database(partial, { readonly: true });
    let counts: BackupSummary['counts'];
    try {
      const first = (query: string) => Object.values(copy.prepare(query).get() as object)[0] as unknown;
      const check = first('PRAGMA integrity_check');
      if (check !== 'ok') throw new Error(`The copy failed SQLite's integrity check: ${String(check)}`);
      const count = (table: string) => Number(first(`select count(*) from ${table}`));
      counts = {
        users: count('users'),
        plans: count('plans'),
        runs: count('runs'),
        run_points: count('run_points'),
      };
    } finally {
      copy.close();
    }
    // It holds password hashes and session token hashes: for the server's account only.
    chmodSync(partial, 0o600);
    // A link fails when the destination exists: nothing is overwritten even if it appeared meanwhile.
    linkSync(partial, destination);
    return { file: destination, bytes: statSync(destination).size, counts };
  } finally {
    rmSync(partial, { force: true });
  }
}

function main(): number {
  const { values } = parseArgs({ options: { to: { type: 'string' } } });
  let config;
  try {
    config = parseConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      return 2;
    }
    throw error;
  }
  if (config.database.kind === 'postgres') {
    console.error(
      `DATABASE_URL names a PostgreSQL database (${describePostgresTarget(config.database.url)}); ` +
        'npm run backup copies the embedded SQLite file only. Back PostgreSQL up with pg_dump while the ' +
        'server runs, e.g. pg_dump --format=custom --file=anybodyqa.dump "$DATABASE_URL" ' +
        '(docs/operations.md "PostgreSQL").',
    );
    return 2;
  }
  const destination = values.to === undefined ? defaultBackupFile(config.dataDir) : resolve(values.to);
  try {
    const { file, bytes, counts } = backupDatabase(config.database.path, destination);
    console.log(`Backed up ${config.database.path}`);
    console.log(`       to ${file} (${(bytes / 1024).toFixed(0)} KiB)`);
    console.log(
      `   holding ${counts.users} users, ${counts.plans} plans, ${counts.runs} runs, ${counts.run_points} run points`,
    );
    return 0;
  } catch (error) {
    const cause = (error as Error).cause;
    console.error((error as Error).message + (cause instanceof Error ? `: ${cause.message}` : ''));
    return 1;
  }
}

process.exitCode = main();
