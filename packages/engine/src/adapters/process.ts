import { spawn, type ChildProcess } from 'node:child_process';

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

/**
 * A tool process in a process group of its own (so a launcher script and the JVM or Python it
 * starts are signalled together), its output kept as the last lines for error messages.
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
    this.child = spawn(argv[0]!, argv.slice(1), {
      cwd,
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
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
