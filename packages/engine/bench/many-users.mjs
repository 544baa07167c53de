#!/usr/bin/env node
// Many users on one machine (`npm run bench`, or alone): `aqa run --users 10000 --duration 60s`
// against a local server that answers every request after 1 s, think time 0. A closed model, so
// the expected rate is users / 1 s = 10,000 requests per second.
//
//   node packages/engine/bench/many-users.mjs [--users 10000] [--seconds 60] [--delay-ms 1000]
//        [--baseline-users 100] [--baseline-seconds 20] [--port 18092] [--no-pin]
//
// Prints requests per second (the summary's, and the steady per-second rate once every user is
// running), latency, the engine process's RSS (sampled every second: peak and steady), and memory
// per virtual user: (peak RSS of this run − peak RSS of the same plan with --baseline-users) /
// (users − baseline users). Target pinned to CPU 0 and engine to CPU 1 (taskset, when present),
// as in run.mjs. All traffic goes to 127.0.0.1; every process is bounded in time.
// Exit 1 when the engine's total differs from what the target counted, a request failed for any
// reason but the end of the run, or the steady rate is under 90 % of users / delay.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const HERE = dirname(fileURLToPath(import.meta.url));
const ENGINE_DIR = resolve(HERE, '..');
const AQA = join(ENGINE_DIR, 'bin/aqa.mjs');
const log = (s = '') => process.stdout.write(`${s}\n`);

const { values: opt } = parseArgs({
  options: {
    users: { type: 'string', default: '10000' },
    seconds: { type: 'string', default: '60' },
    'delay-ms': { type: 'string', default: '1000' },
    'baseline-users': { type: 'string', default: '100' },
    'baseline-seconds': { type: 'string', default: '20' },
    port: { type: 'string', default: '18092' },
    'no-pin': { type: 'boolean', default: false },
  },
});
const USERS = Number(opt.users);
const SECONDS = Number(opt.seconds);
const DELAY_MS = Number(opt['delay-ms']);
const BASE_USERS = Number(opt['baseline-users']);
const BASE_SECONDS = Number(opt['baseline-seconds']);
const PORT = Number(opt.port);
const pin = !opt['no-pin'] && spawnSync('sh', ['-c', 'command -v taskset']).status === 0;
const pinned = (cpu, cmd, args) => (pin ? ['taskset', ['-c', String(cpu), cmd, ...args]] : [cmd, args]);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const fmt = (n, d = 0) =>
  Number(n).toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

/** The hard open-files limit children get (Node raises the soft one to it). */
function openFilesLimit() {
  const r = spawnSync('sh', ['-c', 'ulimit -Hn']);
  const v = r.stdout?.toString().trim();
  return v === 'unlimited' ? Infinity : Number(v);
}

async function startTarget(work) {
  const [cmd, args] = pinned(0, process.execPath, [
    join(HERE, 'delay-target.mjs'),
    '--port',
    String(PORT),
    '--delay-ms',
    String(DELAY_MS),
    '--lifetime-s',
    String(SECONDS + BASE_SECONDS + 300),
  ]);
  const p = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'inherit'], cwd: work });
  for (let i = 0; i < 50; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${PORT}/__stats`)).ok) return p;
    } catch {
      // not up yet
    }
    await sleep(100);
  }
  p.kill();
  throw new Error(`the delay target did not start on 127.0.0.1:${PORT}`);
}

const stats = async () => (await fetch(`http://127.0.0.1:${PORT}/__stats`)).json();

/** Runs `aqa run` on CPU 1 and samples its RSS (VmRSS: the process with its worker threads) every second. */
function runEngine(planFile, jsonFile, users, seconds) {
  return new Promise((resolvePromise) => {
    const [cmd, args] = pinned(1, process.execPath, [
      AQA,
      'run',
      planFile,
      '--users',
      String(users),
      '--duration',
      `${seconds}s`,
      '--quiet',
      '--json',
      jsonFile,
    ]);
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const rss = [];
    const cpu = { s: 0 };
    const t0 = Date.now();
    const timer = setInterval(() => {
      try {
        // utime + stime, in clock ticks (100 a second on Linux): the process with its threads.
        const f = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
        cpu.s = (Number(f[11]) + Number(f[12])) / 100;
        const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0);
        if (kb > 0) rss.push({ t: (Date.now() - t0) / 1000, mib: kb / 1024 });
      } catch {
        // ended
      }
    }, 1000);
    const kill = setTimeout(() => child.kill('SIGKILL'), (seconds + 120) * 1000);
    child.on('close', (code) => {
      clearInterval(timer);
      clearTimeout(kill);
      resolvePromise({ code, stdout, stderr, rss, cpuS: cpu.s });
    });
  });
}

