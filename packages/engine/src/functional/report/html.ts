import {
  maskSecretHeaders,
  type CallResult,
  type FailureEvidence,
  type FunctionalResult,
  type TimingPhases,
  type ValidationDetail,
} from '@aqa/plan';
import { callName, hasNoResponse, hasSeveralPasses, ruleLabel } from './calls';
import { htmlText as h, msText } from './text';

/*
 * A functional run as one self-contained HTML page (docs/design.md §9): the summary, every call with
 * its rules (expected, actual, message), its timing phases and, for a failed call, the request and
 * response kept as evidence. No script and no external asset (the page's Content-Security-Policy
 * forbids loading any); every value from the plan or the target is escaped where it is written.
 */

/** Longer expected or actual values (a schema, a body) fold into a <details>. */
const FOLD_CHARS = 300;

const STYLE = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1f2933;background:#f5f7fa}
main{max-width:1100px;margin:0 auto;padding:24px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 10px}
.meta{color:#52606d;margin:2px 0}.error{background:#fde8e8;border:1px solid #f5b5b5;padding:8px 12px;border-radius:6px}
.badge{display:inline-block;padding:2px 10px;border-radius:10px;font-size:12px;font-weight:600;text-transform:capitalize;white-space:nowrap}
.completed,.pass{background:#def7ec;color:#03543f}.failed,.fail{background:#fde8e8;color:#9b1c1c}
.stopped,.running,.interrupted{background:#fdf6b2;color:#723b13}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(160px,1fr));gap:12px}
.card{background:#fff;border:1px solid #e4e7eb;border-radius:8px;padding:12px}.card b{display:block;font-size:22px}
table{border-collapse:collapse;width:100%;background:#fff}th,td{border:1px solid #e4e7eb;padding:5px 8px;text-align:left;vertical-align:top}
th{background:#f0f4f8;font-weight:600}td{overflow-wrap:break-word}
.scroll{overflow-x:auto;margin:6px 0}.scroll table{min-width:640px}
@media (max-width:600px){main{padding:12px}}
.call{background:#fff;border:1px solid #e4e7eb;border-left:4px solid #31c48d;border-radius:6px;padding:10px 14px;margin:10px 0}
.call.failed-call{border-left-color:#e02424}.call h3{font-size:15px;margin:0 0 6px}
.mark-pass{color:#057a55}.mark-fail{color:#c81e1e}
pre{background:#f0f4f8;padding:8px;border-radius:4px;white-space:pre-wrap;overflow-wrap:anywhere;margin:4px 0;max-height:480px;overflow:auto}
.phases{display:flex;height:10px;border-radius:3px;overflow:hidden;margin:6px 0;background:#e4e7eb;max-width:480px}
.phases span{display:block;height:100%}.dns{background:#a4cafe}.connect{background:#76a9fa}.tls{background:#c3b4fc}.ttfb{background:#f6c196}.download{background:#84e1bc}
.legend span{margin-right:12px;white-space:nowrap}.legend i{display:inline-block;width:10px;height:10px;margin-right:4px;border-radius:2px}
details summary{cursor:pointer}footer{color:#7b8794;font-size:12px;margin-top:32px}
`;

function valueCell(value: string | null): string {
  if (value === null) return '<td><em>no response</em></td>';
  if (value.length <= FOLD_CHARS) return `<td><code>${h(value)}</code></td>`;
  return `<td><details><summary><code>${h(value.slice(0, 80))}</code>… (${value.length} characters)</summary><pre>${h(value)}</pre></details></td>`;
}

function ruleRow(detail: ValidationDetail): string {
  const violations =
    detail.violations && detail.violations.length > 0
      ? `<ul>${detail.violations.map((v) => `<li><code>${h(v.path || '/')}</code>: ${h(v.message)}</li>`).join('')}</ul>`
      : '';
  return (
    `<tr><td>${h(ruleLabel(detail))}</td>${valueCell(detail.expected)}${valueCell(detail.actual)}` +
    `<td><span class="badge ${detail.passed ? 'pass' : 'fail'}">${detail.passed ? 'passed' : 'failed'}</span></td>` +
    `<td>${h(detail.message)}${violations}</td></tr>`
  );
}

const PHASES = ['dns', 'connect', 'tls', 'ttfb', 'download'] as const;
const PHASE_LABELS: Record<(typeof PHASES)[number], string> = {
  dns: 'DNS',
  connect: 'Connect',
  tls: 'TLS',
  ttfb: 'Time to first byte',
  download: 'Download',
};

function timingBlock(timings: TimingPhases): string {
  const total = PHASES.reduce((sum, phase) => sum + timings[phase], 0);
  const bar =
    total > 0
      ? `<div class="phases" role="img" aria-label="Timing phases">${PHASES.map((phase) => `<span class="${phase}" style="width:${((timings[phase] / total) * 100).toFixed(2)}%"></span>`).join('')}</div>`
      : '';
  const legend = PHASES.map(
    (phase) => `<span><i class="${phase}"></i>${PHASE_LABELS[phase]} ${h(msText(timings[phase]))}</span>`,
  ).join('');
  return `${bar}<div class="legend">${legend}</div>`;
}

function headersText(headers: Readonly<Record<string, string>>): string {
  return Object.entries(maskSecretHeaders(headers))
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');
}

function evidenceBlock(evidence: FailureEvidence): string {
  const { request, response } = evidence;
  const requestText = [`${request.method} ${request.url}`, headersText(request.headers)]
    .filter((part) => part !== '')
    .join('\n');
  const responsePart =
    response === null
      ? '<p><em>No response came back.</em></p>'
      : `<h4>Response</h4><pre>${h([`${response.status}`, headersText(response.headers)].filter((p) => p !== '').join('\n'))}</pre>` +
        (response.body === '' ? '' : `<pre>${h(response.body)}</pre>`) +
        (response.truncated ? '<p class="meta">The body was longer; its first 64 KB are kept.</p>' : '');
  return (
    `<details open><summary>Evidence</summary><h4>Request</h4><pre>${h(requestText)}</pre>` +
    (request.body === '' ? '' : `<pre>${h(request.body)}</pre>`) +
    `${responsePart}</details>`
  );
}

/**
 * A UI step's actions (each by its recorder's name, an assertion's expected and actual apart) and the
 * pages it opened with their timings and Web Vitals (docs/recorded-ui-tests.md "Results").
 */
function uiBlock(call: CallResult): string {
  const ui = call.ui;
  if (ui === undefined) return '';
  const optional = (value: string | null | undefined): string =>
    value === undefined ? '<td></td>' : valueCell(value);
  const actions =
    ui.actions.length === 0
      ? ''
      : `<div class="scroll"><table><thead><tr><th>Where</th><th>Action</th><th>Result</th><th>Expected</th><th>Actual</th><th>Message</th></tr></thead><tbody>${ui.actions
          .map(
            (a) =>
              `<tr><td>${h(a.at ?? (a.line === undefined ? '' : `line ${a.line}`))}</td><td><code>${h(a.action)}</code></td>` +
              `<td><span class="badge ${a.passed ? 'pass' : 'fail'}">${a.passed ? 'passed' : 'failed'}</span></td>` +
              `${optional(a.expected)}${a.expected === undefined ? '<td></td>' : optional(a.actual)}<td>${h(a.message)}</td></tr>`,
          )
          .join('')}</tbody></table></div>`;
  const num = (n: number | null | undefined, unit = ' ms'): string => (n == null ? '—' : `${n}${unit}`);
  const pages =
    (ui.pages ?? []).length === 0
      ? ''
      : `<div class="scroll"><table><thead><tr><th>Page</th><th>TTFB</th><th>Load</th><th>FCP</th><th>LCP</th><th>CLS</th></tr></thead><tbody>${(
          ui.pages ?? []
        )
          .map(
            (p) =>
              `<tr><td><code>${h(p.url)}</code></td><td>${num(p.timings?.ttfb)}</td><td>${num(p.timings?.load)}</td>` +
              `<td>${num(p.vitals.fcp)}</td><td>${num(p.vitals.lcp)}</td><td>${num(p.vitals.cls, '')}</td></tr>`,
          )
          .join('')}</tbody></table></div>`;
  return actions + pages;
}

function callSection(call: CallResult, severalPasses: boolean): string {
  const outcome = hasNoResponse(call)
    ? h(call.error ?? 'no response came back')
    : `status ${call.status_code ?? ''}`;
  const rules =
    call.validation_details.length === 0
      ? ''
      : `<div class="scroll"><table><thead><tr><th>Rule</th><th>Expected</th><th>Actual</th><th>Result</th><th>Message</th></tr></thead><tbody>${call.validation_details.map(ruleRow).join('')}</tbody></table></div>`;
  return (
    `<section class="call${call.success ? '' : ' failed-call'}">` +
    `<h3><span class="${call.success ? 'mark-pass' : 'mark-fail'}">${call.success ? '✓' : '✗'}</span> ${h(callName(call, severalPasses))}</h3>` +
    `<p class="meta"><code>${h(call.method)} ${h(call.url)}</code> — ${outcome} — ${h(msText(call.response_time))}</p>` +
    (call.error && !hasNoResponse(call) ? `<p class="error">${h(call.error)}</p>` : '') +
    rules +
    uiBlock(call) +
    (call.timings ? timingBlock(call.timings) : '') +
    (call.evidence ? evidenceBlock(call.evidence) : '') +
    `</section>`
  );
}

function card(label: string, value: number): string {
  return `<div class="card">${h(label)}<b>${value}</b></div>`;
}

/** The self-contained HTML page of a functional run. */
export function functionalHtmlReport(result: FunctionalResult): string {
  const name = result.test_name === '' ? 'Unnamed Test' : result.test_name;
  const severalPasses = hasSeveralPasses(result);
  const s = result.summary;
  const judged =
    result.validation_results_total ?? result.validation_results.length + (result.calls_omitted ?? 0);
  const kept = result.validation_results.length;
  const apiRows = result.api_results
    .map(
      (api) =>
        `<tr><td>${h(api.name)}</td><td>${h(api.method)}</td><td>${h(api.url)}</td><td>${h(api.status)}</td>` +
        `<td>${api.status_code ?? '—'}</td><td>${h(msText(api.response_time))}</td>` +
        `<td>${api.validation_results.filter((v) => v.passed).length} / ${api.validation_results.length}</td></tr>`,
    )
    .join('');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${h(name)} — AnybodyQA functional test</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>${h(name)} <span class="badge ${h(result.status)}">${h(result.status)}</span></h1>
${result.description === '' ? '' : `<p>${h(result.description)}</p>`}
<p class="meta">Test ID <code>${h(result.test_id)}</code>${result.start_time ? ` — started ${h(result.start_time)}` : ''}${result.end_time ? `, ended ${h(result.end_time)}` : ''}</p>
${result.error ? `<p class="error">${h(result.error)}</p>` : ''}
<h2>Summary</h2>
<div class="cards">${card('Total requests', s.total_requests)}${card('Successful', s.successful_requests)}${card('Failed', s.failed_requests)}${card('Validation failures', s.validation_failures)}</div>
${kept < judged ? `<p class="meta">${judged} calls were judged; the first ${kept} are shown.</p>` : ''}
${apiRows === '' ? '' : `<h2>API results</h2><div class="scroll"><table><thead><tr><th>API</th><th>Method</th><th>URL</th><th>Status</th><th>Status code</th><th>Response time</th><th>Rules passed</th></tr></thead><tbody>${apiRows}</tbody></table></div>`}
<h2>Calls</h2>
${kept === 0 ? '<p>No call was judged.</p>' : result.validation_results.map((call) => callSection(call, severalPasses)).join('\n')}
<footer>AnybodyQA functional test report</footer>
</main>
</body>
</html>
`;
}
