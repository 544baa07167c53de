import { describe, expect, it } from 'vitest';
import { durationMs } from './taurus-text';

describe('durationMs (docs/reference/02-running.md §3 "Taurus scripts")', () => {
  it('reads numbers and pieces', () => {
    expect(durationMs('1m30s')).toBe(90_000);
    expect(durationMs('1s500ms')).toBe(1500);
    expect(durationMs('2.5')).toBe(2500);
    expect(durationMs(' 2 h ')).toBe(7_200_000);
    expect(durationMs('1ms')).toBe(1);
    expect(durationMs('${__P(t)}')).toBeUndefined();
    expect(durationMs('10x')).toBeUndefined();
  });

  it('reads a long run of digits that is no duration at once (docs/adr/0022-linear-time-patterns.md)', () => {
    // The duration's shape once tried every split of the digits into pieces: 2ⁿ for n digits.
    const started = Date.now();
    expect(durationMs(`${'0'.repeat(40)}x`)).toBeUndefined();
    expect(durationMs(`${'1'.repeat(5000)}s!`)).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
