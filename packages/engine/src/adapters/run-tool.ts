import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  generateScript,
  JMETER_LEGACY_THREAD_STACK,
  jmeterHasJsonExtractor,
  type ScriptSource,
  type ScriptWarning,
} from '@aqa/converters';
import { describeIssues, safeMigratePlan, type PerfPlan, type PerfPlanInput } from '@aqa/plan';
import { PlanCompileError } from '../executor/compile';
import type { RunSnapshot } from '../types';
import { commandText, findRepoRoot, resolveToolCommand } from './command';
import type { DriverContext, ToolDriver } from './driver';
import { jmeterDriver } from './jmeter';
import { k6Driver } from './k6';
import { toolProcessRecord } from './leftover-tool';
import { locustDriver } from './locust';
import { ToolProcess, type ExitInfo } from './process';
import { SnapshotQueue } from '../snapshot-queue';
import { StepMatcher, stepInfos } from './steps';
import { taurusDriver } from './taurus';
import { toolFlows } from './tool-flows';
import { DETAILS_LINES, DETAILS_MAX_CHARS, lastLinesOf, toolFailureMessage } from './tool-failure';
import {
  EXTERNAL_TOOLS,
  TOOL_ENV,
  TOOL_NAMES,
  ToolRunError,
  type ExternalTool,
  type ToolRunHandle,
  type ToolRunOptions,
  type ToolRunResult,
} from './types';

const DRIVERS: Record<ExternalTool, (ctx: DriverContext) => ToolDriver> = {
  jmeter: jmeterDriver,
  k6: k6Driver,
  locust: locustDriver,
  taurus: taurusDriver,
};

/** What `exact`/`source` a tool's handle reports before it has run. */
const STATIC_INFO: Record<ExternalTool, { exact: boolean; source: string }> = {
  jmeter: { exact: true, source: 'jmeter jtl' },
  k6: { exact: true, source: 'k6 json output' },
  locust: { exact: false, source: 'locust stats history' },
  taurus: { exact: true, source: 'taurus kpi.jtl' },
};

export function isExternalTool(x: unknown): x is ExternalTool {
  return typeof x === 'string' && (EXTERNAL_TOOLS as readonly string[]).includes(x);
}

function firstOrigin(plan: PerfPlan): string | undefined {
  for (const u of plan.urls) {
    try {
      const url = new URL(u.url.trim());
      if (url.protocol === 'http:' || url.protocol === 'https:') return url.origin;
    } catch {
      // a templated or relative URL: try the next
    }
  }
  return undefined;
}

function lastLines(path: string, n: number): string {
  try {
    return existsSync(path) ? lastLinesOf(readFileSync(path, 'utf8'), n) : '';
  } catch {
    return '';
  }
}

/**
 * What a failed tool printed, for the failure's details: the command line, the last lines of its
 * output, and the last lines of each of its log files, each under a heading.
 */
function toolOutput(p: ToolProcess, d: ToolDriver, dir: string, commandLine: string): string {
  const parts = [`$ ${commandLine}`, p.tail(DETAILS_LINES) || '(the tool printed nothing)'];
  for (const file of d.logFiles) {
    const text = lastLines(join(dir, file), DETAILS_LINES);
    if (text) parts.push(`--- ${file} (last lines) ---\n${text}`);
  }
  const all = parts.join('\n');
  // Lines can be long (a JVM's stack, a minified script): the details stay a readable size.
  return all.length <= DETAILS_MAX_CHARS
    ? all
    : `(earlier output cut)\n${all.slice(all.length - DETAILS_MAX_CHARS)}`;
}

/**
 * What `tool` at `version` cannot run of the plan, by plan field ("urls[2].extractValue"): the script
 * written for that version would not load or not do what the plan says (GeneratedScript.unsupported).
 * Empty when it runs. A run in the tool is refused for these reasons before it starts.
 */
export function toolCannotRun(
  plan: ScriptSource,
  tool: ExternalTool,
  version: string | null | undefined,
): ScriptWarning[] {
  return generateScript(plan, tool, { toolVersion: version, forRun: true }).unsupported ?? [];
}

/**
 * The tool's environment for this run: JMeter before 3.0 reads JSONPaths with regular expressions whose
 * matcher (Jakarta ORO) recurses once per JSON token, so its threads get a larger stack
 * (@aqa/converters json-path-regex.ts). JAVA_TOOL_OPTIONS reaches the JVM whatever script starts it.
 */
