import { LoadProfileSchema } from '@aqa/plan';
import { describe, expect, it } from 'vitest';
import {
  errorAxis,
  flowIterationsAt,
  flowNames,
  hasIterations,
  hasTraffic,
  plannedLine,
  timelineStats,
} from './timeline';
import type { SeriesPoint } from './views';

function point(second: number, values: Partial<SeriesPoint>): SeriesPoint {
  return {
    second,
    active_users: 1,
    requests_per_second: 10,
    error_rate: 0,
    avg: 10,
    p50: 10,
    p90: 20,
    p95: 20,
    p99: 20,
    max: 20,
    ...values,
  };
}

describe('timelineStats', () => {
  it('weighs each second by its requests for the average, and takes peaks of the per-second figures', () => {
    const stats = timelineStats([
      point(1, { requests: 10, avg: 10, p95: 30 }),
      point(2, { requests: 30, avg: 20, p95: 50 }),
    ]);
    expect(stats.avgResponseTime).toBe(17.5);
    expect(stats.weighted).toBe(true);
    expect(stats.avgP95).toBe(40);
    expect(stats.peakResponseTime).toBe(20);
    expect(stats.peakP95).toBe(50);
  });

  it('counts seconds alike when request counts are unknown', () => {
    const stats = timelineStats([point(1, { avg: 10 }), point(2, { avg: 30 })]);
    expect(stats.avgResponseTime).toBe(20);
    expect(stats.weighted).toBe(false);
  });

  it('leaves out seconds without a completed request', () => {
    const stats = timelineStats([
      point(1, { requests: 0, avg: 0, p95: 0 }),
      point(2, { requests: 5, avg: 40, p95: 80 }),
    ]);
    expect(stats.avgResponseTime).toBe(40);
    expect(stats.avgP95).toBe(80);
    expect(hasTraffic(point(1, { requests: 0 }))).toBe(false);
    expect(hasTraffic(point(1, { requests_per_second: 0 }))).toBe(false);
  });

  it('has no figures without data', () => {
    expect(timelineStats([])).toEqual({
      avgResponseTime: null,
      avgP95: null,
      peakResponseTime: null,
      peakP95: null,
      weighted: false,
    });
  });
});

describe('errorAxis (docs/reference/02-running.md §9: fixed 0–10 %)', () => {
  it('is 0–10 % while every rate fits', () => {
    expect(errorAxis([point(1, { error_rate: 3 }), point(2, { error_rate: 10 })])).toEqual({
      max: 10,
      scaled: false,
    });
    expect(errorAxis([])).toEqual({ max: 10, scaled: false });
  });

  it('widens to the next multiple of 10 (at most 100) when a rate exceeds 10 %', () => {
    expect(errorAxis([point(1, { error_rate: 10.5 })])).toEqual({ max: 20, scaled: true });
    expect(errorAxis([point(1, { error_rate: 37 })])).toEqual({ max: 40, scaled: true });
    expect(errorAxis([point(1, { error_rate: 100 })])).toEqual({ max: 100, scaled: true });
  });
});

describe('plannedLine', () => {
  it('draws a profile’s corners in seconds: users or iterations per second, straight between stages', () => {
    const profile = LoadProfileSchema.parse({
      model: 'arrival_rate',
      start: 5,
      stages: [
        { duration: '30s', target: 50 },
        { duration: '0s', target: 80 },
        { duration: '1m', target: 80 },
      ],
    });
    expect(plannedLine(profile)).toEqual([
      { x: 0, y: 5 },
      { x: 30, y: 50 },
      { x: 30, y: 80 },
      { x: 90, y: 80 },
    ]);
  });

  it('is empty for a run without a profile', () => {
    expect(plannedLine(undefined)).toEqual([]);
    expect(plannedLine(null)).toEqual([]);
  });
});

describe('hasIterations', () => {
  it('is true once a second carries measured iterations (an open-model run)', () => {
    expect(hasIterations([point(1, {})])).toBe(false);
    expect(hasIterations([point(1, {}), point(2, { iterations: 0 })])).toBe(true);
  });
});

describe('the flows of a timeline (docs/adr/0027-load-profiles.md "Flows")', () => {
  const series = [
    point(1, {
      flows: [
        { name: 'browse', iterations: 7 },
        { name: 'search', iterations: 3 },
      ],
    }),
    point(2, { flows: [{ name: 'browse', iterations: 4 }] }),
    point(3, {}),
  ];

  it('names the flows the seconds carry, in their order, each once', () => {
    expect(flowNames(series)).toEqual(['browse', 'search']);
    expect(flowNames([point(1, {})])).toEqual([]);
  });

  it('reads a flow’s iterations in a second: 0 when the second lists others, a gap when it carries none', () => {
    expect(series.map((p) => flowIterationsAt(p, 'search'))).toEqual([3, 0, null]);
  });
});
