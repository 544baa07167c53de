import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { ToolProcess } from './process';

/*
 * A tool process ends with the process that started it (issue 23 point 8): a server or agent killed
 * with SIGKILL runs no exit hook, and its tools, in process groups of their own, would go on loading
 * their targets until the next start. Each tool is watched by a small watchdog in its group that ends
 * the group when the pipe from its starter closes (docs/adr/0016-crash-recovery.md).
 */

const PROCESS_MODULE = fileURLToPath(new URL('./process.ts', import.meta.url));

/** The live processes (zombies only wait to be reaped) whose process group, or session, is `id`. */
function members(id: number, of: 'group' | 'session'): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        const text = readFileSync(`/proc/${name}/stat`, 'utf8');
        const [state, , pgrp, session] = text.slice(text.lastIndexOf(')') + 2).split(' ');
        return Number(of === 'group' ? pgrp : session) === id && state !== 'Z';
      } catch {
        return false;
      }
    })
    .map(Number);
}

const groupAlive = (pgid: number) => members(pgid, 'group').length > 0;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const dirs: string[] = [];
const starters: ChildProcess[] = [];
const groups: number[] = [];

afterEach(() => {
  for (const child of starters.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  for (const sid of groups.splice(0)) {
    for (const pid of members(sid, 'session')) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone, as it should be
      }
    }
  }
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * A starter process (as the server is) that runs `tool` through ToolProcess and prints its pid. Resolves
 * with the starter and the tool's pid (its process group) once the tool has started its own child.
 */
async function startStarter(tool: string): Promise<{ starter: ChildProcess; pgid: number; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'aqa-watchdog-'));
  dirs.push(dir);
  const script = join(dir, 'starter.mjs');
  writeFileSync(
    script,
    `import { ToolProcess } from ${JSON.stringify(PROCESS_MODULE)};
const tool = new ToolProcess(['/bin/sh', '-c', ${JSON.stringify(tool)}], { cwd: ${JSON.stringify(dir)}, env: process.env });
tool.onLine((line) => process.stdout.write(line + '\\n'));
process.stdout.write('tool ' + tool.pid + '\\n');
setInterval(() => undefined, 1000);
`,
  );
  const starter = spawn(process.execPath, ['--import', 'tsx', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  starters.push(starter);
  let output = '';
  const pgid = await new Promise<number>((resolve, reject) => {
    starter.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const pid = /^tool (\d+)$/m.exec(output)?.[1];
      if (pid !== undefined && output.includes('child started')) resolve(Number(pid));
    });
    starter.once('exit', () => reject(new Error(`the starter exited:\n${output}`)));
  });
  groups.push(pgid);
  return { starter, pgid, dir };
}

describe.skipIf(!existsSync('/proc/self/stat'))('a tool process whose starter is killed', () => {
  it('ends, with everything it started, within a few seconds — even what ignores SIGTERM or left its group', async () => {
    // The tool ignores SIGTERM and keeps two children: one in its group, one in a process group of its
    // own that ignores SIGTERM too (as Taurus starts its tools). Only SIGKILL to the session ends all.
    const { starter, pgid } = await startStarter(
      `trap '' TERM; /usr/bin/python3 -c 'import os, signal, time; os.setpgrp(); signal.signal(signal.SIGTERM, signal.SIG_IGN); print("child started", flush=True); time.sleep(300)' & sleep 300 & wait`,
    );
    const session = members(pgid, 'session');
    expect(session.length).toBeGreaterThanOrEqual(3);
    // The Python child is in the tool's session but not in its group.
    expect(session.length).toBeGreaterThan(members(pgid, 'group').length);
    starter.kill('SIGKILL');
    const killedAt = Date.now();
    while (members(pgid, 'session').length > 0 && Date.now() - killedAt < 15_000) await sleep(100);
    const tookMs = Date.now() - killedAt;
    expect(members(pgid, 'session'), `still running ${tookMs} ms after its starter was killed`).toEqual([]);
    // The bound of docs/adr/0016-crash-recovery.md: SIGTERM at once, SIGKILL 2 s later; room for a loaded machine.
    expect(tookMs).toBeLessThan(8_000);
  });

  it('lives as long as its starter does, and its exit code and output are its own', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aqa-watchdog-'));
    dirs.push(dir);
    const tool = new ToolProcess(['/bin/sh', '-c', 'echo "from $$"; exit 3'], { cwd: dir, env: process.env });
    const exit = await tool.exited;
    expect(exit).toEqual({ code: 3, signal: null });
    // The pid is the tool's own (the watchdog's shell made way for it with exec).
    expect(tool.tail()).toBe(`from ${tool.pid}`);
    // Its watchdog was ended with it (SIGKILL to the group as it closed; delivered within moments).
    const closedAt = Date.now();
    while (groupAlive(tool.pid!) && Date.now() - closedAt < 2000) await sleep(20);
    expect(groupAlive(tool.pid!)).toBe(false);

    const missing = new ToolProcess([join(dir, 'no-such-tool')], { cwd: dir, env: process.env });
    const failed = await missing.exited;
    expect(failed.spawnError).toMatchObject({ code: 'ENOENT' });
  });
});
