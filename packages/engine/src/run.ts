import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { compilePlan, PlanCompileError, type CompiledPlan } from './executor/compile';
import {
  describeIssues,
  LoadProfileSchema,
  parseSpanMs,
  profileLengthMs,
  profileUsers,
  type LoadProfile,
  type LoadProfileInput,
  type PerfPlan,
  type PerfPlanInput,
} from '@aqa/plan';
import { parseEnginePlan } from './executor/engine-plan';
import { CapacityError, capacityProblems } from './executor/capacity';
import { shareOf } from './executor/load-follower';
import { IterationCounter, WHOLE_RUN, type SequenceSplit } from './executor/sequence';
import { dataMergeOf, prepareTestData } from './executor/test-data';
import { RunAggregator } from './metrics/aggregate';
import { AbortWatch } from './metrics/abort-judge';
import type { TargetGuard } from './guard';
import type { ShardIntervalWire } from './metrics/types';
import type { EngineLogger, RunResult, RunSnapshot } from './types';
import type { FromWorker, ToWorker, WorkerInit } from './worker/protocol';
import { SnapshotQueue } from './snapshot-queue';
import { resolveWorkerFile } from './worker-file';

export interface RunOptions {
  /** Overrides the plan's duration (minutes) with seconds. Not with `loadProfile` (its stages set the length). */
  durationSeconds?: number;
  /**
   * The load over time (docs/adr/0027-load-profiles.md) instead of the plan's `concurrent_users` for
   * its `duration`: `users` starts and stops virtual users along the line, `arrival_rate` starts
   * iterations on its schedule from a pool of `max_users`. The run lasts the stages, plus the graceful
   * stop for the users still in an iteration; the summary's concurrent_users is the profile's peak
   * users (or pool). Validated by LoadProfileSchema; problems are thrown with the plan's, as
   * `load_profile.…`.
   */
  loadProfile?: LoadProfile | LoadProfileInput;
  /**
   * Abort criteria (docs/adr/0027-load-profiles.md, "Abort criteria"): threshold expressions judged
   * every second over the last 10 s after a 10 s grace; the first that breaks stops the run as stop()
   * does, and the result says why (`aborted`) and, with a load profile, the breaking point. Default:
   * the plan's `abort_thresholds`. Each is checked like the plan's (problems thrown as
   * `abort_thresholds.N`).
   */
  abortThresholds?: readonly string[];
  /** Tests only: a shorter grace before abort thresholds are judged than the 10 s (ABORT_GRACE_MS). */
  abortGraceMs?: number;
  /** Worker threads (shards) to run the users in. Default: one per available core, at most one per user. */
  workers?: number;
  /** Accept self-signed / invalid TLS certificates of the targets. Default false. */
  insecureTls?: boolean;
  logger?: EngineLogger;
  /** Aborting it stops the run like stop(). */
  signal?: AbortSignal;
  /**
   * At the end of the duration, how long in-flight requests may take before they count as cancelled.
   * Default 2000 ms. With `loadProfile`, its `graceful_stop` instead.
   */
  endGraceMs?: number;
  /** On stop(), how long in-flight requests may take before they count as cancelled. Default 1000 ms (at most 1500). */
  stopGraceMs?: number;
  /**
   * Which share of `{{sequence_number,N}}` this run owns when it is one machine of several (docs/design.md §8).
   * With a load profile, the same split shares the profile: this machine (offset of stride) takes the
   * users and the open model's iterations of its place (docs/adr/0027-load-profiles.md, "7. Where a
   * profile goes"), so the machines' merged load is the plan's line.
   */
  sequenceSplit?: SequenceSplit;
  /**
   * Seeds the order of the plan's `random_order` data sources (docs/adr/0027-load-profiles.md "Test data"): the
   * machines of one run give the same. Default: a random seed.
   */
  dataSeed?: number;
  /** Called for every merged snapshot, in addition to the `snapshots` iterable. */
  onSnapshot?: (s: RunSnapshot) => void;
  /** Worker entry file; default: worker.mjs next to this module's bundle, or built from source. */
  workerEntry?: string | URL;
  /**
   * Asked before every connection (docs/adr/0015-target-guard.md): a refused target gets no request,
   * and each attempt counts as a failed request of kind `connect` whose message is the refusal.
   * Its settings are read when the run starts. None: every target is allowed (the `aqa` CLI).
   */
  guard?: TargetGuard;
  /**
   * Start the load at this instant (epoch ms, this machine's clock) when it is still ahead once the
   * workers are ready, so several machines start together (docs/adr/0021-load-agents.md); when it has
   * passed, the load starts now and the log says how late.
   */
  startAtEpochMs?: number;
  /** Number of this machine's first virtual user, so the users of several machines are numbered 0..N-1. */
  firstUser?: number;
  /** Every worker's interval report as it arrives, before the local merge (a load agent forwards them). */
  onInterval?: (wire: ShardIntervalWire) => void;
  /** Called once every worker is ready, before the load starts, with the users per shard. */
  onReady?: (shards: readonly number[]) => void;
}

