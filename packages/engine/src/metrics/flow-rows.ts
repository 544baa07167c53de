import type { FlowRowFigures } from '@aqa/plan';
import type { FlowResultRow } from '../types';

/**
 * A flow's row of the engine's result as a run's summary keeps it (docs/adr/0027-load-profiles.md
 * "Flows"): its iterations and its calls' requests, failures and latency merged — what a threshold
 * scoped to the flow (`browse: p95<300`) is judged on at the end of the run.
 */
export function flowSummaryRow(row: FlowResultRow): FlowRowFigures & { name: string; iterations: number } {
  return {
    name: row.name,
    iterations: row.iterations,
    total_requests: row.total_requests,
    failed_requests: row.failed_requests,
    error_rate: row.error_rate,
    average_response_time: row.latency.avg,
    percentile_95: row.latency.p95,
    percentile_99: row.latency.p99,
  };
}
