import type { ResultSummary, ThresholdResult } from '@aqa/plan';
import type { ApiResultRow, RunResult, RunSnapshot } from '../types';

/** Figures as the terminal shows them: counts whole, rates and seconds with two decimals, times in ms. */
export const whole = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
export const twoDecimals = new Intl.NumberFormat('en-US', {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});
export const ms = (v: number): string => `${twoDecimals.format(v)} ms`;

/** The one-line live progress shown on a terminal, once a second. */
export function progressLine(s: RunSnapshot, totalS: number): string {
  return (
    `[${Math.round(s.elapsedS)}s/${Math.round(totalS)}s] users ${s.activeUsers}` +
    // An open-model profile's iterations (docs/adr/0027-load-profiles.md): dropped ones are never hidden.
    (s.totals.iterations === undefined
      ? ''
      : ` | iterations ${whole.format(s.totals.iterations)}, dropped ${whole.format(s.totals.droppedIterations ?? 0)}`) +
    ` | ${whole.format(s.requestsPerSecond)} req/s | p50 ${ms(s.latency.p50)} | p95 ${ms(s.latency.p95)}` +
    ` | errors ${twoDecimals.format(s.errorRate)}% | total ${whole.format(s.totals.requests)} | generator ${Math.round(s.generatorBusy * 100)}% busy`
  );
}

