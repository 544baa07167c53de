import { Migrator, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeDir } from '../../test/helpers';
import { testDatabaseConfig } from '../../test/test-database';
import { closeDatabase, migrateToLatest, openDatabase } from './database';
import { migrationProvider } from './migrations';
import { foldForSearch, planSearchText } from './search-text';

describe('foldForSearch', () => {
  it('folds every script and both ways of writing an accent', () => {
    expect(foldForSearch('ÉCOLE Prüfung ΣΕΛΙΔΑ')).toBe('école prüfung σελιδα');
    expect(foldForSearch('Lyce\u0301e')).toBe(foldForSearch('Lycée'));
    expect(planSearchText('Checkout', 'The SHOP')).toBe('checkout\nthe shop');
  });
});

describe('migration 0005_plan_search_text', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) removeDir(dir);
  });

  it('fills the search text of plans saved before it', async () => {
    // The test's store: SQLite, or PostgreSQL in the node-postgres project.
    const dir = makeTempDir();
    dirs.push(dir);
    const db = openDatabase(await testDatabaseConfig(dir));
    try {
      const result = await new Migrator({ db, provider: migrationProvider }).migrateTo(
        '0004_results_history',
      );
      expect(result.error).toBeUndefined();
      await sql`insert into users (id, email, email_normalized, username, first_name, last_name, password_hash, created_at, updated_at)
        values ('u1', 'a@b.c', 'a@b.c', 'a@b.c', 'A', 'B', 'x', '2026-01-01', '2026-01-01')`.execute(db);
      await sql`insert into plans (id, user_id, name, description, tool, concurrent_users, duration, source_page,
        test_type, schema_version, body, created_at, updated_at)
        values ('p1', 'u1', 'ÉCOLE', 'Prüfung', 'k6', 1, 1, 'url-input', 'performance', 1, '{"urls":[]}',
        '2026-01-01', '2026-01-01')`.execute(db);

      expect(await migrateToLatest(db)).toContain('0005_plan_search_text');
      const row = await db
        .selectFrom('plans')
        .select('search_text')
        .where('id', '=', 'p1')
        .executeTakeFirst();
      expect(row?.search_text).toBe('école\nprüfung');
    } finally {
      await closeDatabase(db);
    }
  });
});
