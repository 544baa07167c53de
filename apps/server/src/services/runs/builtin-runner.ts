import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startRun, type TargetGuard } from '@aqa/engine';
import type { PerfPlan } from '@aqa/plan';
import type { Runner, RunnerHandle, RunnerStartOptions } from './runner';

/**
 * The server bundle (dist/main.mjs) ships the engine's worker as dist/engine-worker.mjs (see
 * build.mjs). From TypeScript source (vitest, tsx) there is no such file, and the engine builds
 * its own worker bundle on first use.
 */
export function bundledWorkerEntry(moduleUrl = import.meta.url): URL | undefined {
  const entry = new URL('./engine-worker.mjs', moduleUrl);
  return existsSync(fileURLToPath(entry)) ? entry : undefined;
}

/**
 * A 32-bit seed from a run id (FNV-1a): the same for every machine of the run — this server's engine,
 * or each load agent's (agents/agent-runner.ts).
 */
export function seedOf(runId: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < runId.length; i++) h = Math.imul(h ^ runId.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** The built-in load engine (@aqa/engine): worker threads, so nothing of the load runs on the server's event loop. */
export class BuiltinRunner implements Runner {
  readonly engine = 'builtin' as const;

  constructor(
    /** Asked before every connection of a run (docs/adr/0015-target-guard.md). */
    private readonly guard?: TargetGuard,
    private readonly workerEntry: URL | undefined = bundledWorkerEntry(),
  ) {}

  start(plan: PerfPlan, options: RunnerStartOptions): RunnerHandle {
    return startRun(plan, {
      // A plan with a load profile runs its stages, which set the length (docs/adr/0027-load-profiles.md);
      // the engine refuses a duration beside them.
      ...(plan.load_profile === undefined
        ? { durationSeconds: options.durationSeconds }
        : { loadProfile: plan.load_profile }),
      logger: options.logger,
      // The order of random_order test data follows from the run (docs/adr/0027-load-profiles.md "Test data").
      ...(options.runId === undefined ? {} : { dataSeed: seedOf(options.runId) }),
      ...(this.guard === undefined ? {} : { guard: this.guard }),
      ...(this.workerEntry === undefined ? {} : { workerEntry: this.workerEntry }),
    });
  }
}
