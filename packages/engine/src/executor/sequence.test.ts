import { describe, expect, it } from 'vitest';
import { IterationCounter, sequenceValue } from './sequence';

describe('IterationCounter', () => {
  it('hands out run-wide iteration indexes from shared memory, wrapping without changing any value', () => {
    const buf = IterationCounter.allocate();
    const a = new IterationCounter([3, 4], buf);
    const b = new IterationCounter([3, 4], buf); // another worker thread of the same machine
    const seen = [a.next(), b.next(), a.next(), b.next(), a.next()];
    expect(seen).toEqual([0, 1, 2, 3, 4]);
    // lcm(3, 4) = 12: index 12 wraps to 0, which gives the same values for both N.
    for (let i = 5; i < 12; i++) a.next();
    expect(a.next()).toBe(0);
    expect(sequenceValue(12, 3)).toBe(sequenceValue(0, 3));
    expect(sequenceValue(12, 4)).toBe(sequenceValue(0, 4));
  });

  it('splits the index space by stride across machines', () => {
    const m0 = new IterationCounter([100], IterationCounter.allocate(), { offset: 0, stride: 3 });
    const m1 = new IterationCounter([100], IterationCounter.allocate(), { offset: 1, stride: 3 });
    const m2 = new IterationCounter([100], IterationCounter.allocate(), { offset: 2, stride: 3 });
    const values = new Set<number>();
    for (let i = 0; i < 33; i++) for (const m of [m0, m1, m2]) values.add(sequenceValue(m.next(), 100));
    expect(values.size).toBe(99); // 99 draws, no value twice
  });
});
