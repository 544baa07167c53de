import { Migrator, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeDir } from '../../test/helpers';
import { testDatabaseConfig } from '../../test/test-database';
import { closeDatabase, migrateToLatest, openDatabase } from './database';
import { migrationProvider } from './migrations';

/*
 * Migration 0020 (docs/test-kinds.md): the plans and runs saved before it get the kind of what they
 * keep. Run in the node project on SQLite and in the node-postgres project on PostgreSQL.
 */

const AT = '2026-01-01T00:00:00.000Z';

/** A functional plan's body as the server stored it, in the marks each screen wrote. */
const body = (source: string, testType: string, framework: string): string =>
  JSON.stringify({ test_name: 'T', source, test_type: testType, test_framework: framework, apis: [] });

/** id, source, test_type, test_framework, and the kind it must get. */
const FUNCTIONAL: [string, string, string, string, string][] = [
  ['api', 'url_input', 'functional', 'taurus', 'api'],
  ['api_typed', 'url_input', 'api', 'taurus', 'api'],
  ['ui', 'ui_url_input', 'ui', 'selenium', 'ui'],
  ['ui_typed', 'url_input', 'ui', 'taurus', 'ui'],
  ['ui_framework', 'url_input', 'functional', 'selenium', 'ui'],
  ['script', 'script_input', 'functional', 'taurus', 'script'],
  ['script_selenium', 'script_input', 'ui', 'selenium', 'script'],
];

describe('migration 0020_test_kinds', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) removeDir(dir);
  });

  it('gives every plan and run saved before it its kind', async () => {
    const dir = makeTempDir();
    dirs.push(dir);
    const db = openDatabase(await testDatabaseConfig(dir));
    try {
      const result = await new Migrator({ db, provider: migrationProvider }).migrateTo('0019_phrases');
      expect(result.error).toBeUndefined();
      await sql`insert into users (id, email, email_normalized, username, first_name, last_name, password_hash, created_at, updated_at)
        values ('u1', 'a@b.c', 'a@b.c', 'a@b.c', 'A', 'B', 'x', ${AT}, ${AT})`.execute(db);
      await sql`insert into plans (id, user_id, name, description, tool, concurrent_users, duration, source_page,
        test_type, schema_version, body, script, script_edited, search_text, created_at, updated_at)
        values ('p1', 'u1', 'Load', '', 'k6', 1, 1, 'url-input', 'stress', 1, '{"urls":[]}', '', 0, 'load',
        ${AT}, ${AT})`.execute(db);
      await sql`insert into runs (id, user_id, plan_id, plan_name, status, tool, engine, engine_note, config,
        concurrent_users, duration_seconds, started_at)
        values ('run_1', 'u1', 'p1', 'Load', 'completed', 'k6', 'builtin', '', '{}', 1, 60, ${AT})`.execute(
        db,
      );
      for (const [id, source, testType, framework] of FUNCTIONAL) {
        const doc = body(source, testType, framework);
        await sql`insert into functional_plans (id, user_id, name, test_type, source, status, schema_version, body,
          created_at, updated_at)
          values (${id}, 'u1', 'T', ${testType}, ${source}, 'saved', 1, ${doc}, ${AT}, ${AT})`.execute(db);
        await sql`insert into functional_runs (id, user_id, plan_id, test_name, status, test_type, source, config,
          start_time)
          values (${`fc_${id}`}, 'u1', ${id}, 'T', 'completed', ${testType}, ${source}, ${doc}, ${AT})`.execute(
          db,
        );
      }
      // A run whose configuration does not read (written by hand, or by a bug) keeps its columns' kind.
      await sql`insert into functional_runs (id, user_id, test_name, status, test_type, source, config, start_time)
        values ('fc_unread', 'u1', 'T', 'failed', 'functional', 'url_input', '{selenium', ${AT})`.execute(db);

      expect(await migrateToLatest(db)).toContain('0020_test_kinds');

      const kinds = async (table: 'plans' | 'runs' | 'functional_plans' | 'functional_runs') =>
        Object.fromEntries(
          (await db.selectFrom(table).select(['id', 'kind']).execute()).map((row) => [row.id, row.kind]),
        );
      expect(await kinds('plans')).toEqual({ p1: 'load' });
      expect(await kinds('runs')).toEqual({ run_1: 'load' });
      const expected = Object.fromEntries(FUNCTIONAL.map(([id, , , , kind]) => [id, kind]));
      expect(await kinds('functional_plans')).toEqual(expected);
      expect(await kinds('functional_runs')).toEqual({
        ...Object.fromEntries(FUNCTIONAL.map(([id, , , , kind]) => [`fc_${id}`, kind])),
        fc_unread: 'api',
      });
    } finally {
      await closeDatabase(db);
    }
  });

  it('is undone by dropping the kinds, and done again the same', async () => {
    const dir = makeTempDir();
    dirs.push(dir);
    const db = openDatabase(await testDatabaseConfig(dir));
    try {
      await migrateToLatest(db);
      const migrator = new Migrator({ db, provider: migrationProvider });
      expect((await migrator.migrateTo('0019_phrases')).error).toBeUndefined();
      const columns = async () =>
        (await db.introspection.getTables())
          .filter((table) => ['plans', 'runs', 'functional_plans', 'functional_runs'].includes(table.name))
          .filter((table) => table.columns.some((column) => column.name === 'kind'))
          .map((table) => table.name);
      expect(await columns()).toEqual([]);
      expect((await migrator.migrateTo('0020_test_kinds')).error).toBeUndefined();
      expect((await columns()).sort()).toEqual(['functional_plans', 'functional_runs', 'plans', 'runs']);
    } finally {
      await closeDatabase(db);
    }
  });
});
