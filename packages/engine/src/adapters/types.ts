import type { ExternalTool } from '@aqa/plan';
import type { EngineLogger, RunResult, RunSnapshot } from '../types';
import type { ToolProcessRecord } from './leftover-tool';
import type { LocustMasterOptions } from './locust-distributed';

/** The external load tools whose generated scripts the server can run (docs/design.md §5). */
export { EXTERNAL_TOOLS, type ExternalTool } from '@aqa/plan';

/** Human names, as the result screen shows the engine that ran a test. */
export const TOOL_NAMES: Readonly<Record<ExternalTool, string>> = {
  jmeter: 'Apache JMeter',
  k6: 'Grafana k6',
  locust: 'Locust',
  taurus: 'Taurus',
};

/** Environment variables that name the command of each tool. */
export const TOOL_ENV: Readonly<Record<ExternalTool, string>> = {
  jmeter: 'JMETER_CMD',
  k6: 'K6_CMD',
  locust: 'LOCUST_CMD',
  taurus: 'BZT_CMD',
};

/** One tool as `detectTools` found it. */
export interface DetectedTool {
  tool: ExternalTool;
  /** e.g. "Apache JMeter". */
  name: string;
  installed: boolean;
  /** e.g. "2.13", "2.12.1"; null when not installed or the tool did not say. */
  version: string | null;
  /** The command line that runs it, as resolved (absolute executable first). */
  command: string;
  /** Why it is not installed, or why its version is unknown. */
  problem?: string;
  /** Debian's JMeter: runs through the engine's launcher, or why it could not (see ResolvedCommand). */
  debianLauncher?: 'launcher' | { problem: string };
}

export interface ToolCommandOptions {
  /** Environment to read JMETER_CMD, K6_CMD, LOCUST_CMD, BZT_CMD and PATH from. Default process.env. */
  env?: NodeJS.ProcessEnv;
  /**
   * Directory that relative commands (e.g. "tools/my-jmeter.sh") are resolved from. Default: the
   * repository root (nearest package.json with "workspaces" above the current directory), else the
   * current directory.
   */
  baseDir?: string;
  /** Where helper programs the tools need are built (Debian's JMeter launcher). Default ~/.cache/anybodyqa. */
  cacheDir?: string;
}

export interface ToolRunOptions extends ToolCommandOptions {
  /** Overrides the plan's duration (minutes) with seconds (rounded up to whole seconds). */
  durationSeconds?: number;
  /**
   * The tool's version as detectTools read it ("2.13"): the script is written for it
   * (docs/adr/0003-jmeter-scripts-are-real-jmx.md "JMeter versions"). Absent or null: for its newest.
   */
  toolVersion?: string | null;
  /** Overrides the command line of the tool (else the env variable, else the default). */
  command?: string;
  /** Directory for the script and the tool's result files; default a fresh temporary directory. */
  workDir?: string;
  /** Keep the work directory after the run (a temporary one is removed by default). */
  keepFiles?: boolean;
  logger?: EngineLogger;
  /** Aborting it stops the run like stop(). */
  signal?: AbortSignal;
  /**
   * Called once the tool's process has started, with what a later start of the caller needs to end
   * it if the caller dies without stopping it (leftover-tool.ts).
   */
  onProcess?: (record: ToolProcessRecord) => void;
  /** Called for every snapshot, in addition to the `snapshots` iterable. */
  onSnapshot?: (s: RunSnapshot) => void;
  /** How often the result files are read, ms. Default 250. */
  pollMs?: number;
  /**
   * How long to wait, after the end of a second, for that second's samples to be written, before its
   * snapshot is emitted (raw-sample tools). Later samples go into the next second. Default 600 ms.
   */
  settleMs?: number;
  /** How long stop() waits for the tool to end after the graceful signal before it kills it. Default 4000 ms. */
  stopGraceMs?: number;
  /**
   * Locust only: run the Locust master of workers on load agents instead of a local run
   * (docs/adr/0021-load-agents.md "Locust master/worker").
   */
  locustMaster?: LocustMasterOptions;
}

/** What a tool gave, and how exact the figures are. */
export interface ToolRunInfo {
  tool: ExternalTool;
  /** e.g. "Apache JMeter". */
  toolName: string;
  /** The command line that ran. */
  command: string;
  /**
   * true: every figure comes from the tool's raw samples (one row per request), so counts,
   * percentiles, min and max are exact as the engine computes them (HDR histogram).
   * false: latency figures are the tool's own aggregates (see `notes`); counts are still exact.
   */
  exact: boolean;
  /** Where the figures come from, e.g. "jmeter jtl", "locust stats history". */
  source: string;
  /** What this tool does not report, or reports approximately. */
  notes: string[];
}

/** A finished tool run: the engine's RunResult plus where its figures come from. */
export interface ToolRunResult extends RunResult, ToolRunInfo {
  /** Exit code of the tool (null when killed by a signal). */
  exitCode: number | null;
  /** Samples whose label matched no step (e.g. "OAuth2 token"), by label: not in the totals. */
  unmatched: Record<string, number>;
  /** k6 only: passes and failures of `check()`s. */
  checks?: { passes: number; fails: number };
}

/** Same shape as the engine's RunHandle, so the server's runner registry can treat both alike. */
export interface ToolRunHandle extends ToolRunInfo {
  snapshots: AsyncIterable<RunSnapshot>;
  /** Rejects with a ToolRunError when the tool is missing, does not start, or exits non-zero. */
  result: Promise<ToolRunResult>;
  /** Stops the tool (its own graceful stop, then its process group is killed); resolves when it ended. */
  stop(): Promise<void>;
  /** Virtual users, as one shard (the tool's process). */
  readonly shards: readonly number[];
  /** Where the script and the tool's result files are. */
  readonly workDir: string;
}

export type ToolFailureKind = 'not_installed' | 'failed_to_start' | 'exited' | 'no_results';

/**
 * The tool could not run the plan. `message` is one sentence a person understands ("JMeter stopped
 * with an error before sending any request: it could not load the test plan."); `details` is the
 * tool's own output (the last lines it printed and of its log files) for whoever wants to dig.
 */
export class ToolRunError extends Error {
  constructor(
    readonly tool: ExternalTool,
    readonly kind: ToolFailureKind,
    message: string,
    readonly exitCode: number | null = null,
    readonly details: string = '',
  ) {
    super(message);
    this.name = 'ToolRunError';
  }
}
