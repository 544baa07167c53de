import { type Expression, type Kysely, PostgresAdapter, sql, type Transaction } from 'kysely';

/** Which SQL the database speaks; migrations and repositories switch on it in the few places they differ. */
export type Dialect = 'sqlite' | 'postgres';

/**
 * The dialect of a database opened by openDatabase (db/database.ts), or of a transaction or untyped
 * view of one (the migrations' `Kysely<unknown>`): Kysely keeps the dialect's adapter on every instance.
 */
export function dialectOf<T>(db: Kysely<T>): Dialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

export function isPostgres<T>(db: Kysely<T>): boolean {
  return dialectOf(db) === 'postgres';
}

/** A column type as Kysely's schema builder takes it. */
type ColumnType = 'text' | 'integer' | 'real' | 'blob' | Expression<unknown>;

/**
 * The column types the migrations write, rendered for the store (docs/adr/0019-postgresql.md "Types").
 * On SQLite they are exactly the words the migrations always wrote, so a released migration means
 * what it meant. On PostgreSQL:
 * - integer → bigint: SQLite's integers are 64-bit, and some columns (request totals, epoch ms) pass 2^31;
 * - real → double precision: SQLite's real is an 8-byte float;
 * - blob → bytea;
 * - text → text collate "C": ids and ISO-8601 times are compared and ordered as text, and SQLite
 *   compares bytes (BINARY); "C" does the same whatever locale the database was created with.
 */
export function columnTypes<T>(db: Kysely<T>): Record<'text' | 'integer' | 'real' | 'blob', ColumnType> {
  if (!isPostgres(db)) return { text: 'text', integer: 'integer', real: 'real', blob: 'blob' };
  return { text: sql`text collate "C"`, integer: sql`bigint`, real: sql`double precision`, blob: sql`bytea` };
}

/**
 * Serialises a user's read-then-write transactions (a count before an insert, the next number of a
 * sequence). SQLite runs one writing transaction at a time, so there it is already so; PostgreSQL
 * runs them side by side under READ COMMITTED, so the user's row is locked until the transaction ends
 * (docs/adr/0019-postgresql.md "What differs").
 */
export async function lockUserForTransaction<T>(trx: Transaction<T>, userId: string): Promise<void> {
  if (!isPostgres(trx)) return;
  await sql`select id from users where id = ${userId} for update`.execute(trx);
}
