import { Histogram } from '@aqa/engine';
import { describe, expect, it } from 'vitest';
import { latencyDistribution, testResultView, type RunRecord } from './run-model';

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
});
