import { afterAll, beforeAll, expect, it } from 'vitest';
import { FunctionalPlanSchema } from '@aqa/plan';
import { TestTarget } from '../testing/target';
import { FunctionalRunner, type JudgedCall } from './runner';

const target = new TestTarget();
beforeAll(async () => {
  await target.start();
});
afterAll(async () => {
  await target.close();
});

it('starts no call after the test duration and says how far the run got', async () => {
  const plan = FunctionalPlanSchema.parse({
    test_name: 'duration',
    iterations: 10,
    think_time: 1,
    apis: [{ name: 'a', url: `${target.origin}/a` }],
  });
  const judged: JudgedCall[] = [];
  const started = performance.now();
  const end = await new FunctionalRunner(plan, {
    insecureTls: false,
    durationMs: 1500,
    onCall: (j) => judged.push(j),
  }).run();
  // Calls at 0 s and 1 s (later on a busy machine); the pause after the last is cut at 1.5 s.
  expect(judged.length).toBeGreaterThanOrEqual(1);
  expect(judged.length).toBeLessThanOrEqual(2);
  expect(target.count).toBe(judged.length);
  for (const { atMs, call } of judged) expect(atMs - call.response_time).toBeLessThan(1500);
  expect(end.error).toBe(`The test duration of 1.5 s ended after ${judged.length} of 10 iterations`);
  expect(performance.now() - started).toBeLessThan(4000);
});
