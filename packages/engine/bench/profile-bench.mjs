#!/usr/bin/env node
// Load profiles measured (`npm run bench -- --only profiles`, or alone), against the goals issue #26
// sets (docs/adr/0027-load-profiles.md); the figures go to docs/performance.md:
//
// 1. Open model precision: `aqa run --rate R --max-users M --duration S` at 500, 5,000 and 20,000
//    iterations per second against the local nginx (one call per iteration, no think time). Per full
//    second, the iterations started against the plan's R: the median of |achieved − R| / R must be
//    within 1 %, started + dropped within 0.5 % of the planned total, nginx's count equal to the
//    engine's, and the schedule lag's p99 (how late iterations started after they were due) under 5 ms.
// 2. Ramps: `aqa run --stage 10s:100 --stage 5s:100 --stage 5s:0` (users model) against a server
//    that answers after 50 ms: the active users at the end of each second within 1 user (or 1 %) of
//    the planned line.
//
// 3. Flows and test data: two flows weighted 70:30 and a CSV of N accounts (share all, no loop) over
//    2 worker threads against a counting server: each flow's share of the iterations, counted at the
//    target, within 1.5 points of its weight over at least 5,000 iterations, and every row received
//    exactly once (none twice, none missing).
//
//   node packages/engine/bench/profile-bench.mjs [--seconds 20] [--rates 500,5000,20000] [--rows 6000]
//     [--parts open,ramps,flows] [--engine-cpus 1]
//
// Target pinned to CPU 0 and engine to CPU 1 (taskset), as in run.mjs; `--engine-cpus 0,1` lets the
// engine use both cores (one worker thread per core, the engine's default), sharing CPU 0 with nginx. All traffic goes to
// 127.0.0.1; every process is bounded in time and stopped by its PID. Exit 1 when a goal is missed.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ensureTools, nginxCount, runPinned, startNginx } from './nginx-target.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const AQA = join(resolve(HERE, '..'), 'bin/aqa.mjs');
const log = (s = '') => process.stdout.write(`${s}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const fmt = (n, d = 0) =>
  Number(n).toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

const { values: opt } = parseArgs({
  options: {
    seconds: { type: 'string', default: '20' },
    rates: { type: 'string', default: '500,5000,20000' },
    'delay-port': { type: 'string', default: '18093' },
    rows: { type: 'string', default: '6000' },
    parts: { type: 'string', default: 'open,ramps,flows' },
    'engine-cpus': { type: 'string', default: '1' },
  },
});
const SECONDS = Number(opt.seconds);
const RATES = opt.rates.split(',').map(Number);
const DELAY_PORT = Number(opt['delay-port']);
const ROWS = Number(opt.rows);
const PARTS = new Set(opt.parts.split(','));
const ENGINE_CPUS = opt['engine-cpus'];

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/**
 * Runs `aqa run` pinned to the engine CPUs (CPU 1 unless --engine-cpus) and returns its full result (`--json`): a one-call plan on `url`, or
 * the `plan` given (an object of the saved plan's fields).
 */
async function aqaRun(work, name, url, flags, timeoutS, plan = undefined) {
  const planFile = join(work, `${name}.plan.json`);
  const resultFile = join(work, `${name}.result.json`);
  writeFileSync(
    planFile,
    JSON.stringify(
      plan ?? {
        name,
        tool: 'k6',
        concurrent_users: 1,
        duration: 1,
        urls: [{ method: 'GET', url, thinkTime: '0s' }],
      },
    ),
  );
  const r = await runPinned(
    process.execPath,
    [AQA, 'run', planFile, ...flags, '--quiet', '--json', resultFile],
    { timeoutS, cpus: ENGINE_CPUS },
  );
  if (!existsSync(resultFile))
    throw new Error(`${name}: aqa run failed (exit ${r.code}): ${r.stderr.slice(-800)}`);
  return JSON.parse(readFileSync(resultFile, 'utf8'));
}

let failed = 0;
const verdict = (ok, text) => {
  if (!ok) failed++;
  log(`  ${ok ? 'PASS' : 'FAIL'}  ${text}`);
};

async function openModel(work) {
  log(
    `\n1. Open model: --rate R for ${SECONDS} s against nginx (one call per iteration), engine on CPU ${ENGINE_CPUS}`,
  );
  for (const rate of RATES) {
    // A pool well above rate × latency: 50 ms of iterations (nginx answers in about a millisecond),
    // so a pause of the generator itself does not show as dropped iterations.
    const pool = Math.min(1000, Math.max(50, Math.ceil(rate / 20)));
    const before = await nginxCount();
    const result = await aqaRun(
      work,
      `rate-${rate}`,
      'http://127.0.0.1:18090/hello',
      ['--rate', String(rate), '--max-users', String(pool), '--duration', `${SECONDS}s`],
      SECONDS + 60,
    );
    await sleep(500);
    const counted = (await nginxCount()) - before - 1; // stub_status counts its own request
    const it = result.iterations ?? { started: 0, dropped: 0, schedule_lag: { p99: NaN } };
    const planned = rate * SECONDS;
    // Full seconds only: the last interval of a run may be partial.
    const seconds = result.series.filter((p) => p.second >= 1 && p.second <= SECONDS);
    const errors = seconds.map((p) => Math.abs((p.iterations ?? 0) - rate) / rate);
    const medianError = median(errors) * 100;
    const totalError = (Math.abs(it.started + it.dropped - planned) / planned) * 100;
    const startedError = (Math.abs(it.started - planned) / planned) * 100;
    log(
      `  ${fmt(rate)} it/s, pool ${pool}: started ${fmt(it.started)}, dropped ${fmt(it.dropped)} of ${fmt(planned)} planned; ` +
        `median per-second error ${fmt(medianError, 2)} %; started vs planned ${fmt(startedError, 3)} %; ` +
        `schedule lag p50 ${fmt(it.schedule_lag.p50 ?? NaN, 3)} ms, p99 ${fmt(it.schedule_lag.p99, 3)} ms; ` +
        `latency p50 ${fmt(result.summary.percentile_50, 3)} ms; nginx counted ${fmt(counted)}`,
    );
    verdict(
      medianError <= 1,
      `${fmt(rate)} it/s: median of seconds within 1 % of the rate (${fmt(medianError, 2)} %)`,
    );
    verdict(
      startedError <= 0.5,
      `${fmt(rate)} it/s: iterations started within 0.5 % of the plan (${fmt(startedError, 3)} %)`,
    );
    verdict(totalError === 0, `${fmt(rate)} it/s: started + dropped is the planned total`);
    verdict(
      it.schedule_lag.p99 < 5,
      `${fmt(rate)} it/s: schedule lag p99 under 5 ms (${fmt(it.schedule_lag.p99, 3)} ms)`,
    );
    verdict(
      counted === result.summary.total_requests,
      `${fmt(rate)} it/s: nginx counted what the engine sent`,
    );
  }
}

/** A node server answering every request after `delayMs`, pinned to CPU 0, stopped by its PID. */
async function startDelayTarget(delayMs, lifetimeS, extra = []) {
  const p = spawn(
    'taskset',
    [
      '-c',
      '0',
      process.execPath,
      join(HERE, 'delay-target.mjs'),
      '--port',
      String(DELAY_PORT),
      '--delay-ms',
      String(delayMs),
      '--lifetime-s',
      String(lifetimeS),
      ...extra,
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  for (let i = 0; i < 50; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${DELAY_PORT}/__stats`)).ok) return p;
    } catch {
      // not up yet
    }
    await sleep(100);
  }
  p.kill();
  throw new Error('the delay target did not start');
}

