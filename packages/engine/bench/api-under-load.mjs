#!/usr/bin/env node
// The API under load (`npm run bench -- --only api-under-load`, issue #12): signed-in users poll the
// dashboards and a result through the API while the server's own engine runs a 500-user test. The
// p95 of those API calls, without a run and then with it, is the figure (docs/performance.md "The
// API while a large run goes").
//
//   node packages/engine/bench/api-under-load.mjs [--users 50] [--seconds 30] [--poll-ms 1000]
//        [--run-users 500] [--delay-ms 100] [--plans 20] [--rounds 2]
//
// - The server is the built bundle (apps/server/dist/main.mjs) in a child process, on a free port,
//   with a temporary DATA_DIR, MAX_RUNS_PER_USER=1 and MAX_RUNS_PER_SERVER=2.
// - The large run is a real one: POST /api/run-test of a plan of --run-users users (think time 0)
//   against a local target that answers every request after --delay-ms (delay-target.mjs, another
//   127.0.0.1 port). It runs in the server's engine worker threads, beside the API.
// - The pollers are the project's own engine (@aqa/engine's startRun, in this process): --users
//   virtual users, each iteration signed in as one of --users sessions of the account (the live
//   result is visible to its owner only), taken in turn by {{sequence_number,N}} from a small local
//   token service and sent as `Authorization: Bearer {{token}}`. Each iteration calls the dashboard,
//   its summary, the list of runs, the result and the chart data of a run (a finished one without
//   the large run, the large run itself with it), with --poll-ms of think time after each call.
//   Every call must answer 200 (a status assertion); the token service's step is left out of the
//   figures.
// The two phases alternate, --rounds times each. Prints per call and overall p50/p95/p99 (merged
// over the rounds), the overall p95 of each round, the load average at the start and end of each
// phase, and the large runs' own figures. All traffic stays on 127.0.0.1; every process is
// ended at exit. Exit 1 when a poll failed or the large run did not run.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { availableParallelism, cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const HERE = dirname(fileURLToPath(import.meta.url));
const ENGINE_DIR = resolve(HERE, '..');
const ROOT = resolve(ENGINE_DIR, '../..');
const SERVER_DIR = join(ROOT, 'apps/server');
const log = (s = '') => process.stdout.write(`${s}\n`);

const { values: opt } = parseArgs({
  options: {
    users: { type: 'string', default: '50' },
    seconds: { type: 'string', default: '30' },
    'poll-ms': { type: 'string', default: '1000' },
    'run-users': { type: 'string', default: '500' },
    'delay-ms': { type: 'string', default: '100' },
    plans: { type: 'string', default: '20' },
    rounds: { type: 'string', default: '2' },
  },
});
const USERS = Number(opt.users);
const SECONDS = Number(opt.seconds);
const POLL_MS = Number(opt['poll-ms']);
const RUN_USERS = Number(opt['run-users']);
const DELAY_MS = Number(opt['delay-ms']);
const PLANS = Number(opt.plans);
const ROUNDS = Number(opt.rounds);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

const work = mkdtempSync(join(tmpdir(), 'aqa-api-under-load-'));
const children = [];
let tokenService;
function cleanUp() {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  tokenService?.close();
  rmSync(work, { recursive: true, force: true });
}
process.on('exit', cleanUp);
process.on('SIGINT', () => process.exit(130));
process.on('SIGTERM', () => process.exit(143));

function freePort() {
  return new Promise((resolvePort, reject) => {
    const probe = createNetServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolvePort(port));
    });
  });
}

async function waitFor(url, what) {
  const until = Date.now() + 30_000;
  for (;;) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > until) throw new Error(`${what} did not answer ${url} within 30 s`);
    await sleep(200);
  }
}

