/* eslint-disable no-console -- A benchmark script: it talks to the person running it. */
// Recorded UI tests (issue #28 "Measured", docs/recorded-ui-tests.md "Measured"): how long a 500-command
// Selenium IDE project takes to import (read by the recorder's reader and the plan model, as the import
// worker does; goal under 1 s), and what the UI runner adds per command beyond the browser's own work
// (goal under 50 ms): `echo` commands, which ask nothing of the browser; `assertText`, against the same
// read done straight through Playwright; and `click`, which waits up to 250 ms for a navigation to start.
// Runs the TypeScript sources through tsx, in the real Chromium against a page served on loopback.
// Prints medians; exits 1 when a goal is missed.
//
//   node packages/ui-runner/bench/recording-bench.mjs [--commands 500] [--runs 10] [--browser /usr/bin/chromium]
import { createServer } from 'node:http';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { runUnderTsx } from '../../../scripts/lib/under-tsx.mjs';

// The sources are TypeScript: this script runs again under tsx's loader (its import worker threads too).
runUnderTsx(import.meta.url);

const { values } = parseArgs({
  options: {
    commands: { type: 'string', default: '500' },
    runs: { type: 'string', default: '10' },
    browser: { type: 'string', default: '/usr/bin/chromium' },
  },
});
const COMMANDS = Number(values.commands);
const RUNS = Math.max(3, Number(values.runs));
const IMPORT_GOAL_MS = 1000;
const OVERHEAD_GOAL_MS = 50;

const { readRecording } = await import('@aqa/converters');
const { FunctionalPlanSchema } = await import('@aqa/plan');
const { UiBrowserPool, createUiRunner } = await import('@aqa/ui-runner');
const { chromium } = await import('playwright-core');

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const ms = (n) => `${n.toFixed(2)} ms`;
let failed = false;
const verdict = (ok) => {
  if (!ok) failed = true;
  return ok ? 'ok' : 'MISSED';
};

// ── import ───────────────────────────────────────────────────────────────────────────────────────
/** A project of `n` commands in tests of 100, a sign-in's mix: open, type, click, assertions, echo. */
function project(n, origin = 'http://127.0.0.1:9') {
  const kinds = [
    ['type', 'id=name', 'Ada'],
    ['click', 'css=#go', ''],
    ['assertText', 'id=out', 'Hello Ada'],
    ['verifyTitle', 'Welcome', ''],
    ['echo', 'step ${n}', ''],
    ['storeText', 'xpath=//h1', 'greeting'],
    ['waitForElementVisible', 'id=out', '5000'],
    ['select', 'id=pick', 'label=Two'],
  ];
  const tests = [];
  for (let c = 0; c < n; c++) {
    if (c % 100 === 0) tests.push({ id: `t${tests.length}`, name: `Test ${tests.length + 1}`, commands: [] });
    const [command, target, value] = c % 100 === 0 ? ['open', '/', ''] : kinds[c % kinds.length];
    tests.at(-1).commands.push({ id: `c${c}`, comment: '', command, target, targets: [], value });
  }
  return JSON.stringify({ id: 'p', version: '2.0', name: 'Bench', url: origin, tests, suites: [] });
}

const text = project(COMMANDS);
const importOnce = () => {
  const t = performance.now();
  const read = readRecording({ name: 'bench.side', text });
  FunctionalPlanSchema.parse(read.plan);
  if (read.counts.actions !== COMMANDS) throw new Error(`read ${read.counts.actions} actions`);
  return performance.now() - t;
};
const coldImport = importOnce();
const imports = Array.from({ length: RUNS }, importOnce);
const importMedian = median(imports);
console.log(`Import of a ${COMMANDS}-command Selenium IDE project (${(text.length / 1024).toFixed(0)} KB):`);
console.log(
  `  first ${ms(coldImport)}, then median ${ms(importMedian)} of ${RUNS}  [goal < ${IMPORT_GOAL_MS} ms: ${verdict(Math.max(coldImport, importMedian) < IMPORT_GOAL_MS)}]`,
);

