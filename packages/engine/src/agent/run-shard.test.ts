import { describe, expect, it } from 'vitest';
import { testPlan } from '../testing/target';
import type { ShardJob } from './protocol';
import { shardJobProblem } from './run-shard';

/* What an agent refuses to read of a shard job from the server (docs/adr/0027-load-profiles.md "On load agents"). */

const job: ShardJob = {
  run_id: 'run_1',
  agent_index: 1,
  agent_count: 2,
  plan: testPlan([{ url: 'http://127.0.0.1:9/x' }], { concurrent_users: 2 }),
  data_seed: 2 ** 32 - 1,
  duration_seconds: 2,
  users: 2,
  first_user: 2,
  sequence_split: { offset: 1, stride: 2 },
  start_at_epoch_ms: 0,
  guard: null,
};

describe('shardJobProblem', () => {
  it('reads a whole job, and names a data seed that is missing or not a 32-bit whole number', () => {
    expect(shardJobProblem(job)).toBeNull();
    const { data_seed: _seed, ...withoutSeed } = job;
    const problem = 'data_seed is not a whole number from 0 to 2^32 - 1';
    expect(shardJobProblem(withoutSeed)).toBe(problem);
    for (const data_seed of [-1, 0.5, 2 ** 32, '7'])
      expect(shardJobProblem({ ...job, data_seed })).toBe(problem);
  });
});
