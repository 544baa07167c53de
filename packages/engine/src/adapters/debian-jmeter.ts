import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Debian's `jmeter` package (2.13) cannot load a test plan as installed: it is built against the
 * system XStream, whose allow-list rejects JMeter's own classes (ForbiddenClassException), and it
 * still exits 0. The engine carries a small Java launcher (packages/engine/tools/jmeter/DebianJMeter.java)
 * that opens the allow-list for JMeter's packages and then starts JMeter with the same arguments.
 * It is compiled once with the JDK's javac into a cache directory and used whenever the `jmeter`
 * found on PATH is Debian's package and JMETER_CMD is not set (see resolveToolCommand).
 */

/** Where Debian's jmeter package installs JMeter. */
export const DEBIAN_JMETER_HOME = '/usr/share/jmeter';
const LAUNCHER_CLASS = 'DebianJMeter';
const LAUNCHER_FILE = `${LAUNCHER_CLASS}.java`;

/**
 * Whether `executable` (the `jmeter` found on PATH) is the start script of Debian's jmeter package:
 * JMeter's jar is where Debian puts it and the script starts that JMeter.
 */
export function isDebianJmeter(executable: string, home = DEBIAN_JMETER_HOME): boolean {
  if (!existsSync(join(home, 'bin', 'ApacheJMeter.jar'))) return false;
  try {
    const head = readFileSync(executable, 'latin1').slice(0, 4096);
    return head.startsWith('#!') && head.includes(home);
  } catch {
    return false;
  }
}

/** The launcher's Java source in this checkout (from TypeScript source, the engine's bundle or the server's). */
export function launcherSourcePath(): string | undefined {
  const candidates = [
    // packages/engine/src/adapters/debian-jmeter.ts
    new URL(`../../tools/jmeter/${LAUNCHER_FILE}`, import.meta.url),
    // packages/engine/dist/*.mjs
    new URL(`../tools/jmeter/${LAUNCHER_FILE}`, import.meta.url),
  ].map((url) => fileURLToPath(url));
  try {
    // The server's bundle (apps/server/dist/main.mjs) reaches the engine package through node_modules.
    const engineDir = dirname(createRequire(import.meta.url).resolve('@aqa/engine/package.json'));
    candidates.push(join(engineDir, 'tools', 'jmeter', LAUNCHER_FILE));
  } catch {
    // not resolvable from here: the paths above are all there is
  }
  return candidates.find((path) => existsSync(path));
}

/** ~/.cache/anybodyqa (or $XDG_CACHE_HOME/anybodyqa): where helper programs for the tools are built. */
export function defaultToolCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CACHE_HOME?.trim() || join(env.HOME?.trim() || homedir(), '.cache');
  return join(base, 'anybodyqa');
}

export type LauncherBuild = { argv: string[] } | { problem: string };

const builds = new Map<string, Promise<LauncherBuild>>();

/**
 * The command line that runs Debian's JMeter through the launcher: compiles the launcher on first
 * use (once per source version, shared by concurrent callers) into `<cacheDir>/jmeter-launcher/<hash>`.
 * Answers `{ problem }` in words when it cannot (no JDK, no source, javac failed).
 */
export function debianJmeterCommand(options: {
  env: NodeJS.ProcessEnv;
  javac: string | undefined;
  java: string | undefined;
  cacheDir?: string | undefined;
  home?: string;
}): Promise<LauncherBuild> {
  const home = options.home ?? DEBIAN_JMETER_HOME;
  const cacheDir = options.cacheDir ?? defaultToolCacheDir(options.env);
  const key = JSON.stringify([home, cacheDir, options.javac, options.java]);
  let build = builds.get(key);
  if (build === undefined) {
    build = buildLauncher(home, cacheDir, options.javac, options.java, options.env);
    // A failed build is kept too: trying again would fail the same way. A JDK installed later is found
    // at a new path (javac, java are in the key), so it gets a build of its own.
    builds.set(key, build);
  }
  return build;
}

async function buildLauncher(
  home: string,
  cacheDir: string,
  javac: string | undefined,
  java: string | undefined,
  env: NodeJS.ProcessEnv,
): Promise<LauncherBuild> {
  if (java === undefined) return { problem: 'java was not found on PATH' };
  const source = launcherSourcePath();
  if (source === undefined)
    return { problem: `the launcher source ${LAUNCHER_FILE} is missing from the engine package` };
  const text = readFileSync(source);
  const hash = createHash('sha256').update(text).digest('hex').slice(0, 16);
  const classDir = join(cacheDir, 'jmeter-launcher', hash);
  const classPath = [
    join(home, 'bin', 'ApacheJMeter.jar'),
    join(home, 'lib', '*'),
    join(home, 'lib', 'ext', '*'),
    classDir,
  ].join(':');
  const argv = [java, `-Djmeter.home=${home}`, '-cp', classPath, LAUNCHER_CLASS];
  if (existsSync(join(classDir, `${LAUNCHER_CLASS}.class`))) return { argv };
  if (javac === undefined) {
    return { problem: 'javac was not found on PATH (install the JDK: apt-get install default-jdk-headless)' };
  }
  // Compiled into a folder of its own, then renamed into place: a concurrent build never sees half a class.
  const scratch = `${classDir}.${process.pid}.${Date.now()}`;
  try {
    mkdirSync(scratch, { recursive: true });
    const compiled = await runJavac([javac, '-nowarn', '-d', scratch, source], env);
    if (compiled.code !== 0) {
      const last = compiled.output.trim().split('\n').slice(-3).join(' ');
      return { problem: `javac could not compile ${LAUNCHER_FILE} (exit code ${compiled.code}): ${last}` };
    }
    try {
      renameSync(scratch, classDir);
    } catch (err) {
      // Another process put it there first: theirs is the same class.
      if (!existsSync(join(classDir, `${LAUNCHER_CLASS}.class`))) throw err;
    }
    return { argv };
  } catch (err) {
    return { problem: `the launcher could not be built in ${classDir}: ${(err as Error).message}` };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function runJavac(argv: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolvePromise) => {
    let output = '';
    const child = spawn(argv[0]!, argv.slice(1), { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const add = (chunk: Buffer): void => {
      if (output.length < 20_000) output += chunk.toString('utf8');
    };
    child.stdout.on('data', add);
    child.stderr.on('data', add);
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('error', (err) => {
      clearTimeout(timer);
      resolvePromise({ code: null, output: err.message });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, output });
    });
  });
}
