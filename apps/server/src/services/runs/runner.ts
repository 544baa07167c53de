import {
  toolCannotRun,
  toolFlows,
  type EngineLogger,
  type RunResult,
  type RunSnapshot,
  type ToolProcessRecord,
} from '@aqa/engine';
import type { ScriptSource } from '@aqa/converters';
import type { EngineId, PerfPlan, RunAgent, Tool } from '@aqa/plan';
import { ValidationError } from '../../errors';
import type { ExternalTool, ToolDetector, ToolInfo } from './tool-detector';
import { builtinOnlyNote } from './builtin-only';

export type { EngineId };

export interface RunnerStartOptions {
  /** How long the load runs, seconds (the plan's minutes, or the request's duration_seconds). */
  durationSeconds: number;
  /** A logger bound to the run (runId, planId). */
  logger: EngineLogger;
  /** Records each tool process the run starts, to end it at the next start if the server dies (docs/adr/0016-crash-recovery.md). */
  onToolProcess?: (record: ToolProcessRecord) => void;
  /** The run's id: a run on load agents names its shard jobs and stream by it (docs/adr/0021-load-agents.md). */
  runId?: string;
  /**
   * The external tool's version as detected ("2.13"): its script is written for that version
   * (docs/adr/0003-jmeter-scripts-are-real-jmx.md "JMeter versions"). Unused by the built-in engine.
   */
  toolVersion?: string | null;
}

/** A run in progress, the same contract as the built-in engine's RunHandle. */
export interface RunnerHandle {
  /** One merged snapshot a second, in order; ends when the run ends. */
  snapshots: AsyncIterable<RunSnapshot>;
  /** The final result; rejects only when the runner itself fails (a failed request is data). */
  result: Promise<RunResult>;
  /** Graceful stop: resolves within a few seconds with the run ended and `result` settled. */
  stop(): Promise<void>;
  /** A run on load agents: each agent's part now (docs/adr/0021-load-agents.md). */
  agents?: () => RunAgent[];
}

/**
 * Runs a performance plan and reports it in the built-in engine's model (RunSnapshot each second,
 * RunResult at the end), so storage, the live stream and the charts never know which engine ran.
 * `start` may throw (e.g. PlanCompileError) before anything runs.
 */
export interface Runner {
  readonly engine: EngineId;
  start(plan: PerfPlan, options: RunnerStartOptions): RunnerHandle;
}

/** An external tool's adapter: runs the tool's script for the plan and reads its results per second. */
export interface ToolRunner extends Runner {
  readonly engine: ExternalTool;
}

export interface RunnerChoice {
  runner: Runner;
  /** Which engine runs the plan and why, in words; shown on the result screen. */
  note: string;
  /** The external tool's version as detected, for its script; absent for the built-in engine. */
  toolVersion?: string | null;
}

/** Older than any tool version a script is written for: what no installed version can be short of. */
const OLDEST_VERSION = '0.0';

/** The code of a run refused because the installed tool's version cannot run the plan. */
export const TOOL_CANNOT_RUN_PLAN = 'TOOL_CANNOT_RUN_PLAN';

/**
 * The refusal of a plan that `info`'s tool, at its installed version, cannot run: one problem per plan
 * field, as the generator names it (docs/adr/0003-jmeter-scripts-are-real-jmx.md "JMeter versions").
 * The hint names what does run it; the web app offers both in one click (TOOL_CANNOT_RUN_PLAN).
 */
export function toolCannotRunError(info: ToolInfo, problems: { field: string; message: string }[]) {
  const subject = describeTool(info);
  return new ValidationError(
    problems.map((p) => ({
      field: p.field,
      message: `${subject} on this server cannot run this plan: ${p.message}`,
    })),
    {
      code: TOOL_CANNOT_RUN_PLAN,
      hint: `Run it with the built-in engine or with Locust instead, or change ${whereToChange(problems)} so that ${subject} can run it.`,
    },
  );
}

function whereToChange(problems: { field: string }[]): string {
  return problems.length === 1 ? problems[0]!.field : 'the fields named';
}

/** The external tool whose script format each plan tool is; SoapUI plans have no runner here. */
const TOOL_ENGINE: Readonly<Record<Tool, ExternalTool | null>> = {
  jmeter: 'jmeter',
  k6: 'k6',
  locust: 'locust',
  taurus: 'taurus',
  soapui: null,
};

/** How long a run waits for its tool's check (a JVM's first start on a busy machine is slow). */
export const DEFAULT_PROOF_WAIT_MS = 45_000;

/**
 * The runners a plan can run in. The built-in engine always can; a tool adapter is used when one
 * is registered for the plan's tool, that tool is installed on this server and it passed its check
 * (it ran a one-request test plan here). Otherwise the built-in engine runs the plan and the note
 * says why, plainly (docs/design.md §4).
 */
export class RunnerRegistry {
  private readonly adapters = new Map<ExternalTool, ToolRunner>();

