import { readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { basename, isAbsolute, sep } from 'node:path';

/*
 * A tool process outlives a server killed with SIGKILL: it runs in a process group of its own
 * (process.ts), which no signal to the server reaches. So each tool is recorded when it starts, and
 * the next start of the server ends what is left (docs/adr/0016-crash-recovery.md). A recorded pid may
 * since belong to another program: a process is only ended when it is recognised as the tool — the
 * group's leader by its start time, any other member of the group by its working directory, the run's
 * own temporary folder.
 */

/** What is recorded of a tool process when it starts. */
export interface ToolProcessRecord {
  /** The tool's pid, also the id of its process group (it is started detached). */
  pid: number;
  /** When it started, in clock ticks since boot (/proc/<pid>/stat); null where there is no /proc. */
  startTicks: string | null;
  /** The run's work directory: the tool's working directory, removed with it. */
  workDir: string;
}

interface ProcStat {
  pid: number;
  state: string;
  pgrp: number;
  startTicks: string;
}

/** /proc/<pid>/stat, or undefined when there is no such process (or no /proc). */
function readStat(pid: number): ProcStat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may hold spaces or parentheses itself.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const state = fields[0];
  const pgrp = Number(fields[2]);
  const startTicks = fields[19];
  if (state === undefined || !Number.isInteger(pgrp) || startTicks === undefined) return undefined;
  return { pid, state, pgrp, startTicks };
}

/** The start time of a process (clock ticks since boot), or null when it cannot be read. */
export function processStartTicks(pid: number): string | null {
  return readStat(pid)?.startTicks ?? null;
}

/** What to record of a tool just started in `workDir`. */
export function toolProcessRecord(pid: number, workDir: string): ToolProcessRecord {
  return { pid, startTicks: processStartTicks(pid), workDir };
}

function cwdOf(pid: number): string | null {
  try {
    return readlinkSync(`/proc/${pid}/cwd`);
  } catch {
    return null;
  }
}

/** The live members of process group `pgid` (zombies are not: they only wait to be reaped). */
function groupMembers(pgid: number): ProcStat[] {
  let names: string[];
  try {
    names = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  const members: ProcStat[] = [];
  for (const name of names) {
    const stat = readStat(Number(name));
    if (stat !== undefined && stat.pgrp === pgid && stat.state !== 'Z') members.push(stat);
  }
  return members;
}

/** Whether the group is the recorded tool's: its leader started when recorded, or a member works in its folder. */
function isTheTool(record: ToolProcessRecord, members: ProcStat[]): boolean {
  return members.some((member) => {
    if (member.pid === record.pid) return member.startTicks === record.startTicks;
    const cwd = cwdOf(member.pid);
    return cwd !== null && (cwd === record.workDir || cwd.startsWith(record.workDir + sep));
  });
}

export type LeftoverOutcome =
  /** It was running and was ended (SIGTERM, then SIGKILL after the grace). */
  | 'ended'
  /** Nothing of it runs any more (or what has its pid now is another program, left alone). */
  | 'gone';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Once the group is known to be the tool's, its id cannot be reused while any member lives. */
async function waitUntilGone(pgid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (groupMembers(pgid).length === 0) return true;
    if (Date.now() >= deadline) return false;
    await sleep(50);
  }
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // the group ended meanwhile
  }
}

/**
 * Ends a tool left running by a server that died, if it is still that tool: its process group gets
 * SIGTERM, and SIGKILL if anything of it is left after `graceMs`. Then its work directory is removed
 * (only one of the engine's own, `aqa-…`). Without /proc (start time unknown) nothing is signalled.
 */
export async function endLeftoverTool(
  record: ToolProcessRecord,
  { graceMs = 2000 }: { graceMs?: number } = {},
): Promise<LeftoverOutcome> {
  let outcome: LeftoverOutcome = 'gone';
  if (record.startTicks !== null && isTheTool(record, groupMembers(record.pid))) {
    outcome = 'ended';
    signalGroup(record.pid, 'SIGTERM');
    if (!(await waitUntilGone(record.pid, graceMs))) {
      signalGroup(record.pid, 'SIGKILL');
      await waitUntilGone(record.pid, graceMs);
    }
  }
  if (isAbsolute(record.workDir) && basename(record.workDir).startsWith('aqa-')) {
    rmSync(record.workDir, { recursive: true, force: true });
  }
  return outcome;
}
