import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { endLeftoverTool, toolProcessRecord } from './leftover-tool';

/*
 * A tool a dead server left running (docs/adr/0016-crash-recovery.md): a real process in a group of its
 * own, working in its run's folder, as run-tool.ts starts one. It is ended only when it is recognised.
 */

const started: ChildProcess[] = [];

/** A stand-in tool: a shell that starts a child in its group, both working in `dir`, running until killed. */
function startTool(dir: string): ChildProcess {
  const child = spawn('/bin/sh', ['-c', 'sleep 60 & wait'], { cwd: dir, detached: true, stdio: 'ignore' });
  started.push(child);
  return child;
}

const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', resolve));

/** Whether anything of process group `pgid` still runs (a zombie only waits to be reaped). */
function groupAlive(pgid: number): boolean {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .some((name) => {
      try {
        const text = readFileSync(`/proc/${name}/stat`, 'utf8');
        const [state, , pgrp] = text.slice(text.lastIndexOf(')') + 2).split(' ');
        return Number(pgrp) === pgid && state !== 'Z';
      } catch {
        return false;
      }
    });
}

afterEach(() => {
  for (const child of started.splice(0)) {
    if (child.pid !== undefined && groupAlive(child.pid)) process.kill(-child.pid, 'SIGKILL');
  }
});

describe.skipIf(!existsSync('/proc/self/stat'))('endLeftoverTool', () => {
  it('ends the recorded tool and everything in its process group, and removes its folder', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aqa-leftover-'));
    const tool = startTool(dir);
    const record = toolProcessRecord(tool.pid!, dir);
    expect(record.startTicks).toMatch(/^\d+$/);

    expect(await endLeftoverTool(record, { graceMs: 1000 })).toBe('ended');
    await exited(tool);
    expect(groupAlive(tool.pid!)).toBe(false);
    expect(existsSync(dir)).toBe(false);
  });

  it('leaves a process alone that has the recorded pid but another start time (a reused pid)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aqa-leftover-'));
    const other = mkdtempSync(join(tmpdir(), 'aqa-leftover-'));
    try {
      const tool = startTool(other);
      const record = { ...toolProcessRecord(tool.pid!, dir), startTicks: '1' };

      expect(await endLeftoverTool(record, { graceMs: 1000 })).toBe('gone');
      expect(tool.exitCode).toBeNull();
      expect(groupAlive(tool.pid!)).toBe(true);
      // Its own folder is still the recorded run's to remove.
      expect(existsSync(dir)).toBe(false);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});
