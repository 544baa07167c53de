import { describe, expect, it } from 'vitest';
import { elapsedAt, maxPollingSeconds, minutesToSeconds, progressPercent } from './progress';

describe('progressPercent (docs/reference/02-running.md §4)', () => {
  it('is elapsed seconds over the configured duration in seconds × 100', () => {
    expect(progressPercent(15, 60)).toBe(25);
    expect(progressPercent(1, 4)).toBe(25);
    expect(progressPercent(3, 4)).toBe(75);
  });

  it('is capped at 100', () => {
    expect(progressPercent(4, 4)).toBe(100);
    expect(progressPercent(9, 4)).toBe(100);
  });

  it('is 0 before the start and when the duration is unknown', () => {
    expect(progressPercent(0, 60)).toBe(0);
    expect(progressPercent(-3, 60)).toBe(0);
    expect(progressPercent(10, 0)).toBe(0);
    expect(progressPercent(Number.NaN, 60)).toBe(0);
  });
});

describe('maxPollingSeconds (docs/reference/02-running.md §9)', () => {
  it('is the duration in minutes × 60 + 120 seconds', () => {
    expect(maxPollingSeconds(5 * 60)).toBe(420);
    expect(maxPollingSeconds(60)).toBe(180);
  });

  it('takes a duration of 1 minute when it is unknown', () => {
    expect(maxPollingSeconds(undefined)).toBe(180);
    expect(maxPollingSeconds(null)).toBe(180);
    expect(maxPollingSeconds(0)).toBe(180);
  });

  it('counts short runs in seconds', () => {
    expect(maxPollingSeconds(4)).toBe(124);
  });
});

describe('minutesToSeconds', () => {
  it('converts minutes, with a fallback of 1 minute', () => {
    expect(minutesToSeconds(2)).toBe(120);
    expect(minutesToSeconds('3')).toBe(180);
    expect(minutesToSeconds(0.5)).toBe(30);
    expect(minutesToSeconds(undefined)).toBe(60);
    expect(minutesToSeconds('x')).toBe(60);
    expect(minutesToSeconds(-1)).toBe(60);
  });
});

describe('elapsedAt (the one-second clock)', () => {
  it('counts on in whole seconds from the last reading', () => {
    const reading = { seconds: 10.4, at: 1_000_000 };
    expect(elapsedAt(reading, 1_000_000)).toBe(10);
    expect(elapsedAt(reading, 1_000_700)).toBe(11);
    expect(elapsedAt(reading, 1_003_000)).toBe(13);
  });

  it('never goes backwards before the reading or below 0', () => {
    expect(elapsedAt({ seconds: 5, at: 2_000 }, 1_000)).toBe(5);
    expect(elapsedAt({ seconds: -2, at: 0 }, 0)).toBe(0);
  });
});
