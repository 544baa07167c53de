import { Histogram, type RunSnapshot, type StepSnapshot } from '@aqa/engine';
import type { ApiResult, ResultSummary } from '@aqa/plan';
import { describe, expect, it } from 'vitest';
import { pointRows } from './database-output';
import { interruptedEnding } from './interrupted-run';
import type { RunRecord } from './run-model';
import { rowToPoint } from './run-rows';

/*
 * An interrupted run is rebuilt from the rows its seconds were stored as (docs/adr/0016-crash-recovery.md):
 * counts are their sums, and latencies come from their merged histograms, so they equal what one
 * histogram of every request would say.
 */

const STEPS = [
  { index: 0, name: 'List', label: 'GET /items', method: 'GET', url: 'http://127.0.0.1:9/items' },
  { index: 1, name: 'Buy', label: 'POST /buy', method: 'POST', url: 'http://127.0.0.1:9/buy' },
];

const record: RunRecord = {
  id: 'run_rebuilt',
  user_id: 'u',
  workspace_id: 'u',
  plan_id: 'p',
  plan_name: 'Plan',
  status: 'running',
  tool: 'k6',
  engine: 'builtin',
  engine_note: '',
  config: { plan: {} as RunRecord['config']['plan'], duration_seconds: 60, steps: STEPS },
  concurrent_users: 3,
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

const LATENCY = { avg: 0, p50: 0, p90: 0, p95: 0, p99: 0, p999: 0, min: 0, max: 0 };

/** A deterministic spread of latencies (µs), different each second and step. */
function latenciesUs(second: number, step: number, n: number): number[] {
  return Array.from(
    { length: n },
    (_, k) => 500 + ((k * 7919 + second * 104_729 + step * 1_299_709) % 250_000),
  );
}

function stepSnapshot(step: number, values: number[], failures: number): StepSnapshot {
  const h = new Histogram();
  for (const v of values) h.record(v);
  return {
    step,
    label: STEPS[step]!.label,
    requests: values.length,
    successes: values.length - failures,
    failures,
    errors: failures > 0 ? { http_status: failures } : {},
    bytesSent: values.length * 10,
    bytesReceived: values.length * 100,
    requestsPerSecond: values.length,
    errorRate: 0,
    bandwidthKBs: 0,
    latency: LATENCY,
    histogram: h.encode(),
  };
}

function snapshot(second: number, elapsedS: number, steps: StepSnapshot[], all: number[]): RunSnapshot {
  const h = new Histogram();
  for (const v of all) h.record(v);
  const sum = (key: 'requests' | 'successes' | 'failures' | 'bytesSent' | 'bytesReceived') =>
    steps.reduce((total, s) => total + s[key], 0);
  const failures = sum('failures');
  return {
    second,
    elapsedS,
    intervalS: 1,
    activeUsers: 3,
    generatorBusy: 0.1,
    requests: sum('requests'),
    successes: sum('successes'),
    failures,
    errors: failures > 0 ? { http_status: failures } : {},
    bytesSent: sum('bytesSent'),
    bytesReceived: sum('bytesReceived'),
    requestsPerSecond: sum('requests'),
    errorRate: 0,
    bandwidthKBs: 0,
    latency: LATENCY,
    histogram: h.encode(),
    steps,
    totals: { requests: 0, successes: 0, failures: 0, bytesSent: 0, bytesReceived: 0 },
  };
}

const ms = (us: number) => Math.round(us) / 1000;

describe('interruptedEnding', () => {
  it('rebuilds the summary and API rows exactly from the stored seconds, ending at the last one', () => {
    const everyValue: number[] = [];
    const byStep: number[][] = [[], []];
    const rows = [];
    let failed = 0;
    for (let second = 1; second <= 4; second++) {
      const steps = [0, 1].map((step) => {
        const values = latenciesUs(second, step, 40 + second * 3 + step);
        byStep[step]!.push(...values);
        everyValue.push(...values);
        failed += step;
        return stepSnapshot(step, values, step);
      });
      const all = steps.flatMap((_, step) => latenciesUs(second, step, 40 + second * 3 + step));
      // The last second is cut short, as when the server died inside it.
      rows.push(...pointRows(record.id, snapshot(second, second === 4 ? 3.5 : second, steps, all)));
    }
    // Stored rows come back in any order.
    const points = rows.reverse().map((row) => rowToPoint(row));

    const ending = interruptedEnding(record, points);
    const summary = JSON.parse(ending.summary as string) as ResultSummary;
    const apis = JSON.parse(ending.api_results as string) as ApiResult[];

    const whole = new Histogram();
    for (const v of everyValue) whole.record(v);
    expect(ending).toMatchObject({
      status: 'interrupted',
      error: 'interrupted by a server restart',
      ended_at: '2030-01-01T00:00:03.500Z',
      total_requests: everyValue.length,
    });
    expect(summary).toMatchObject({
      total_requests: everyValue.length,
      failed_requests: failed,
      successful_requests: everyValue.length - failed,
    });
    expect(JSON.parse(ending.errors as string)).toEqual({ http_status: { count: failed, samples: [] } });
    expect(summary).toMatchObject({
      test_duration: 3.5,
      percentile_50: ms(whole.valueAtPercentile(50)),
      percentile_95: ms(whole.valueAtPercentile(95)),
      percentile_99: ms(whole.valueAtPercentile(99)),
      max_response_time: ms(whole.max),
      min_response_time: ms(whole.min),
    });
    expect(summary.requests_per_second).toBe(Math.round((everyValue.length / 3.5) * 100) / 100);
    byStep.forEach((values, step) => {
      const h = new Histogram();
      for (const v of values) h.record(v);
      expect(apis[step]).toMatchObject({
        name: STEPS[step]!.name,
        total_requests: values.length,
        failed_requests: step * 4,
        percentile_95: ms(h.valueAtPercentile(95)),
        percentile_99: ms(h.valueAtPercentile(99)),
      });
    });
  });

  it('adds up an open-model run’s stored iterations, started and dropped, into its summary', () => {
    const counts = [
      [10, 0],
      [7, 3],
      [5, 5],
    ] as const;
    const rows = counts.flatMap(([started, dropped], i) => {
      const values = latenciesUs(i + 1, 0, started);
      const s = snapshot(i + 1, i + 1, [stepSnapshot(0, values, 0)], values);
      return pointRows(record.id, { ...s, iterations: started, droppedIterations: dropped });
    });
    const ending = interruptedEnding(
      record,
      rows.map((row) => rowToPoint(row)),
    );
    expect(JSON.parse(ending.summary as string)).toMatchObject({
      total_requests: 22,
      iterations_started: 22,
      iterations_dropped: 8,
    });
    // A run without a profile stores no iteration figures, and its summary has none.
    const flat = pointRows(record.id, snapshot(1, 1, [stepSnapshot(0, [900], 0)], [900]));
    expect(JSON.parse(flat[0]!.data)).not.toHaveProperty('iterations');
    const plain = JSON.parse(interruptedEnding(record, flat.map(rowToPoint)).summary as string) as object;
    expect(plain).not.toHaveProperty('iterations_started');
  });

  it('adds up a run’s stored iterations per flow into its summary (docs/adr/0027-load-profiles.md "Flows")', () => {
    const perSecond = [
      [7, 3],
      [6, 2],
    ] as const;
    const rows = perSecond.flatMap(([browse, search], i) => {
      const values = latenciesUs(i + 1, 0, browse + search);
      const s = snapshot(i + 1, i + 1, [stepSnapshot(0, values, 0)], values);
      const flows = [
        { name: 'browse', iterations: browse },
        { name: 'search', iterations: search },
      ];
      return pointRows(record.id, { ...s, flows });
    });
    const ending = interruptedEnding(record, rows.map(rowToPoint));
    expect(JSON.parse(ending.summary as string)).toMatchObject({
      flows: [
        { name: 'browse', iterations: 13 },
        { name: 'search', iterations: 5 },
      ],
    });
    const flat = pointRows(record.id, snapshot(1, 1, [stepSnapshot(0, [900], 0)], [900]));
    expect(JSON.parse(interruptedEnding(record, flat.map(rowToPoint)).summary as string)).not.toHaveProperty(
      'flows',
    );
  });

  it('ends a run that stored no second at its start, with no figures', () => {
    const ending = interruptedEnding(record, []);
    expect(ending).toMatchObject({
      status: 'interrupted',
      ended_at: record.started_at,
      summary: null,
      total_requests: null,
      api_results: '[]',
    });
  });
});
