// Debian packages the tests use: chromium for the browser tests; JMeter and Locust to prove that the
// generated scripts run in those tools; PostgreSQL and Redis, started as throw-away servers for the
// store and scale-out tests (scripts/test-services/, docs/scale-out.md). Installed through apt when
// running as root and absent.
import { existsSync, readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fail, log } from './workspace.mjs';

const PACKAGES = [
  { name: 'chromium', present: () => existsSync('/usr/bin/chromium'), required: true },
  { name: 'jmeter', present: () => existsSync('/usr/bin/jmeter') },
  { name: 'jmeter-http', present: () => existsSync('/usr/share/jmeter/lib/ext/ApacheJMeter_http.jar') },
  { name: 'default-jdk-headless', present: () => existsSync('/usr/bin/javac') },
  { name: 'redis-server', present: () => existsSync('/usr/bin/redis-server'), required: true },
  { name: 'postgresql', present: () => postgresBinary() !== null, required: true },
  {
    name: 'python3-locust',
    present: () => spawnSync('/usr/bin/python3', ['-c', 'import locust'], { stdio: 'ignore' }).status === 0,
  },
];

/** Debian's PostgreSQL server binary (/usr/lib/postgresql/<major>/bin/postgres), newest major first; null when absent. */
export function postgresBinary() {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const majors = readdirSync(root)
    .filter((name) => /^\d+$/.test(name))
    .sort((a, b) => Number(b) - Number(a));
  for (const major of majors) {
    const binary = `${root}/${major}/bin/postgres`;
    if (existsSync(binary)) return binary;
  }
  return null;
}

function aptInstall(names) {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const install = () =>
    spawnSync('apt-get', ['install', '-y', '-q', ...names], { stdio: 'inherit', env }).status === 0;
  if (install()) return true;
  log('apt-get install failed; refreshing the package lists and trying again...');
  spawnSync('apt-get', ['update', '-q'], { stdio: 'inherit', env });
  return install();
}

export function ensureSystemPackages() {
  const missing = PACKAGES.filter((p) => !p.present());
  if (missing.length === 0) return;
  const names = missing.map((p) => p.name);
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (isRoot) {
    log(`Installing Debian packages for the tests: ${names.join(', ')}...`);
    aptInstall(names);
  }
  const stillMissing = PACKAGES.filter((p) => !p.present());
  const requiredMissing = stillMissing.filter((p) => p.required);
  if (requiredMissing.length > 0) {
    const names = requiredMissing.map((p) => p.name).join(' ');
    fail(
      `The tests need Debian's ${names} (chromium for the browser tests, redis-server and postgresql ` +
        'for the store and scale-out tests). ' +
        (isRoot
          ? 'apt-get could not install them.'
          : `Install them as root: sudo apt-get install -y ${names}`),
    );
  }
  if (stillMissing.length > 0) {
    log(
      `Not installed: ${stillMissing.map((p) => p.name).join(', ')}; the tests that run scripts in those tools ` +
        'will be skipped with a reason.',
    );
  }
}
