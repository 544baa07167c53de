// Debian packages the tests use: chromium for the browser tests; JMeter and Locust to prove that the
// generated scripts run in those tools. Installed through apt when running as root and absent.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fail, log } from './workspace.mjs';

const PACKAGES = [
  { name: 'chromium', present: () => existsSync('/usr/bin/chromium'), required: true },
  { name: 'jmeter', present: () => existsSync('/usr/bin/jmeter') },
  { name: 'jmeter-http', present: () => existsSync('/usr/share/jmeter/lib/ext/ApacheJMeter_http.jar') },
  { name: 'default-jdk-headless', present: () => existsSync('/usr/bin/javac') },
  {
    name: 'python3-locust',
    present: () => spawnSync('/usr/bin/python3', ['-c', 'import locust'], { stdio: 'ignore' }).status === 0,
  },
];

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
    fail(
      `The browser tests need Debian's chromium at /usr/bin/chromium. ` +
        (isRoot ? 'apt-get could not install it.' : 'Install it as root: sudo apt-get install -y chromium'),
    );
  }
  if (stillMissing.length > 0) {
    log(
      `Not installed: ${stillMissing.map((p) => p.name).join(', ')}; the tests that run scripts in those tools ` +
        'will be skipped with a reason.',
    );
  }
}