async function engineCase(work, name, users, seconds) {
  const planFile = join(work, `${name}.json`);
  const jsonFile = join(work, `${name}.result.json`);
  writeFileSync(
    planFile,
    JSON.stringify({
      name: `many users: ${name}`,
      concurrent_users: 1,
      duration: 1,
      urls: [{ url: `http://127.0.0.1:${PORT}/work`, thinkTime: '0' }],
    }),
  );
  await fetch(`http://127.0.0.1:${PORT}/__reset`);
  const r = await runEngine(planFile, jsonFile, users, seconds);
  await sleep(500);
  const target = await stats();
  let result;
  try {
    result = JSON.parse(readFileSync(jsonFile, 'utf8'));
  } catch {
    throw new Error(`aqa run (${name}) failed, exit ${r.code}: ${r.stderr.slice(-800)}`);
  }
  const peak = Math.max(...r.rss.map((x) => x.mib));
  // Steady: the run's second half, every user long connected.
  const half = r.rss.filter((x) => x.t >= seconds / 2 && x.t <= seconds);
  const steady = half.length > 0 ? half.reduce((a, x) => a + x.mib, 0) / half.length : peak;
  return { result, target, peak, steady, rss: r.rss, cpuS: r.cpuS };
}

/**
 * The rate over the run's second half (every user long connected), from the engine's series: the
 * requests of the points that end in (seconds / 2, seconds] over the time they cover. A saturated
 * generator reports fewer, longer intervals; `elapsedS` keeps them on the clock.
 */
function steadyRate(series, seconds) {
  const before = series.filter((p) => p.elapsedS <= seconds / 2).at(-1);
  const window = series.filter((p) => p.elapsedS > seconds / 2 && p.elapsedS <= seconds);
  const start = before?.elapsedS ?? 0;
  const end = window.at(-1)?.elapsedS ?? start;
  const requests = window.reduce((a, p) => a + p.requests, 0);
  return { rate: end > start ? requests / (end - start) : NaN, from: start, to: end };
}

/** The run's per-second rates, compactly: "1-2: 0, 3: 9,812, …". */
const perSecond = (series) => series.map((p) => `${fmt(p.elapsedS)}s:${fmt(p.requestsPerSecond)}`).join(' ');

const need = USERS + 1000;
const limit = openFilesLimit();
if (limit < need) {
  log(
    `skipped: ${fmt(USERS)} users need about ${fmt(need)} open files in the engine and as many in the target, but the hard limit is ${fmt(limit)} (raise it: ulimit -n ${need} as root, or LimitNOFILE=)`,
  );
  process.exit(0);
}

