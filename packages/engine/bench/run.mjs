#!/usr/bin/env node
// The engine's benchmark (`npm run bench`): all traffic goes to 127.0.0.1 and every run is bounded.
//
//   node packages/engine/bench/run.mjs [--duration S] [--memory-seconds S] [--repeat N]
//                                      [--skip-compare] [--skip-own] [--skip-memory]
//
// 1. ../shared/bench/compare.sh: wrk, autocannon and `npx aqa run` side by side (throughput against
//    nginx at 50 users, latency truth against a 20 ms server, a 1-in-200 1 s stall in p99.9), counts
//    checked against the targets. Then the throughput scenario alone, autocannon and engine
//    alternating, --repeat more times (default 3): on a shared machine one pair can be off by tens of
//    percent either way, so the median ratio is the figure to read.
// 2. The project's own cases, against a second nginx (bench/nginx-json.conf), target on CPU 0 and
//    generator on CPU 1 as in compare.sh:
//    - throughput of a plan with a JSON assertion and a JSON extraction on every request, next to
//      the same plan without checks and to autocannon on the same URL;
//    - memory: one long run (default 90 s, ≥ 2 million requests on this kind of machine) printing the
//      engine process's RSS at start, after the first minute, at the end and its peak; count exact.
// Needs nginx and wrk (Debian packages; installed here with apt-get when missing and running as root)
// and autocannon (fetched by npx, as compare.sh does).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ensureTools, nginxCount, runPinned, startNginx } from './nginx-target.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ENGINE_DIR = resolve(HERE, '..');
const ROOT = resolve(ENGINE_DIR, '../..');
const SHARED_BENCH = resolve(ROOT, '../shared/bench');
const AQA = join(ENGINE_DIR, 'bin/aqa.mjs');
const log = (s = '') => process.stdout.write(`${s}\n`);

const { values: opt } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    'memory-seconds': { type: 'string', default: '90' },
    'skip-compare': { type: 'boolean', default: false },
    'skip-own': { type: 'boolean', default: false },
    'skip-memory': { type: 'boolean', default: false },
    repeat: { type: 'string', default: '3' },
  },
});
const DUR = Number(opt.duration);
const MEM_S = Number(opt['memory-seconds']);

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function engineCase(work, name, plan, seconds, opts = {}) {
  const planFile = join(work, `${name}.json`);
  const summaryFile = join(work, `${name}.summary.json`);
  writeFileSync(planFile, JSON.stringify(plan));
  const before = await nginxCount();
  // taskset pins the process to CPU 1, so the engine runs one worker thread there.
  const r = await runPinned(
    process.execPath,
    [AQA, 'run', planFile, '--duration', `${seconds}s`, '--quiet', '--summary-json', summaryFile],
    {
      sampleRss: opts.sampleRss,
      timeoutS: seconds + 60,
    },
  );
  await sleep(500);
  const counted = (await nginxCount()) - before - 1; // stub_status counts its own request
  if (!existsSync(summaryFile))
    throw new Error(`engine case ${name} failed (exit ${r.code}): ${r.stderr.slice(-500)}`);
  const s = JSON.parse(readFileSync(summaryFile, 'utf8'));
  return { s, counted, rss: r.rss };
}

async function autocannonCase(url, seconds) {
  const r = await runPinned('npx', ['-y', 'autocannon@9', '-c', '50', '-d', String(seconds), '-j', url], {
    timeoutS: seconds + 90,
  });
  try {
    const j = JSON.parse(r.stdout);
    return { rps: j.requests.average, p50: j.latency.p50, p99: j.latency.p99, total: j.requests.total };
  } catch {
    return null;
  }
}

const fmt = (n, d = 0) =>
  n === null || n === undefined
    ? 'n/a'
    : Number(n).toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

