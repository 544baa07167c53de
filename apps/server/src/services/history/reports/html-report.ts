import {
  abortSaid,
  breakingPointSaid,
  flowRows,
  iterationFigures,
  type ChartData,
  type ErrorsByKind,
  type PastRun,
  type TestResult,
} from '@aqa/plan';
import { escapeHtml } from './escape';
import { flowAt, flowNames } from './flow-series';
import { barChart, lineChart } from './svg-charts';

export interface ReportContent {
  run: PastRun;
  result: TestResult;
  chart: ChartData;
  /** When the report was made (ISO-8601). */
  generatedAt: string;
}

const COLORS = {
  avg: '#2563eb',
  p95: '#d97706',
  p99: '#dc2626',
  users: '#7c3aed',
  throughput: '#059669',
  errors: '#dc2626',
  distribution: '#0891b2',
  iterations: '#ea580c',
  dropped: '#b91c1c',
};

/** The colours of the flows' lines, in the plan's order of flows (repeating after the last). */
const FLOW_COLORS = ['#4f46e5', '#0891b2', '#c026d3', '#0d9488', '#475569', '#7c3aed'];

// No fetch of any kind is allowed: the file must read the same offline, years later.
const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

const STYLE = `
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#111827;background:#f9fafb}
main{max-width:960px;margin:0 auto;padding:24px}
h1{font-size:24px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 10px}
.muted{color:#6b7280;font-size:13px}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(150px,1fr));gap:10px}
.card{background:#fff;border:1px solid #e5e7eb;border-radius:8px;padding:10px 12px}
.card .label{font-size:12px;color:#6b7280}.card .value{font-size:18px;font-weight:600;margin-top:2px}
table{width:100%;border-collapse:collapse;background:#fff;border:1px solid #e5e7eb;font-size:13px}
th,td{text-align:left;padding:6px 8px;border-bottom:1px solid #e5e7eb;vertical-align:top}
th{background:#f3f4f6;font-weight:600}td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
.url{word-break:break-all}
.charts{display:grid;gap:12px}.chart{background:#fff;border:1px solid #e5e7eb;border-radius:8px}
.chart-title{font-size:14px;font-weight:600;fill:#111827}.legend,.tick{font-size:11px;fill:#4b5563}
.axis-label{font-size:11px;fill:#6b7280}.grid{stroke:#e5e7eb}.axis{stroke:#9ca3af}
.chart-empty{font-size:13px;fill:#6b7280}
.badge{display:inline-block;padding:1px 8px;border-radius:9999px;font-size:12px;font-weight:600}
.completed{background:#dcfce7;color:#166534}.running{background:#dbeafe;color:#1e40af}
.failed{background:#fee2e2;color:#991b1b}.stopped{background:#fef9c3;color:#854d0e}
.other{background:#f3f4f6;color:#374151}
ul.samples{margin:0;padding-left:18px}
`;

const number = (value: number, digits = 2): string =>
  Number.isFinite(value) ? value.toLocaleString('en-US', { maximumFractionDigits: digits }) : '—';

/** "1m 05s" (docs/reference/02-running.md: durations as "Nm Ns"). */
function minutesSeconds(totalS: number): string {
  const s = Math.round(totalS);
  return `${Math.floor(s / 60)}m ${s % 60}s`;
}

function badge(status: string): string {
  // An interrupted run ended early, in the stopped colour (docs/adr/0016-crash-recovery.md).
  const shown = status === 'interrupted' ? 'stopped' : status;
  const kind = ['completed', 'running', 'failed', 'stopped'].includes(shown) ? shown : 'other';
  return `<span class="badge ${kind}">${escapeHtml(status)}</span>`;
}

function card(label: string, value: string): string {
  return `<div class="card"><div class="label">${escapeHtml(label)}</div><div class="value">${escapeHtml(value)}</div></div>`;
}

function infoRows(rows: [string, string][]): string {
  return rows.map(([k, v]) => `<tr><th>${escapeHtml(k)}</th><td>${v}</td></tr>`).join('\n');
}

function summarySection(result: TestResult): string {
  const s = result.summary;
  if (s === null) return '<p class="muted">This run measured nothing: it has no summary.</p>';
  return `<div class="cards">${[
    card('Total requests', number(s.total_requests, 0)),
    card('Successful', number(s.successful_requests, 0)),
    card('Failed', number(s.failed_requests, 0)),
    card('Error rate', `${number(s.error_rate)} %`),
    card('Requests/sec', number(s.requests_per_second)),
    card('Average response', `${number(s.average_response_time)} ms`),
    card('Median (p50)', `${number(s.percentile_50)} ms`),
    card('90th percentile', `${number(s.percentile_90)} ms`),
    card('95th percentile', `${number(s.percentile_95)} ms`),
    card('99th percentile', `${number(s.percentile_99)} ms`),
    card('Min response', `${number(s.min_response_time)} ms`),
    card('Max response', `${number(s.max_response_time)} ms`),
    card('Bandwidth', `${number(s.avg_bandwidth)} KB/s`),
    card('Measured for', `${number(s.test_duration, 1)} s`),
    ...iterationCards(result),
  ].join('')}</div>`;
}

