import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_USERS, safeMigratePlan } from '@aqa/plan';
import { startRun } from './run';
import { PlanCompileError } from './executor/compile';
import { machineLimits } from './executor/capacity';
import { TestTarget, testPlan } from './testing/target';
import type { RunSnapshot } from './types';

// Past the plan form's 1000 users (docs/reference/01-authoring.md §5): the engine runs as many as
// the machine holds. Throughput at 10,000 users is the bench's job (packages/engine/bench/many-users.mjs).
const USERS = 2000;
const target = new TestTarget(0);
beforeAll(async () => {
  await target.start();
});
afterAll(async () => {
  await target.close();
});

// The test process holds the target's end of every connection and the engine's workers the other.
const limits = machineLimits();
const roomy = limits.openFiles === null || limits.openFiles >= 2 * USERS + 500;

describe('many users', () => {
  it.runIf(roomy)(
    `runs ${USERS.toLocaleString('en-US')} users, each on its own connection, counted exactly`,
    async () => {
      // Every answer is held a little, so that every user has a request in flight at once.
      target.route = (_req, res) => {
        setTimeout(() => res.end('ok'), 250);
      };
      // testPlan() validates with the plan form's schema; the engine takes the count past it.
      const plan = { ...testPlan([{ url: `${target.origin}/many` }]), concurrent_users: USERS };
      // The run is stopped once every user runs on its own accepted connection and has been
      // answered (the duration only bounds a machine too busy to get there).
      const handle = startRun(plan, { durationSeconds: 45, workers: 2 });
      expect(handle.shards).toEqual([USERS / 2, USERS / 2]);
      const snapshots: RunSnapshot[] = [];
      for await (const s of handle.snapshots) {
        snapshots.push(s);
        // Every user running, every connection accepted by the target, every user answered once.
        if (s.activeUsers === USERS && target.connections === USERS && target.count >= 2 * USERS)
          void handle.stop();
      }
      const result = await handle.result;

      expect(result.summary.concurrent_users).toBe(USERS);
      expect(Math.max(...snapshots.map((s) => s.activeUsers))).toBe(USERS);
      expect(target.connections).toBe(USERS);
      expect(result.summary.total_requests).toBe(target.count);
      expect(result.summary.total_requests).toBeGreaterThanOrEqual(USERS);
      // Requests still held when the run stopped count as cancelled; nothing else may fail.
      expect(Object.keys(result.errors).filter((k) => k !== 'cancelled')).toEqual([]);
    },
    60_000,
  );

  it('refuses a count past the engine limit, and the plan model still refuses 1001', () => {
    const plan = testPlan([{ url: `${target.origin}/x` }]);
    expect(() => startRun({ ...plan, concurrent_users: 1_000_001 })).toThrow(
      /concurrent_users: Concurrent users must be a whole number from 1 to 1,000,000 for the built-in engine/,
    );
    expect(() => startRun({ ...plan, concurrent_users: 1_000_001 })).toThrow(PlanCompileError);
    const form = safeMigratePlan({
      name: 'p',
      concurrent_users: MAX_USERS + 1,
      urls: [{ url: 'http://x/' }],
    });
    expect(form.success).toBe(false);
    expect(form.error?.issues[0]?.message).toBe('Concurrent users must be a whole number from 1 to 1000');
  });
});
