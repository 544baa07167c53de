import { spawnSync } from 'node:child_process';
import pg from 'pg';
import { expect, test } from 'vitest';

// The global set-up hands every test a Redis of its own (scripts/test-services/global-setup.mjs).
test('the tests get a throw-away Redis that answers', () => {
  const url = process.env.AQA_TEST_REDIS_URL;
  expect(url).toMatch(/^redis:\/\/127\.0\.0\.1:\d+$/);
  const ping = spawnSync('redis-cli', ['-u', String(url), 'ping'], { encoding: 'utf8' });
  expect(ping.stdout.trim()).toBe('PONG');
});

// And a throw-away PostgreSQL (scripts/test-services/postgres.mjs), superuser on 127.0.0.1, durability off.
test('the tests get a throw-away PostgreSQL that answers', async () => {
  const url = process.env.AQA_TEST_PG_URL;
  expect(url).toMatch(/^postgres:\/\/[^@]+@127\.0\.0\.1:\d+\/postgres$/);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ fsync: string; superuser: string }>(
      "select current_setting('fsync') as fsync, current_setting('is_superuser') as superuser",
    );
    expect(rows).toEqual([{ fsync: 'off', superuser: 'on' }]);
  } finally {
    await client.end();
  }
});