// ── build, then start the target and the server ──────────────────────────────────────────────────
log('Building the engine and the server …');
for (const script of [join(ENGINE_DIR, 'build.mjs'), join(SERVER_DIR, 'build.mjs')]) {
  if (spawnSync(process.execPath, [script], { stdio: 'inherit' }).status !== 0) process.exit(1);
}
const { startRun, Histogram } = await import(pathToFileURL(join(ENGINE_DIR, 'dist/index.mjs')).href);

const targetPort = await freePort();
const target = spawn(
  process.execPath,
  [
    join(HERE, 'delay-target.mjs'),
    '--port',
    String(targetPort),
    '--delay-ms',
    String(DELAY_MS),
    '--lifetime-s',
    String(SECONDS * 3 + 300),
  ],
  { stdio: ['ignore', 'ignore', 'inherit'] },
);
children.push(target);
const targetOrigin = `http://127.0.0.1:${targetPort}`;
await waitFor(`${targetOrigin}/__stats`, 'The delay target');

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const server = spawn(process.execPath, [join(SERVER_DIR, 'dist/main.mjs')], {
  env: {
    ...process.env,
    DATA_DIR: join(work, 'data'),
    PORT: String(port),
    HOST: '127.0.0.1',
    DEMO_ACCOUNT: 'off',
    SIGN_UP: 'on',
    LOG_LEVEL: 'warn',
    EXTERNAL_TOOLS: 'off',
    MAX_RUNS_PER_USER: '1',
    MAX_RUNS_PER_SERVER: '2',
    LOGIN_RATE_LIMIT_PER_IP: '1000',
    REGISTER_RATE_LIMIT_PER_IP: '1000',
    WEB_DIST_DIR: join(work, 'no-web-build'),
  },
  stdio: ['ignore', 'inherit', 'inherit'],
});
children.push(server);
server.once('exit', (code, signal) => {
  if (code !== 0 && code !== null) log(`The server exited with code ${code} (${signal ?? ''})`);
});
await waitFor(`${base}/api/health`, 'The server');

async function api(method, path, { token, body } = {}) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return JSON.parse(text);
}

// ── one account, signed in --users times; a history to show ─────────────────────────────────────
const email = 'bench@example.com';
const password = 'bench-pass-123';
await api('POST', '/api/register', {
  body: {
    email,
    username: email,
    password,
    confirmPassword: password,
    firstName: 'Bench',
    lastName: 'User',
    company: 'AnybodyQA',
    role: 'QA',
  },
});
const tokens = [];
for (let i = 0; i < USERS; i += 1) {
  tokens.push((await api('POST', '/api/login', { body: { username: email, password } })).token);
}
const owner = tokens[0];

const targetStep = (name) => ({ name, method: 'GET', url: `${targetOrigin}/${name}`, thinkTime: '0' });
for (let i = 0; i < PLANS; i += 1) {
  await api('POST', '/api/save-test-plan', {
    token: owner,
    body: {
      name: `History plan ${i + 1}`,
      tool: 'k6',
      concurrent_users: 10,
      duration: 1,
      urls: [targetStep('a')],
    },
  });
}
const largePlan = await api('POST', '/api/save-test-plan', {
  token: owner,
  body: {
    name: `${RUN_USERS} users`,
    tool: 'k6',
    concurrent_users: Math.min(RUN_USERS, 1000),
    duration: 1,
    urls: [targetStep('items'), targetStep('orders')],
  },
});

async function runToEnd(planId, seconds) {
  const { test_id: id } = await api('POST', '/api/run-test', {
    token: owner,
    body: { plan_id: planId, duration_seconds: seconds, concurrent_users: 20 },
  });
  for (;;) {
    const result = await api('GET', `/api/get-test-result/${id}`, { token: owner });
    if (!['running', 'processing', 'starting'].includes(result.status)) return id;
    await sleep(500);
  }
}
log('A finished run for the history …');
const finishedRunId = await runToEnd(largePlan.id, 5);

