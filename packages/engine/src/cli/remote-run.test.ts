import type { ResultSummary } from '@aqa/plan';
import { describe, expect, it } from 'vitest';
import { flowsLine, iterationsLine, remoteSummaryText } from './remote-run';

const summary: ResultSummary = {
  concurrent_users: 2,
  requests_per_second: 5,
  average_response_time: 400,
  error_rate: 0,
  total_requests: 15,
  successful_requests: 15,
  failed_requests: 0,
  percentile_50: 400,
  percentile_90: 401,
  percentile_95: 402,
  percentile_99: 403,
  percentile_999: 403,
  min_response_time: 400,
  max_response_time: 403,
  avg_bandwidth: 1,
  test_duration: 3.4,
};

describe('aqa run --plan --server: the iterations of an open-model profile', () => {
  it('says how many were dropped when the server counted them, and nothing for a run without them', () => {
    expect(iterationsLine({ ...summary, iterations_started: 1234, iterations_dropped: 15 })).toBe(
      'Iterations: 1,234 started, 15 dropped (due while no user of the pool was free: raise max_users)',
    );
    expect(iterationsLine({ ...summary, iterations_started: 30, iterations_dropped: 0 })).toBe(
      'Iterations: 30 started, 0 dropped',
    );
    expect(iterationsLine(summary)).toBeNull();
    const lag = { avg: 0.5, p50: 0.4, p90: 1, p95: 1.25, p99: 3.5, p999: 4, min: 0, max: 5 };
    expect(
      iterationsLine({ ...summary, iterations_started: 30, iterations_dropped: 0, schedule_lag: lag }),
    ).toBe('Iterations: 30 started, 0 dropped; started late by p95 1.25 ms, p99 3.50 ms');
  });
});

describe('aqa run --plan --server: the flows of a plan with flows', () => {
  it('names each flow with its iterations and share, and nothing for a plan without flows', () => {
    const flows = [
      { name: 'browse', iterations: 7001 },
      { name: 'search', iterations: 2999 },
    ];
    expect(flowsLine({ ...summary, flows })).toBe('Flows: browse 7,001 (70.0 %), search 2,999 (30.0 %)');
    expect(flowsLine(summary)).toBeNull();
  });
});

describe('aqa run --plan --server: a run an abort threshold stopped', () => {
  it('says why and where it broke, in place of the bare error', () => {
    const reason = 'p95 812 ms broke p95<500 at 2m14s';
    const text = remoteSummaryText(
      {
        test_id: 'r1',
        plan_id: 'p1',
        plan_name: 'Breakpoint',
        status: 'stopped',
        progress: 40,
        elapsed_seconds: 134,
        duration_seconds: 300,
        intermediate: false,
        concurrent_users: 50,
        tool: 'k6',
        engine: 'builtin',
        engine_note: 'ran with the built-in engine',
        started_at: '2026-12-03T06:00:00.000Z',
        ended_at: '2026-12-03T06:02:15.000Z',
        error: reason,
        error_details: null,
        summary,
        api_results: [],
        errors: {},
        agents: [],
        partial: false,
        abort_reason: { threshold: 'p95<500', metric: 'p95', actual: 812, at_ms: 134_000, text: reason },
        breaking_point: {
          model: 'arrival_rate',
          value: 42,
          at_ms: 123_000,
          text: 'the highest rate that held: 42 iterations/s at 2m3s',
        },
      },
      [],
    );
    expect(text).toContain(
      `\nAborted: ${reason}\nBreaking point: the highest rate that held: 42 iterations/s at 2m3s\n`,
    );
    expect(text.split(reason)).toHaveLength(2);
  });
});
