/* eslint-disable no-console -- A benchmark script: it talks to the person running it. */
// Dashboards at scale (issue #7): with 1,000 plans and 20,000 runs for one user, every dashboard call
// answers in under 300 ms. Builds the server, starts dist/main.mjs on a temp DATA_DIR and a free port,
// seeds the SQLite file directly (plan bodies, run summaries and per-API results, histograms, and the
// per-second points of the newest runs), signs in over HTTP and times each call over real HTTP.
// Prints median and max of several tries per call; exits 1 when any call misses the limit.
//
//   node apps/server/bench/scale-bench.mjs [--plans 1000] [--runs 20000] [--tries 7] [--limit-ms 300]
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import Database from 'libsql';

const here = dirname(fileURLToPath(import.meta.url));
const serverDir = join(here, '..');
const { values } = parseArgs({
  options: {
    plans: { type: 'string', default: '1000' },
    runs: { type: 'string', default: '20000' },
    tries: { type: 'string', default: '7' },
    'limit-ms': { type: 'string', default: '300' },
    explain: { type: 'boolean', default: false },
  },
});
const PLANS = Number(values.plans);
const RUNS = Number(values.runs);
const TRIES = Math.max(3, Number(values.tries));
const LIMIT_MS = Number(values['limit-ms']);
/** Runs that keep their per-second points (a real history keeps all; these are the ones read here). */
const RUNS_WITH_POINTS = 300;
const STEPS_PER_PLAN = 4;

const dataDir = mkdtempSync(join(tmpdir(), 'aqa-scale-bench-'));
let server;

function cleanUp() {
  if (server !== undefined && server.exitCode === null) server.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
}
process.on('exit', cleanUp);
process.on('SIGINT', () => process.exit(130));

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

// ── build and start the server ───────────────────────────────────────────────────────────────────
console.log('Building apps/server …');
const built = spawnSync(process.execPath, [join(serverDir, 'build.mjs')], { stdio: 'inherit' });
if (built.status !== 0) process.exit(1);

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
server = spawn(process.execPath, [join(serverDir, 'dist', 'main.mjs')], {
  env: {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    DEMO_ACCOUNT: 'off',
    LOG_LEVEL: 'error',
    EXTERNAL_TOOLS: 'off',
    WEB_DIST_DIR: join(dataDir, 'no-web-build'),
  },
  stdio: ['ignore', 'inherit', 'inherit'],
});
server.once('exit', (code) => {
  if (code !== 0 && code !== null) console.error(`The server exited with code ${code}`);
});

async function waitForHealth() {
  const until = Date.now() + 30_000;
  for (;;) {
    try {
      const response = await fetch(`${base}/api/health`);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > until) throw new Error('The server did not answer /api/health within 30 s');
    await new Promise((r) => setTimeout(r, 200));
  }
}
await waitForHealth();

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
  return { status: response.status, text };
}

