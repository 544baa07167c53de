import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync, readFileSync, statSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join, resolve } from 'node:path';
import { debianJmeterCommand, isDebianJmeter } from './debian-jmeter';
import { TOOL_ENV, type ExternalTool, type ToolCommandOptions } from './types';

/** Splits a command line into words: whitespace separates, single and double quotes group. */
export function splitCommand(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quote) {
      if (ch === quote) quote = undefined;
      else if (ch === '\\' && quote === '"' && i + 1 < line.length) word += line[++i];
      else word += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      inWord = true;
    } else if (ch === '\\' && i + 1 < line.length) {
      word += line[++i];
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += ch;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}

function isExecutable(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The absolute path of `name` on PATH (or `name` itself when it names a file), else undefined. */
export function which(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (name.includes('/')) return isExecutable(name) ? name : undefined;
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

/** The monorepo root above `start` (nearest package.json with "workspaces"), else `start`. */
export function findRepoRoot(start: string = process.cwd()): string {
  let dir = resolve(start);
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg)) {
      try {
        const json = JSON.parse(readFileSync(pkg, 'utf8')) as { workspaces?: unknown };
        if (json.workspaces) return dir;
      } catch {
        // not JSON: keep looking
      }
    }
    const up = dirname(dir);
    if (up === dir) return resolve(start);
    dir = up;
  }
}

/** A tool's command line, resolved. */
export interface ResolvedCommand {
  tool: ExternalTool;
  /** Executable (absolute when found) followed by its fixed arguments. */
  argv: string[];
  /** Whether the executable exists and may be run. */
  found: boolean;
  /** Where the command line came from. */
  from: 'option' | 'env' | 'default';
  /**
   * Debian's jmeter package only: 'launcher' when it runs through the engine's launcher (see
   * debian-jmeter.ts), else why the launcher could not be used (the plain `jmeter` runs instead).
   */
  debianLauncher?: 'launcher' | { problem: string };
}

const DEBIAN_PYTHON = '/usr/bin/python3';

/** Whether `python -c "import locust"` works (Debian's python3-locust lives under the system Python). */
async function pythonHasLocust(python: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  if (!isExecutable(python)) return false;
  const r = await runCaptured([python, '-c', 'import locust'], { env, timeoutMs: 15_000 });
  return r.code === 0;
}

const defaultLocustCache = new Map<string, Promise<string>>();

function defaultCommand(tool: ExternalTool, env: NodeJS.ProcessEnv): string | Promise<string> {
  switch (tool) {
    case 'jmeter':
      return 'jmeter';
    case 'k6':
      return 'k6';
    case 'taurus':
      return 'bzt';
    case 'locust': {
      const key = env.PATH ?? '';
      let cmd = defaultLocustCache.get(key);
      if (cmd === undefined) {
        cmd = pythonHasLocust(DEBIAN_PYTHON, env).then((ok) =>
          ok ? `${DEBIAN_PYTHON} -m locust` : 'locust',
        );
        defaultLocustCache.set(key, cmd);
      }
      return cmd;
    }
  }
}

/**
 * The command that runs `tool`: options.command, else its environment variable (JMETER_CMD, K6_CMD,
 * LOCUST_CMD, BZT_CMD), else the default (`jmeter`, `k6`, `/usr/bin/python3 -m locust` when that
 * Python imports locust else `locust`, `bzt`) looked up on PATH. A relative executable path
 * ("tools/my-jmeter.sh") is resolved from options.baseDir (default: the repository root).
 * When no command is configured and the `jmeter` on PATH is Debian's package, JMeter runs through
 * the engine's own launcher (debian-jmeter.ts), because Debian's 2.13 cannot load a plan by itself.
 */
export async function resolveToolCommand(
  tool: ExternalTool,
  options: ToolCommandOptions & { command?: string } = {},
): Promise<ResolvedCommand> {
  const env = options.env ?? process.env;
  const fromEnv = env[TOOL_ENV[tool]]?.trim();
  const line = options.command?.trim() || fromEnv || (await defaultCommand(tool, env));
  const from: ResolvedCommand['from'] = options.command?.trim() ? 'option' : fromEnv ? 'env' : 'default';
  const words = splitCommand(line);
  const exe = words[0] ?? '';
  let resolved: string | undefined;
  if (exe.includes('/')) {
    const abs = isAbsolute(exe) ? exe : resolve(options.baseDir ?? findRepoRoot(), exe);
    resolved = isExecutable(abs) ? abs : undefined;
    words[0] = abs;
  } else {
    resolved = which(exe, env);
    if (resolved) words[0] = resolved;
  }
  if (tool === 'jmeter' && from === 'default' && resolved !== undefined && isDebianJmeter(resolved)) {
    const launcher = await debianJmeterCommand({
      env,
      java: which('java', env),
      javac: which('javac', env),
      cacheDir: options.cacheDir,
    });
    if ('argv' in launcher) {
      return { tool, argv: launcher.argv, found: true, from, debianLauncher: 'launcher' };
    }
    return { tool, argv: words, found: true, from, debianLauncher: { problem: launcher.problem } };
  }
  return { tool, argv: words, found: resolved !== undefined, from };
}

/** The command line as one string, for messages. */
export function commandText(argv: readonly string[]): string {
  return argv.map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, "'\\''")}'`)).join(' ');
}

export interface CapturedRun {
  code: number | null;
  output: string;
  timedOut: boolean;
}

/** Runs a short command (a version query) with a time limit, killing its process group when over. */
export function runCaptured(
  argv: readonly string[],
  { env, timeoutMs, cwd }: { env: NodeJS.ProcessEnv; timeoutMs: number; cwd?: string },
): Promise<CapturedRun> {
  return new Promise((resolvePromise) => {
    let output = '';
    let timedOut = false;
    const child = spawn(argv[0]!, argv.slice(1), {
      env,
      cwd,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const add = (chunk: Buffer): void => {
      if (output.length < 200_000) output += chunk.toString('utf8');
    };
    child.stdout.on('data', add);
    child.stderr.on('data', add);
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid !== undefined && child.exitCode === null) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    }, timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      resolvePromise({ code: null, output: `${output}${e.message}`, timedOut });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, output, timedOut });
    });
  });
}