// ── the pollers: the engine, signed in by the token service ─────────────────────────────────────
tokenService = createServer((request, response) => {
  const n = Number(/^\/token\/(\d+)$/.exec(request.url ?? '')?.[1]);
  const token = tokens[n - 1];
  response.writeHead(token === undefined ? 404 : 200, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ token }));
});
await new Promise((r) => tokenService.listen(0, '127.0.0.1', r));
const tokenOrigin = `http://127.0.0.1:${tokenService.address().port}`;

const API_CALLS = (runId) => [
  ['dashboard', '/api/performance-dashboard'],
  ['dashboard summary', '/api/chart-data-summary'],
  ['runs list', '/api/get-test-results?limit=20'],
  ['result', `/api/get-test-result/${runId}`],
  ['chart data', `/api/chart-data/${runId}`],
];

function pollPlan(runId) {
  return {
    name: 'API pollers',
    tool: 'k6',
    concurrent_users: USERS,
    duration: 1,
    urls: [
      {
        name: 'sign in (token service)',
        method: 'GET',
        url: `${tokenOrigin}/token/{{sequence_number,${USERS}}}`,
        extractType: 'json',
        extractName: 'token',
        extractValue: '$.token',
        thinkTime: '0',
      },
      ...API_CALLS(runId).map(([name, path]) => ({
        name,
        method: 'GET',
        url: `${base}${path}`,
        headers: [{ name: 'Authorization', value: 'Bearer {{token}}' }],
        assertionType: 'status',
        assertionValue: '200',
        assertionOperator: 'equals',
        thinkTime: `${POLL_MS}ms`,
      })),
    ],
  };
}

/** One phase of polling: the histograms of each API call and of all of them, and the load average. */
async function poll(runId) {
  const loadBefore = load();
  const steps = API_CALLS(runId).map(() => new Histogram());
  const all = new Histogram();
  const run = startRun(pollPlan(runId), {
    durationSeconds: SECONDS,
    workers: 1,
    onSnapshot: (s) => {
      for (const step of s.steps) {
        if (step.step === 0) continue;
        steps[step.step - 1].addEncoded(step.histogram);
        all.addEncoded(step.histogram);
      }
    },
  });
  const result = await run.result;
  const rows = result.api_results.slice(1);
  return {
    loadBefore,
    loadAfter: load(),
    steps,
    all,
    requests: rows.map((r) => r.total_requests),
    failures: rows.reduce((n, r) => n + r.failed_requests, 0),
    errors: result.errors,
  };
}

/** Starts the large run and waits until (nearly) every one of its users has a request at the target. */
async function startLargeRun() {
  const { test_id: id } = await api('POST', '/api/run-test', {
    token: owner,
    body: { plan_id: largePlan.id, duration_seconds: SECONDS + 60, concurrent_users: RUN_USERS },
  });
  for (let tries = 0; ; tries += 1) {
    const live = await api('GET', `/api/get-test-result/${id}`, { token: owner });
    if (live.status !== 'running') throw new Error(`the large run is ${live.status}: ${live.error ?? ''}`);
    const { inFlight } = await (await fetch(`${targetOrigin}/__stats`)).json();
    if (inFlight >= RUN_USERS * 0.9) return id;
    if (tries > 60) throw new Error(`the large run has only ${inFlight} requests in flight after 30 s`);
    await sleep(500);
  }
}

log(`Warming up: ${USERS} users poll the API for 5 s (not counted) …`);
await startRun(pollPlan(finishedRunId), { durationSeconds: 5, workers: 1 }).result;

