import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, removeDir } from '../../test/helpers';
import { testDatabaseConfig, testStore } from '../../test/test-database';
import {
  FunctionalRunRepository,
  FunctionalScreenshotRepository,
} from '../repositories/functional.repository';
import { MessageRepository } from '../repositories/message.repository';
import { PlanRepository } from '../repositories/plan.repository';
import { RunRepository } from '../repositories/run.repository';
import { ApiTokenRepository } from '../repositories/token.repository';
import { type Db, closeDatabase, dialectOf, migrateToLatest, openDatabase } from './database';

/*
 * What the two stores must agree on (docs/adr/0019-postgresql.md "What differs"), through the real
 * repositories: run in the node project on SQLite and in the node-postgres project on PostgreSQL.
 */

const AT = '2030-01-01T00:00:00.000Z';
let dir: string;
let db: Db;

beforeAll(async () => {
  dir = makeTempDir();
  db = openDatabase(await testDatabaseConfig(dir));
  await migrateToLatest(db);
  await db
    .insertInto('users')
    .values(
      ['u1', 'u2'].map((id) => ({
        id,
        email: `${id}@example.com`,
        email_normalized: `${id}@example.com`,
        username: `${id}@example.com`,
        first_name: 'A',
        last_name: 'B',
        company: '',
        role: '',
        password_hash: 'x',
        created_at: AT,
        updated_at: AT,
      })),
    )
    .execute();
});

afterAll(async () => {
  await closeDatabase(db);
  removeDir(dir);
});

async function savePlan(id: string, createdAt = AT): Promise<void> {
  await new PlanRepository(db).insert({
    id,
    user_id: 'u1',
    workspace_id: 'u1',
    name: id,
    description: '',
    tool: 'k6',
    concurrent_users: 1,
    duration: 1,
    source_page: 'url-input',
    test_type: 'performance',
    schema_version: 1,
    body: '{"urls":[]}',
    script: '',
    script_edited: 0,
    baseline_run_id: null,
    created_at: createdAt,
    updated_at: createdAt,
  });
}

async function saveRun(id: string, status: string, startedAt: string, totalRequests: number | null = null) {
  await new RunRepository(db).insert({
    id,
    user_id: 'u1',
    workspace_id: 'u1',
    plan_id: null,
    plan_name: 'Plan',
    status,
    tool: 'k6',
    engine: 'builtin',
    engine_note: '',
    config: '{}',
    concurrent_users: 1,
    duration_seconds: 12.345678901,
    started_at: startedAt,
    ended_at: null,
    error: null,
    error_details: null,
    summary: null,
    api_results: null,
    errors: null,
    histogram: null,
    total_requests: totalRequests,
    error_rate: 0.1,
    requests_per_second: null,
    average_response_time: null,
    percentile_95: null,
    test_name: null,
  });
}

