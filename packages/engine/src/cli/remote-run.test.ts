import type { ResultSummary } from '@aqa/plan';
import { describe, expect, it } from 'vitest';
import { flowsLine, iterationsLine } from './remote-run';

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
