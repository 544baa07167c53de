import { commandText, findRepoRoot, resolveToolCommand, runCaptured } from './command';
import {
  EXTERNAL_TOOLS,
  TOOL_NAMES,
  TOOL_ENV,
  type DetectedTool,
  type ExternalTool,
  type ToolCommandOptions,
} from './types';

/** The arguments that make each tool print its version and exit. */
const VERSION_ARGS: Readonly<Record<ExternalTool, string[]>> = {
  jmeter: ['--version'],
  k6: ['version'],
  locust: ['--version'],
  taurus: ['--version'],
};

/** The version in a tool's `--version` output, or null. */
export function parseToolVersion(tool: ExternalTool, output: string): string | null {
  const patterns: Record<ExternalTool, RegExp> = {
    // "Version 2.13.19691222" (Debian stamps a date as the third part), "Version 5.6.3"
    jmeter: /Version\s+(\d+\.\d+(?:\.\d{1,3}(?!\d))?)/,
    // "k6 v0.49.0 (go1.21.6, linux/amd64)"
    k6: /\bk6\s+v?(\d+\.\d+\.\d+)/,
    // "locust 2.12.1 from /usr/lib/python3/dist-packages/locust (python 3.11.2)"
    locust: /\blocust\s+v?(\d+\.\d+(?:\.\d+)?)/i,
    // "Taurus CLI Tool v1.16.29"
    taurus: /\bv?(\d+\.\d+\.\d+)\b/,
  };
  return patterns[tool].exec(output)?.[1] ?? null;
}

export interface DetectOptions extends ToolCommandOptions {
  /** Time limit of each version command, ms. Default 30 000 (a JVM's first start is slow). */
  timeoutMs?: number;
  /** Run the version commands again instead of answering from the cache of an earlier call. */
  refresh?: boolean;
  /** Only these tools (default all four). */
  tools?: readonly ExternalTool[];
}

const cache = new Map<string, Promise<DetectedTool[]>>();

/**
 * Which external tools are installed, with their versions: runs each tool's version command once
 * (in parallel, each with a time limit) and caches the answer per environment and base directory.
 * A tool whose command is missing, fails or times out is reported `installed: false` with the reason.
 */
export function detectTools(
  env: NodeJS.ProcessEnv = process.env,
  options: DetectOptions = {},
): Promise<DetectedTool[]> {
  const baseDir = options.baseDir ?? findRepoRoot();
  const tools = options.tools ?? EXTERNAL_TOOLS;
  const key = JSON.stringify([
    tools,
    baseDir,
    options.cacheDir ?? '',
    env.PATH ?? '',
    ...EXTERNAL_TOOLS.map((t) => env[TOOL_ENV[t]] ?? ''),
  ]);
  const cached = cache.get(key);
  if (cached && !options.refresh) return cached;
  const answer = Promise.all(
    tools.map((tool) =>
      detectTool(tool, { env, baseDir, cacheDir: options.cacheDir, timeoutMs: options.timeoutMs ?? 30_000 }),
    ),
  );
  cache.set(key, answer);
  return answer;
}

async function detectTool(
  tool: ExternalTool,
  {
    env,
    baseDir,
    cacheDir,
    timeoutMs,
  }: { env: NodeJS.ProcessEnv; baseDir: string; cacheDir: string | undefined; timeoutMs: number },
): Promise<DetectedTool> {
  const cmd = await resolveToolCommand(tool, { env, baseDir, ...(cacheDir ? { cacheDir } : {}) });
  const base = { tool, name: TOOL_NAMES[tool], command: commandText(cmd.argv) };
  if (!cmd.found) {
    const how = cmd.from === 'env' ? `${TOOL_ENV[tool]}=${base.command}` : base.command;
    return { ...base, installed: false, version: null, problem: `${how}: command not found` };
  }
  const run = await runCaptured([...cmd.argv, ...VERSION_ARGS[tool]], { env, timeoutMs, cwd: baseDir });
  if (run.timedOut) {
    return {
      ...base,
      installed: false,
      version: null,
      problem: `no answer to the version command within ${timeoutMs} ms`,
    };
  }
  if (run.code !== 0) {
    const tail = run.output.trim().split('\n').slice(-3).join(' | ');
    return {
      ...base,
      installed: false,
      version: null,
      problem: `the version command exited with code ${run.code}${tail ? `: ${tail}` : ''}`,
    };
  }
  let version = parseToolVersion(tool, run.output);
  if (version === null && tool === 'locust') version = await debianPackageVersion('python3-locust', env);
  return {
    ...base,
    installed: true,
    version,
    ...(cmd.debianLauncher ? { debianLauncher: cmd.debianLauncher } : {}),
    ...(version === null ? { problem: 'the tool did not print its version' } : {}),
  };
}

/** Debian's python3-locust reports an empty version ("locust "); its package knows it. */
async function debianPackageVersion(pkg: string, env: NodeJS.ProcessEnv): Promise<string | null> {
  try {
    const r = await runCaptured(['dpkg-query', '-W', '-f=${Version}', pkg], { env, timeoutMs: 5000 });
    if (r.code !== 0) return null;
    return /^(\d+(?:\.\d+)+)/.exec(r.output.trim())?.[1] ?? null;
  } catch {
    return null;
  }
}