async function signUp(email) {
  const password = 'bench-pass-123';
  const registered = await api('POST', '/api/register', {
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
  if (registered.status !== 201) throw new Error(`register failed: ${registered.status} ${registered.text}`);
  const login = await api('POST', '/api/login', { body: { username: email, password } });
  if (login.status !== 200) throw new Error(`login failed: ${login.status} ${login.text}`);
  return JSON.parse(login.text).token;
}

const email = 'bench@example.com';
const token = await signUp(email);
await signUp('neighbour@example.com');

// ── seed ─────────────────────────────────────────────────────────────────────────────────────────
const db = new Database(join(dataDir, 'anybodyqa.db'), { timeout: 10_000 });
db.exec('PRAGMA journal_mode = WAL');
db.exec('PRAGMA foreign_keys = ON');
const userId = db.prepare('select id from users where email_normalized = ?').get(email).id;
const neighbourId = db
  .prepare('select id from users where email_normalized = ?')
  .get('neighbour@example.com').id;

/** A seeded pseudo-random generator, so every bench run seeds the same history. */
let seed = 42;
function random() {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
}
const pick = (list) => list[Math.floor(random() * list.length)];
const round2 = (x) => Math.round(x * 100) / 100;

const WORDS = [
  'Checkout',
  'Catalog',
  'Login',
  'Search',
  'Orders',
  'Payments',
  'Profile',
  'Inventory',
  'Cart',
  'Shipping',
];
const TOOLS = ['jmeter', 'k6', 'locust', 'taurus'];
const DAY_MS = 86_400_000;
const NOW = Date.now();

function planUrls(i) {
  return Array.from({ length: STEPS_PER_PLAN }, (_, s) => ({
    name: `${pick(WORDS)} step ${s + 1}`,
    method: s % 2 === 0 ? 'GET' : 'POST',
    url: `http://127.0.0.1:9/api/v1/${pick(WORDS).toLowerCase()}/${i}/${s}?page=1&size=20`,
    parameters: [{ key: 'page', value: '1' }],
    headers: [{ name: 'Accept', value: 'application/json' }],
    authorization: { type: 'none' },
    payload: s % 2 === 1 ? JSON.stringify({ item: i, quantity: s + 1, note: 'x'.repeat(120) }) : '',
    extractType: 'text',
    extractName: '',
    extractValue: '',
    thinkTime: '100ms',
    transactionRate: '',
    assertionType: 'status',
    assertionPath: '',
    assertionValue: '200',
    assertionOperator: 'equals',
  }));
}

function histogram() {
  const i = [];
  const c = [];
  let index = 5000 + Math.floor(random() * 200);
  for (let k = 0; k < 200; k += 1) {
    index += 1 + Math.floor(random() * 3);
    i.push(index);
    c.push(1 + Math.floor(random() * 50));
  }
  return { i, c, sum: 123_456_789, min: 1200, max: 980_000 };
}

function summaryOf(users, durationS, p95) {
  const total = Math.round(users * durationS * (5 + random() * 20));
  const failed = random() < 0.2 ? Math.round(total * random() * 0.1) : 0;
  return {
    concurrent_users: users,
    requests_per_second: round2(total / durationS),
    average_response_time: round2(p95 * 0.55),
    error_rate: round2((failed / total) * 100),
    total_requests: total,
    successful_requests: total - failed,
    failed_requests: failed,
    percentile_50: round2(p95 * 0.5),
    percentile_90: round2(p95 * 0.85),
    percentile_95: p95,
    percentile_99: round2(p95 * 1.4),
    percentile_999: round2(p95 * 2),
    min_response_time: round2(p95 * 0.1),
    max_response_time: round2(p95 * 3),
    avg_bandwidth: round2(50 + random() * 500),
    test_duration: durationS,
  };
}

function apiResultsOf(urls, summary) {
  return urls.map((u) => {
    const total = Math.round(summary.total_requests / urls.length);
    const failed = Math.round(summary.failed_requests / urls.length);
    return {
      name: u.name,
      label: u.name,
      url: u.url,
      method: u.method,
      total_requests: total,
      successful_requests: total - failed,
      failed_requests: failed,
      average_response_time: summary.average_response_time,
      percentile_95: summary.percentile_95,
      percentile_99: summary.percentile_99,
      error_rate: summary.error_rate,
      errors_by_kind:
        failed > 0 ? { http_status: { count: failed, samples: ['HTTP 500 Internal Server Error'] } } : {},
    };
  });
}

console.log(`Seeding ${PLANS} plans and ${RUNS} runs …`);
const seedStarted = Date.now();
const insertPlan =
  db.prepare(`insert into plans (id, user_id, name, description, tool, concurrent_users, duration,
  source_page, test_type, schema_version, body, script, script_edited, created_at, updated_at, search_text)
  values (?, ?, ?, ?, ?, ?, ?, ?, 'performance', 1, ?, ?, 0, ?, ?, ?)`);
const insertRun =
  db.prepare(`insert into runs (id, user_id, plan_id, plan_name, status, tool, engine, engine_note,
  config, concurrent_users, duration_seconds, started_at, ended_at, error, summary, api_results, errors, histogram,
  total_requests, error_rate, requests_per_second, average_response_time, percentile_95)
  values (?, ?, ?, ?, ?, ?, 'builtin', 'ran with the built-in engine', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
const insertPoint = db.prepare(
  'insert into run_points (run_id, step_index, second, data) values (?, ?, ?, ?)',
);

const plans = [];
const runIds = [];
db.transaction(() => {
  for (let i = 0; i < PLANS; i += 1) {
    const id = randomUUID();
    const name = `${pick(WORDS)} ${pick(WORDS)} load ${i}${i % 97 === 0 ? ' 100%_off' : ''}`;
    const urls = planUrls(i);
    const description = `${pick(WORDS)} service performance check number ${i}`;
    const created = new Date(NOW - (PLANS - i) * 0.4 * DAY_MS).toISOString();
    insertPlan.run(
      id,
      userId,
      name,
      description,
      pick(TOOLS),
      1 + Math.floor(random() * 50),
      1 + Math.floor(random() * 10),
      i % 3 === 0 ? 'script-input' : 'url-input',
      JSON.stringify({ urls }),
      `# generated script for plan ${i}\n${'// step\n'.repeat(40)}`,
      created,
      created,
      // As the server writes it (apps/server/src/db/search-text.ts): name and description, folded.
      `${name}\n${description}`.normalize('NFKC').toLowerCase(),
    );
    plans.push({ id, name, urls, created });
  }
  // The neighbour's plans share the tables, so the user's queries must pick theirs out of more rows.
  for (let i = 0; i < 200; i += 1) {
    const created = new Date(NOW - i * DAY_MS).toISOString();
    insertPlan.run(
      randomUUID(),
      neighbourId,
      `Neighbour ${i}`,
      '',
      'k6',
      1,
      1,
      'url-input',
      '{"urls":[]}',
      '',
      created,
      created,
    );
  }
  // Uneven like a real history: a few plans are run very often, most now and then, some never.
  const weights = plans.map((_, i) => (i % 10 === 0 ? 0 : 1 / (1 + (i % 37))));
  const totalWeight = weights.reduce((a, b) => a + b, 0);
  const cumulative = [];
  weights.reduce((sum, w, i) => (cumulative[i] = sum + w), 0);
  for (let r = 0; r < RUNS; r += 1) {
    const target = random() * totalWeight;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < target) lo = mid + 1;
      else hi = mid;
    }
    const plan = plans[lo];
    const deletedPlan = r % 50 === 0;
    const id = `run_${randomBytes(12).toString('base64url')}`;
    const started = NOW - (RUNS - r) * 25 * 60_000 - Math.floor(random() * 60_000);
    const durationS = 60;
    const roll = random();
    const status = roll < 0.8 ? 'completed' : roll < 0.9 ? 'failed' : 'stopped';
    const users = 1 + Math.floor(random() * 50);
    const p95 = round2(50 + random() * 400);
    const summary = summaryOf(users, durationS, p95);
    const steps = plan.urls.map((u, index) => ({
      index,
      name: u.name,
      label: u.name,
      method: u.method,
      url: u.url,
    }));
    insertRun.run(
      id,
      userId,
      deletedPlan ? null : plan.id,
      plan.name,
      status,
      'k6',
      JSON.stringify({ plan: { name: plan.name, urls: plan.urls }, duration_seconds: durationS, steps }),
      users,
      durationS,
      new Date(started).toISOString(),
      new Date(started + durationS * 1000).toISOString(),
      status === 'failed' ? 'the runner failed' : null,
      JSON.stringify(summary),
      JSON.stringify(apiResultsOf(plan.urls, summary)),
      JSON.stringify(
        summary.failed_requests > 0
          ? { http_status: { count: summary.failed_requests, samples: ['HTTP 500'] } }
          : {},
      ),
      JSON.stringify(histogram()),
      summary.total_requests,
      summary.error_rate,
      summary.requests_per_second,
      summary.average_response_time,
      summary.percentile_95,
    );
    runIds.push({ id, planId: deletedPlan ? null : plan.id, status });
    if (r >= RUNS - RUNS_WITH_POINTS) {
      for (let second = 1; second <= durationS; second += 1) {
        const latency = {
          avg: 40,
          p50: 35,
          p90: 80,
          p95: p95,
          p99: p95 * 1.4,
          p999: p95 * 2,
          min: 3,
          max: p95 * 3,
        };
        insertPoint.run(
          id,
          -1,
          second,
          JSON.stringify({
            elapsed_s: second,
            active_users: users,
            requests: 100,
            successes: 99,
            failures: 1,
            errors: { http_status: 1 },
            requests_per_second: 100,
            error_rate: 1,
            bandwidth_kbs: 120.5,
            bytes_sent: 20_000,
            bytes_received: 120_000,
            generator_busy: 0.2,
            latency,
          }),
        );
        for (let step = 0; step < plan.urls.length; step += 1) {
          insertPoint.run(
            id,
            step,
            second,
            JSON.stringify({
              requests: 25,
              failures: 0,
              errors: {},
              requests_per_second: 25,
              error_rate: 0,
              latency,
            }),
          );
        }
      }
    }
  }
})();
console.log(`Seeded in ${((Date.now() - seedStarted) / 1000).toFixed(1)} s`);

