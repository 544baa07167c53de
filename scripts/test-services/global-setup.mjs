// Vitest global set-up (vitest.config.ts): the throw-away servers the tests use (docs/scale-out.md
// "Tests"), started once per test run unless the environment already names them, stopped after.
// Tests read AQA_TEST_REDIS_URL (a Redis nobody else uses).
import { startRedis } from './redis.mjs';

export default async function setup() {
  const stops = [];
  if (!process.env.AQA_TEST_REDIS_URL) {
    const redis = await startRedis();
    process.env.AQA_TEST_REDIS_URL = redis.url;
    stops.push(redis.stop);
  }
  return async () => {
    for (const stop of stops.reverse()) await stop();
  };
}
