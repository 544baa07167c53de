import { Histogram } from '@aqa/engine';
import { describe, expect, it } from 'vitest';
import {
  fittedLatencyDistribution,
  latencyDistribution,
  pastRunView,
  testResultView,
  type RunRecord,
} from './run-model';

describe('latencyDistribution', () => {
  it("counts the run's latencies in the spec's bins, summing to every timed request", () => {
    const h = new Histogram();
    const ms = [1, 50, 99.5, 100.5, 150, 199, 250, 350, 450, 499, 500.5, 2000, 60_000];
    for (const value of ms) h.record(value * 1000);
    expect(latencyDistribution(h.encode())).toEqual([
      { label: '0-100ms', count: 3 },
      { label: '100-200ms', count: 3 },
      { label: '200-300ms', count: 1 },
      { label: '300-400ms', count: 1 },
      { label: '400-500ms', count: 2 },
      { label: '500ms+', count: 3 },
    ]);
  });

  it('is all zeros before anything was measured', () => {
    expect(latencyDistribution(null).every((bin) => bin.count === 0)).toBe(true);
  });
});

describe('testResultView', () => {
  const base: RunRecord = {
    id: 'run_x',
    user_id: 'u',
    workspace_id: 'u',
    plan_id: 'p',
    plan_name: 'Plan',
    status: 'running',
    tool: 'k6',
    engine: 'builtin',
    engine_note: '',
    config: { plan: {} as RunRecord['config']['plan'], duration_seconds: 60, steps: [] },
    concurrent_users: 2,
    duration_seconds: 60,
    started_at: '2030-01-01T00:00:00.000Z',
    ended_at: null,
    error: null,
    error_details: null,
    summary: null,
    api_results: [],
    errors: {},
    histogram: null,
  };
  const at = (seconds: number) => Date.parse(base.started_at) + seconds * 1000;

  it('reports progress as elapsed over the configured duration while running', () => {
    expect(testResultView(base, at(15))).toMatchObject({
      status: 'running',
      progress: 25,
      elapsed_seconds: 15,
      intermediate: true,
    });
  });

  it('is processing once the duration is over and the result is not stored yet', () => {
    expect(testResultView(base, at(61))).toMatchObject({
      status: 'processing',
      progress: 100,
      elapsed_seconds: 60,
    });
  });

  it('keeps how far a stopped run got, and a completed one is at 100', () => {
    const stopped = { ...base, status: 'stopped' as const, ended_at: '2030-01-01T00:00:06.000Z' };
    expect(testResultView(stopped, at(500))).toMatchObject({
      progress: 10,
      elapsed_seconds: 6,
      intermediate: false,
    });
    const completed = { ...base, status: 'completed' as const, ended_at: '2030-01-01T00:01:02.000Z' };
    expect(testResultView(completed, at(500))).toMatchObject({ progress: 100, elapsed_seconds: 60 });
  });

  const annotations = { test_name: null, notes: '', is_baseline: false };

  it('lists a run that failed after 1 s, before any figures, with the 1 s it ran, not its 60 s plan', () => {
    const failed = {
      ...base,
      status: 'failed' as const,
      ended_at: '2030-01-01T00:00:01.200Z',
      error: 'JMeter exited with code 1',
    };
    expect(pastRunView(failed, at(500), annotations).duration).toBe(1.2);
    // Still running, it is listed with the duration it was started for.
    expect(pastRunView(base, at(15), annotations).duration).toBe(60);
  });

  it('lists a run with figures with their measured test duration, its percentiles within min and max', () => {
    const summary = {
      concurrent_users: 2,
      requests_per_second: 10,
      average_response_time: 5,
      error_rate: 0,
      total_requests: 30,
      successful_requests: 30,
      failed_requests: 0,
      percentile_50: 1,
      percentile_90: 9,
      percentile_95: 12,
      percentile_99: 15,
      percentile_999: 15,
      min_response_time: 1.2,
      max_response_time: 14.56,
      avg_bandwidth: 1,
      test_duration: 3.4,
    };
    const stopped = { ...base, status: 'stopped' as const, ended_at: '2030-01-01T00:00:04.000Z', summary };
    const listed = pastRunView(stopped, at(500), annotations);
    expect(listed.duration).toBe(3.4);
    expect(listed.results_summary).toMatchObject({
      percentile_50: 1.2,
      percentile_95: 12,
      percentile_99: 14.56,
      percentile_999: 14.56,
      max_response_time: 14.56,
    });
  });
});

describe('fittedLatencyDistribution', () => {
  /** 2,400 responses of a 2 ms API: 1.70 to 2.60 ms, spread evenly. */
  function twoMsApi(): Histogram {
    const h = new Histogram();
    for (let i = 0; i < 2400; i += 1) h.record(1700 + ((i * 37) % 901));
    return h;
  }
  const total = (bins: { count: number }[]) => bins.reduce((sum, bin) => sum + bin.count, 0);

  it('spreads a 2 ms API over many bars where the fixed bins have one', () => {
    const h = twoMsApi();
    expect(latencyDistribution(h.encode())[0]).toEqual({ label: '0-100ms', count: 2400 });
    const bins = fittedLatencyDistribution(h.encode());
    expect(bins.length).toBeGreaterThanOrEqual(10);
    expect(bins.length).toBeLessThanOrEqual(20);
    // 0.9 ms over at most 20 bars: 0.05 ms each, from 1.70 ms up to the bar holding 2.60 ms.
    expect(bins[0]!.label).toBe('1.70-1.75ms');
    expect(bins.at(-1)!.label).toBe('2.60-2.65ms');
    expect(bins.filter((bin) => bin.count > 0).length).toBeGreaterThanOrEqual(10);
    expect(total(bins)).toBe(2400);
    expect(Math.max(...bins.map((bin) => bin.count))).toBeLessThan(300);
  });

  it('gives the slowest 0.1 % a bar of their own when they would stretch the range', () => {
    const h = new Histogram();
    for (let i = 0; i < 1999; i += 1) h.record(10_000 + (i % 100) * 100);
    h.record(5_000_000);
    const bins = fittedLatencyDistribution(h.encode());
    expect(bins.at(-1)!.label).toMatch(/^\d+(\.\d+)?ms\+$/);
    expect(bins.at(-1)!.count).toBe(1);
    expect(bins.length).toBeLessThanOrEqual(21);
    expect(bins[0]!.label).toBe('10.0-10.5ms');
    expect(total(bins)).toBe(2000);
  });

  it('uses whole milliseconds for a wide range', () => {
    const h = new Histogram();
    for (const ms of [3, 40, 80, 150, 390]) h.record(ms * 1000);
    const bins = fittedLatencyDistribution(h.encode());
    expect(bins[0]!.label).toBe('0-20ms');
    expect(bins.at(-1)!.label).toBe('380-400ms');
    expect(total(bins)).toBe(5);
  });

  it('is one bar when every response took the same time, and empty before anything was measured', () => {
    const h = new Histogram();
    for (let i = 0; i < 50; i += 1) h.record(2000);
    expect(fittedLatencyDistribution(h.encode())).toEqual([{ label: '2.00-2.01ms', count: 50 }]);
    expect(fittedLatencyDistribution(null)).toEqual([]);
    expect(fittedLatencyDistribution(new Histogram().encode())).toEqual([]);
  });
});
