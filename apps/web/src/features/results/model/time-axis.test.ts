import { describe, expect, it } from 'vitest';
import { timeAxisSeconds } from './time-axis';

const seconds = (...list: number[]) => list.map((second) => ({ second }));

describe('timeAxisSeconds', () => {
  it('ends a stopped run at its last measured second, not at its planned duration', () => {
    expect(timeAxisSeconds('stopped', seconds(1, 2, 3, 12), 60)).toBe(12);
    expect(timeAxisSeconds('failed', seconds(1, 2, 7), 300)).toBe(7);
    expect(timeAxisSeconds('interrupted', seconds(1, 2, 3, 4), 30)).toBe(4);
  });

  it('spans the planned duration for a completed or running run', () => {
    expect(timeAxisSeconds('completed', seconds(1, 2, 59), 60)).toBe(60);
    expect(timeAxisSeconds('running', seconds(1, 2), 60)).toBe(60);
  });

  it('falls back to the plan when a stopped run measured no second, and to the seconds when no plan is known', () => {
    expect(timeAxisSeconds('stopped', [], 60)).toBe(60);
    expect(timeAxisSeconds('stopped', seconds(4), null)).toBe(4);
    expect(timeAxisSeconds('completed', seconds(4), undefined)).toBeNull();
  });
});