log(
  `# Many users: ${fmt(USERS)} users, ${SECONDS} s, server answers after ${fmt(DELAY_MS)} ms, think time 0${pin ? ' (target on CPU 0, engine on CPU 1)' : ''}`,
);
log(`load average at start: ${load()}\n`);
execFileSync(process.execPath, [join(ENGINE_DIR, 'build.mjs')], { stdio: 'ignore' });
const work = mkdtempSync(join(tmpdir(), 'aqa-many-users-'));
const target = await startTarget(work);
let failed = false;
try {
  const base = await engineCase(work, 'baseline', BASE_USERS, BASE_SECONDS);
  const main = await engineCase(work, 'many', USERS, SECONDS);
  const s = main.result.summary;
  const expected = (USERS * 1000) / DELAY_MS;
  const st = steadyRate(main.result.series, SECONDS);
  const maxActive = Math.max(...main.result.series.map((p) => p.activeUsers));
  const busy = main.result.series.map((p) => p.generatorBusy);
  const avgBusy = busy.reduce((a, b) => a + b, 0) / Math.max(1, busy.length);
  const perUserKiB = ((main.peak - base.peak) * 1024) / (USERS - BASE_USERS);
  const otherErrors = Object.entries(main.result.errors).filter(([k]) => k !== 'cancelled');

  log('| figure | value |');
  log('|---|---|');
  log(
    `| users | ${fmt(USERS)} (${fmt(maxActive)} running at once; the target saw ${fmt(main.target.peakConnections)} connections) |`,
  );
  log(`| expected rate (users / delay) | ${fmt(expected)} req/s |`);
  log(
    `| steady rate (seconds ${fmt(st.from, 1)}–${fmt(st.to, 1)} of the run) | ${fmt(st.rate)} req/s (${fmt((st.rate / expected) * 100, 1)} % of expected) |`,
  );
  log(
    `| summary requests_per_second (whole run, ramp and tail included) | ${fmt(s.requests_per_second, 1)} req/s over ${s.test_duration} s |`,
  );
  log(`| requests: engine / target counted | ${fmt(s.total_requests)} / ${fmt(main.target.requests)} |`);
  log(
    `| failed | ${fmt(s.failed_requests)} (${
      Object.entries(main.result.errors)
        .map(([k, v]) => `${k} ${v.count}`)
        .join(', ') || 'none'
    }) |`,
  );
  log(`| latency p50 / p99 / max | ${s.percentile_50} / ${s.percentile_99} / ${s.max_response_time} ms |`);
  log(
    `| target: peak connections / peak in flight | ${fmt(main.target.peakConnections)} / ${fmt(main.target.peakInFlight)} |`,
  );
  log(
    `| generator busy (event loop, average / peak) | ${fmt(avgBusy * 100)} % / ${fmt(Math.max(...busy) * 100)} % |`,
  );
  log(`| worker threads | ${main.result.workers} |`);
  log(
    `| engine CPU (user + sys, start-up included) | ${fmt(main.cpuS, 1)} s: ${fmt((main.cpuS * 1e6) / Math.max(1, s.total_requests), 1)} µs per request |`,
  );
  log(
    `| RSS, ${fmt(USERS)} users: peak / steady (second half) | ${fmt(main.peak, 1)} / ${fmt(main.steady, 1)} MiB |`,
  );
  log(
    `| RSS, ${fmt(BASE_USERS)} users (${BASE_SECONDS} s): peak / steady | ${fmt(base.peak, 1)} / ${fmt(base.steady, 1)} MiB |`,
  );
  log(
    `| memory per virtual user: from peaks / from steady RSS | ${fmt(perUserKiB, 1)} / ${fmt(((main.steady - base.steady) * 1024) / (USERS - BASE_USERS), 1)} KiB |`,
  );
  log(`\nrequests per second, second by second: ${perSecond(main.result.series)}`);
  log(`\nload average at end: ${load()}`);

  if (s.total_requests !== main.target.requests) {
    // Sent at the very end and not yet read by the target: counted by the engine as cancelled.
    const cancelled = main.result.errors.cancelled?.count ?? 0;
    const gap = s.total_requests - main.target.requests;
    log(
      `COUNT: engine ${s.total_requests}, target ${main.target.requests} (cancelled at the end: ${cancelled})`,
    );
    if (gap < 0 || gap > cancelled) failed = true;
  }
  if (otherErrors.length > 0) {
    log(
      `FAILED REQUESTS: ${otherErrors.map(([k, v]) => `${k} ${v.count}: ${v.samples[0] ?? ''}`).join('; ')}`,
    );
    failed = true;
  }
  if (!(st.rate >= expected * 0.9)) {
    log(`RATE: steady ${fmt(st.rate)} req/s is under 90 % of ${fmt(expected)} (read with the load average)`);
    failed = true;
  }
} finally {
  target.kill('SIGTERM');
  await sleep(300);
  rmSync(work, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
