import {
  EXTERNAL_TOOLS,
  TOOL_ENV,
  detectTools,
  proveTool,
  toolAndVersion,
  type DetectedTool,
  type ExternalTool,
  type ToolProof,
} from '@aqa/engine';
import type { EngineInfo } from '@aqa/plan';
import type { ToolCommands } from '../../config';

export { EXTERNAL_TOOLS, type ExternalTool };

/**
 * An external load tool as GET /api/engines lists it (@aqa/plan's EngineInfo): version as the tool
 * reports it, null when not installed or when it does not say; command as configured or found on PATH,
 * null when not installed; usable once it ran a one-request test plan here, else the reason.
 */
export type ToolInfo = EngineInfo & { tool: ExternalTool };

export interface DetectorLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

export interface ToolDetectorOptions {
  /** Time limit of each version command, ms. */
  timeoutMs?: number;
  logger?: DetectorLogger;
  env?: NodeJS.ProcessEnv;
  /** Where helper programs the tools need are built (Debian's JMeter launcher); default ~/.cache/anybodyqa. */
  cacheDir?: string;
  /** EXTERNAL_TOOLS: false lists the tools as found but not usable and never runs their check. */
  runsTools?: boolean;
  /** Longest one tool's check may take, ms (default 90 000). */
  proofTimeoutMs?: number;
}

/** What a run may do with a tool right now. */
export type ToolReadiness =
  | { state: 'usable'; info: ToolInfo }
  /** Not installed, turned off, or failed its check: `info.reason` says which. */
  | { state: 'unusable'; info: ToolInfo }
  /** Its check is still running. */
  | { state: 'checking'; info: ToolInfo };

/**
 * Which external tools this server can run. The engine's detectTools is the one definition of how
 * a tool is found and its version read (the adapters resolve commands the same way); this class
 * feeds it the server's configured commands and logs a configured command that does not run.
 *
 * A tool that is found is not trusted yet: once per command it must run a one-request test plan
 * (the engine's proveTool: a listener on 127.0.0.1 that counts what it receives). Until it has, and
 * if it could not, GET /api/engines lists it as not usable, with the reason in one sentence, and
 * its plans run in the built-in engine (docs/design.md §4).
 */
export class ToolDetector {
  private readonly env: NodeJS.ProcessEnv;
  /** One check per tool and command line (a changed command is checked again). */
  private readonly proofs = new Map<string, Promise<ToolProof>>();
  private readonly settled = new Map<string, ToolProof>();
  /** Tools whose configured command was reported as not running (once each). */
  private readonly warned = new Set<ExternalTool>();

  constructor(
    private readonly commands: ToolCommands,
    private readonly options: ToolDetectorOptions = {},
  ) {
    this.env = toolEnvironment(commands, options.env ?? process.env);
  }

  /** The environment the adapters run tools with: JMETER_CMD etc. as configured. */
  get environment(): NodeJS.ProcessEnv {
    return this.env;
  }

  /** Where helper programs for the tools are built, as configured (undefined: the engine's default). */
  get cacheDir(): string | undefined {
    return this.options.cacheDir;
  }

  /** The tool as GET /api/engines lists it now: usable only once its check passed (never waits for it). */
  async detect(tool: ExternalTool): Promise<ToolInfo> {
    return (await this.readiness(tool, 0)).info;
  }

  detectAll(): Promise<ToolInfo[]> {
    return Promise.all(EXTERNAL_TOOLS.map((tool) => this.detect(tool)));
  }

  /**
   * Whether a run may use the tool: starts its check when none has run for this command, and waits
   * for a running check at most `waitMs`.
   */
  async readiness(tool: ExternalTool, waitMs: number): Promise<ToolReadiness> {
    const found = await this.found(tool);
    const base = {
      tool,
      name: found.name,
      installed: found.installed,
      version: found.version,
      command: found.installed ? found.command : null,
    };
    if (!found.installed) {
      return {
        state: 'unusable',
        info: { ...base, usable: false, reason: `${found.name} is not installed on this server` },
      };
    }
    if (this.options.runsTools === false) {
      return {
        state: 'unusable',
        info: {
          ...base,
          usable: false,
          reason: `${found.name} is installed, but running plans in external tools is turned off on this server (EXTERNAL_TOOLS=off)`,
        },
      };
    }
    const key = proofKey(found);
    const proof = this.settled.get(key) ?? (await within(this.prove(found), waitMs));
    if (proof === undefined) {
      const subject = toolAndVersion(tool, found.version);
      return {
        state: 'checking',
        info: {
          ...base,
          usable: false,
          reason: `${subject} is installed and is still being checked with a one-request test plan`,
        },
      };
    }
    return {
      state: proof.usable ? 'usable' : 'unusable',
      info: { ...base, usable: proof.usable, reason: proof.reason },
    };
  }

  /** Starts the check of every installed tool (at start-up, after the server listens); never rejects. */
  async proveAll(): Promise<ToolInfo[]> {
    return Promise.all(EXTERNAL_TOOLS.map(async (tool) => (await this.readiness(tool, Infinity)).info));
  }

  private async found(tool: ExternalTool): Promise<DetectedTool> {
    const [found] = await detectTools(this.env, {
      tools: [tool],
      ...(this.options.timeoutMs === undefined ? {} : { timeoutMs: this.options.timeoutMs }),
      ...(this.options.cacheDir === undefined ? {} : { cacheDir: this.options.cacheDir }),
    });
    if (found === undefined) throw new Error(`No detection result for ${tool}`);
    if (!found.installed && this.commands[tool] !== undefined && !this.warned.has(tool)) {
      this.warned.add(tool);
      this.options.logger?.warn(
        { tool, command: found.command, reason: found.problem },
        'Configured tool command does not run',
      );
    }
    return found;
  }

  /** The check of an installed tool, run once per command line. */
  private prove(found: DetectedTool): Promise<ToolProof> {
    const key = proofKey(found);
    let proof = this.proofs.get(key);
    if (proof === undefined) {
      const started = Date.now();
      proof = proveTool(found.tool, {
        env: this.env,
        detected: found,
        ...(this.options.cacheDir === undefined ? {} : { cacheDir: this.options.cacheDir }),
        ...(this.options.proofTimeoutMs === undefined ? {} : { timeoutMs: this.options.proofTimeoutMs }),
      }).then((answer) => {
        this.settled.set(key, answer);
        const log = { tool: found.tool, command: found.command, ms: Date.now() - started };
        if (answer.usable) {
          this.options.logger?.info({ ...log, requests: answer.received }, 'Tool checked: it runs plans');
        } else {
          this.options.logger?.warn(
            { ...log, reason: answer.reason, output: answer.details.split('\n').slice(-20).join('\n') },
            'Tool found but it cannot run plans: its plans run in the built-in engine',
          );
        }
        return answer;
      });
      this.proofs.set(key, proof);
    }
    return proof;
  }
}

function proofKey(found: DetectedTool): string {
  return `${found.tool}\u0000${found.command}`;
}

/** The promise's value if it settles within `ms`, else undefined (Infinity: waits). */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  if (ms === Infinity) return promise;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), Math.max(0, ms));
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The process environment with the configured tool commands in the engine's variables. */
export function toolEnvironment(commands: ToolCommands, base: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base };
  for (const tool of EXTERNAL_TOOLS) {
    const command = commands[tool];
    if (command !== undefined) env[TOOL_ENV[tool]] = command;
  }
  return env;
}
