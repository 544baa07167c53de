import { spawn, type ChildProcess } from 'node:child_process';
import { isAbsolute, resolve } from 'node:path';
import { which } from './command';

/** Tool processes this module started and that have not exited: killed if the caller's process exits. */
const live = new Set<ChildProcess>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const child of live) signalGroup(child, 'SIGKILL');
  });
}

/** Sends `signal` to the process group of a child started with `detached: true` (its pid is the group id). */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): boolean {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return false;
  try {
    process.kill(-child.pid, signal);
    return true;
  } catch {
    try {
      return child.kill(signal);
    } catch {
      return false;
    }
  }
}

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Set when the process could not be started at all (e.g. ENOENT). */
  spawnError?: Error;
}

/** Seconds between the watchdog's SIGTERM to a tool's group and its SIGKILL (docs/adr/0016-crash-recovery.md). */
export const WATCHDOG_GRACE_S = 2;

/**
 * The watchdog every tool runs under, in POSIX sh (issue 23: Locust went on loading its target after
 * its server was killed). Standard input is a pipe whose other end only the starting process holds:
 * the kernel closes it when that process dies, however it dies. The shell copies the pipe to fd 3,
 * leaves a subshell reading it (signals ignored, output to /dev/null so it holds none of the tool's
 * pipes), and becomes the tool with exec — the tool keeps the pid, group, exit code and signals it
 * always had, with /dev/null as standard input as before. The tool's pid is also its session's id
 * (spawned detached: setsid), and the session holds whatever the tool starts, even in process groups
 * of their own (Taurus starts its tools so). When the pipe reads end-of-file, the subshell sends
 * SIGTERM to its group and to every other process of the session (a tool's own graceful stop), and
 * SIGKILL after the grace (its own group last: that ends the subshell too); the session's members are
 * read from /proc with shell builtins only, and without /proc the group alone is signalled. When
 * the tool ends first, the starter kills the group (reapGroup), the subshell with it.
 */
const WATCHDOG = `exec 3<&0
(
  trap '' INT TERM HUP QUIT
  while read -r line <&3; do :; done
  read -r self rest < /proc/self/stat 2>/dev/null || self=
  signal_session() {
    for stat in /proc/[0-9]*/stat; do
      pid=\${stat#/proc/}
      pid=\${pid%/stat}
      [ "$pid" = "$self" ] && continue
      read -r line < "$stat" 2>/dev/null || continue
      set -- "$1" \${line##*\\) }
      [ "$5" = "$$" ] && kill -"$1" "$pid" 2>/dev/null
    done
    kill -"$1" 0 2>/dev/null
  }
  signal_session TERM
  sleep ${WATCHDOG_GRACE_S}
  signal_session KILL
) </dev/null >/dev/null 2>&1 &
exec "$@" </dev/null 3<&-`;

/** Whether the tool's executable exists and may be run, as spawn would find it (PATH, or relative to `cwd`). */
function runnable(executable: string, cwd: string, env: NodeJS.ProcessEnv): boolean {
  if (!executable.includes('/')) return which(executable, env) !== undefined;
  return which(isAbsolute(executable) ? executable : resolve(cwd, executable), env) !== undefined;
}

/**
 * A tool process in a process group of its own (so a launcher script and the JVM or Python it
 * starts are signalled together), its output kept as the last lines for error messages. It runs
 * under a watchdog (WATCHDOG) that ends the group within WATCHDOG_GRACE_S seconds of the death of the
 * process that started it — a server or agent killed with SIGKILL leaves no tool loading a target.
 */
export class ToolProcess {
  readonly child: ChildProcess;
  readonly exited: Promise<ExitInfo>;
  private readonly lines: string[] = [];
  private partial = '';
  private readonly lineListeners: ((line: string) => void)[] = [];

  constructor(
    argv: readonly string[],
    { cwd, env, maxLines = 200 }: { cwd: string; env: NodeJS.ProcessEnv; maxLines?: number },
  ) {
    installExitHook();
    // A tool that cannot be found is spawned as it is, so spawn's own error (ENOENT, EACCES) says so.
    const watched = runnable(argv[0]!, cwd, env);
    this.child = spawn(
      watched ? '/bin/sh' : argv[0]!,
      watched ? ['-c', WATCHDOG, 'aqa-watchdog', ...argv] : argv.slice(1),
      { cwd, env, detached: true, stdio: [watched ? 'pipe' : 'ignore', 'pipe', 'pipe'] },
    );
    // Never written to: its end in this process closing is the watchdog's signal.
    this.child.stdin?.on('error', () => undefined);
    live.add(this.child);
    const onData = (chunk: Buffer): void => {
      const text = this.partial + chunk.toString('utf8');
      const parts = text.split(/\r?\n/);
      this.partial = parts.pop() ?? '';
      if (this.partial.length > 10_000) {
        parts.push(this.partial);
        this.partial = '';
      }
      for (const line of parts) {
        this.lines.push(line);
        if (this.lines.length > maxLines) this.lines.shift();
        for (const l of this.lineListeners) l(line);
      }
    };
    this.child.stdout?.on('data', onData);
    this.child.stderr?.on('data', onData);
    this.exited = new Promise<ExitInfo>((resolve) => {
      this.child.once('error', (spawnError) => {
        live.delete(this.child);
        resolve({ code: null, signal: null, spawnError });
      });
      this.child.once('close', (code, signal) => {
        live.delete(this.child);
        this.reapGroup();
        this.child.stdin?.destroy();
        if (this.partial) {
          this.lines.push(this.partial);
          this.partial = '';
        }
        resolve({ code, signal });
      });
    });
  }

  /**
   * Right after the tool exited, ends what it left behind in its process group (e.g. a JVM that a
   * launcher started). The group id cannot have been reused while the group still has members.
   */
  private reapGroup(): void {
    const pid = this.child.pid;
    if (pid === undefined) return;
    try {
      process.kill(-pid, 0);
      process.kill(-pid, 'SIGKILL');
    } catch {
      // the group is empty: nothing left behind
    }
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get running(): boolean {
    return this.child.pid !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Calls `fn` for every line the tool prints from now on (stdout and stderr). */
  onLine(fn: (line: string) => void): void {
    this.lineListeners.push(fn);
  }

  /** The last `n` lines the tool printed. */
  tail(n = 20): string {
    return this.lines
      .filter((l) => l.trim() !== '')
      .slice(-n)
      .join('\n');
  }

  /** Signals the tool's process group (only while the tool itself has not exited). */
  signal(signal: NodeJS.Signals): boolean {
    return signalGroup(this.child, signal);
  }

  /**
   * Ends the tool: `first` (its graceful stop) has been sent by the caller or is sent here; after
   * `graceMs` SIGTERM, after as long again SIGKILL, to the process group. Resolves when it exited.
   */
  async terminate(graceMs: number, first?: NodeJS.Signals): Promise<ExitInfo> {
    if (first) this.signal(first);
    const timers: NodeJS.Timeout[] = [];
    timers.push(setTimeout(() => this.signal('SIGTERM'), graceMs));
    timers.push(setTimeout(() => this.signal('SIGKILL'), graceMs * 2));
    try {
      return await this.exited;
    } finally {
      for (const t of timers) clearTimeout(t);
    }
  }
}