/**
 * The run's iterations (docs/adr/0027-load-profiles.md "8. Live and stored results"): started, and for an
 * open-model run the dropped ones with their share of the iterations due — a 0 shown as 0, never left out.
 */
function iterationCards(result: TestResult): string[] {
  const figures = iterationFigures(result.summary);
  if (figures === null) return [];
  const cards = [card('Iterations started', number(figures.started, 0))];
  if (figures.dropped !== null) {
    const percent = figures.droppedPercent === null ? '' : ` (${number(figures.droppedPercent)} %)`;
    cards.push(card('Iterations dropped', `${number(figures.dropped, 0)}${percent}`));
    // How late the started iterations began after they were due (docs/adr/0027-load-profiles.md "2. The schedule").
    const lag = result.summary?.schedule_lag;
    if (lag !== undefined)
      cards.push(card('Schedule lag p99', `${number(lag.p99)} ms (p95 ${number(lag.p95)} ms)`));
  }
  return cards;
}

/**
 * A plan with flows: each flow's iterations and share, and its calls' requests and latency as the
 * built-in engine merged them — a dash where the run did not measure them (docs/adr/0027-load-profiles.md "Flows").
 */
function flowsSection(result: TestResult): string {
  const flows = flowRows(result.summary?.flows);
  if (flows.length === 0) return '';
  const figure = (value: number | null, digits = 2, unit = '') =>
    `<td class="num">${value === null ? '—' : `${number(value, digits)}${unit}`}</td>`;
  const rows = flows.map(
    (flow) =>
      `<tr><td>${escapeHtml(flow.name)}</td><td class="num">${number(flow.iterations, 0)}</td><td class="num">${number(flow.share, 1)} %</td>${figure(flow.requests, 0)}${figure(flow.failed, 0)}${figure(flow.errorRate, 2, ' %')}${figure(flow.avg)}${figure(flow.p95)}${figure(flow.p99)}</tr>`,
  );
  return `<h2>Flows</h2>
<table><thead><tr><th>Flow</th><th class="num">Iterations</th><th class="num">Share</th><th class="num">Requests</th><th class="num">Failed</th><th class="num">Error rate</th><th class="num">Avg (ms)</th><th class="num">p95 (ms)</th><th class="num">p99 (ms)</th></tr></thead><tbody>${rows.join('\n')}</tbody></table>`;
}

function chartsSection(chart: ChartData): string {
  const series = chart.series;
  const xLabel = 'Second of the run';
  return `<div class="charts">${[
    lineChart({
      title: 'Response time over the run',
      unit: 'ms',
      xLabel,
      series: [
        { name: 'Average', color: COLORS.avg, points: series.map((p) => ({ x: p.second, y: p.avg })) },
        { name: 'p95', color: COLORS.p95, points: series.map((p) => ({ x: p.second, y: p.p95 })) },
        { name: 'p99', color: COLORS.p99, points: series.map((p) => ({ x: p.second, y: p.p99 })) },
      ],
    }),
    lineChart({
      title: 'Active users',
      unit: 'users',
      xLabel,
      series: [
        {
          name: 'Users',
          color: COLORS.users,
          points: series.map((p) => ({ x: p.second, y: p.active_users })),
        },
      ],
    }),
    lineChart({
      title: 'Throughput',
      unit: 'req/s',
      xLabel,
      series: [
        {
          name: 'Requests/sec',
          color: COLORS.throughput,
          points: series.map((p) => ({ x: p.second, y: p.requests_per_second })),
        },
      ],
    }),
    lineChart({
      title: 'Error rate',
      unit: '%',
      xLabel,
      yMax: 100,
      series: [
        {
          name: 'Errors %',
          color: COLORS.errors,
          points: series.map((p) => ({ x: p.second, y: p.error_rate })),
        },
      ],
    }),
    ...iterationsChart(chart, xLabel),
    barChart({
      title: 'Response-time distribution',
      unit: 'requests',
      color: COLORS.distribution,
      bars: chart.distribution.map((bin) => ({ label: bin.label, value: bin.count })),
    }),
  ].join('\n')}</div>`;
}

/**
 * Iterations per second, when the run counted them (docs/adr/0027-load-profiles.md "8. Live and stored
 * results"): started and dropped (open model), and each flow's (plans with flows).
 */
