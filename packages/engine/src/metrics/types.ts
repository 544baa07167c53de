import { ERROR_KINDS } from '@aqa/plan';
import type { EncodedHistogram } from './histogram';

/** Why a request counted as failed: the wire's kinds (@aqa/plan error-kinds.ts). */
export { ERROR_KINDS, type ErrorKind } from '@aqa/plan';
export const ERROR_KIND_COUNT = ERROR_KINDS.length;

/** How many distinct sample messages are kept per error kind (per step and per run). */
export const MAX_ERROR_SAMPLES = 5;

/** One step's counters for one interval, as a worker sends them (structured-clone friendly). */
export interface StepIntervalWire {
  requests: number;
  successes: number;
  /** Counts indexed like ERROR_KINDS. */
  errors: number[];
  /** New sample messages indexed like ERROR_KINDS (each at most MAX_ERROR_SAMPLES). */
  samples: string[][];
  bytesSent: number;
  bytesReceived: number;
  histogram: EncodedHistogram;
}

/** One worker's report for one 1-second interval of the run. */
export interface ShardIntervalWire {
  shard: number;
  /** 0-based interval number since the run's start (interval k covers [k s, k+1 s)). */
  interval: number;
  /** The shard's last report: it covers the rest of the shard's run, up to `endMs`. */
  final: boolean;
  /** Interval end, ms since the run's start. */
  endMs: number;
  activeUsers: number;
  /** Share of the interval the shard's event loop was busy (0..1): near 1, the generator is the bottleneck. */
  busy: number;
  steps: StepIntervalWire[];
  /**
   * Load profile, open model only (docs/adr/0027-load-profiles.md, "The schedule"): iterations the
   * shard started in the interval, and those that were due while no user of its pool was free
   * (dropped). Absent otherwise.
   */
  iterations?: number;
  dropped?: number;
  /** With `iterations`: how late each started iteration began after it was due (µs), mergeable exactly. */
  lag?: EncodedHistogram;
  /**
   * Test data (docs/adr/0027-load-profiles.md "Test data"): by data source, the users that ended (open model:
   * iterations not started) because a non-looping source had no row left. Absent when none did.
   */
  dataEnded?: number[];
  /**
   * Plans with flows only (docs/adr/0027-load-profiles.md "3. Flows"): iterations begun in the interval
   * per flow, indexed like the plan's `flows`. Absent otherwise.
   */
  flows?: number[];
}