describe(`the ${testStore()} store`, () => {
  it('is the store the project names', () => {
    expect(dialectOf(db)).toBe(testStore());
  });

  it('keeps whole numbers beyond 2^31 and fractions exactly, as JavaScript numbers', async () => {
    await saveRun('run_big', 'completed', AT, 3_000_000_123);
    const row = await new RunRepository(db).findInWorkspace('u1', 'run_big');
    expect(row).toMatchObject({
      total_requests: 3_000_000_123,
      duration_seconds: 12.345678901,
      error_rate: 0.1,
    });
    expect(typeof row?.concurrent_users).toBe('number');
  });

  it('counts runs by day, completed and failed, as numbers', async () => {
    await saveRun('run_day1', 'completed', '2030-01-02T10:00:00.000Z');
    await saveRun('run_day2', 'failed', '2030-01-02T11:00:00.000Z');
    await saveRun('run_day3', 'interrupted', '2030-01-02T12:00:00.000Z');
    const days = await new RunRepository(db).runsByDayInWorkspace('u1', 1);
    expect(days).toEqual([{ date: '2030-01-02', total: 3, completed: 1, failed: 2 }]);
    expect(await new RunRepository(db).statusCountsInWorkspace('u1')).toMatchObject({
      completed: 2,
      failed: 1,
    });
  });

  it('lists all plans after an offset when no limit is given', async () => {
    for (const id of ['plan_a', 'plan_b', 'plan_c']) await savePlan(id);
    const page = await new PlanRepository(db).listInWorkspace('u1', { offset: 1 });
    expect(page.map((p) => p.id)).toEqual(['plan_b', 'plan_a']);
  });

  it('orders text as bytes, as SQLite does: capitals before small letters', async () => {
    await savePlan('Zeta', '2030-02-01T00:00:00.000Z');
    await savePlan('alpha', '2030-02-01T00:00:00.000Z');
    const [first, second] = await new PlanRepository(db).listInWorkspace('u1', { limit: 2, offset: 0 });
    // Newest first, then id descending: 'a' (0x61) sorts after 'Z' (0x5a) as bytes.
    expect([first?.id, second?.id]).toEqual(['alpha', 'Zeta']);
  });

  it('keeps JPEG bytes exactly, zero bytes included', async () => {
    await new FunctionalRunRepository(db).insert({
      id: 'fc_shots',
      user_id: 'u1',
      workspace_id: 'u1',
      plan_id: null,
      test_name: 'Shots',
      description: '',
      status: 'completed',
      test_type: 'ui',
      source: 'ui_url_input',
      kind: 'ui',
      config: '{}',
      start_time: AT,
      end_time: null,
      error: null,
      summary: null,
      result: null,
      head: null,
    });
    const jpeg = Buffer.from([0xff, 0xd8, 0x00, 0x01, 0x00, 0xff, 0xd9]);
    const shots = new FunctionalScreenshotRepository(db);
    await shots.insert({
      id: 'shot1',
      run_id: 'fc_shots',
      seq: 1,
      label: 'Step',
      failure: 0,
      jpeg,
      created_at: AT,
    });
    expect(await shots.findJpegInWorkspace('u1', 'fc_shots', 'shot1')).toEqual(jpeg);
    expect(await shots.findJpegInWorkspace('u2', 'fc_shots', 'shot1')).toBeUndefined();
  });

  it('lists messages of one instant newest written first', async () => {
    const messages = new MessageRepository(db);
    for (const id of ['msg_c', 'msg_a', 'msg_b']) {
      const message = {
        id,
        user_id: 'u2',
        workspace_id: 'u2',
        kind: 'completed',
        test_type: 'load',
        name: id,
        title: id,
        body: '',
      };
      expect(
        await messages.insert({ ...message, run_id: null, functional_run_id: null, created_at: AT }),
      ).toBe(true);
    }
    expect((await messages.list('u2', 'u2', 10)).map((m) => m.id)).toEqual(['msg_b', 'msg_a', 'msg_c']);
    expect(await messages.unreadCount('u2', 'u2')).toBe(3);
    // Each member reads on their own (migration 0028): u2's reading leaves another reader's count alone.
    await messages.markRead('u2', 'u2', AT, ['msg_a']);
    expect(await messages.unreadCount('u2', 'u2')).toBe(2);
    expect(await messages.unreadCount('u2', 'u1')).toBe(3);
    expect((await messages.list('u2', 'u2', 10)).find((m) => m.id === 'msg_a')?.read_at).toBe(AT);
  });

  it('never lets tokens created at once pass the limit', async () => {
    const tokens = new ApiTokenRepository(db);
    const created = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        tokens.insertWithinLimit(
          { id: `tok_${i}`, user_id: 'u2', name: `t${i}`, token_hash: `hash_${i}`, created_at: AT },
          3,
        ),
      ),
    );
    expect(created.filter(Boolean)).toHaveLength(3);
    expect(await tokens.listForUser('u2')).toHaveLength(3);
  });

  it.runIf(testStore() === 'postgres')('declares its text columns with the "C" collation', async () => {
    const { rows } = await sql<{ column_name: string; collation_name: string | null }>`
      select column_name, collation_name from information_schema.columns
      where table_name = 'runs' and data_type = 'text'`.execute(db);
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.filter((r) => r.collation_name !== 'C')).toEqual([]);
  });
});
