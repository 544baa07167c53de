/**
 * The Postman sandbox of one virtual user of one run: one warm QuickJS VM (Chai and the API loaded
 * once) that runs every script of that user, one at a time, instead of a new VM per script — loading
 * Chai is most of a script's cost (docs/adr/0028-postman-sandbox.md §1 "One warm VM per virtual user").
 * Never share one across runs, users, accounts or workspaces: a script may change built-in prototypes,
 * which the next script of the same VM sees. A script that stopped at its time or memory limit, whose
 * globals could not be put back, or a failure of the sandbox itself, ends the VM: the next script gets a
 * fresh one. The owner calls dispose() when the user's run ends, however it ends.
 */
import { SandboxVm } from './quickjs-vm';
import {
  DEFAULT_MEMORY_BYTES,
  DEFAULT_TIME_MS,
  type SandboxHost,
  type SandboxLimits,
  type ScriptOutcome,
  type ScriptRun,
} from './sandbox-types';

export class PostmanSandbox {
  private readonly timeMs: number;
  private readonly memoryBytes: number;
  private vm: SandboxVm | null = null;
  /** Scripts run one after the other: the VM has one global object and one time limit. */
  private queue: Promise<unknown> = Promise.resolve();
  private running = false;
  private disposed = false;

  constructor(limits: SandboxLimits = {}) {
    this.timeMs = limits.timeMs ?? DEFAULT_TIME_MS;
    this.memoryBytes = limits.memoryBytes ?? DEFAULT_MEMORY_BYTES;
  }

  /** Runs one script; rejects when the sandbox itself fails (or was disposed of). */
  run(run: ScriptRun, host: SandboxHost): Promise<ScriptOutcome> {
    const next = this.queue.then(() => this.runNow(run, host));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async runNow(run: ScriptRun, host: SandboxHost): Promise<ScriptOutcome> {
    if (this.disposed) throw new Error('the sandbox was disposed of');
    this.running = true;
    try {
      this.vm ??= await SandboxVm.create(this.memoryBytes);
      const vm = this.vm;
      try {
        const { outcome, reusable } = await vm.run(run, host, this.timeMs);
        if (!reusable) this.drop();
        return outcome;
      } catch (e) {
        this.drop();
        throw e;
      }
    } finally {
      this.running = false;
      // disposed of while a script ran (a run stopped): the VM goes now that nothing uses it.
      if (this.disposed) this.drop();
    }
  }

  /** Frees the VM's WebAssembly memory; a script still running keeps it until it ends. */
  dispose(): void {
    this.disposed = true;
    if (!this.running) this.drop();
  }

  private drop(): void {
    this.vm?.dispose();
    this.vm = null;
  }
}