/** Rows as a text table, each column as wide as its widest cell. */
export function table(rows: string[][], alignRight: boolean[]): string {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
  return rows
    .map((r) =>
      r
        .map((cell, c) => (alignRight[c] ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** The text cut to `n` characters, its last one an ellipsis when cut. */
export const clip = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** Each threshold's verdict with the measured figure, after a blank line; none when none was set. */
export function thresholdsLines(thresholds: ThresholdResult[]): string[] {
  if (thresholds.length === 0) return [];
  return [
    '',
    'Thresholds:',
    ...thresholds.map(
      (t) => `  ${t.passed ? 'PASS' : 'FAIL'}  ${t.threshold}  (actual ${twoDecimals.format(t.actual)})`,
    ),
  ];
}

/** Each figure of a run's summary as the terminal shows it, by its column's heading. */
const SUMMARY_COLUMNS = {
  requests: (s) => whole.format(s.total_requests),
  ok: (s) => whole.format(s.successful_requests),
  failed: (s) => whole.format(s.failed_requests),
  'error %': (s) => twoDecimals.format(s.error_rate),
  'req/s': (s) => twoDecimals.format(s.requests_per_second),
  avg: (s) => ms(s.average_response_time),
  p50: (s) => ms(s.percentile_50),
  p90: (s) => ms(s.percentile_90),
  p95: (s) => ms(s.percentile_95),
  p99: (s) => ms(s.percentile_99),
  'p99.9': (s) => ms(s.percentile_999),
  min: (s) => ms(s.min_response_time),
  max: (s) => ms(s.max_response_time),
  'KB/s': (s) => twoDecimals.format(s.avg_bandwidth),
  seconds: (s) => twoDecimals.format(s.test_duration),
} satisfies Record<string, (s: ResultSummary) => string>;
export type SummaryColumn = keyof typeof SUMMARY_COLUMNS;

/** A run's summary as a one-row text table of the given columns, each figure right-aligned. */
export function summaryTable(s: ResultSummary, columns: readonly SummaryColumn[]): string {
  return table(
    [[...columns], columns.map((c) => SUMMARY_COLUMNS[c](s))],
    columns.map(() => true),
  );
}

/** The final summary as text tables: the run, each step, the errors, the thresholds. */
export function summaryText(r: RunResult, thresholds: ThresholdResult[]): string {
  const s = r.summary;
  const out: string[] = [];
  out.push(
    `Run ${r.status}: ${s.concurrent_users} users, ${twoDecimals.format(s.test_duration)} s, ${r.workers} worker thread(s)`,
  );
  out.push('');
  out.push(
    summaryTable(s, [
      'requests',
      'ok',
      'failed',
      'error %',
      'req/s',
      'avg',
      'p50',
      'p90',
      'p95',
      'p99',
      'p99.9',
      'min',
      'max',
      'KB/s',
    ]),
  );
  out.push('');
  out.push(
    table(
      [
        ['step', 'requests', 'ok', 'failed', 'error %', 'avg', 'p95', 'p99'],
        ...r.api_results.map((a) => [
          clip(a.name, 60),
          whole.format(a.total_requests),
          whole.format(a.successful_requests),
          whole.format(a.failed_requests),
          twoDecimals.format(a.error_rate),
          ms(a.average_response_time),
          ms(a.percentile_95),
          ms(a.percentile_99),
        ]),
      ],
      [false, true, true, true, true, true, true, true],
    ),
  );
  if (r.flows !== undefined) {
    // Flows with weights (docs/adr/0027-load-profiles.md "Flows"): each flow's iterations, share and calls together.
    out.push('');
    out.push(
      table(
        [
          ['flow', 'weight', 'iterations', 'share %', 'requests', 'error %', 'avg', 'p95', 'p99'],
          ...r.flows.map((f) => [
            clip(f.name, 60),
            whole.format(f.weight),
            whole.format(f.iterations),
            twoDecimals.format(f.share),
            whole.format(f.total_requests),
            twoDecimals.format(f.error_rate),
            ms(f.latency.avg),
            ms(f.latency.p95),
            ms(f.latency.p99),
          ]),
        ],
        [false, true, true, true, true, true, true, true, true],
      ),
    );
  }
  if (r.iterations !== undefined) {
    const { started, dropped, schedule_lag: lag } = r.iterations;
    out.push('');
    out.push(
      `${iterationsText(started, dropped, {
        planned: true,
        advice:
          'due while every user of the pool was busy: raise --max-users, or the target is slower than the rate needs',
      })}; started late by p95 ${ms(lag.p95)}, p99 ${ms(lag.p99)}`,
    );
  }
  // Test data that ran out (docs/adr/0027-load-profiles.md "Test data"): the run ended early for it.
  if (r.data_exhausted !== undefined) {
    out.push('');
    for (const e of r.data_exhausted) out.push(e.message.charAt(0).toUpperCase() + e.message.slice(1));
  }
  const busy = r.series.map((p) => p.generatorBusy);
  if (busy.length > 0) {
    const avg = busy.reduce((a, b) => a + b, 0) / busy.length;
    out.push('');
    out.push(
      `Load generator: ${Math.round(avg * 100)}% busy on average, ${Math.round(Math.max(...busy) * 100)}% at most` +
        (avg > 0.9
          ? ' — it was the bottleneck: the figures say more about this machine than about the target (add --workers or machines)'
          : ''),
    );
  }
  const kinds = Object.entries(r.errors);
  if (kinds.length > 0) {
    out.push('');
    out.push('Errors:');
    for (const [kind, t] of kinds) {
      out.push(`  ${kind}: ${whole.format(t.count)}`);
      for (const m of t.samples) out.push(`    e.g. ${clip(m, 160)}`);
    }
  }
  out.push(...abortLines(r));
  out.push(...thresholdsLines(thresholds));
  return `${out.join('\n')}\n`;
}

/**
 * Why an abort threshold stopped the run and the breaking point it found (docs/adr/0027-load-profiles.md,
 * "Abort criteria"), for a local run's result and a server's alike.
 */
export function abortLines(r: {
  aborted?: { text: string } | null | undefined;
  breaking_point?: { text: string } | null | undefined;
}): string[] {
  if (r.aborted === undefined || r.aborted === null) return [];
  const lines = ['', `Aborted: ${r.aborted.text}`];
  if (r.breaking_point !== undefined && r.breaking_point !== null)
    lines.push(`Breaking point: ${r.breaking_point.text}`);
  return lines;
}

const xmlEscape = (s: string): string =>
  s.replace(
    /[<>&"']/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!,
  );

/** What the JUnit report reads of a run: a local RunResult, or a server's get-test-result answer. */
export interface JunitRun {
  summary: ResultSummary;
  api_results: Pick<
    ApiResultRow,
    | 'name'
    | 'total_requests'
    | 'failed_requests'
    | 'error_rate'
    | 'average_response_time'
    | 'percentile_95'
    | 'percentile_99'
  >[];
  started_at: string;
}

/**
 * JUnit XML: one test case per threshold (a failure when it does not hold) and one per step with
 * its figures in system-out. Steps do not fail by themselves: CI gates on thresholds, as the exit
 * code does.
 */
export function junitXml(r: JunitRun, thresholds: ThresholdResult[], planName: string): string {
  const s = r.summary;
  const failures = thresholds.filter((t) => !t.passed).length;
  const cases: string[] = [];
  for (const t of thresholds) {
    const body = t.passed
      ? ''
      : `\n      <failure message="${xmlEscape(`${t.threshold} failed: actual ${t.actual}`)}" type="threshold">${xmlEscape(`${t.metric} = ${t.actual}`)}</failure>\n    `;
    cases.push(
      `    <testcase classname="aqa.thresholds" name="${xmlEscape(t.threshold)}" time="${s.test_duration}">${body}</testcase>`,
    );
  }
  for (const a of r.api_results) {
    const out = `requests=${a.total_requests} failed=${a.failed_requests} error_rate=${a.error_rate}% avg=${a.average_response_time}ms p95=${a.percentile_95}ms p99=${a.percentile_99}ms`;
    cases.push(
      `    <testcase classname="aqa.steps" name="${xmlEscape(a.name)}" time="${s.test_duration}">\n      <system-out>${xmlEscape(out)}</system-out>\n    </testcase>`,
    );
  }
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<testsuites name="aqa" tests="${cases.length}" failures="${failures}" time="${s.test_duration}">\n` +
    `  <testsuite name="${xmlEscape(planName)}" tests="${cases.length}" failures="${failures}" errors="0" skipped="0" time="${s.test_duration}" timestamp="${r.started_at}">\n` +
    `    <properties>\n` +
    `      <property name="total_requests" value="${s.total_requests}"/>\n` +
    `      <property name="requests_per_second" value="${s.requests_per_second}"/>\n` +
    `      <property name="error_rate" value="${s.error_rate}"/>\n` +
    `      <property name="percentile_95" value="${s.percentile_95}"/>\n` +
    `    </properties>\n` +
    `${cases.join('\n')}\n` +
    `  </testsuite>\n` +
    `</testsuites>\n`
  );
}

/**
 * An open-model run's iterations (docs/adr/0027-load-profiles.md, "The schedule"), as `aqa run` says them
 * for a local run and a run on the server: the dropped ones are never hidden, and when there are any,
 * `advice` says why and what to change.
 */
export function iterationsText(
  started: number,
  dropped: number,
  { planned, advice }: { planned: boolean; advice: string },
): string {
  const total = planned ? ` of ${whole.format(started + dropped)} planned` : '';
  const line = `Iterations: ${whole.format(started)} started, ${whole.format(dropped)} dropped${total}`;
  return dropped === 0 ? line : `${line} (${advice})`;
}