// Through the server: POST /api/functional/parse-file on a server started from source, the upload,
// the import worker's turn and the answer included.
const helpers = await import('../../../apps/server/test/helpers.ts');
const { multipartBody } = await import('../../../apps/server/test/multipart-body.ts');
const app = await helpers.startTestServer();
try {
  const { token } = await helpers.registerAndLogin(app);
  const upload = async () => {
    const { payload, headers } = multipartBody([
      { name: 'file', filename: 'bench.side', content: Buffer.from(text) },
    ]);
    const t = performance.now();
    const answer = await app.app.inject({
      method: 'POST',
      url: '/api/functional/parse-file',
      payload,
      headers: { ...headers, authorization: `Bearer ${token}` },
    });
    if (answer.statusCode !== 200)
      throw new Error(`parse-file answered ${answer.statusCode}: ${answer.body}`);
    return performance.now() - t;
  };
  const first = await upload();
  const uploads = [];
  for (let i = 0; i < RUNS; i++) uploads.push(await upload());
  const uploadMedian = median(uploads);
  console.log(
    `  through POST /api/functional/parse-file: first ${ms(first)} (the import worker starting, compiled from source by tsx), then median ${ms(uploadMedian)}  [goal < ${IMPORT_GOAL_MS} ms: ${verdict(uploadMedian < IMPORT_GOAL_MS)}]`,
  );
} finally {
  await helpers.closeTestServer(app);
}

// ── run overhead ─────────────────────────────────────────────────────────────────────────────────
const page = `<!doctype html><html><head><title>Bench</title></head><body>
<h1 id="out">Hello Ada</h1><button id="b" onclick="window.n=(window.n||0)+1">Count</button></body></html>`;
const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(page));
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${server.address().port}`;
const pool = new UiBrowserPool({ executablePath: values.browser, maxBrowsers: 1, stepTimeoutMs: 30_000 });

const source = (n) => ({ action: `command ${n}`, path: `bench, command ${n}` });
async function runActions(make, n) {
  const actions = [{ kind: 'go', source: source(0), url: `${origin}/` }];
  for (let i = 1; i <= n; i++) actions.push(make(i));
  const plan = FunctionalPlanSchema.parse({
    test_name: 'Bench',
    test_type: 'ui',
    source: 'ui_url_input',
    apis: [{ name: 'Bench', url: '', actions }],
  });
  const outcome = await createUiRunner(pool)(plan, { saveScreenshot: async () => 'x' }).result;
  const step = outcome.validation_results[0];
  if (!step?.success) throw new Error(`the bench step failed: ${step?.error}`);
  // The commands after the open, each as the runner timed it (its call to the browser included), and
  // the step's time a command beyond the open: the loop's own bookkeeping included.
  const [open, ...rest] = step.ui.actions;
  return Object.assign(
    rest.map((a) => a.duration_ms),
    { perCommand: (step.response_time - open.duration_ms) / n },
  );
}

const echo = await runActions((i) => ({ kind: 'echo', source: source(i), text: `step ${i}` }), COMMANDS);
const echoMedian = median(echo);
const echoMean = echo.reduce((a, b) => a + b, 0) / echo.length;
console.log(
  `Run: ${COMMANDS} echo commands (no browser work): median ${ms(echoMedian)}, mean ${ms(echoMean)} a command; the step's time beyond its open ${ms(echo.perCommand)} a command  [goal < ${OVERHEAD_GOAL_MS} ms: ${verdict(echo.perCommand < OVERHEAD_GOAL_MS)}]`,
);

const ASSERTS = 100;
const asserts = await runActions(
  (i) => ({
    kind: 'assertText',
    source: source(i),
    locators: [{ by: 'id', value: 'out' }],
    expected: 'Hello Ada',
  }),
  ASSERTS,
);
// The browser's own work for the same check, straight through Playwright: find the element, read its text.
const browser = await chromium.launch({ executablePath: values.browser });
const raw = [];
try {
  const p = await browser.newPage();
  await p.goto(`${origin}/`);
  for (let i = 0; i < ASSERTS; i++) {
    const t = performance.now();
    const el = p.locator('#out').first();
    await el.count();
    (await el.innerText()).trim();
    raw.push(performance.now() - t);
  }
} finally {
  await browser.close();
}
const assertMedian = median(asserts);
const rawMedian = median(raw);
console.log(
  `Run: ${ASSERTS} assertText id=out: median ${ms(assertMedian)} a command (step ${ms(asserts.perCommand)}); the same read by Playwright alone ${ms(rawMedian)}; the runner adds ${ms(assertMedian - rawMedian)}  [goal < ${OVERHEAD_GOAL_MS} ms: ${verdict(assertMedian - rawMedian < OVERHEAD_GOAL_MS)}]`,
);

const CLICKS = 20;
const clicks = await runActions(
  (i) => ({ kind: 'click', source: source(i), locators: [{ by: 'id', value: 'b' }] }),
  CLICKS,
);
console.log(
  `Run: ${CLICKS} clicks that open no page: median ${ms(median(clicks))} a click (of which up to 250 ms waiting for a navigation to start, docs/recorded-ui-tests.md "Measured")`,
);

await pool.close();
server.close();
process.exit(failed ? 1 : 0);
