/* Helpers for the adapters' tests (imported by *.test.ts only). */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunSnapshot } from '../types';
import { detectTools } from './detect';
import type { DetectedTool, ExternalTool, ToolRunHandle, ToolRunResult } from './types';

/**
 * The environment the tests detect and run tools with: the tools as a user's machine has them. With
 * JMETER_CMD unset, Debian's JMeter runs through the engine's own launcher (debian-jmeter.ts).
 */
export const TEST_ENV: NodeJS.ProcessEnv = { ...process.env };

/** The tool as detected, and why its live tests are skipped (printed) when it is absent. */
export async function toolForTests(tool: ExternalTool): Promise<{ info: DetectedTool; skip: boolean }> {
  const [info] = await detectTools(TEST_ENV, { tools: [tool] });
  if (!info) throw new Error(`no detection for ${tool}`);
  if (!info.installed) {
    process.stderr.write(
      `[adapters] skipping the live ${info.name} tests: ${info.problem ?? 'not installed'}\n`,
    );
  }
  return { info, skip: !info.installed };
}

export interface Observed {
  snapshots: RunSnapshot[];
  /** Date.now() when each snapshot arrived. */
  arrivals: number[];
  result: ToolRunResult;
  /** Date.now() when the result resolved. */
  resolvedAt: number;
}

/** Consumes a handle's snapshots as they come and waits for its result. */
export async function observe(run: ToolRunHandle, onSnapshot?: (s: RunSnapshot) => void): Promise<Observed> {
  const snapshots: RunSnapshot[] = [];
  const arrivals: number[] = [];
  for await (const s of run.snapshots) {
    snapshots.push(s);
    arrivals.push(Date.now());
    onSnapshot?.(s);
  }
  const result = await run.result;
  return { snapshots, arrivals, result, resolvedAt: Date.now() };
}

/** Sum of a per-step figure over snapshots. */
export function stepSum(snapshots: RunSnapshot[], step: number, key: 'requests' | 'failures'): number {
  return snapshots.reduce((a, s) => a + (s.steps[step]?.[key] ?? 0), 0);
}

/**
 * A temp folder of stand-in tool commands: `script(name, body)` writes an executable `#!/bin/sh` script
 * (a fake jmeter, k6…) and answers its path; `remove()` deletes the folder.
 */
export function fakeToolDir(prefix: string): {
  dir: string;
  script: (name: string, body: string) => string;
  remove: () => void;
} {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return {
    dir,
    script: (name, body) => {
      const path = join(dir, name);
      writeFileSync(path, `#!/bin/sh\n${body}\n`);
      chmodSync(path, 0o755);
      return path;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
