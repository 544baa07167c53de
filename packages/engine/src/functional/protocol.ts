import type { FunctionalPlan } from '@aqa/plan';
import type { TargetGuardSettings } from '../guard';
import type { JudgedCall, RunnerEnd } from './runner';

/* Messages between a functional run (functional-run.ts) and its worker thread (worker-entry.ts). */

export interface FunctionalWorkerInit {
  plan: FunctionalPlan;
  guard?: TargetGuardSettings;
  insecureTls: boolean;
  /** Overrides the plan's test duration, in ms (RunnerOptions.durationMs). */
  durationMs?: number;
}

export type ToFunctionalWorker = { type: 'stop' };

export type FromFunctionalWorker =
  | { type: 'started'; epochMs: number }
  /** Every ALIVE_EVERY_MS while the worker's event loop is free: a worker that stops sending it is held. */
  | { type: 'alive' }
  /** Judged calls, a few at a time so a fast target does not flood the caller's thread. */
  | { type: 'calls'; calls: JudgedCall[] }
  | { type: 'done'; end: RunnerEnd }
  | { type: 'fatal'; message: string };