function iterationsChart(chart: ChartData, xLabel: string): string[] {
  const series = chart.series;
  const lines: { name: string; color: string; points: { x: number; y: number }[] }[] = [];
  if (series.some((p) => p.iterations !== undefined)) {
    lines.push(
      {
        name: 'Started',
        color: COLORS.iterations,
        points: series.map((p) => ({ x: p.second, y: p.iterations ?? 0 })),
      },
      {
        name: 'Dropped',
        color: COLORS.dropped,
        points: series.map((p) => ({ x: p.second, y: p.dropped_iterations ?? 0 })),
      },
    );
  }
  flowNames(chart).forEach((name, i) => {
    lines.push({
      name: `Flow ${name}`,
      color: FLOW_COLORS[i % FLOW_COLORS.length]!,
      points: series.map((p) => ({ x: p.second, y: flowAt(p.flows, name) })),
    });
  });
  if (lines.length === 0) return [];
  return [lineChart({ title: 'Iterations per second', unit: 'it/s', xLabel, series: lines })];
}

function apiSection(result: TestResult): string {
  if (result.api_results.length === 0) return '<p class="muted">No API results were recorded.</p>';
  const head = [
    'Name',
    'Method',
    'URL',
    'Total',
    'Success',
    'Failed',
    'Avg (ms)',
    'p95 (ms)',
    'p99 (ms)',
    'Error %',
  ];
  const numeric = new Set([3, 4, 5, 6, 7, 8, 9]);
  const rows = result.api_results.map((api) =>
    [
      escapeHtml(api.name),
      escapeHtml(api.method),
      `<span class="url">${escapeHtml(api.url)}</span>`,
      number(api.total_requests, 0),
      number(api.successful_requests, 0),
      number(api.failed_requests, 0),
      number(api.average_response_time),
      number(api.percentile_95),
      number(api.percentile_99),
      number(api.error_rate),
    ]
      .map((cell, i) => `<td${numeric.has(i) ? ' class="num"' : ''}>${cell}</td>`)
      .join(''),
  );
  return `<table><thead><tr>${head
    .map((h, i) => `<th${numeric.has(i) ? ' class="num"' : ''}>${escapeHtml(h)}</th>`)
    .join('')}</tr></thead><tbody>${rows.map((r) => `<tr>${r}</tr>`).join('\n')}</tbody></table>`;
}

function errorsSection(errors: ErrorsByKind): string {
  const kinds = Object.entries(errors).filter(([, tally]) => tally !== undefined && tally.count > 0);
  if (kinds.length === 0) return '<p class="muted">No request failed.</p>';
  const rows = kinds.map(
    ([kind, tally]) =>
      `<tr><td>${escapeHtml(kind)}</td><td class="num">${number(tally.count, 0)}</td><td><ul class="samples">${tally.samples
        .map((sample) => `<li>${escapeHtml(sample)}</li>`)
        .join('')}</ul></td></tr>`,
  );
  return `<table><thead><tr><th>Kind</th><th class="num">Count</th><th>Sample messages</th></tr></thead><tbody>${rows.join('\n')}</tbody></table>`;
}

/** The whole report as one HTML file: inline styles, inline SVG charts, every user value escaped. */
export function renderHtmlReport({ run, result, chart, generatedAt }: ReportContent): string {
  const info: [string, string][] = [
    ['Test ID', escapeHtml(run.test_id)],
    ['Test name', escapeHtml(run.test_name)],
    ['Plan name', escapeHtml(run.plan_name)],
    ['Status', badge(run.status)],
    ['Tool', escapeHtml(run.tool)],
    ['Engine', escapeHtml(result.engine_note || run.engine)],
    ['Start', escapeHtml(run.start_time)],
    ['End', escapeHtml(run.end_time ?? '—')],
    ['Duration', escapeHtml(minutesSeconds(run.duration))],
    ['Concurrent users', escapeHtml(String(run.concurrent_users))],
  ];
  if (result.error !== null) info.push(['Note', escapeHtml(result.error)]);
  // docs/adr/0027-load-profiles.md "Abort criteria": what stopped the run, and the highest load that held.
  if (result.abort_reason)
    info.push(['Stopped by an abort threshold', escapeHtml(abortSaid(result.abort_reason).text)]);
  if (result.breaking_point)
    info.push(['Breaking point', escapeHtml(breakingPointSaid(result.breaking_point).text)]);
  if (run.notes !== '') info.push(['Notes', escapeHtml(run.notes).replace(/\n/g, '<br>')]);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(`Performance report: ${run.test_name}`)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>${escapeHtml(run.test_name)}</h1>
<p class="muted">Performance test report · run ${escapeHtml(run.test_id)} · generated ${escapeHtml(generatedAt)} by AnybodyQA</p>
<h2>Performance Summary</h2>
${summarySection(result)}
<h2>Test Information</h2>
<table><tbody>${infoRows(info)}</tbody></table>
<h2>Performance Charts</h2>
${chartsSection(chart)}
<h2>API Results</h2>
${apiSection(result)}
${flowsSection(result)}
<h2>Errors by kind</h2>
${errorsSection(result.errors)}
</main>
</body>
</html>
`;
}
