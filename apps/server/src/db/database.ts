import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql } from 'kysely';
import Sqlite from 'libsql';
import pg from 'pg';
import { type DatabaseConfig, redactPassword } from '../config';
import { isPostgres } from './dialect';
import { migrationProvider } from './migrations';
import type { Database } from './schema';

export type Db = Kysely<Database>;

export { dialectOf, isPostgres, type Dialect } from './dialect';

/** host:port/database of each PostgreSQL store opened, for the start-up error (never the password). */
const postgresTargets = new WeakMap<Db, string>();

/** The store cannot be reached at start-up; main.ts prints its message alone, without a stack. */
export class DatabaseConnectionError extends Error {
  constructor(message: string, options: { cause: unknown }) {
    super(message, options);
    this.name = 'DatabaseConnectionError';
  }
}

/**
 * PostgreSQL's int8 (bigint: counts, epoch milliseconds, byte sizes) and numeric come back from
 * node-postgres as strings, because not every value fits a JS number. Ours all do: the bigint columns
 * hold milliseconds, pids and sizes far below 2^53, and count(*) of one user's rows likewise. Reading
 * them as numbers keeps one code path with SQLite, which returns numbers (docs/adr/0019-postgresql.md
 * "Types"). A value beyond 2^53 is refused loudly rather than rounded.
 */
function parseSafeNumber(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) {
    throw new Error(`PostgreSQL returned ${text}, beyond what a JavaScript number holds exactly`);
  }
  return value;
}
const PG_INT8 = 20;
const PG_NUMERIC = 1700;
pg.types.setTypeParser(PG_INT8, parseSafeNumber);
pg.types.setTypeParser(PG_NUMERIC, Number);

/** Connections the pool keeps open at most; one server's requests rarely need more at once. */
const PG_POOL_SIZE = 10;

/**
 * Opens the store the configuration names: the SQLite file (creating its folder) through libsql,
 * which is API-compatible with better-sqlite3 and so plugs into Kysely's SqliteDialect; or
 * PostgreSQL through a node-postgres pool and Kysely's PostgresDialect (docs/adr/0019-postgresql.md).
 * Nothing connects to PostgreSQL until the first query (migrateToLatest says so when that fails).
 */
export function openDatabase(config: DatabaseConfig): Db {
  if (config.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: config.url, max: PG_POOL_SIZE });
    // An idle connection the server drops (a restart, a failover) must not crash the process.
    pool.on('error', () => undefined);
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    postgresTargets.set(db, describePostgresTarget(config.url));
    return db;
  }
  if (config.path !== ':memory:') mkdirSync(dirname(config.path), { recursive: true });
  const sqlite = new Sqlite(config.path, { timeout: 5000 });
  // WAL lets readers run while a writer commits; foreign keys are off by default in SQLite and
  // must be turned on per connection for ON DELETE CASCADE to work.
  sqlite.exec('PRAGMA journal_mode = WAL');
  sqlite.exec('PRAGMA foreign_keys = ON');
  sqlite.exec('PRAGMA synchronous = NORMAL');
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
}

/** host:port/database of a PostgreSQL URL, its password never shown. */
export function describePostgresTarget(url: string): string {
  try {
    const parsed = new URL(url);
    const host = parsed.hostname || parsed.searchParams.get('host') || 'localhost';
    return `${host}:${parsed.port || '5432'}${parsed.pathname}`;
  } catch {
    return redactPassword(url);
  }
}

/** node-postgres's error in words; a refused connection's AggregateError (IPv4 and IPv6) has an empty message. */
function describeConnectionError(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  if (cause.message !== '') return cause.message;
  const code = (cause as NodeJS.ErrnoException).code;
  if (code === 'ECONNREFUSED') return 'the connection was refused (is PostgreSQL running on that port?)';
  return code ?? cause.name;
}

/**
 * Applies every pending migration; a no-op when the schema is current. It is the first round trip to
 * the store, so a PostgreSQL that cannot be reached or refuses the credentials becomes one sentence
 * naming DATABASE_URL and host:port (a DatabaseConnectionError), not a driver stack trace.
 */
export async function migrateToLatest(db: Db): Promise<string[]> {
  const target = postgresTargets.get(db);
  if (target !== undefined) {
    try {
      await pingDatabase(db);
    } catch (cause) {
      throw new DatabaseConnectionError(
        `Cannot connect to the PostgreSQL database of DATABASE_URL (${target}): ${describeConnectionError(cause)}`,
        { cause },
      );
    }
  }
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error, results = [] } = await migrator.migrateToLatest();
  if (error !== undefined) {
    const failed = results.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`Database migration ${failed} failed`, { cause: error });
  }
  return results.filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** A real round trip to the database, for the health check. */
export async function pingDatabase(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}

/**
 * Closes the database. On SQLite the WAL is checkpointed into the main file first, so after a clean
 * shutdown the .db file alone holds all the data (safe to copy as a backup); PostgreSQL keeps its own
 * files consistent, and closing ends the pool's connections.
 */
export async function closeDatabase(db: Db): Promise<void> {
  try {
    if (!isPostgres(db)) await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(db);
  } finally {
    await db.destroy();
  }
}
