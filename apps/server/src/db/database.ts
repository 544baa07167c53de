import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { Kysely, Migrator, SqliteDialect, sql } from 'kysely';
import Sqlite from 'libsql';
import type { DatabaseConfig } from '../config';
import { migrationProvider } from './migrations';
import type { Database } from './schema';

export type Db = Kysely<Database>;

/**
 * Opens the SQLite file (creating its folder) through libsql, which is API-compatible with
 * better-sqlite3 and so plugs into Kysely's SqliteDialect.
 */
export function openDatabase(config: DatabaseConfig): Db {
  if (config.path !== ':memory:') mkdirSync(dirname(config.path), { recursive: true });
  const sqlite = new Sqlite(config.path, { timeout: 5000 });
  // WAL lets readers run while a writer commits; foreign keys are off by default in SQLite and
  // must be turned on per connection for ON DELETE CASCADE to work.
  sqlite.exec('PRAGMA journal_mode = WAL');
  sqlite.exec('PRAGMA foreign_keys = ON');
  sqlite.exec('PRAGMA synchronous = NORMAL');
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
}

/** Applies every pending migration; a no-op when the schema is current. */
export async function migrateToLatest(db: Db): Promise<string[]> {
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
 * Closes the database. The WAL is checkpointed into the main file first, so after a clean
 * shutdown the .db file alone holds all the data (safe to copy as a backup).
 */
export async function closeDatabase(db: Db): Promise<void> {
  try {
    await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(db);
  } finally {
    await db.destroy();
  }
}
