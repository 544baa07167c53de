import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import type { ToolCommands } from '../../config';

export const EXTERNAL_TOOLS = ['jmeter', 'k6', 'locust', 'taurus'] as const;
export type ExternalTool = (typeof EXTERNAL_TOOLS)[number];

/** An external load tool as GET /api/engines lists it. */
export interface ToolInfo {
  tool: ExternalTool;
  name: string;
  installed: boolean;
  /** As the tool reports it; null when not installed or when it does not say. */
  version: string | null;
  /** The command line that runs it (configured, or found on PATH); null when not installed. */
  command: string | null;
}

interface ToolSpec {
  name: string;
  /** The executable looked up on PATH when no command is configured. */
  executable: string;
  /** Arguments that print the version and exit without running anything. */
  versionArgs: string[];
}

const SPECS: Readonly<Record<ExternalTool, ToolSpec>> = {
  jmeter: { name: 'JMeter', executable: 'jmeter', versionArgs: ['--version'] },
  k6: { name: 'k6', executable: 'k6', versionArgs: ['version'] },
  locust: { name: 'Locust', executable: 'locust', versionArgs: ['--version'] },
  // bzt has no version option; its help text opens with "BlazeMeter Taurus Tool v1.16.x".
  taurus: { name: 'Taurus', executable: 'bzt', versionArgs: ['--help'] },
};

/** JMeter's JVM can take seconds to start on a cold machine. */
const DEFAULT_TIMEOUT_MS = 20_000;
const VERSION = /(?<![\d.])v?(\d+\.\d+(?:\.\d+)*)/;

export interface DetectorLogger {
  warn(obj: object, msg?: string): void;
}

/**
 * Finds which external tools this server can run, by running each one's version command once (with
 * a time limit) and caching the answer for the life of the process. A command that is missing,
 * fails without printing a version, or runs out of time counts as not installed.
 */
export class ToolDetector {
  private readonly cache = new Map<ExternalTool, Promise<ToolInfo>>();

  constructor(
    private readonly commands: ToolCommands,
    private readonly options: { timeoutMs?: number; logger?: DetectorLogger; env?: NodeJS.ProcessEnv } = {},
  ) {}

  detect(tool: ExternalTool): Promise<ToolInfo> {
    let found = this.cache.get(tool);
    if (found === undefined) {
      found = this.probe(tool);
      this.cache.set(tool, found);
    }
    return found;
  }

  detectAll(): Promise<ToolInfo[]> {
    return Promise.all(EXTERNAL_TOOLS.map((tool) => this.detect(tool)));
  }

  private async probe(tool: ExternalTool): Promise<ToolInfo> {
    const spec = SPECS[tool];
    const absent: ToolInfo = { tool, name: spec.name, installed: false, version: null, command: null };
    const configured = this.commands[tool];
    const argv = configured === undefined ? this.onPath(spec.executable) : splitCommandLine(configured);
    const [file, ...args] = argv ?? [];
    if (file === undefined) return absent;
    const command = configured ?? file;
    const outcome = await run(
      file,
      [...args, ...spec.versionArgs],
      this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    );
    const version = VERSION.exec(outcome.output)?.[1] ?? null;
    if (outcome.error !== undefined && version === null) {
      if (configured !== undefined) {
        this.options.logger?.warn(
          { tool, command, reason: outcome.error },
          'Configured tool command does not run',
        );
      }
      return absent;
    }
    return { tool, name: spec.name, installed: true, version, command };
  }

  private onPath(executable: string): string[] | null {
    const path = (this.options.env ?? process.env).PATH ?? '';
    for (const dir of path.split(delimiter)) {
      if (dir === '' || !isAbsolute(dir)) continue;
      const candidate = join(dir, executable);
      try {
        accessSync(candidate, constants.X_OK);
        return [candidate];
      } catch {
        // not in this folder
      }
    }
    return null;
  }
}

function run(file: string, args: string[], timeoutMs: number): Promise<{ output: string; error?: string }> {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      { timeout: timeoutMs, maxBuffer: 1024 * 1024, windowsHide: true, encoding: 'utf8' },
      (error, stdout, stderr) => {
        const output = `${stdout}\n${stderr}`;
        if (error === null) resolve({ output });
        else if (error.killed) resolve({ output, error: `no answer within ${timeoutMs} ms` });
        else resolve({ output, error: error.message });
      },
    );
  });
}

/** "a 'b c' d" → ["a", "b c", "d"]: words split on blanks, single or double quotes group. */
export function splitCommandLine(text: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: string | null = null;
  for (const ch of text) {
    if (quote !== null) {
      if (ch === quote) quote = null;
      else word += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
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
