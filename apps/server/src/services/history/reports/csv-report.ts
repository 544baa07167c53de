import {
  latencyDigits,
  ONE_DECIMAL,
  percentDigits,
  rateDigits,
  roundFigure,
  type ChartData,
} from '@aqa/plan';
import { flowAt, flowNames, flowSecond, flowsMeasureCalls } from './flow-series';

/** Figures rounded as the result screen shows them (docs/reference/02-running.md §3 "CSV export"). */
const ms = (value: number): number => roundFigure(value, latencyDigits(value));
const rate = (value: number): number => roundFigure(value, rateDigits(value));
const percent = (value: number): number => roundFigure(value, percentDigits(value));
const kbs = (value: number): number => roundFigure(value, ONE_DECIMAL);

export const SERIES_HEADER =
  'second,active_users,requests,requests_per_second,errors,error_rate,avg_ms,p50_ms,p90_ms,p95_ms,p99_ms,max_ms,bandwidth_kbs';
export const API_SERIES_HEADER =
  'api_index,api_name,method,url,second,requests_per_second,error_rate,avg_ms,p95_ms';

/**
 * One CSV field. Text is quoted when it holds a separator, quote or line break; text a spreadsheet
 * would run as a formula (=, +, -, @ first) gets a leading apostrophe, so an API name cannot execute.
 */
export function csvText(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** A flow's calls in one second: requests, errors, avg and p95 (ms); latency empty with no call. */
function flowCallFigures(
  flow: { requests?: number; failures?: number; latency?: { avg: number; p95: number } } | undefined,
): (number | string)[] {
  const requests = flow?.requests ?? 0;
  const latency = requests > 0 ? flow?.latency : undefined;
  return [
    requests,
    flow?.failures ?? 0,
    latency === undefined ? '' : ms(latency.avg),
    latency === undefined ? '' : ms(latency.p95),
  ];
}

/**
 * The run's per-second series, whole run then per API, separated by a blank line. A run that counted its
 * iterations (docs/adr/0027-load-profiles.md "8. Live and stored results") has more columns at the end of
 * the first part: `iterations` and `dropped_iterations` (open model), one `flow:<name>` per flow (its
 * iterations), and — where the engine measured each flow's calls — `flow:<name>:requests`, `:errors`,
 * `:avg_ms` and `:p95_ms` per flow (empty in a second the flow made no call).
 */
export function renderCsvReport(chart: ChartData): string {
  const counted = chart.series.some((p) => p.iterations !== undefined);
  const flows = flowNames(chart);
  const flowCalls = flowsMeasureCalls(chart);
  const extraHeader = [
    ...(counted ? ['iterations', 'dropped_iterations'] : []),
    ...flows.map((name) => csvText(`flow:${name}`)),
    ...(flowCalls
      ? flows.flatMap((name) =>
          ['requests', 'errors', 'avg_ms', 'p95_ms'].map((figure) => csvText(`flow:${name}:${figure}`)),
        )
      : []),
  ];
  const lines = [[SERIES_HEADER, ...extraHeader].join(',')];
  for (const p of chart.series) {
    const extra = [
      ...(counted ? [p.iterations ?? 0, p.dropped_iterations ?? 0] : []),
      ...flows.map((name) => flowAt(p.flows, name)),
      ...(flowCalls ? flows.flatMap((name) => flowCallFigures(flowSecond(p.flows, name))) : []),
    ];
    lines.push(
      [
        p.second,
        p.active_users,
        p.requests,
        rate(p.requests_per_second),
        p.errors,
        percent(p.error_rate),
        ms(p.avg),
        ms(p.p50),
        ms(p.p90),
        ms(p.p95),
        ms(p.p99),
        ms(p.max),
        kbs(p.bandwidth_kbs),
        ...extra,
      ].join(','),
    );
  }
  lines.push('', API_SERIES_HEADER);
  for (const api of chart.api_series) {
    for (const p of api.points) {
      lines.push(
        [
          api.index,
          csvText(api.name),
          csvText(api.method),
          csvText(api.url),
          p.second,
          rate(p.requests_per_second),
          percent(p.error_rate),
          ms(p.avg),
          ms(p.p95),
        ].join(','),
      );
    }
  }
  return `${lines.join('\r\n')}\r\n`;
}