// ── time the calls ───────────────────────────────────────────────────────────────────────────────
const withPoints = runIds.slice(-RUNS_WITH_POINTS).filter((r) => r.status === 'completed');
const [compareBase, compareCandidate] = withPoints.slice(-2);
const counts = new Map();
for (const run of runIds) if (run.planId !== null) counts.set(run.planId, (counts.get(run.planId) ?? 0) + 1);
const busiestPlan = [...counts.entries()].sort((a, b) => b[1] - a[1])[0][0];
// Deleted one per try: finished runs with points, the costliest to delete.
const toDelete = withPoints.slice(0, TRIES + 1).map((r) => r.id);

const CASES = [
  { name: 'performance-dashboard, first page', path: () => '/api/performance-dashboard' },
  { name: 'performance-dashboard, search', path: () => '/api/performance-dashboard?q=checkout' },
  { name: 'performance-dashboard, search "%_"', path: () => '/api/performance-dashboard?q=100%25_off' },
  {
    name: 'performance-dashboard, with results p.10',
    path: () => '/api/performance-dashboard?filter=with_results&offset=180',
  },
  { name: 'performance-dashboard, no results', path: () => '/api/performance-dashboard?filter=no_results' },
  { name: 'get-test-results, first page', path: () => '/api/get-test-results' },
  { name: 'get-test-results?plan_id (busiest)', path: () => `/api/get-test-results?plan_id=${busiestPlan}` },
  { name: 'get-test-results?status=failed', path: () => '/api/get-test-results?status=failed' },
  { name: 'chart-data-summary', path: () => '/api/chart-data-summary' },
  { name: 'get-test-plans, home dashboard', path: () => '/api/get-test-plans?limit=6' },
  { name: 'get-test-plans, all 1,000', path: () => '/api/get-test-plans' },
  {
    name: 'compare-test-results',
    path: () => `/api/compare-test-results?base=${compareBase.id}&candidate=${compareCandidate.id}`,
  },
  { name: 'delete-test-result', method: 'DELETE', path: (i) => `/api/delete-test-result/${toDelete[i]}` },
];

