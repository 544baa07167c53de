// Shared steps of `npm start`, `npm test` and `npm run build`. Plain Node (no dependencies): these run
// on a fresh clone before anything is installed.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

const MIN_NODE = [20, 19];

export function log(message) {
  process.stdout.write(`[aqa] ${message}\n`);
}

export function fail(message) {
  process.stderr.write(`[aqa] ${message}\n`);
  process.exit(1);
}

export function checkNodeVersion() {
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major < MIN_NODE[0] || (major === MIN_NODE[0] && minor < MIN_NODE[1])) {
    fail(`Node ${MIN_NODE.join('.')} or newer is needed; this is Node ${process.versions.node}.`);
  }
}

/** Runs a command in the repo root with inherited output; returns its exit code. */
export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit', ...options });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

function walk(dir, files) {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, files);
    else files.push(path);
  }
}

/** A content hash of the given files and folders (relative to the root); missing ones count as absent. */
export function hashInputs(inputs) {
  const files = [];
  for (const input of inputs) {
    const path = join(ROOT, input);
    if (!existsSync(path)) continue;
    if (statSync(path).isDirectory()) walk(path, files);
    else files.push(path);
  }
  files.sort();
  const hash = createHash('sha256');
  for (const file of files) {
    hash.update(relative(ROOT, file));
    hash.update('\0');
    hash.update(readFileSync(file));
    hash.update('\0');
  }
  return hash.digest('hex');
}

function readStamp(path) {
  return existsSync(path) ? readFileSync(path, 'utf8').trim() : '';
}

function writeStamp(path, value) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${value}\n`);
}

const INSTALL_INPUTS = [
  'package.json',
  'package-lock.json',
  ...['packages', 'apps'].flatMap((group) =>
    existsSync(join(ROOT, group))
      ? readdirSync(join(ROOT, group)).map((name) => `${group}/${name}/package.json`)
      : [],
  ),
];
const INSTALL_STAMP = join(ROOT, 'node_modules', '.aqa-install.stamp');

/** Installs dependencies when node_modules is missing or the manifests changed since the last install. */
export function ensureInstalled() {
  const wanted = hashInputs(INSTALL_INPUTS);
  if (readStamp(INSTALL_STAMP) === wanted) return;
  const fresh = !existsSync(join(ROOT, 'node_modules'));
  log(fresh ? 'Installing dependencies (first run)...' : 'Dependencies changed; updating them...');
  const code = run('npm', [fresh ? 'ci' : 'install', '--no-audit', '--no-fund']);
  if (code !== 0) fail('npm could not install the dependencies (see above).');
  writeStamp(INSTALL_STAMP, wanted);
}

/** What each build reads and where it writes. A build runs again only when its inputs changed. */
const BUILDS = [
  {
    name: 'web app',
    inputs: [
      'apps/web',
      'packages/plan/src',
      'packages/converters/src',
      'packages/contract/src',
      'package-lock.json',
    ],
    out: 'apps/web/dist',
    command: ['npm', ['run', 'build', '-w', '@aqa/web']],
  },
  {
    name: 'server',
    inputs: ['apps/server', 'packages', 'package-lock.json'],
    out: 'apps/server/dist',
    command: ['npm', ['run', 'build', '-w', '@aqa/server']],
  },
];

/** Builds what changed since the last build (content hash), or everything with force. */
export function ensureBuilt({ force = false } = {}) {
  for (const build of BUILDS) {
    const stamp = join(ROOT, build.out, '.aqa-build.stamp');
    const wanted = hashInputs(build.inputs);
    if (!force && readStamp(stamp) === wanted) continue;
    log(`Building the ${build.name}...`);
    const code = run(...build.command);
    if (code !== 0) fail(`The ${build.name} did not build (see above).`);
    writeStamp(stamp, wanted);
  }
}