function toolEnvironment(tool: ExternalTool, version: string | null | undefined, env: NodeJS.ProcessEnv) {
  if (tool !== 'jmeter' || jmeterHasJsonExtractor(version)) return env;
  const options = [env.JAVA_TOOL_OPTIONS?.trim(), `-Xss${JMETER_LEGACY_THREAD_STACK}`].filter(Boolean);
  return { ...env, JAVA_TOOL_OPTIONS: options.join(' ') };
}

/**
 * Runs a plan in a real tool: writes the script that @aqa/converters generates for `tool` into a work
 * directory, runs the tool non-interactively for the plan's users and duration (options.durationSeconds
 * overrides the minutes), reads the tool's result files while it runs and turns them into the engine's
 * per-second RunSnapshots (whole run and per step) and a final RunResult with the same fields, plus
 * `exact`/`source`/`notes` saying how exact each figure is.
 *
 * Same handle shape as startRun. Throws PlanCompileError synchronously for a plan the model refuses
 * or one the tool at `options.toolVersion` cannot run (toolCannotRun);
 * `result` rejects with a ToolRunError when the tool is not installed, does not start, exits with a
 * non-zero code or records nothing (message: one sentence in words; details: the tool's own output).
 */
export function startToolRun(
  input: PerfPlan | PerfPlanInput,
  tool: ExternalTool,
  options: ToolRunOptions = {},
): ToolRunHandle {
  if (!isExternalTool(tool))
    throw new Error(`unknown tool ${String(tool)}: one of ${EXTERNAL_TOOLS.join(', ')}`);
  const parsed = safeMigratePlan(input);
  if (!parsed.success) {
    throw new PlanCompileError(
      describeIssues(parsed.error).map((i) => `${i.field || '(plan)'}: ${i.message}`),
    );
  }
  const plan = parsed.data;
  const users = plan.concurrent_users;
  const durationS = Math.max(1, Math.ceil(options.durationSeconds ?? plan.duration * 60));
  const ownDir = options.workDir === undefined;
  const dir = options.workDir ?? mkdtempSync(join(tmpdir(), `aqa-${tool}-`));
  if (!ownDir) mkdirSync(dir, { recursive: true });
  const env = options.env ?? process.env;
  const log = options.logger;
  const queue = new SnapshotQueue();
  const emit = (s: RunSnapshot): void => {
    queue.push(s);
    options.onSnapshot?.(s);
  };
  const pollMs = options.pollMs ?? 250;
  const graceMs = options.stopGraceMs ?? 4000;
  const toolName = TOOL_NAMES[tool];

  let stopped = false;
  let proc: ToolProcess | undefined;
  let driver: ToolDriver | undefined;
  let resolveEnded!: () => void;
  const ended = new Promise<void>((r) => (resolveEnded = r));
  let commandLine = '';

  const script = generateScript(plan, tool, { toolVersion: options.toolVersion, forRun: true });
  if (script.unsupported && script.unsupported.length > 0) {
    throw new PlanCompileError(script.unsupported.map((u) => `${u.field}: ${u.message}`));
  }
  const toolEnv = toolEnvironment(tool, options.toolVersion, env);
  for (const f of script.files) writeFileSync(join(dir, f.name), f.content);
  const scriptFile = script.files[0]!.name;
  /** What the generator could not express in this tool, as notes of the result. */
  const scriptNotes = script.warnings.map((w) => `Script for ${toolName}: ${w.field}: ${w.message}`);

  const result = (async (): Promise<ToolRunResult> => {
    const cmd = await resolveToolCommand(tool, {
      env,
      baseDir: options.baseDir ?? findRepoRoot(),
      ...(options.command !== undefined ? { command: options.command } : {}),
      ...(options.cacheDir !== undefined ? { cacheDir: options.cacheDir } : {}),
    });
    commandLine = commandText(cmd.argv);
    if (!cmd.found) {
      throw new ToolRunError(
        tool,
        'not_installed',
        `${toolName} is not installed: ${commandLine} was not found (set ${TOOL_ENV[tool]} to the command that runs it)`,
      );
    }
    const ctx: DriverContext = {
      plan,
      steps: stepInfos(plan),
      matcher: new StepMatcher(plan),
      users,
      durationS,
      flows: toolFlows(plan),
      dir,
      scriptFile,
      host: firstOrigin(plan),
      emit,
      settleMs: options.settleMs ?? 600,
      ...(log ? { logger: log } : {}),
      ...(tool === 'locust' && options.locustMaster ? { locustMaster: options.locustMaster } : {}),
    };
    const d = DRIVERS[tool](ctx);
    driver = d;
    const argv = [...cmd.argv, ...d.args()];
    commandLine = commandText(argv);
    const startedAt = new Date();
    if (stopped) {
      // stop() came before the tool started: nothing ran.
      await d.poll(Date.now(), true);
      return finalResult(d, { code: null, signal: null }, startedAt);
    }
    const p = new ToolProcess(argv, { cwd: dir, env: toolEnv });
    proc = p;
    if (d.onLine) p.onLine((line) => d.onLine!(line));
    log?.info({ tool, command: commandLine, pid: p.pid, dir }, 'tool run started');
    if (p.pid !== undefined) options.onProcess?.(toolProcessRecord(p.pid, dir));
    if (stopped) {
      d.requestStop(p);
      void p.terminate(graceMs);
    }

    let polling: Promise<void> | undefined;
    const timer = setInterval(() => {
      if (polling) return;
      polling = d
        .poll(Date.now(), false)
        .catch((e: unknown) => log?.warn({ tool, err: (e as Error).message }, 'reading tool results failed'))
        .finally(() => (polling = undefined));
    }, pollMs);
    const exit = await p.exited;
    clearInterval(timer);
    await polling;
    if (exit.spawnError) {
      const e = exit.spawnError as NodeJS.ErrnoException;
      throw new ToolRunError(
        tool,
        e.code === 'ENOENT' ? 'not_installed' : 'failed_to_start',
        `${toolName} could not be started: ${e.message}`,
        null,
        `$ ${commandLine}\n${e.message}`,
      );
    }
    await d.poll(Date.now(), true);
    const failed = (kind: 'exited' | 'no_results'): ToolRunError => {
      const details = toolOutput(p, d, dir, commandLine);
      const message = toolFailureMessage(tool, kind, {
        exitCode: exit.code,
        signal: exit.signal,
        recorded: d.recorded(),
        output: details,
      });
      return new ToolRunError(tool, kind, message, exit.code, details);
    };
    if (!stopped && exit.code !== 0) throw failed('exited');
    if (!stopped && d.recorded() === 0) throw failed('no_results');
    return finalResult(d, exit, startedAt);
  })().finally(async () => {
    queue.close();
    await driver?.close().catch(() => undefined);
    if (ownDir && !options.keepFiles) rmSync(dir, { recursive: true, force: true });
    resolveEnded();
  });
  // The caller observes failures through `result`.
  result.catch(() => undefined);

  function finalResult(d: ToolDriver, exit: ExitInfo, startedAt: Date): ToolRunResult {
    const parts = d.result();
    const res: ToolRunResult = {
      status: stopped ? 'stopped' : 'completed',
      ...parts,
      tool,
      toolName,
      command: commandLine,
      exact: d.exact,
      source: d.source,
      notes: [...d.notes, ...scriptNotes],
      exitCode: exit.code,
    };
    if (parts.summary.total_requests === 0) {
      res.started_at = startedAt.toISOString();
      res.ended_at = new Date().toISOString();
    }
    log?.info({ tool, total_requests: res.summary.total_requests, status: res.status }, 'tool run ended');
    return res;
  }

  const stop = async (): Promise<void> => {
    if (!stopped) {
      stopped = true;
      const p = proc;
      if (p && driver) {
        driver.requestStop(p);
        void p.terminate(graceMs);
      }
    }
    await ended;
  };
  if (options.signal) {
    if (options.signal.aborted) void stop();
    else options.signal.addEventListener('abort', () => void stop(), { once: true });
  }

  const info = STATIC_INFO[tool];
  return {
    snapshots: queue,
    result,
    stop,
    shards: [users],
    workDir: dir,
    tool,
    toolName,
    get command() {
      return commandLine;
    },
    exact: info.exact,
    source: info.source,
    get notes() {
      return [...(driver?.notes ?? []), ...scriptNotes];
    },
  };
}