async function startDelayServer(port) {
  const p = spawn(
    'taskset',
    ['-c', '0', process.execPath, join(SHARED_BENCH, 'delay-server.mjs'), String(port)],
    {
      stdio: 'ignore',
      env: { ...process.env, LIFETIME_S: String(DUR * 4 + 120) },
    },
  );
  for (let i = 0; i < 50; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/__stats`)).ok) return p;
    } catch {
      // not up yet
    }
    await sleep(100);
  }
  p.kill();
  throw new Error('delay-server did not start');
}

/** Latency truth: the engine's p50 next to the delay server's own p50, and the 1-in-200 stall in p99.9. */
async function latencyTruth(work) {
  const port = 18091;
  const server = await startDelayServer(port);
  try {
    log('\n## Own cases: latency truth (delay server on CPU 0, 20 users, generator on CPU 1)\n');
    log(
      '| case | engine p50 | server p50 | difference | engine p99 | engine p99.9 | server p99.9 | reported | server counted |',
    );
    log('|---|---|---|---|---|---|---|---|---|');
    for (const [label, query] of [
      ['20 ms', 'ms=20'],
      ['20 ms, every 200th held 1 s', 'ms=20&stall_every=200&stall_ms=1000'],
    ]) {
      await fetch(`http://127.0.0.1:${port}/__reset`);
      const planFile = join(work, 'latency.json');
      const summaryFile = join(work, 'latency.summary.json');
      writeFileSync(
        planFile,
        JSON.stringify({
          name: 'latency',
          concurrent_users: 20,
          duration: 1,
          urls: [{ url: `http://127.0.0.1:${port}/d?${query}`, thinkTime: '0' }],
        }),
      );
      await runPinned(
        process.execPath,
        [AQA, 'run', planFile, '--duration', `${DUR}s`, '--quiet', '--summary-json', summaryFile],
        { timeoutS: DUR + 60 },
      );
      const st = await (await fetch(`http://127.0.0.1:${port}/__stats`)).json();
      const s = JSON.parse(readFileSync(summaryFile, 'utf8'));
      const diff = s.percentile_50 - st.p50_ms;
      log(
        `| ${label} | ${s.percentile_50} | ${st.p50_ms} | ${diff >= 0 ? '+' : ''}${diff.toFixed(3)} ms | ${s.percentile_99} | ${s.percentile_999} | ${st.p999_ms} | ${s.total_requests} | ${st.requests} |`,
      );
      if (s.total_requests !== st.requests)
        log(`COUNT MISMATCH: engine ${s.total_requests}, server ${st.requests}`);
    }
  } finally {
    server.kill('SIGTERM');
  }
}

