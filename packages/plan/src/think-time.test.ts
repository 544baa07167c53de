import { describe, expect, it } from 'vitest';
import { ThinkTimeError, parseThinkTimeMs, thinkTimeProblem } from './think-time';

describe('parseThinkTimeMs', () => {
  it.each([
    ['1000ms', 1000],
    ['250 ms', 250],
    ['2s', 2000],
    ['2S', 2000],
    ['1.5', 1500],
    ['0.1', 100],
    ['.5', 500],
    ['0', 0],
    ['', 0],
    ['  3s ', 3000],
  ])('reads %j as %d ms', (text, ms) => {
    expect(parseThinkTimeMs(text)).toBe(ms);
  });

  it('says what is wrong with text it cannot read', () => {
    expect(() => parseThinkTimeMs('two seconds')).toThrow(ThinkTimeError);
    expect(thinkTimeProblem('two seconds')).toBe(
      'Think time "two seconds" is not understood: write milliseconds like 1000ms, seconds like 2s, or a number of seconds like 1.5',
    );
    expect(thinkTimeProblem('-1')).toMatch(/not understood/);
    expect(thinkTimeProblem('1.25')).toBe('Think time "1.25" goes in steps of 0.1 s (e.g. 1.2 or 1.3)');
    expect(thinkTimeProblem('1.5ms')).toBe('Think time "1.5ms" must be a whole number of milliseconds');
    expect(thinkTimeProblem('3601s')).toBe('Think time "3601s" is longer than the maximum of 1 hour');
    expect(thinkTimeProblem('2s')).toBeUndefined();
  });
});
