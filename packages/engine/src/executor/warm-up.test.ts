import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoadProfileSchema, type LoadProfileInput } from '@aqa/plan';
import { startRun } from '../run';
import { TestTarget, testPlan } from '../testing/target';
import { WARM_UP_FROM_RATE, warmUpRate } from './warm-up';

// The open model's warm-up (docs/adr/0027-load-profiles.md, "The warm-up"): which shards warm up, and
// that a warmed-up run sends the target exactly its own iterations — nothing of the warm-up.
const shard = (profile: LoadProfileInput, shards = 1, index = 0) => ({
  profile: LoadProfileSchema.parse(profile),
  shards,
  index,
});
const rate = (target: number): LoadProfileInput => ({
  model: 'arrival_rate',
  max_users: 20,
  stages: [
    { duration: '1s', target },
    { duration: '1s', target: 0 },
  ],
});

describe('warmUpRate', () => {
  it('is 0 without a profile, for the closed model and below the threshold', () => {
    expect(warmUpRate(undefined)).toBe(0);
    expect(warmUpRate(shard({ model: 'users', stages: [{ duration: '5s', target: 1000 }] }))).toBe(0);
    expect(warmUpRate(shard(rate(WARM_UP_FROM_RATE - 1)))).toBe(0);
  });

  it("is the shard's share of the peak rate, at most 5,000 it/s", () => {
    expect(warmUpRate(shard(rate(1500)))).toBe(1500);
    // Two shards of 3,000 it/s: 1,500 each.
    expect(warmUpRate(shard(rate(3000), 2, 1))).toBe(1500);
    // Two shards of 1,500 it/s: 750 each keeps up from cold.
    expect(warmUpRate(shard(rate(1500), 2, 0))).toBe(0);
    expect(warmUpRate(shard(rate(40_000)))).toBe(5000);
  });
});

describe('a warmed-up run', () => {
  const target = new TestTarget();
  beforeAll(async () => {
    await target.start();
  });
  afterAll(async () => {
    await target.close();
  });

  it('sends the target its iterations and nothing of the warm-up', async () => {
    const plan = testPlan([{ url: `${target.origin}/n` }], { concurrent_users: 20 });
    const profile: LoadProfileInput = {
      model: 'arrival_rate',
      max_users: 50,
      stages: [{ duration: '1s', target: 1200 }],
    };
    const handle = startRun(plan, { workers: 1, loadProfile: profile });
    for await (const _ of handle.snapshots) void _;
    const result = await handle.result;
    // The line 0 → 1,200 it/s over 1 s plans 600 iterations; the warm-up ran about 1,200 against its own server.
    expect(result.iterations!.started + result.iterations!.dropped).toBe(600);
    expect(target.count).toBe(result.iterations!.started);
    expect(result.summary.total_requests).toBe(result.iterations!.started);
  });
});