/** A run in progress. */
export interface RunHandle {
  /**
   * The merged per-second snapshots, in order, ending when the run ends. One consumer; snapshots
   * that are not consumed are buffered (one per second).
   */
  snapshots: AsyncIterable<RunSnapshot>;
  /** The final result; rejects only when the engine itself fails (a failed request is data). */
  result: Promise<RunResult>;
  /**
   * Graceful stop: no new requests; in-flight ones finish or count as cancelled; resolves within 2 s
   * with the run ended (a worker held by user work is terminated HARD_END_SLACK_MS later).
   */
  stop(): Promise<void>;
  /** Virtual users per shard, as split. */
  readonly shards: readonly number[];
}

/** How far ahead of now the shards' common start is set, so every worker has the message in time. */
const START_LEAD_MS = 20;

/**
 * A shard ends by itself at the planned end plus its end grace (a stop: plus the stop grace), in-flight
 * requests then counted as cancelled. One still running this much later is held by user work that does
 * not yield (docs/adr/0022-linear-time-patterns.md): it is terminated, so the duration is a hard bound.
 */
export const HARD_END_SLACK_MS = 2000;

/**
 * The run's load profile, validated: its problems carry `load_profile.` paths, and a duration given
 * beside it is refused (the stages set the length; one of the two would be silently ignored).
 */
function parseProfile(options: RunOptions): {
  data?: LoadProfile;
  problems: { field: string; message: string }[];
} {
  if (options.loadProfile === undefined) return { problems: [] };
  const parsed = LoadProfileSchema.safeParse(options.loadProfile);
  const problems = parsed.success
    ? []
    : describeIssues(parsed.error).map((p) => ({
        field: p.field === '' ? 'load_profile' : `load_profile.${p.field}`,
        message: p.message,
      }));
  if (options.durationSeconds !== undefined)
    problems.push({
      field: 'durationSeconds',
      message: 'a run with a load profile lasts as long as its stages: leave durationSeconds out',
    });
  return parsed.success && problems.length === 0 ? { data: parsed.data, problems } : { problems };
}

/**
 * Shard `shard` of this machine's `shards`, as one place of the whole run's load profile: user u of the
 * line (and the open model's iteration u) belongs to machine u mod stride, and of that machine's own
 * users (u div stride) to shard (u div stride) mod shards — together, place u mod (stride·shards) with
 * index offset + stride·shard. The shares of every shard of every machine then add up to the line at
 * every instant, whatever number of shards each machine runs (docs/adr/0027-load-profiles.md, "7.
 * Where a profile goes").
 */
export function machineProfileShare(
  split: SequenceSplit,
  shards: number,
  shard: number,
): { shards: number; index: number } {
  return { shards: split.stride * shards, index: split.offset + split.stride * shard };
}

/** Splits `users` over at most `workers` shards as evenly as possible. */
export function splitUsers(users: number, workers: number): number[] {
  const n = Math.max(1, Math.min(workers, users));
  const base = Math.floor(users / n);
  const extra = users % n;
  return Array.from({ length: n }, (_, i) => base + (i < extra ? 1 : 0));
}

/**
 * Runs a performance plan (docs/design.md §4) in worker threads, one shard of the users per thread, and
 * merges their per-second reports into one stream. Nothing of the load runs on the caller's
 * event loop: it only merges histograms once a second.
 *
 * Throws PlanCompileError synchronously for a plan that does not validate or cannot run (every
 * problem listed, with its field), and its subclass CapacityError when this machine cannot hold
 * the plan's users (open files, local ports: executor/capacity.ts).
 */
