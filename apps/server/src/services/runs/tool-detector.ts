import { EXTERNAL_TOOLS, TOOL_ENV, detectTools, type ExternalTool } from '@aqa/engine';
import type { EngineInfo } from '@aqa/plan';
import type { ToolCommands } from '../../config';

export { EXTERNAL_TOOLS, type ExternalTool };

/**
 * An external load tool as GET /api/engines lists it (@aqa/plan's EngineInfo): version as the tool
 * reports it, null when not installed or when it does not say; command as configured or found on PATH,
 * null when not installed.
 */
export type ToolInfo = EngineInfo & { tool: ExternalTool };

export interface DetectorLogger {
  warn(obj: object, msg?: string): void;
}

/**
 * Which external tools this server can run. The engine's detectTools is the one definition of how
 * a tool is found and its version read (the adapters resolve commands the same way); this class
 * feeds it the server's configured commands and logs a configured command that does not run.
 */
export class ToolDetector {
  private readonly env: NodeJS.ProcessEnv;

  constructor(
    private readonly commands: ToolCommands,
    private readonly options: { timeoutMs?: number; logger?: DetectorLogger; env?: NodeJS.ProcessEnv } = {},
  ) {
    this.env = toolEnvironment(commands, options.env ?? process.env);
  }

  /** The environment the adapters run tools with: JMETER_CMD etc. as configured. */
  get environment(): NodeJS.ProcessEnv {
    return this.env;
  }

  async detect(tool: ExternalTool): Promise<ToolInfo> {
    const [found] = await detectTools(this.env, {
      tools: [tool],
      ...(this.options.timeoutMs === undefined ? {} : { timeoutMs: this.options.timeoutMs }),
    });
    if (found === undefined) throw new Error(`No detection result for ${tool}`);
    if (!found.installed && this.commands[tool] !== undefined) {
      this.options.logger?.warn(
        { tool, command: found.command, reason: found.problem },
        'Configured tool command does not run',
      );
    }
    return {
      tool,
      name: found.name,
      installed: found.installed,
      version: found.version,
      command: found.installed ? found.command : null,
    };
  }

  detectAll(): Promise<ToolInfo[]> {
    return Promise.all(EXTERNAL_TOOLS.map((tool) => this.detect(tool)));
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
