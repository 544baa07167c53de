import { spawnSync } from 'node:child_process';
import { expect, test } from 'vitest';

// The global set-up hands every test a Redis of its own (scripts/test-services/global-setup.mjs).
test('the tests get a throw-away Redis that answers', () => {
  const url = process.env.AQA_TEST_REDIS_URL;
  expect(url).toMatch(/^redis:\/\/127\.0\.0\.1:\d+$/);
  const ping = spawnSync('redis-cli', ['-u', String(url), 'ping'], { encoding: 'utf8' });
  expect(ping.stdout.trim()).toBe('PONG');
});
