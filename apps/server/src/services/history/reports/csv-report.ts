import type { ChartData } from '@aqa/plan';

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

/** The run's per-second series, whole run then per API, separated by a blank line. */
export function renderCsvReport(chart: ChartData): string {
  const lines = [SERIES_HEADER];
  for (const p of chart.series) {
    lines.push(
      [
        p.second,
        p.active_users,
        p.requests,
        p.requests_per_second,
        p.errors,
        p.error_rate,
        p.avg,
        p.p50,
        p.p90,
        p.p95,
        p.p99,
        p.max,
        p.bandwidth_kbs,
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
          p.requests_per_second,
          p.error_rate,
          p.avg,
          p.p95,
        ].join(','),
      );
    }
  }
  return `${lines.join('\r\n')}\r\n`;
}