export function startRun(input: PerfPlan | PerfPlanInput, options: RunOptions = {}): RunHandle {
  // Validated here too (idempotent for a parsed plan), so no caller can hand the workers a plan
  // the model would refuse; concurrent_users may exceed the form's 1000 (executor/engine-plan.ts).
  const parsed = parseEnginePlan(input);
  const profile = parseProfile(options);
  const problems = [...(parsed.success ? [] : parsed.problems), ...profile.problems];
  if (!parsed.success || problems.length > 0) {
    throw new PlanCompileError(problems.map((i) => `${i.field || '(plan)'}: ${i.message}`));
  }
  const plan: PerfPlan = parsed.data;
  const loadProfile = profile.data;
  const compiled: CompiledPlan = compilePlan(plan, options.durationSeconds);
  const abort = new AbortWatch(options.abortThresholds ?? plan.abort_thresholds ?? [], compiled.info, {
    ...(options.abortGraceMs === undefined ? {} : { graceMs: options.abortGraceMs }),
    ...(loadProfile === undefined ? {} : { model: loadProfile.model }),
    flows: compiled.flowInfo,
  });
  let loadEnded = false;
  const split = options.sequenceSplit ?? WHOLE_RUN;
  // One machine of several takes its share of the profile's peak users (or pool); its shards below
  // take theirs of it (machineProfileShare).
  const users =
    loadProfile === undefined
      ? compiled.users
      : shareOf(profileUsers(loadProfile), split.stride, split.offset);
  /** How long the load lasts, and how long the users still busy at its end are given. */
  const lengthMs = loadProfile === undefined ? compiled.durationMs : profileLengthMs(loadProfile);
  const shards = splitUsers(users, options.workers ?? availableParallelism());
  const capacity = capacityProblems(compiled, users, shards.length);
  if (capacity.length > 0) throw new CapacityError(capacity);
  const log = options.logger;
  const queue = new SnapshotQueue();
  // Read once here: the workers get the rows, not the files (docs/adr/0027-load-profiles.md "Test data").
  const data = prepareTestData(plan, options.dataSeed ?? Math.floor(Math.random() * 2 ** 32), split);
  const aggregator = new RunAggregator(
    compiled.info,
    shards.length,
    (s) => {
      // Not on the flush after the workers ended: a run that ran its length is not stopped at its end.
      const verdict = abort.add(s, !stopped && !loadEnded);
      if (verdict !== undefined) {
        log?.info({ abort: verdict.aborted.text }, 'abort threshold broke; stopping the run');
        void stop();
      }
      queue.push(s);
      options.onSnapshot?.(s);
    },
    {
      flows: compiled.flowInfo,
      data: dataMergeOf(data?.sources.length ?? 0, () => data?.sources ?? [], loadProfile?.model),
    },
  );
  const sequenceBuffer = IterationCounter.allocate();
  const workerPlan: PerfPlan =
    data === null ? plan : { ...plan, data_files: undefined, data_sources: undefined };
  const workers: Worker[] = [];
  const stopGraceMs = Math.min(options.stopGraceMs ?? 1000, 1500);
  const endGraceMs = options.endGraceMs ?? 2000;
  const graceAtEndMs =
    loadProfile === undefined ? endGraceMs : parseSpanMs(loadProfile.graceful_stop, 'Graceful stop');
  let stopped = false;
  let wakeStart: (() => void) | null = null;
  let started = false;
  let finished = false;
  let startedAt = new Date();
  let resolveEnded!: () => void;
  const ended = new Promise<void>((r) => (resolveEnded = r));
  /** Set once the load has started: terminates shards a stop does not end in time. */
  let armHardStop: (() => void) | undefined;

  /**
   * The instant every shard starts at (epoch ms on performance.timeOrigin, as the workers read it), a
   * little ahead so every shard's users start together and its intervals align. With startAtEpochMs
   * (wall clock, shared by several machines) still ahead, it waits until just before that instant; a
   * stop ends the wait.
   */
  const commonStart = async (): Promise<number> => {
    const perfEpochNow = (): number => performance.timeOrigin + performance.now();
    const at = options.startAtEpochMs;
    if (at === undefined || stopped) return perfEpochNow() + START_LEAD_MS;
    const aheadMs = at - Date.now();
    if (aheadMs <= START_LEAD_MS) {
      if (aheadMs < 0)
        log?.warn(
          { lateMs: Math.round(-aheadMs) },
          `the workers were ready ${Math.round(-aheadMs)} ms after the common start; starting now`,
        );
      return perfEpochNow() + START_LEAD_MS;
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, aheadMs - START_LEAD_MS);
      wakeStart = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    wakeStart = null;
    return perfEpochNow() + Math.max(at - Date.now(), 1);
  };

  const post = (w: Worker, m: ToWorker): void => {
    try {
      w.postMessage(m);
    } catch {
      // the worker has already exited
    }
  };

  const result = (async (): Promise<RunResult> => {
    const entry = await resolveWorkerFile('worker.mjs', options.workerEntry);
    let firstUser = options.firstUser ?? 0;
    const ready: Promise<void>[] = [];
    const done: Promise<void>[] = [];
    const exited = new Set<Worker>();
    const state: { failure?: Error; cutShort?: string } = {};
    // Set from worker events; read through a function so that narrowing does not assume it unchanged.
    const failure = (): Error | undefined => state.failure;
    // Workers get plain data: each rebuilds the guard from it (the own ports as they are now).
    const targetGuard = options.guard?.settings();
    shards.forEach((users, shard) => {
      const init: WorkerInit = {
        plan: workerPlan,
        durationSeconds: options.durationSeconds,
        shard,
        users,
        firstUser,
        insecureTls: options.insecureTls ?? false,
        sequenceBuffer,
        sequenceSplit: split,
        endGraceMs,
        ...(targetGuard === undefined ? {} : { guard: targetGuard }),
        ...(loadProfile === undefined
          ? {}
          : { profile: { profile: loadProfile, ...machineProfileShare(split, shards.length, shard) } }),
        ...(data === null ? {} : { data }),
      };
      firstUser += users;
      const w = new Worker(entry, { workerData: init, name: `aqa-shard-${shard}` });
      workers.push(w);
      let markReady!: () => void;
      ready.push(new Promise((r) => (markReady = r)));
      done.push(
        new Promise<void>((resolve) => {
          w.on('message', (m: FromWorker) => {
            if (m.type === 'ready') markReady();
            else if (m.type === 'interval') {
              options.onInterval?.(m.wire);
              aggregator.add(m.wire);
            } else if (m.type === 'fatal')
              state.failure ??= new Error(`engine worker ${shard}: ${m.message}`);
          });
          w.on('error', (e) => {
            state.failure ??= e;
            markReady();
          });
          w.on('exit', () => {
            exited.add(w);
            markReady();
            resolve();
          });
        }),
      );
    });
    await Promise.all(ready);
    const early = failure();
    if (early) {
      await Promise.all(workers.map((w) => w.terminate()));
      throw early;
    }
    options.onReady?.(shards);
    const startEpochMs = await commonStart();
    startedAt = new Date(startEpochMs);
    // A stop that came before the start reaches the workers first, so their users send nothing.
    if (stopped) for (const w of workers) post(w, { type: 'stop', graceMs: stopGraceMs });
    for (const w of workers) post(w, { type: 'start', startEpochMs });
    started = true;
    log?.info(
      {
        users,
        shards: shards.length,
        durationMs: lengthMs,
        ...(loadProfile === undefined ? {} : { loadModel: loadProfile.model }),
      },
      'run started',
    );
    // The hard bound: shards still running well after the planned end (or a stop) are terminated.
    const terminateBusy = (after: string, lateMs: number): void => {
      const busy = workers.filter((w) => !exited.has(w));
      if (busy.length === 0 || state.cutShort !== undefined) return;
      const which = `${busy.length} of ${workers.length} engine worker${workers.length === 1 ? '' : 's'}`;
      state.cutShort = `${which} was still busy ${lateMs / 1000} s after ${after} (a check that does not finish: an XPath or JSONPath too costly for the answer) and was stopped; the figures are what was measured until then`;
      log?.warn({ workers: busy.length, lateMs }, state.cutShort);
      for (const w of busy) void w.terminate();
    };
    const endLateMs = graceAtEndMs + HARD_END_SLACK_MS;
    const hardEnd = setTimeout(
      () => terminateBusy('the planned end', endLateMs),
      startEpochMs - (performance.timeOrigin + performance.now()) + lengthMs + endLateMs,
    );
    hardEnd.unref();
    let hardStop: NodeJS.Timeout | undefined;
    armHardStop = () => {
      const stopLateMs = stopGraceMs + HARD_END_SLACK_MS;
      hardStop ??= setTimeout(() => terminateBusy('the stop', stopLateMs), stopLateMs);
      hardStop.unref();
    };
    if (stopped) armHardStop();
    await Promise.all(done);
    clearTimeout(hardEnd);
    clearTimeout(hardStop);
    const late = failure();
    if (late) throw late;
    loadEnded = true;
    aggregator.flush(true);
    const res: RunResult = {
      status: stopped ? 'stopped' : 'completed',
      started_at: startedAt.toISOString(),
      ended_at: new Date().toISOString(),
      ...aggregator.resultFigures(users),
      workers: shards.length,
      ...(state.cutShort === undefined ? {} : { cut_short: state.cutShort }),
      ...abort.resultFields(),
    };
    for (const e of res.data_exhausted ?? []) log?.info({ source: e.path, ended: e.ended }, e.message);
    log?.info({ total_requests: res.summary.total_requests, status: res.status }, 'run ended');
    return res;
  })().finally(() => {
    finished = true;
    queue.close();
    resolveEnded();
  });
  // The caller observes failures through `result`; keep Node from reporting an unhandled rejection twice.
  result.catch(() => undefined);

  const stop = async (): Promise<void> => {
    if (!stopped) {
      stopped = true;
      wakeStart?.();
      if (started) for (const w of workers) post(w, { type: 'stop', graceMs: stopGraceMs });
      armHardStop?.();
    }
    if (!finished) await ended;
  };
  if (options.signal) {
    if (options.signal.aborted) void stop();
    else options.signal.addEventListener('abort', () => void stop(), { once: true });
  }
  return { snapshots: queue, result, stop, shards };
}
