import { createHash } from 'node:crypto';
import pg from 'pg';

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