async function ownCases() {
  const work = mkdtempSync(join(tmpdir(), 'aqa-bench-'));
  const nginx = await startNginx(work);
  try {
    // Build once so that no case pays for it.
    execFileSync(process.execPath, [join(ENGINE_DIR, 'build.mjs')], { stdio: 'ignore' });
    if (!opt['skip-own']) {
      log('\n## Own cases: checks on every request (nginx, 50 users, generator on one core)\n');
      const base = { name: 'bench', concurrent_users: 50, duration: 1 };
      const plain = { ...base, urls: [{ url: 'http://127.0.0.1:18090/json', thinkTime: '0' }] };
      const checked = {
        ...base,
        urls: [
          {
            url: 'http://127.0.0.1:18090/json?t={{token}}',
            thinkTime: '0',
            assertionType: 'json',
            assertionPath: '$.user.name',
            assertionOperator: 'equals',
            assertionValue: 'alice',
            extractType: 'json',
            extractName: 'token',
            extractValue: '$.token',
          },
        ],
      };
      const ac = await autocannonCase('http://127.0.0.1:18090/json', DUR);
      const p = await engineCase(work, 'plain', plain, DUR);
      const c = await engineCase(work, 'checked', checked, DUR);
      log('| case | req/s | p50 ms | p99 ms | reported | target counted | failed |');
      log('|---|---|---|---|---|---|---|');
      if (ac)
        log(`| autocannon, GET /json | ${fmt(ac.rps)} | ${ac.p50} | ${ac.p99} | ${ac.total} | n/a | n/a |`);
      for (const [label, x] of [
        ['engine, GET /json', p],
        ['engine, GET /json + JSON assertion + JSON extraction', c],
      ]) {
        log(
          `| ${label} | ${fmt(x.s.requests_per_second)} | ${x.s.percentile_50} | ${x.s.percentile_99} | ${x.s.total_requests} | ${x.counted} | ${x.s.failed_requests} |`,
        );
        if (x.s.total_requests !== x.counted)
          log(`COUNT MISMATCH: ${label}: engine ${x.s.total_requests}, target ${x.counted}`);
      }
      if (ac)
        log(
          `\nchecked/autocannon = ${(c.s.requests_per_second / ac.rps).toFixed(2)}, checked/plain = ${(c.s.requests_per_second / p.s.requests_per_second).toFixed(2)}`,
        );
    }
    if (!opt['skip-own']) await latencyTruth(work);
    if (!opt['skip-memory']) {
      log(`\n## Own cases: memory over a long run (${MEM_S} s, nginx /hello, 50 users, one core)\n`);
      const plan = {
        name: 'memory',
        concurrent_users: 50,
        duration: 1,
        urls: [{ url: 'http://127.0.0.1:18090/hello', thinkTime: '0' }],
      };
      const m = await engineCase(work, 'memory', plan, MEM_S, { sampleRss: true });
      const at = (t) => m.rss.find((x) => x.t >= t) ?? m.rss[m.rss.length - 1];
      const start = at(2);
      const minute = at(Math.min(60, MEM_S * 0.66));
      const end = m.rss[m.rss.length - 1];
      const peak = Math.max(...m.rss.map((x) => x.mib));
      log(
        `requests: ${fmt(m.s.total_requests)} reported, ${fmt(m.counted)} counted by nginx${m.s.total_requests === m.counted ? ' (exact)' : ' — COUNT MISMATCH'}; ${fmt(m.s.requests_per_second)} req/s`,
      );
      log(
        `RSS MiB: start ${fmt(start?.mib, 1)} (t=${start?.t.toFixed(0)} s), after ${minute?.t.toFixed(0)} s ${fmt(minute?.mib, 1)}, end ${fmt(end?.mib, 1)} (t=${end?.t.toFixed(0)} s), peak ${fmt(peak, 1)}`,
      );
      log(`growth after ${minute?.t.toFixed(0)} s: ${fmt(end.mib - minute.mib, 1)} MiB`);
    }
  } finally {
    nginx.kill('SIGTERM');
    await sleep(300);
    rmSync(work, { recursive: true, force: true });
  }
}

const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
if (!ensureTools()) process.exit(2);
log(
  `load average at start: ${load()} (throughput and latency figures need a quiet machine; see docs/performance.md)\n`,
);
/** Runs compare.sh, showing its lines as they come, and returns its output. */
function compare(args, echo) {
  return new Promise((resolvePromise) => {
    const child = spawn('bash', [join(SHARED_BENCH, 'compare.sh'), ...args], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.on('data', (d) => {
      stdout += d;
      if (echo) process.stdout.write(d);
    });
    child.on('close', (status) => resolvePromise({ status, stdout }));
  });
}

if (!opt['skip-compare']) {
  log(`## compare.sh (${DUR} s per tool and scenario)\n`);
  const r = await compare(['-d', String(DUR)], true);
  if (r.status !== 0) log(`compare.sh exited ${r.status}`);
  const ratio = (text) => Number(/throughput: engine\/autocannon = ([\d.]+)/.exec(text)?.[1] ?? NaN);
  const ratios = [ratio(r.stdout)];
  const repeat = Number(opt.repeat);
  if (repeat > 0) log(`\n## Throughput again, autocannon then engine, ${repeat} more time(s)\n`);
  for (let i = 0; i < repeat; i++) {
    const x = await compare(['-d', String(DUR), '-s', 'throughput', '-t', 'autocannon engine'], false);
    const rows = x.stdout.split('\n').filter((l) => l.startsWith('| throughput') || l.includes('MISMATCH'));
    for (const row of rows) log(row);
    ratios.push(ratio(x.stdout));
  }
  const valid = ratios.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (valid.length > 0) {
    const median = valid[Math.floor(valid.length / 2)];
    log(
      `\nthroughput engine/autocannon over ${valid.length} pair(s): ${valid.map((x) => x.toFixed(2)).join(', ')}; median ${median.toFixed(2)}`,
    );
  }
}
if (!opt['skip-own'] || !opt['skip-memory']) await ownCases();
log(`\nload average at end: ${load()}`);