const median = (list) => {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

const rows = [];
for (const c of CASES) {
  const times = [];
  // One untimed call first (warms the statement caches), as a dashboard's second visit would be.
  for (let i = 0; i <= TRIES; i += 1) {
    const started = performance.now();
    const response = await api(c.method ?? 'GET', c.path(i), { token });
    const ms = performance.now() - started;
    if (response.status !== 200)
      throw new Error(`${c.name}: ${response.status} ${response.text.slice(0, 300)}`);
    if (i > 0) times.push(ms);
  }
  const max = Math.max(...times);
  rows.push({ name: c.name, median: median(times), max, ok: max < LIMIT_MS });
}

if (values.explain) {
  for (const [label, query, params] of [
    ['runs page', 'select id from runs where user_id = ? order by started_at desc, id limit 100', [userId]],
    [
      'runs of a plan',
      'select id from runs where user_id = ? and plan_id = ? order by started_at desc, id limit 100',
      [userId, busiestPlan],
    ],
    [
      'runs by status',
      "select id from runs where user_id = ? and status = 'failed' order by started_at desc, id limit 100",
      [userId],
    ],
    [
      'latest runs of a page of plans',
      'select * from (select plan_id, id, status, started_at, row_number() over (partition by plan_id order by started_at desc, id desc) as rank from runs where plan_id in (?, ?)) as r where r.rank <= 3',
      [busiestPlan, compareBase.planId],
    ],
    [
      'trend of a page of plans',
      "select * from (select plan_id, id, percentile_95, error_rate, row_number() over (partition by plan_id order by started_at desc, id desc) as rank from runs where plan_id in (?, ?) and status = 'completed') as r where r.rank <= 10",
      [busiestPlan, compareBase.planId],
    ],
    [
      'plans with results',
      'select id from plans where user_id = ? and exists (select 1 from runs where runs.plan_id = plans.id) order by created_at desc, id desc limit 20',
      [userId],
    ],
    ['status counts', 'select status, count(*) from runs where user_id = ? group by status', [userId]],
    [
      'runs by day',
      "select substr(started_at, 1, 10) d, count(*), sum(status = 'completed') from runs where user_id = ? group by d order by d desc limit 30",
      [userId],
    ],
  ]) {
    console.log(`\nEXPLAIN QUERY PLAN — ${label}`);
    for (const row of db.prepare(`explain query plan ${query}`).all(...params))
      console.log(`  ${row.detail}`);
  }
}
db.close();

const width = Math.max(...rows.map((r) => r.name.length));
console.log(
  `\n${PLANS} plans, ${RUNS} runs for one user; ${TRIES} timed tries per call over HTTP; limit ${LIMIT_MS} ms\n`,
);
console.log(`${'call'.padEnd(width)}  ${'median'.padStart(9)}  ${'max'.padStart(9)}  result`);
for (const r of rows) {
  console.log(
    `${r.name.padEnd(width)}  ${`${r.median.toFixed(1)} ms`.padStart(9)}  ${`${r.max.toFixed(1)} ms`.padStart(9)}  ${r.ok ? 'pass' : 'FAIL'}`,
  );
}
const missed = rows.filter((r) => !r.ok);
console.log(
  missed.length === 0
    ? '\nEvery call answered within the limit.'
    : `\n${missed.length} call(s) missed the limit.`,
);
process.exit(missed.length === 0 ? 0 : 1);
