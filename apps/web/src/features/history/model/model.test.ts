import { describe, expect, it } from 'vitest';
import { dispositionFilename } from '@/features/results';
import { pastRun } from '../test/fixtures';
import { defaultBaseId } from './compare-defaults';
import { deltaTone, formatDelta, formatDeltaPercent } from './deltas';
import { formatMinutesSeconds } from './run-format';

describe('formatMinutesSeconds', () => {
  it('writes seconds as "Nm Ns"', () => {
    expect(formatMinutesSeconds(0)).toBe('0m 0s');
    expect(formatMinutesSeconds(59.6)).toBe('1m 0s');
    expect(formatMinutesSeconds(125)).toBe('2m 5s');
    expect(formatMinutesSeconds(null)).toBe('—');
  });
});

describe('defaultBaseId', () => {
  const runs = [
    pastRun('r3', { start_time: '2025-03-03T00:00:00Z' }),
    pastRun('r2', { start_time: '2025-03-02T00:00:00Z' }),
    pastRun('r1', { start_time: '2025-03-01T00:00:00Z' }),
  ];
  it('takes the run before the candidate', () => {
    expect(defaultBaseId(runs[0]!, runs)).toBe('r2');
    expect(defaultBaseId(runs[2]!, runs)).toBeNull();
  });
  it('prefers the baseline, unless the candidate is the baseline', () => {
    const withBaseline = runs.map((run) => ({ ...run, is_baseline: run.test_id === 'r1' }));
    expect(defaultBaseId(withBaseline[0]!, withBaseline)).toBe('r1');
    expect(defaultBaseId(withBaseline[2]!, withBaseline)).toBeNull();
  });
  it('finds the older run by start time when the candidate is not listed', () => {
    expect(defaultBaseId({ test_id: 'x', start_time: '2025-03-02T12:00:00Z' }, runs)).toBe('r2');
  });
});

describe('deltas', () => {
  it('colours worse red, any other change green, none neutral', () => {
    expect(deltaTone(10, true)).toBe('worse');
    expect(deltaTone(-10, false)).toBe('better');
    expect(deltaTone(0, false, 0)).toBe('same');
    expect(deltaTone(null, false, 3)).toBe('better');
    expect(deltaTone(null, false)).toBe('unknown');
  });
  it('writes signed changes', () => {
    expect(formatDeltaPercent(12.345, 'en-US')).toBe('+12.3%');
    expect(formatDeltaPercent(-3.14159, 'en-US')).toBe('−3.14%');
    expect(formatDeltaPercent(null, 'en-US')).toBe('—');
    expect(formatDelta(4.25, 'ms', 'en-US')).toBe('+4.25 ms');
    expect(formatDelta(-10, 'req/s', 'en-US')).toBe('−10 req/s');
  });
});

describe('dispositionFilename', () => {
  it('reads the file name of a Content-Disposition header', () => {
    expect(dispositionFilename('attachment; filename="report_a_b.html"')).toBe('report_a_b.html');
    expect(dispositionFilename("attachment; filename*=UTF-8''report_%EA%B0%80.csv")).toBe('report_가.csv');
    expect(dispositionFilename(null)).toBeNull();
  });
});