  constructor(
    readonly builtin: Runner,
    private readonly tools: ToolDetector,
    /** How long a run started while its tool is being checked waits for the answer. */
    private readonly proofWaitMs = DEFAULT_PROOF_WAIT_MS,
  ) {}

  /** Adds (or replaces) the adapter of an external tool. */
  register(adapter: ToolRunner): void {
    this.adapters.set(adapter.engine, adapter);
  }

  /**
   * Refuses (toolCannotRunError) a plan that its tool, as installed here, cannot run, without waiting for
   * the tool's check: Validate and Validate Script ask this (docs/reference/01-authoring.md §7). A tool
   * that is not installed or failed its check refuses nothing: its plans run in the built-in engine.
   */
  async refuseIfToolCannotRun(source: ScriptSource & { tool: Tool }): Promise<void> {
    const external = TOOL_ENGINE[source.tool];
    if (external === null || !this.adapters.has(external)) return;
    // Most plans run in every version: those are not held up by the tool's first version command (a
    // JVM start for JMeter), which Validate's own time limit would otherwise pay for.
    if (toolCannotRun(source, external, OLDEST_VERSION).length === 0) return;
    const { state, info } = await this.tools.readiness(external, 0);
    if (state !== 'unusable') assertToolCanRun(source, info);
  }

  /**
   * The runner for a plan of `tool`. With `plan`, a usable tool whose installed version cannot run that
   * plan refuses it (toolCannotRunError) before anything runs; `engine: 'builtin'` asks for the
   * built-in engine whatever the tool (the one-click switch after such a refusal or a failed tool run).
   */
  async choose(tool: Tool, plan?: PerfPlan, engine?: 'builtin'): Promise<RunnerChoice> {
    if (engine === 'builtin') {
      return { runner: this.builtin, note: 'ran with the built-in engine, as the run asked' };
    }
    const external = TOOL_ENGINE[tool];
    if (external === null) {
      return { runner: this.builtin, note: 'ran with the built-in engine: this server does not run SoapUI' };
    }
    // A plan with what only the built-in engine runs yet goes there, saying why (builtin-only.ts).
    const builtinNote = plan === undefined ? undefined : builtinOnlyNote(plan, external);
    if (builtinNote !== undefined) return { runner: this.builtin, note: builtinNote };
    const { state, info } = await this.tools.readiness(
      external,
      this.adapters.has(external) ? this.proofWaitMs : 0,
    );
    if (!info.installed) {
      return {
        runner: this.builtin,
        note: `ran with the built-in engine: ${info.name} is not installed on this server`,
      };
    }
    const adapter = this.adapters.get(external);
    if (adapter === undefined) {
      return {
        runner: this.builtin,
        note: `ran with the built-in engine: ${info.name} is installed, but running plans in external tools is turned off on this server (EXTERNAL_TOOLS=off)`,
      };
    }
    if (state !== 'usable') {
      // Found, but it cannot run a plan (or is still being checked): say why, in the tool's words.
      return {
        runner: this.builtin,
        note: `${info.reason ?? `${info.name} cannot run plans here`}; this run used the built-in engine`,
      };
    }
    if (plan !== undefined) assertToolCanRun(plan, info);
    const said = plan === undefined ? [] : toolRunNotes(plan, info.name);
    return {
      runner: adapter,
      note: [`ran in ${describeTool(info)}`, ...said].join('; '),
      toolVersion: info.version,
    };
  }
}

/**
 * What a tool's run of this plan does not report, for the run's note (docs/adr/0027-load-profiles.md
 * "Runs in the tools"): no tool counts iterations per flow, so each flow's are its first call's requests
 * (`toolFlows`) or none; and none says when a user ended at the end of non-looping test data.
 */
export function toolRunNotes(plan: PerfPlan, toolName: string): string[] {
  const notes: string[] = [];
  if (plan.flows !== undefined) {
    notes.push(
      toolFlows(plan) === undefined
        ? `${toolName} reports no iterations per flow, and a flow's first call is not sent in every iteration (transactionRate), so this result has no per-flow iterations`
        : `${toolName} reports no iterations per flow: each flow's iterations are the requests of its first call`,
    );
  }
  if ((plan.data_sources ?? []).some((source) => !source.loop)) {
    notes.push(
      `${toolName} ends a user at the end of test data that does not loop without reporting it, so this result does not say whether the data ran out`,
    );
  }
  return notes;
}

/** Throws toolCannotRunError when `info`'s tool, at its detected version, cannot run the plan. */
function assertToolCanRun(source: ScriptSource, info: ToolInfo): void {
  const problems = toolCannotRun(source, info.tool, info.version);
  if (problems.length > 0) throw toolCannotRunError(info, problems);
}

function describeTool(info: ToolInfo): string {
  return info.version === null ? info.name : `${info.name} ${info.version}`;
}