/** The planned users at `ms` of a users-model line through `points` ({ atMs, target }), rounded down. */
function plannedUsers(points, ms) {
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1];
    const b = points[i];
    if (ms <= b.atMs) {
      const v =
        b.atMs === a.atMs ? b.target : a.target + ((b.target - a.target) * (ms - a.atMs)) / (b.atMs - a.atMs);
      return Math.floor(v + 1e-9);
    }
  }
  return points[points.length - 1].target;
}

async function ramps(work) {
  log('\n2. Ramps: --stage 10s:100 --stage 5s:100 --stage 5s:0 against a 50 ms server');
  const target = await startDelayTarget(50, 120);
  try {
    const result = await aqaRun(
      work,
      'ramp',
      `http://127.0.0.1:${DELAY_PORT}/ramp`,
      ['--stage', '10s:100', '--stage', '5s:100', '--stage', '5s:0'],
      90,
    );
    const points = [
      { atMs: 0, target: 0 },
      { atMs: 10_000, target: 100 },
      { atMs: 15_000, target: 100 },
      { atMs: 20_000, target: 0 },
    ];
    let worst = 0;
    let worstAt = 0;
    const rows = [];
    for (const p of result.series.filter((s) => s.second >= 1 && s.second <= 19)) {
      const planned = plannedUsers(points, p.second * 1000);
      // A second without a figure counts as missed, never as met.
      const off = typeof p.activeUsers === 'number' ? Math.abs(p.activeUsers - planned) : Infinity;
      const allowed = Math.max(1, planned * 0.01);
      if (off / allowed > worst) {
        worst = off / allowed;
        worstAt = p.second;
      }
      rows.push(`${p.second}s ${p.activeUsers}/${planned}`);
    }
    log(`  active/planned at each second's end: ${rows.join(', ')}`);
    verdict(
      worst <= 1,
      `active users within 1 user (or 1 %) of the line every second (worst at ${worstAt} s)`,
    );
  } finally {
    target.kill();
  }
}

