import type { ShardIntervalWire } from '../metrics/types';
import type { PerfPlan } from '@aqa/plan';
import type { SequenceSplit } from '../executor/sequence';
import type { ShardProfileOptions } from '../executor/load-follower';
import type { TargetGuardSettings } from '../guard';
import type { ShardDataInit } from '../executor/test-data';

/** What the caller's thread hands a worker thread (structured-cloned; the buffer is shared). */
export interface WorkerInit {
  plan: PerfPlan;
  durationSeconds: number | undefined;
  shard: number;
  users: number;
  firstUser: number;
  insecureTls: boolean;
  sequenceBuffer: SharedArrayBuffer;
  sequenceSplit: SequenceSplit;
  endGraceMs: number;
  /** The run's target guard, when it has one. */
  guard?: TargetGuardSettings;
  /** The load profile the shard follows, when the run has one (executor/load-follower.ts). */
  profile?: ShardProfileOptions;
  /** The plan's test data, read once by the caller's thread (executor/test-data.ts). */
  data?: ShardDataInit;
}

export type ToWorker =
  /** Start at this absolute time (ms since the epoch, performance.timeOrigin + now()). */
  { type: 'start'; startEpochMs: number } | { type: 'stop'; graceMs: number };

export type FromWorker =
  | { type: 'ready' }
  | { type: 'interval'; wire: ShardIntervalWire }
  | { type: 'done' }
  | { type: 'fatal'; message: string };
