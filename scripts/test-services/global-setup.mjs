// Vitest global set-up (vitest.config.ts): the throw-away servers the tests use (docs/scale-out.md
// "Tests"), started once per test run unless the environment already names them, stopped after.
// Tests read AQA_TEST_REDIS_URL (a Redis nobody else uses) and AQA_TEST_PG_URL (a PostgreSQL superuser
// URL to its `postgres` database, in which test servers create and drop their own databases;
// docs/adr/0019-postgresql.md "Tests").
import { startPostgres } from './postgres.mjs';
import { startRedis } from './redis.mjs';

export default async function setup() {
  const stops = [];
  // Started side by side: PostgreSQL's initdb takes a few seconds, Redis a moment.
  const [redis, postgres] = await Promise.allSettled([
    process.env.AQA_TEST_REDIS_URL ? undefined : startRedis(),
    process.env.AQA_TEST_PG_URL ? undefined : startPostgres(),
  ]);
  for (const started of [redis, postgres]) {
    if (started.status === 'fulfilled' && started.value !== undefined) stops.push(started.value.stop);
  }
  const failed = [redis, postgres].find((started) => started.status === 'rejected');
  if (failed !== undefined) {
    for (const stop of stops) await stop();
    throw failed.reason;
  }
  if (redis.value !== undefined) process.env.AQA_TEST_REDIS_URL = redis.value.url;
  if (postgres.value !== undefined) process.env.AQA_TEST_PG_URL = postgres.value.url;
  return async () => {
    for (const stop of stops.reverse()) await stop();
  };
}
