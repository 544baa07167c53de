import type { FunctionalPlan } from '@aqa/plan';
import type { TargetGuardSettings } from '../guard';
import type { JudgedCall, RunnerEnd } from './runner';

/* Messages between a functional run (functional-run.ts) and its worker thread (worker-entry.ts). */

export interface FunctionalWorkerInit {
  plan: FunctionalPlan;
  guard?: TargetGuardSettings;
  insecureTls: boolean;
}

export type ToFunctionalWorker = { type: 'stop' };

export type FromFunctionalWorker =
  | { type: 'started'; epochMs: number }
  /** Judged calls, a few at a time so a fast target does not flood the caller's thread. */
  | { type: 'calls'; calls: JudgedCall[] }
  | { type: 'done'; end: RunnerEnd }
  | { type: 'fatal'; message: string };
