import { describe, expect, it } from 'vitest';
import { LoadProfileSchema, profilePoints, type LoadProfileInput } from '@aqa/plan';
import { nextShareChangeMs, shareOf, ShardPlan, usersAt } from './load-follower';

const plan = (input: LoadProfileInput, shards = 1, index = 0): ShardPlan =>
  new ShardPlan({ profile: LoadProfileSchema.parse(input), shards, index });

describe('a shard’s share of the line', () => {
  it('splits users floor + 1 for the first (total mod shards), adding up to the total', () => {
    for (let total = 0; total <= 23; total++) {
      const shares = [0, 1, 2].map((k) => shareOf(total, 3, k));
      expect(shares.reduce((a, b) => a + b, 0)).toBe(total);
      expect(Math.max(...shares) - Math.min(...shares)).toBeLessThanOrEqual(1);
    }
    expect([0, 1, 2].map((k) => shareOf(7, 3, k))).toEqual([3, 2, 2]);
  });

  it('counts a user once the line reaches it, and not past its fall', () => {
    const points = profilePoints(
      LoadProfileSchema.parse({ model: 'users', stages: [{ duration: '3s', target: 6 }] }),
    );
    expect(usersAt(points, 0)).toBe(0);
    expect(usersAt(points, 499)).toBe(0);
    expect(usersAt(points, 500)).toBe(1);
    expect(usersAt(points, 3000)).toBe(6);
  });

  it('finds the instant the share changes: every crossing of the next integer, not once a second', () => {
    const f = plan({
      model: 'users',
      stages: [
        { duration: '3s', target: 6 },
        { duration: '2s', target: 6 },
        { duration: '1s', target: 0 },
      ],
    });
    const changes: [number, number][] = [];
    let at = 0;
    let share = f.shareAt(at);
    for (let next = f.nextChangeMs(at, share); next !== undefined; next = f.nextChangeMs(at, share)) {
      expect(next).toBeGreaterThan(at);
      at = next;
      share = f.shareAt(at);
      changes.push([at, share]);
    }
    // Up by one every 500 ms, at the crossing; down by one every 1000/6 ms from 5 s, the first whole
    // millisecond after each crossing (when the line is below the level).
    expect(changes.slice(0, 6)).toEqual([
      [500, 1],
      [1000, 2],
      [1500, 3],
      [2000, 4],
      [2500, 5],
      [3000, 6],
    ]);
    expect(changes.slice(6).map(([, s]) => s)).toEqual([5, 4, 3, 2, 1, 0]);
    expect(changes[6]![0]).toBe(5001);
    expect(changes[11]![0]).toBe(Math.floor(5000 + (5 * 1000) / 6) + 1);
  });

  it('gives each of several shards only its own crossings, and sees a step at once', () => {
    const input: LoadProfileInput = {
      model: 'users',
      start: 1,
      stages: [
        { duration: '2s', target: 1 },
        { duration: '0s', target: 4 },
        { duration: '1s', target: 4 },
      ],
    };
    const first = plan(input, 2, 0);
    const second = plan(input, 2, 1);
    expect([first.shareAt(0), second.shareAt(0)]).toEqual([1, 0]);
    expect(first.nextChangeMs(0, 1)).toBe(2001);
    expect(second.nextChangeMs(0, 0)).toBe(2001);
    expect([first.shareAt(2000), second.shareAt(2000)]).toEqual([2, 2]);
    expect(first.nextChangeMs(2000, 2)).toBeUndefined();
    // Falling 4 → 0 over 4 s: shard 1 holds users 2 and 4 (floor(T/2)), shard 0 users 1 and 3 (ceil).
    const down: LoadProfileInput = { model: 'users', start: 4, stages: [{ duration: '4s', target: 0 }] };
    const points = profilePoints(LoadProfileSchema.parse(down));
    expect(nextShareChangeMs(points, 0, 2, 2, 1)).toBeCloseTo(0, 3);
    expect(nextShareChangeMs(points, 0, 2, 2, 0)).toBeCloseTo(1000, 3);
    expect(plan(down, 2, 1).nextChangeMs(1, 1)).toBe(2001);
    expect(plan(down, 2, 0).nextChangeMs(1, 2)).toBe(1001);
  });
});
