import { createHash } from 'node:crypto';
import { CompiledQuery } from 'kysely';
import pg from 'pg';
import { type DatabaseConfig, parseConfig } from '../src/config';
import { openDatabase } from '../src/db/database';

/**
 * The store the server tests run on (docs/adr/0019-postgresql.md "Tests"): SQLite in each test's data
 * folder by default; with AQA_TEST_DB=postgres (the node-postgres vitest project), a PostgreSQL database
 * per data folder, created in the cluster AQA_TEST_PG_URL names (scripts/test-services/global-setup.mjs).
 */
export function testStore(): 'sqlite' | 'postgres' {
  return process.env.AQA_TEST_DB === 'postgres' ? 'postgres' : 'sqlite';
}

/** The admin URL of the test cluster; a clear error when the PostgreSQL project runs without one. */
function adminUrl(): string {
  const url = process.env.AQA_TEST_PG_URL;
  if (url === undefined || url === '') {
    throw new Error(
      'AQA_TEST_DB=postgres needs AQA_TEST_PG_URL (the vitest global set-up starts a PostgreSQL and sets it)',
    );
  }
  return url;
}

/** The database of a data folder: the same folder always names the same database. */
export function testDatabaseName(dataDir: string): string {
  return `aqa_t_${createHash('sha256').update(dataDir).digest('hex').slice(0, 20)}`;
}

async function withAdmin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/**
 * The variables that point a server at the data folder's store: none for SQLite (DATA_DIR says it
 * all); for PostgreSQL, DATABASE_URL of the folder's database, created on first use.
 */
export async function testDatabaseEnv(dataDir: string): Promise<Record<string, string>> {
  if (testStore() !== 'postgres') return {};
  const name = testDatabaseName(dataDir);
  await withAdmin(async (client) => {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`create database ${name}`);
  });
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return { DATABASE_URL: url.toString() };
}

/** The store a server started on `dataDir` uses (as parseConfig reads DATA_DIR and DATABASE_URL). */
export async function testDatabaseConfig(dataDir: string): Promise<DatabaseConfig> {
  return parseConfig({ DATA_DIR: dataDir, ...(await testDatabaseEnv(dataDir)) }).database;
}

/**
 * Drops the data folder's database, if the PostgreSQL project made one. In the background (callers
 * remove folders synchronously); a failure is ignored, since the throw-away cluster goes at the end.
 */
export function dropTestDatabase(dataDir: string): void {
  if (testStore() !== 'postgres') return;
  const name = testDatabaseName(dataDir);
  void withAdmin((client) => client.query(`drop database if exists ${name} with (force)`)).catch(
    () => undefined,
  );
}

/**
 * Plain SQL on a test server's store, for the tests that look at or change rows behind the server's
 * back. Write `?` placeholders (SQLite's); on PostgreSQL they become $1, $2, … The SQL itself must be
 * what both stores read (select, insert, update, delete of plain values).
 */
export interface TestSql {
  readonly dialect: 'sqlite' | 'postgres';
  all<T = Record<string, unknown>>(text: string, ...params: unknown[]): Promise<T[]>;
  get<T = Record<string, unknown>>(text: string, ...params: unknown[]): Promise<T | undefined>;
  /** Runs a statement; how many rows it changed. */
  run(text: string, ...params: unknown[]): Promise<number>;
  close(): Promise<void>;
}

/** `?` placeholders as PostgreSQL's $n (the tests' SQL has no ? inside its string literals). */
function numberPlaceholders(text: string): string {
  let n = 0;
  return text.replace(/\?/g, () => `$${++n}`);
}

/** A connection to the store of a server started on `database` (TestServer#database). */
export function openTestSql(database: DatabaseConfig): TestSql {
  const db = openDatabase(database);
  const dialect = database.kind;
  const execute = (text: string, params: unknown[]) =>
    db.executeQuery<Record<string, unknown>>(
      CompiledQuery.raw(dialect === 'postgres' ? numberPlaceholders(text) : text, params),
    );
  return {
    dialect,
    async all<T>(text: string, ...params: unknown[]) {
      return (await execute(text, params)).rows as T[];
    },
    async get<T>(text: string, ...params: unknown[]) {
      return (await execute(text, params)).rows[0] as T | undefined;
    },
    async run(text: string, ...params: unknown[]) {
      return Number((await execute(text, params)).numAffectedRows ?? 0);
    },
    close: () => db.destroy(),
  };
}

/** Runs `use` with plain SQL on the store and closes the connection after, whatever happens. */
export async function withTestSql<T>(
  database: DatabaseConfig,
  use: (sql: TestSql) => Promise<T>,
): Promise<T> {
  const sql = openTestSql(database);
  try {
    return await use(sql);
  } finally {
    await sql.close();
  }
}
