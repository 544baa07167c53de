// The bench's local nginx target (bench/nginx-json.conf on 127.0.0.1:18090, pinned to CPU 0) and a
// runner pinned to CPU 1, shared by run.mjs and profile-bench.mjs. Every process is stopped by its PID.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const have = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
/** Installs nginx and wrk with apt-get when missing and running as root; false when they are still missing. */
export function ensureTools() {
  const missing = ['nginx', 'wrk'].filter((c) => !have(c));
  if (missing.length === 0) return true;
  if (process.getuid?.() === 0 && have('apt-get')) {
    process.stdout.write(`installing ${missing.join(' ')} (apt-get)…\n`);
    const lock = have('flock') ? ['flock', '/tmp/aqa-apt.lock'] : [];
    const r = spawnSync(
      lock[0] ?? 'apt-get',
      [...lock.slice(1), ...(lock.length ? ['apt-get'] : []), 'install', '-y', 'nginx', 'wrk'],
      {
        stdio: 'inherit',
        env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      },
    );
    if (r.status === 0) return true;
  }
  process.stdout.write(`missing: ${missing.join(', ')} — install with: apt-get install -y nginx wrk\n`);
  return false;
}

export async function startNginx(work) {
  mkdirSync(join(work, 'tmp'), { recursive: true });
  const p = spawn(
    'taskset',
    [
      '-c',
      '0',
      'nginx',
      '-p',
      `${work}/`,
      '-c',
      join(HERE, 'nginx-json.conf'),
      '-e',
      join(work, 'nginx-error.log'),
    ],
    {
      stdio: 'ignore',
    },
  );
  for (let i = 0; i < 50; i++) {
    try {
      const r = await fetch('http://127.0.0.1:18090/hello');
      if (r.ok) return p;
    } catch {
      // not up yet
    }
    await sleep(100);
  }
  p.kill();
  throw new Error('nginx (bench/nginx-json.conf) did not start');
}

export async function nginxCount() {
  const t = await (await fetch('http://127.0.0.1:18090/nginx_status')).text();
  return Number(t.split('\n')[2].trim().split(/\s+/)[2]);
}

/** Runs a command pinned to CPU 1; samples its RSS (VmRSS of the process) every second when asked. */
export function runPinned(cmd, args, { sampleRss = false, timeoutS, cpus = '1' }) {
  return new Promise((resolvePromise) => {
    const child = spawn('taskset', ['-c', cpus, cmd, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const rss = [];
    const t0 = Date.now();
    const timer = sampleRss
      ? setInterval(() => {
          try {
            const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
            const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
            if (kb > 0) rss.push({ t: (Date.now() - t0) / 1000, mib: kb / 1024 });
          } catch {
            // exited
          }
        }, 1000)
      : null;
    const kill = setTimeout(() => child.kill('SIGKILL'), timeoutS * 1000);
    child.on('close', (code) => {
      if (timer) clearInterval(timer);
      clearTimeout(kill);
      resolvePromise({ code, stdout, stderr, rss });
    });
  });
}
