import { describe, expect, it } from 'vitest';
import {
  bucketLowerBound,
  comparisonLabel,
  distributionRows,
  errorRateBadgeVariant,
  errorRateLevel,
  formatCount,
  formatKbs,
  formatMs,
  formatPercent,
  formatRps,
  formatSeconds,
  isBuiltInEngine,
  MISSING,
  toolName,
} from './format';

describe('error-rate badge (docs/reference/02-running.md §2, §9: green < 5 %, yellow < 10 %, red otherwise)', () => {
  it.each([
    [0, 'success'],
    [4.99, 'success'],
    [5, 'warning'],
    [9.99, 'warning'],
    [10, 'destructive'],
    [100, 'destructive'],
  ] as const)('%s %% → %s', (rate, variant) => {
    expect(errorRateBadgeVariant(rate)).toBe(variant);
  });

  it('levels', () => {
    expect(errorRateLevel(1)).toBe('good');
    expect(errorRateLevel(7)).toBe('warning');
    expect(errorRateLevel(12)).toBe('bad');
  });

  it('a missing rate is neutral, not green', () => {
    expect(errorRateBadgeVariant(undefined)).toBe('secondary');
    expect(errorRateBadgeVariant(null)).toBe('secondary');
    expect(errorRateBadgeVariant(Number.NaN)).toBe('secondary');
  });
});

describe('comparisonLabel (docs/reference/02-running.md §9)', () => {
  it('cuts labels to 15 characters plus an ellipsis', () => {
    expect(comparisonLabel('Create order with a long name')).toBe('Create order wi…');
    expect(comparisonLabel('exactly15chars!')).toBe('exactly15chars!');
    expect(comparisonLabel('short')).toBe('short');
  });

  it('keeps labels that start with API_ whole', () => {
    expect(comparisonLabel('API_get_all_users_of_the_tenant')).toBe('API_get_all_users_of_the_tenant');
  });

  it('counts characters, not UTF-16 units', () => {
    expect(comparisonLabel('사용자목록을불러오는긴요청이름입니다')).toBe('사용자목록을불러오는긴요청이름…');
    expect(comparisonLabel('🚀'.repeat(16))).toBe(`${'🚀'.repeat(15)}…`);
  });
});

describe('distributionRows', () => {
  const buckets = [
    { label: '500ms+', count: 1 },
    { label: '0-100ms', count: 6 },
    { label: '100-200ms', count: 2 },
    { label: '200-300ms', count: 1 },
    { label: '300-400ms', count: 0 },
    { label: '400-500ms', count: 0 },
  ];

  it('orders the server buckets by their lower bound and keeps labels and counts as sent', () => {
    const rows = distributionRows(buckets);
    expect(rows.map((row) => row.label)).toEqual([
      '0-100ms',
      '100-200ms',
      '200-300ms',
      '300-400ms',
      '400-500ms',
      '500ms+',
    ]);
    expect(rows.map((row) => row.count)).toEqual([6, 2, 1, 0, 0, 1]);
  });

  it('gives each bucket its share of the counted requests', () => {
    const rows = distributionRows(buckets);
    expect(rows[0]?.share).toBe(60);
    expect(rows[5]?.share).toBe(10);
    expect(rows.reduce((sum, row) => sum + row.share, 0)).toBeCloseTo(100);
  });

  it('has shares of 0 when nothing was counted, and drops malformed buckets', () => {
    const rows = distributionRows([
      { label: '0-100ms', count: 0 },
      { label: 'broken', count: Number.NaN },
    ]);
    expect(rows).toEqual([{ label: '0-100ms', count: 0, share: 0 }]);
  });

  it('reads lower bounds', () => {
    expect(bucketLowerBound('0-100ms')).toBe(0);
    expect(bucketLowerBound('500ms+')).toBe(500);
    expect(bucketLowerBound('slow')).toBe(Number.POSITIVE_INFINITY);
  });
});

describe('figures with units', () => {
  it('milliseconds', () => {
    expect(formatMs(0.4234, 'en-US')).toBe('0.42 ms');
    expect(formatMs(12.345, 'en-US')).toBe('12.3 ms');
    expect(formatMs(1204.4, 'en-US')).toBe('1,204 ms');
    expect(formatMs(undefined, 'en-US')).toBe(MISSING);
  });

  it('requests per second, percent, KB/s, seconds and counts', () => {
    expect(formatRps(85.34, 'en-US')).toBe('85.3 req/s');
    expect(formatRps(1234.5, 'en-US')).toBe('1,235 req/s');
    expect(formatPercent(0, 'en-US')).toBe('0%');
    expect(formatPercent(0.0512, 'en-US')).toBe('0.05%');
    expect(formatPercent(12.54, 'en-US')).toBe('12.5%');
    expect(formatKbs(123.45, 'en-US')).toBe('123.5 KB/s');
    expect(formatSeconds(4, 'en-US')).toBe('4 s');
    expect(formatCount(12345.4, 'en-US')).toBe('12,345');
    expect(formatCount(null, 'en-US')).toBe(MISSING);
  });

  it('uses the locale', () => {
    expect(formatCount(12345, 'ko-KR')).toBe('12,345');
    expect(formatMs(1.5, 'de-DE')).toBe('1,5 ms');
  });
});

describe('tools and engines', () => {
  it('names tools, Taurus by default (docs/reference/02-running.md §2)', () => {
    expect(toolName('jmeter')).toBe('JMeter');
    expect(toolName('k6')).toBe('k6');
    expect(toolName('locust')).toBe('Locust');
    expect(toolName(undefined)).toBe('Taurus');
    expect(toolName('  ')).toBe('Taurus');
    expect(toolName('gatling')).toBe('gatling');
  });

  it('recognises the built-in engine', () => {
    expect(isBuiltInEngine('built-in')).toBe(true);
    expect(isBuiltInEngine('jmeter')).toBe(false);
    expect(isBuiltInEngine(null)).toBe(false);
  });
});
