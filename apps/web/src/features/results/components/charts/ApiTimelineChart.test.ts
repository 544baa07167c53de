import { describe, expect, it } from 'vitest';
import { apiPointValue } from './ApiTimelineChart';

describe('apiPointValue', () => {
  const busy = { second: 3, requests_per_second: 12, error_rate: 25, avg: 40.5, p95: 90 };
  const quiet = { second: 4, requests_per_second: 0, error_rate: 0, avg: 0, p95: 0 };

  it('draws the measured figure of a second in which the API completed requests', () => {
    expect(apiPointValue(busy, 'avg')).toBe(40.5);
    expect(apiPointValue(busy, 'p95')).toBe(90);
    expect(apiPointValue(busy, 'requests_per_second')).toBe(12);
    expect(apiPointValue(busy, 'error_rate')).toBe(25);
  });

  it('leaves a gap for response times in a quiet second, but draws its zero throughput', () => {
    expect(apiPointValue(quiet, 'avg')).toBeNull();
    expect(apiPointValue(quiet, 'p95')).toBeNull();
    expect(apiPointValue(quiet, 'requests_per_second')).toBe(0);
    expect(apiPointValue(quiet, 'error_rate')).toBe(0);
  });
});
