#!/usr/bin/env node
// Runs on load agents (`npm run bench -- --only agents`, issue #17): the same plan on 1, 2 and 3 agent
// processes of this machine, and on the server itself for reference. The figures are the merged
// requests per second and the server's CPU per merged snapshot (docs/performance.md "Runs on load
// agents").
//
//   node apps/server/bench/agents-bench.mjs [--users 30] [--seconds 10] [--delay-ms 10] [--cores 1]
//     [--rate 500] [--rows 6000] [--parts throughput,profiles] [--profile-cores 2] [--rate-target delay|nginx]
//
// - Redis is a throw-away redis-server on a free port (scripts/test-services/redis.mjs).
// - The server is the built bundle (apps/server/dist/main.mjs) in a child process with REDIS_URL, on a
//   free port, with a temporary DATA_DIR; its log (info) is read for the line each run on agents writes
//   when it ends: the CPU its merge took (process.cpuUsage around each shard event, from the Redis
//   stream to the merged snapshot) and the number of snapshots.
// - The agents are the served command line (GET /downloads/aqa.mjs) in a folder of their own,
//   `node aqa.mjs agent --cores N`, registered with an API token of the bench's account.
// - The target answers every request after --delay-ms (packages/engine/bench/delay-target.mjs).
// - The server's whole CPU per snapshot is read from /proc/<pid>/stat (utime + stime) before and after
//   each run: it includes the HTTP API, the stream reads, the database writes and the merge.
// All traffic stays on 127.0.0.1; every process is ended at exit. Exit 1 when a run did not complete.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { nginxCount, startNginx } from '../../../packages/engine/bench/nginx-target.mjs';
import { startRedis } from '../../../scripts/test-services/redis.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const SERVER_DIR = resolve(HERE, '..');
const ROOT = resolve(SERVER_DIR, '../..');
const ENGINE_DIR = join(ROOT, 'packages/engine');
const log = (s = '') => process.stdout.write(`${s}\n`);

const { values: opt } = parseArgs({
  options: {
    users: { type: 'string', default: '30' },
    seconds: { type: 'string', default: '10' },
    'delay-ms': { type: 'string', default: '10' },
    cores: { type: 'string', default: '1' },
    rate: { type: 'string', default: '500' },
    rows: { type: 'string', default: '6000' },
    /** `profiles` alone skips part 1 (the throughput on 1, 2 and 3 agents). */
    parts: { type: 'string', default: 'throughput,profiles' },
    /** Worker threads of each of part 2's two agents. */
    'profile-cores': { type: 'string', default: '2' },
    /**
     * Part 2's open-model target: `delay` (a node:net server answering after 1 ms, counting paths) or
     * `nginx` (bench/nginx-json.conf, counted by its stub_status), which holds far higher rates.
     */
    'rate-target': { type: 'string', default: 'delay' },
  },
});
const USERS = Number(opt.users);
const SECONDS = Number(opt.seconds);
const DELAY_MS = Number(opt['delay-ms']);
const CORES = Number(opt.cores);
const AGENT_COUNTS = [1, 2, 3];
/** Part 2 (docs/performance.md "Load profiles on agents"): the open model's rate, flows and data rows on 2 agents. */
const PROFILE_RATE = Number(opt.rate);
const PROFILE_ROWS = Number(opt.rows);
const PARTS = new Set(opt.parts.split(','));
const PROFILE_CORES = opt['profile-cores'];
const RATE_TARGET = opt['rate-target'];
/** The pool: 50 ms of iterations (at least 50, at most the form's 1,000), as the profiles bench takes it. */
const PROFILE_POOL = Math.min(1000, Math.max(50, Math.ceil(PROFILE_RATE / 20)));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