async function flowsAndData(work) {
  log(`\n3. Flows 70:30 and a CSV of ${fmt(ROWS)} accounts (share all, no loop), 2 workers, 40 users`);
  const target = await startDelayTarget(1, 180, ['--count-paths']);
  try {
    const base = `http://127.0.0.1:${DELAY_PORT}`;
    const csv = ['account', ...Array.from({ length: ROWS }, (_, i) => `user${i + 1}`)].join('\n');
    const plan = {
      name: 'flows-and-data',
      tool: 'k6',
      concurrent_users: 40,
      duration: 2,
      flows: [
        { name: 'browse', weight: 70 },
        { name: 'buy', weight: 30 },
      ],
      urls: [
        { method: 'GET', url: `${base}/browse?u={{account}}`, thinkTime: '0s', flow: 'browse' },
        { method: 'GET', url: `${base}/buy?u={{account}}`, thinkTime: '0s', flow: 'buy' },
      ],
      data_files: { 'accounts.csv': csv },
      data_sources: [{ path: 'accounts.csv', loop: false, share: 'all' }],
    };
    const result = await aqaRun(work, 'flows', '', ['--workers', '2', '--duration', '60s'], 150, plan);
    const counts = await (await fetch(`${base}/__paths`)).json();
    const perFlow = { browse: 0, buy: 0 };
    const perRow = new Map();
    for (const [path, n] of Object.entries(counts)) {
      const [route, query] = path.split('?');
      perFlow[route.slice(1)] = (perFlow[route.slice(1)] ?? 0) + n;
      const row = new URLSearchParams(query).get('u');
      perRow.set(row, (perRow.get(row) ?? 0) + n);
    }
    const total = perFlow.browse + perFlow.buy;
    const browseShare = (perFlow.browse / total) * 100;
    const twice = [...perRow.values()].filter((n) => n > 1).length;
    const missing = ROWS - perRow.size;
    const engineFlows = (result.flows ?? []).map((f) => `${f.name} ${fmt(f.iterations)}`).join(', ');
    // The engine's own count must be the target's: a flow it counts is a flow the target received.
    const engineAgrees = (result.flows ?? []).every((f) => f.iterations === perFlow[f.name]);
    log(
      `  target counted ${fmt(total)} iterations: browse ${fmt(perFlow.browse)} (${fmt(browseShare, 2)} %), ` +
        `buy ${fmt(perFlow.buy)}; the engine's flows: ${engineFlows}; rows received ${fmt(perRow.size)} of ` +
        `${fmt(ROWS)}, ${twice} twice; ${result.data_exhausted?.[0]?.message ?? 'no data end reported'}`,
    );
    verdict(total >= 5000, `at least 5,000 iterations counted at the target (${fmt(total)})`);
    verdict(
      Math.abs(browseShare - 70) <= 1.5,
      `each flow within 1.5 points of its weight (browse ${fmt(browseShare, 2)} % for 70)`,
    );
    verdict(
      engineAgrees && (result.flows ?? []).length === 2,
      "the engine's per-flow iterations are the target's",
    );
    verdict(
      twice === 0 && missing === 0,
      `every row received exactly once (${twice} twice, ${missing} missing)`,
    );
  } finally {
    target.kill();
  }
}

if (!ensureTools()) process.exit(1);
const work = mkdtempSync(join(tmpdir(), 'aqa-profile-bench-'));
log(
  `load average at start: ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')} (quiet machine: near 0)`,
);
const nginx = await startNginx(work);
try {
  if (PARTS.has('open')) await openModel(work);
  if (PARTS.has('ramps')) await ramps(work);
  if (PARTS.has('flows')) await flowsAndData(work);
} finally {
  nginx.kill();
  rmSync(work, { recursive: true, force: true });
}
log(failed === 0 ? '\nAll load-profile goals met.' : `\n${failed} goal(s) missed.`);
process.exit(failed === 0 ? 0 : 1);