// Phases alternate (no run, with the run, no run, …) so that a change in what else the machine does
// weighs on both sides.
const quiet = [];
const busy = [];
const largeRuns = [];
for (let round = 1; round <= ROUNDS; round += 1) {
  log(`Round ${round}/${ROUNDS}: ${USERS} users poll the API for ${SECONDS} s, no run going …`);
  quiet.push(await poll(finishedRunId));
  log(`Round ${round}/${ROUNDS}: the same, with a ${RUN_USERS}-user run against a ${DELAY_MS} ms target …`);
  const before = (await (await fetch(`${targetOrigin}/__stats`)).json()).requests;
  const id = await startLargeRun();
  busy.push(await poll(id));
  await api('POST', `/api/stop-test/${id}`, { token: owner });
  const stats = await (await fetch(`${targetOrigin}/__stats`)).json();
  const result = await api('GET', `/api/get-test-result/${id}`, { token: owner });
  largeRuns.push({ result, counted: stats.requests - before, peakConnections: stats.peakConnections });
}

// ── report ───────────────────────────────────────────────────────────────────────────────────────
const ms = (x) => (x / 1000).toFixed(1);
const merged = (phases, pick) => {
  const h = new Histogram();
  for (const phase of phases) h.add(pick(phase));
  return h;
};
const figures = (h) =>
  `${ms(h.valueAtPercentile(50))} / ${ms(h.valueAtPercentile(95))} / ${ms(h.valueAtPercentile(99))}`;
const sum = (phases, i) => phases.reduce((n, phase) => n + phase.requests[i], 0);

log();
log(
  `${new Date().toISOString()} · ${availableParallelism()} cores (${cpus()[0]?.model ?? '?'}), ` +
    `${(totalmem() / 2 ** 30).toFixed(0)} GiB · Node ${process.versions.node}`,
);
log(
  `${USERS} pollers (${USERS} sessions of one account), ${POLL_MS} ms think time after each call, ` +
    `${ROUNDS} rounds of ${SECONDS} s per phase`,
);
log();
log('| call | no run: p50 / p95 / p99 ms | requests | with the run: p50 / p95 / p99 ms | requests |');
log('| --- | --- | --- | --- | --- |');
API_CALLS('{id}').forEach(([name], i) => {
  log(
    `| ${name} | ${figures(merged(quiet, (p) => p.steps[i]))} | ${sum(quiet, i)} ` +
      `| ${figures(merged(busy, (p) => p.steps[i]))} | ${sum(busy, i)} |`,
  );
});
const allQuiet = merged(quiet, (p) => p.all);
const allBusy = merged(busy, (p) => p.all);
log(
  `| **all API calls** | ${figures(allQuiet)} | ${allQuiet.totalCount} | ${figures(allBusy)} | ${allBusy.totalCount} |`,
);
log();
log(
  `p95 of all API calls by round (no run → with the run): ` +
    quiet
      .map((q, r) => `${ms(q.all.valueAtPercentile(95))} → ${ms(busy[r].all.valueAtPercentile(95))}`)
      .join('; '),
);
log(
  `Load average (1, 5, 15 min) at the start and end of each phase: ` +
    quiet
      .map(
        (q, r) =>
          `no run ${q.loadBefore} → ${q.loadAfter}, with the run ${busy[r].loadBefore} → ${busy[r].loadAfter}`,
      )
      .join('; '),
);
for (const { result, counted, peakConnections } of largeRuns) {
  const summary = result.summary ?? {};
  log(
    `The large run: ${result.status}, ${summary.total_requests ?? '?'} requests, ` +
      `${summary.requests_per_second ?? '?'} req/s, p95 ${summary.percentile_95 ?? '?'} ms ` +
      `(target counted ${counted}, peak ${peakConnections} connections)`,
  );
}
const failed = [...quiet, ...busy].reduce((n, phase) => n + phase.failures, 0);
if (failed > 0) {
  log(
    `FAILED: ${failed} poll calls did not answer 200: ${JSON.stringify([...quiet, ...busy].map((p) => p.errors))}`,
  );
}
const idle = largeRuns.some((run) => run.counted < RUN_USERS);
if (idle) log('FAILED: a large run sent almost nothing');
// The server, the target and keep-alive sockets would hold the process open: end them all now.
process.exit(failed > 0 || idle ? 1 : 0);