const work = mkdtempSync(join(tmpdir(), 'aqa-agents-bench-'));
const children = [];
let redis;
async function cleanUp() {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  await redis?.stop();
  rmSync(work, { recursive: true, force: true });
}
process.on('SIGINT', () => void cleanUp().then(() => process.exit(130)));
process.on('SIGTERM', () => void cleanUp().then(() => process.exit(143)));

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

async function waitFor(what, probe, timeoutMs = 30_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch {
      // not there yet
    }
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

/** CPU seconds (user + system) the process used so far, from /proc. */
function cpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  const perSecond = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;
  return ticks / perSecond;
}

/** A local `delay-target.mjs` answering after `delayMs` (with `extra` flags); its origin once it answers. */
async function startDelayTarget(delayMs, lifetimeS, extra = []) {
  const port = await freePort();
  const target = spawn(
    process.execPath,
    [
      join(ENGINE_DIR, 'bench/delay-target.mjs'),
      '--port',
      String(port),
      '--delay-ms',
      String(delayMs),
      '--lifetime-s',
      String(lifetimeS),
      ...extra,
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  children.push(target);
  const origin = `http://127.0.0.1:${port}`;
  await waitFor('the target', async () => ((await fetch(`${origin}/__stats`)).ok ? true : undefined));
  return origin;
}

const median = (xs) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const m = sorted.length >> 1;
  return sorted.length % 2 ? sorted[m] : (sorted[m - 1] + sorted[m]) / 2;
};

/**
 * Part 2: issue #26's goals on 2 agents (docs/adr/0027-load-profiles.md "On load agents"). The agents of
 * part 1 leave; two agents of 2 worker threads each (`--cores 2`) run (a) the open model at
 * PROFILE_RATE iterations/s for SECONDS against a counting target that answers after 1 ms — the stored
 * seconds' iterations against the rate, started + dropped against the plan, the target's count against
 * the stored requests — and (b) two flows 70:30 over a CSV of PROFILE_ROWS accounts (share all, no
 * loop): each flow's share and every row, counted per path at the target. True when every goal held.
 */
async function profilesOnAgents({ api, session, base, apiToken, cli }) {
  for (const child of children.splice(0)) {
    if (child.spawnargs.includes('agent')) child.kill('SIGTERM');
    else children.push(child);
  }
  const origin = await startDelayTarget(1, SECONDS * 4 + 300, ['--count-paths']);
  await waitFor('the agents of part 1 to leave', async () => {
    const agents = await api('GET', '/api/agents', { token: session });
    return agents.every((a) => !a.online) ? true : undefined;
  });
  for (const name of ['profile-1', 'profile-2']) {
    children.push(
      spawn(
        process.execPath,
        [cli, 'agent', '--server', base, '--token', apiToken, '--name', name, '--cores', PROFILE_CORES],
        {
          stdio: ['ignore', 'ignore', 'inherit'],
        },
      ),
    );
  }
  await waitFor('the two agents of part 2', async () => {
    const agents = await api('GET', '/api/agents', { token: session });
    return agents.filter((a) => a.online && a.run_id === null).length === 2 ? true : undefined;
  });
  let ok = true;
  const verdict = (held, text) => {
    if (!held) ok = false;
    log(`  ${held ? 'PASS' : 'FAIL'}  ${text}`);
  };
  // What the target counted, by path (nginx counts every path as one).
  const run = async (body, countAt = async () => (await fetch(`${origin}/__paths`)).json()) => {
    const plan = await api('POST', '/api/save-test-plan', { token: session, body });
    const started = await api('POST', '/api/run-test', {
      token: session,
      body: { plan_id: plan.id, agents: 2 },
    });
    const result = await waitFor(
      `run ${started.test_id}`,
      async () => {
        const r = await api('GET', `/api/get-test-result/${started.test_id}`, { token: session });
        return r.intermediate ? undefined : r;
      },
      SECONDS * 1000 + 90_000,
    );
    const chart = await api('GET', `/api/chart-data/${started.test_id}`, { token: session });
    await sleep(500);
    const counts = await countAt();
    await fetch(`${origin}/__reset`);
    await waitFor('idle agents', async () => {
      const list = await api('GET', '/api/agents', { token: session });
      return list.filter((a) => a.online).every((a) => a.run_id === null) ? true : undefined;
    });
    return { result, chart, counts };
  };

  log(
    `\nPart 2: load profiles on 2 agents of ${PROFILE_CORES} worker thread(s) each, a pool of ${PROFILE_POOL} (load average ${load()})`,
  );
  const planned = PROFILE_RATE * SECONDS;
  const nginx = RATE_TARGET === 'nginx' ? await startNginx(work) : null;
  if (nginx !== null) children.push(nginx);
  const rateUrl = nginx === null ? `${origin}/rate` : 'http://127.0.0.1:18090/hello';
  const nginxBefore = nginx === null ? 0 : await nginxCount();
  // stub_status counts its own request too.
  const countRate =
    nginx === null ? undefined : async () => ({ nginx: (await nginxCount()) - nginxBefore - 1 });
  const open = await run(
    {
      name: 'Open model on agents',
      tool: 'k6',
      concurrent_users: PROFILE_POOL,
      duration: 1,
      urls: [{ name: 'a', method: 'GET', url: rateUrl, thinkTime: '0' }],
      load_profile: {
        model: 'arrival_rate',
        start: PROFILE_RATE,
        stages: [{ duration: `${SECONDS}s`, target: PROFILE_RATE }],
        max_users: PROFILE_POOL,
      },
    },
    countRate,
  );
  const started = open.result.summary?.iterations_started ?? 0;
  const dropped = open.result.summary?.iterations_dropped ?? 0;
  // Merged exactly from every agent's workers' HDR histograms (docs/adr/0027-load-profiles.md "2. The schedule").
  const lag = open.result.summary?.schedule_lag;
  const seconds = open.chart.series.filter((p) => p.second >= 1 && p.second <= SECONDS);
  const medianError =
    median(seconds.map((p) => Math.abs((p.iterations ?? 0) - PROFILE_RATE) / PROFILE_RATE)) * 100;
  const startedError = (Math.abs(started - planned) / planned) * 100;
  const counted = Object.values(open.counts).reduce((a, b) => a + b, 0);
  log(
    `  ${PROFILE_RATE} it/s for ${SECONDS} s: ${open.result.status}; started ${started}, dropped ${dropped} of ${planned}; ` +
      `median per-second error ${medianError.toFixed(2)} %; started vs planned ${startedError.toFixed(3)} %; ` +
      `schedule lag p50 ${lag?.p50?.toFixed(3) ?? '—'} ms, p99 ${lag?.p99?.toFixed(3) ?? '—'} ms; ` +
      `per agent ${open.result.agents.map((a) => a.requests).join(' / ')}; the target counted ${counted}`,
  );
  verdict(medianError <= 1, `median second within 1 % of the rate (${medianError.toFixed(2)} %)`);
  verdict(startedError <= 0.5, `iterations started within 0.5 % of the plan (${startedError.toFixed(3)} %)`);
  verdict(started + dropped === planned, 'started + dropped is the planned total');
  verdict(
    lag !== undefined && lag.p99 < 5,
    `schedule lag p99 under 5 ms (${lag?.p99?.toFixed(3) ?? '—'} ms)`,
  );
  verdict(counted === open.result.summary?.total_requests, 'the target counted the stored requests');

  const csv = ['account', ...Array.from({ length: PROFILE_ROWS }, (_, i) => `user${i + 1}`)].join('\n');
  const data = await run({
    name: 'Flows and data on agents',
    tool: 'k6',
    concurrent_users: 40,
    duration: 2,
    flows: [
      { name: 'browse', weight: 70 },
      { name: 'buy', weight: 30 },
    ],
    urls: [
      {
        name: 'browse',
        method: 'GET',
        url: `${origin}/browse?u={{account}}`,
        thinkTime: '0',
        flow: 'browse',
      },
      { name: 'buy', method: 'GET', url: `${origin}/buy?u={{account}}`, thinkTime: '0', flow: 'buy' },
    ],
    data_files: { 'accounts.csv': csv },
    data_sources: [{ path: 'accounts.csv', loop: false, share: 'all' }],
  });
  const perFlow = { browse: 0, buy: 0 };
  const perRow = new Map();
  for (const [path, n] of Object.entries(data.counts)) {
    const [route, query] = path.split('?');
    perFlow[route.slice(1)] = (perFlow[route.slice(1)] ?? 0) + n;
    const row = new URLSearchParams(query).get('u');
    perRow.set(row, (perRow.get(row) ?? 0) + n);
  }
  const total = perFlow.browse + perFlow.buy;
  const share = (perFlow.browse / Math.max(1, total)) * 100;
  const twice = [...perRow.values()].filter((n) => n > 1).length;
  const missing = PROFILE_ROWS - perRow.size;
  log(
    `  flows and data: ${data.result.status}; the target counted browse ${perFlow.browse} (${share.toFixed(2)} %), buy ${perFlow.buy}; ` +
      `rows ${perRow.size} of ${PROFILE_ROWS}, ${twice} twice; per agent ${data.result.agents.map((a) => a.requests).join(' / ')}; ` +
      `${data.result.summary?.data_exhausted?.[0] ?? 'no data end reported'}`,
  );
  verdict(total >= 5000, `at least 5,000 iterations (${total})`);
  verdict(
    Math.abs(share - 70) <= 1.5,
    `each flow within 1.5 points of its weight (browse ${share.toFixed(2)} %)`,
  );
  verdict(
    twice === 0 && missing === 0,
    `every row once across 2 agents × 2 workers (${twice} twice, ${missing} missing)`,
  );
  return ok;
}

try {
  log('Building the engine and the server …');
  for (const script of [join(ENGINE_DIR, 'build.mjs'), join(SERVER_DIR, 'build.mjs')]) {
    if (spawnSync(process.execPath, [script], { stdio: 'inherit' }).status !== 0) process.exit(1);
  }
  redis = await startRedis();

  const targetOrigin = await startDelayTarget(DELAY_MS, SECONDS * 8 + 300);

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
      LOG_LEVEL: 'info',
      EXTERNAL_TOOLS: 'off',
      REDIS_URL: redis.url,
      WEB_DIST_DIR: join(work, 'no-web-build'),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(server);
  /** The server's "Run on load agents merged" log lines, in order. */
  const merges = [];
  let pending = '';
  server.stdout.on('data', (chunk) => {
    pending += chunk.toString();
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      try {
        const entry = JSON.parse(line);
        if (entry.msg === 'Run on load agents merged') merges.push(entry);
      } catch {
        // not a JSON line
      }
    }
  });
  await waitFor('the server', async () => ((await fetch(`${base}/api/health`)).ok ? true : undefined));

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
    return text === '' ? undefined : JSON.parse(text);
  }

  const email = 'agents-bench@example.com';
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
  const session = (await api('POST', '/api/login', { body: { username: email, password } })).token;
  const apiToken = (
    await api('POST', '/api/tokens', { token: session, body: { name: 'agents bench', scope: 'agent' } })
  ).token;
  const plan = await api('POST', '/api/save-test-plan', {
    token: session,
    body: {
      name: 'Agents bench',
      tool: 'k6',
      concurrent_users: USERS,
      duration: 1,
      urls: [{ name: 'a', method: 'GET', url: `${targetOrigin}/a`, thinkTime: '0' }],
    },
  });

  const cli = join(work, 'aqa.mjs');
  writeFileSync(cli, Buffer.from(await (await fetch(`${base}/downloads/aqa.mjs`)).arrayBuffer()));
  for (let i = 1; i <= Math.max(...AGENT_COUNTS); i += 1) {
    const agent = spawn(
      process.execPath,
      [cli, 'agent', '--server', base, '--token', apiToken, '--name', `bench-${i}`, '--cores', String(CORES)],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
    children.push(agent);
  }
  await waitFor('the agents', async () => {
    const agents = await api('GET', '/api/agents', { token: session });
    return agents.filter((a) => a.online).length === Math.max(...AGENT_COUNTS) ? true : undefined;
  });

  log(
    `Machine: ${availableParallelism()} cores (${cpus()[0]?.model ?? 'unknown'}), Node ${process.version}; ` +
      `${USERS} users, think time 0, target delay ${DELAY_MS} ms, ${SECONDS} s per run, --cores ${CORES} per agent`,
  );
  const rows = [];
  let failed = false;
  for (const agents of PARTS.has('throughput') ? [0, ...AGENT_COUNTS] : []) {
    await waitFor('idle agents', async () => {
      const list = await api('GET', '/api/agents', { token: session });
      return list.every((a) => a.run_id === null) ? true : undefined;
    });
    const loadBefore = load();
    const cpuBefore = cpuSeconds(server.pid);
    const mergesBefore = merges.length;
    const started = await api('POST', '/api/run-test', {
      token: session,
      body: { plan_id: plan.id, duration_seconds: SECONDS, ...(agents === 0 ? {} : { agents }) },
    });
    const result = await waitFor(
      `run ${started.test_id}`,
      async () => {
        const r = await api('GET', `/api/get-test-result/${started.test_id}`, { token: session });
        return r.intermediate ? undefined : r;
      },
      SECONDS * 1000 + 60_000,
    );
    const cpu = cpuSeconds(server.pid) - cpuBefore;
    if (result.status !== 'completed') {
      failed = true;
      log(`Run on ${agents} agents ended ${result.status}: ${result.error ?? ''}`);
    }
    const merge =
      agents === 0 ? undefined : await waitFor('the merge log line', async () => merges[mergesBefore]);
    const snapshots = merge?.snapshots ?? Math.round(result.summary?.test_duration ?? SECONDS);
    rows.push({
      where: agents === 0 ? 'the server (reference)' : `${agents} agent${agents === 1 ? '' : 's'}`,
      rps: result.summary?.requests_per_second ?? 0,
      requests: result.summary?.total_requests ?? 0,
      p95: result.summary?.percentile_95 ?? 0,
      perAgent: result.agents.map((a) => a.requests).join(' / '),
      cpuMsPerSnapshot: (cpu * 1000) / Math.max(1, snapshots),
      mergeUsPerSnapshot: merge?.mergeCpuUsPerSnapshot,
      load: `${loadBefore} → ${load()}`,
    });
  }
  if (rows.length > 0) {
    log('');
    log(
      '| Where the load ran | merged req/s | requests | p95 ms | requests per agent | server CPU per snapshot | of which the merge | load average before → after |',
    );
    log('| --- | ---: | ---: | ---: | --- | ---: | ---: | --- |');
    for (const r of rows) {
      log(
        `| ${r.where} | ${r.rps.toFixed(0)} | ${r.requests} | ${r.p95.toFixed(2)} | ${r.perAgent || '—'} | ${r.cpuMsPerSnapshot.toFixed(1)} ms | ${
          r.mergeUsPerSnapshot === undefined ? '—' : `${(r.mergeUsPerSnapshot / 1000).toFixed(2)} ms`
        } | ${r.load} |`,
      );
    }
  }
  if (PARTS.has('profiles') && !(await profilesOnAgents({ api, session, base, apiToken, cli })))
    failed = true;
  await cleanUp();
  process.exit(failed ? 1 : 0);
} catch (error) {
  log(`The bench failed: ${error instanceof Error ? error.message : String(error)}`);
  await cleanUp();
  process.exit(1);
}
