import { describe, expect, it } from 'vitest';
import { latencyDigits, percentDigits, rateDigits, roundFigure } from './figure-rounding';

describe('roundFigure (docs/reference/02-running.md §3 "CSV export")', () => {
  it('rounds half away from zero on the decimal text, as Intl.NumberFormat shows it', () => {
    expect(roundFigure(1.005, 2)).toBe(1.01);
    expect(roundFigure(12.345, 1)).toBe(12.3);
    expect(roundFigure(14.567, 1)).toBe(14.6);
    expect(roundFigure(123.5, 0)).toBe(124);
    expect(roundFigure(-2.5, 0)).toBe(-3);
    expect(roundFigure(1e-7, 2)).toBe(0);
    expect(roundFigure(2e21, 1)).toBe(2e21);
    for (const [value, digits] of [
      [1.005, 2],
      [0.125, 2],
      [8.345, 2],
      [45.55, 1],
      [1234.5, 0],
    ] as const) {
      const shown = new Intl.NumberFormat('en', { maximumFractionDigits: digits, useGrouping: false }).format(
        value,
      );
      expect(roundFigure(value, digits)).toBe(Number(shown));
    }
  });

  it('gives the digits the screens show', () => {
    expect([latencyDigits(9.99), latencyDigits(10), latencyDigits(100)]).toEqual([2, 1, 0]);
    expect([rateDigits(99.9), rateDigits(100)]).toEqual([1, 0]);
    expect([percentDigits(9.99), percentDigits(10)]).toEqual([2, 1]);
  });
});
