/**
 * One shard job on a load agent (docs/adr/0021-load-agents.md): the built-in engine runs this agent's
 * share of the run's users, starting at the run's common instant, and every worker's interval report
 * is sent to the server as it arrives (docs/adr/0023-agents-over-http.md) — the server merges them with
 * the other agents'.
 */
import { CapacityError } from '../executor/capacity';
import { PlanCompileError } from '../executor/compile';
import { TargetGuard } from '../guard';
import { startRun, type RunHandle } from '../run';
import type { EngineLogger } from '../types';
import type { ShardJob } from './protocol';
import type { ShardEventSink } from './shard-events';

/** How a job ended, as the agent prints it at its end. */
export interface ShardOutcome {
  status: 'completed' | 'stopped' | 'failed';
  total_requests: number;
  /** Why it failed, in words (status failed only). */
  message?: string;
}

export interface ShardContext {
  /** Where the shard's events go (the run's events on the server). */
  events: ShardEventSink;
  agentId: string;
  /** Worker threads at most (one per core). */
  cores: number;
  logger: EngineLogger;
  /** Aborted when the run is stopped (the server's answers say so) or the agent stops. */
  signal: AbortSignal;
  workerEntry?: string | URL | undefined;
  /** Called once the workers are ready, with the users per worker thread. */
  onStarted?: (shards: readonly number[]) => void;
}

/** What is wrong with a job's data, or null: it comes from the server, over the network. */
export function shardJobProblem(data: unknown): string | null {
  if (typeof data !== 'object' || data === null) return 'the job has no data';
  const j = data as Partial<Record<keyof ShardJob, unknown>>;
  if (typeof j.run_id !== 'string' || j.run_id === '') return 'run_id is missing';
  for (const f of [
    'agent_index',
    'agent_count',
    'duration_seconds',
    'users',
    'first_user',
    'start_at_epoch_ms',
  ] as const)
    if (typeof j[f] !== 'number' || !Number.isFinite(j[f])) return `${f} is not a number`;
  if (typeof j.plan !== 'object' || j.plan === null) return 'plan is missing';
  const split = j.sequence_split as { offset?: unknown; stride?: unknown } | undefined;
  if (typeof split?.offset !== 'number' || typeof split.stride !== 'number' || split.stride < 1)
    return 'sequence_split is not { offset, stride }';
  if (j.load_profile !== undefined && (typeof j.load_profile !== 'object' || j.load_profile === null))
    return 'load_profile is not a load profile';
  if (
    typeof j.data_seed !== 'number' ||
    !Number.isInteger(j.data_seed) ||
    j.data_seed < 0 ||
    j.data_seed >= 2 ** 32
  )
    return 'data_seed is not a whole number from 0 to 2^32 - 1';
  return null;
}

/** Runs one shard job to its end; never throws (a failure is written to the stream and answered). */
export async function runShard(job: ShardJob, ctx: ShardContext): Promise<ShardOutcome> {
  const { logger } = ctx;
  const { events } = ctx;
  const failed = async (message: string): Promise<ShardOutcome> => {
    events.write({ type: 'failed', agent_index: job.agent_index, message });
    await events.flushed();
    return { status: 'failed', total_requests: 0, message };
  };

  // A job that waited in the queue past its run's end (the agent was offline) must not load the target now.
  const endsAt = job.start_at_epoch_ms + job.duration_seconds * 1000;
  if (Date.now() > endsAt)
    return failed(
      `the shard reached agent ${ctx.agentId} ${Math.round((Date.now() - endsAt) / 1000)} s after its run should have ended`,
    );

  let run: RunHandle;
  try {
    run = startRun(
      // The job's users are this agent's share: the plan carries the same number (protocol.ts ShardJob).
      { ...job.plan, concurrent_users: job.users },
      {
        // A profile sets the length itself; the agent follows its place in it (protocol.ts ShardJob).
        ...(job.load_profile === undefined
          ? { durationSeconds: job.duration_seconds }
          : { loadProfile: job.load_profile }),
        workers: Math.max(1, Math.min(ctx.cores, job.users)),
        // Rows and flows by this agent's stride, shuffled as every agent of the run shuffles them; the
        // abort thresholds are the server's to judge on the merged run (docs/adr/0027-load-profiles.md
        // "On load agents"): judged on one agent's share, they would stop it alone.
        sequenceSplit: job.sequence_split,
        dataSeed: job.data_seed,
        abortThresholds: [],
        startAtEpochMs: job.start_at_epoch_ms,
        firstUser: job.first_user,
        ...(job.guard === null ? {} : { guard: TargetGuard.fromSettings(job.guard) }),
        logger,
        signal: ctx.signal,
        ...(ctx.workerEntry === undefined ? {} : { workerEntry: ctx.workerEntry }),
        onReady: (shards) => {
          events.write({
            type: 'ready',
            agent_index: job.agent_index,
            agent_id: ctx.agentId,
            shards: shards.length,
          });
          ctx.onStarted?.(shards);
        },
        onInterval: (wire) => events.write({ type: 'interval', agent_index: job.agent_index, wire }),
      },
    );
  } catch (error) {
    if (error instanceof CapacityError)
      return failed(`this agent cannot hold its share of the users: ${error.problems.join('; ')}`);
    if (error instanceof PlanCompileError) return failed(`the plan cannot run: ${error.problems.join('; ')}`);
    return failed(`the engine could not start: ${(error as Error).message}`);
  }
  // The agent shows no live figures: the merged snapshots are the server's; these are only drained.
  void (async () => {
    for await (const snapshot of run.snapshots) void snapshot;
  })();
  try {
    const result = await run.result;
    const { status } = result;
    const total = result.summary.total_requests;
    events.write({
      type: 'done',
      agent_index: job.agent_index,
      status,
      total_requests: total,
      ...(result.cut_short === undefined ? {} : { cut_short: result.cut_short }),
    });
    await events.flushed();
    return { status, total_requests: total };
  } catch (error) {
    return failed(`the engine failed: ${(error as Error).message}`);
  }
}
