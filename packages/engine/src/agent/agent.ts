/**
 * The load agent (`aqa agent`, docs/adr/0021-load-agents.md): registers with the server over HTTP,
 * beats its heartbeat into the server's Redis, and takes shards of runs from its own BullMQ queue, one
 * at a time, running each with the built-in engine and streaming its workers' interval reports back.
 * It never touches the database: the server's answer to the registration is all it needs.
 */
import { availableParallelism, hostname } from 'node:os';
import { Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { EngineLogger } from '../types';
import { AQA_VERSION } from '../version';
import {
  agentHeartbeatKey,
  runControlChannel,
  runStopKey,
  LOCUST_WORKER_JOB,
  SHARD_JOB,
  type AgentHeartbeat,
  type AgentRegistration,
  type LocustWorkerJob,
  type ShardJob,
} from './protocol';
import { AgentStartError, registerAgent, unregisterAgent } from './register';
import { ERROR_LOG_EVERY_MS, openRedis } from './redis';
import { runShard, shardJobProblem, type ShardOutcome } from './run-shard';
import { locustWorkerJobProblem, runLocustWorker } from './run-locust-worker';

export interface AgentOptions {
  /** The server's origin and base path, without a trailing slash. */
  server: string;
  /** An API token of the user the agent works for. */
  token: string;
  /** Shown on the server's agents list; default this machine's host name. */
  name?: string | undefined;
  /** Worker threads a shard may use; default one per available core. */
  cores?: number | undefined;
  logger: EngineLogger;
  /** The engine's worker entry (the one-file CLI passes its embedded code); default worker.mjs. */
  workerEntry?: string | URL | undefined;
  /** A shard's workers are ready and its load starts (users per worker thread). */
  onShardStart?: (job: ShardJob, shards: readonly number[]) => void;
  onShardEnd?: (job: ShardJob, outcome: ShardOutcome) => void;
  /** A Locust worker job's worker started, and how it ended (docs/adr/0021-load-agents.md "Locust master/worker"). */
  onLocustWorkerStart?: (job: LocustWorkerJob) => void;
  onLocustWorkerEnd?: (job: LocustWorkerJob, outcome: ShardOutcome) => void;
  /** Take one shard, run it, then stop (`aqa agent --once`: one pod of a Job sized for one run). */
  once?: boolean | undefined;
  /** Stop after this long without a shard: from the start, and from the end of each shard. */
  idleTimeoutMs?: number | undefined;
}

/**
 * Why the agent stopped: stop() (a signal), its one shard ended (`once`, with the shard's outcome), or
 * no shard came for `idleTimeoutMs`. An agent that ends on its own also leaves the server's list.
 */
export type AgentEnd =
  { reason: 'stopped' } | { reason: 'once'; outcome: ShardOutcome } | { reason: 'idle'; idle_ms: number };

export interface AgentHandle {
  registration: AgentRegistration;
  /** Stops the current shard gracefully (its result is still streamed), closes the queue and Redis. */
  stop(): Promise<void>;
  /** Resolves once the agent has stopped, saying why. */
  closed: Promise<AgentEnd>;
}

/** How long closing a Redis connection politely may take before it is cut. */
const QUIT_TIMEOUT_MS = 2000;

async function closeRedis(redis: Redis): Promise<void> {
  const timeout = new Promise<void>((resolve) => setTimeout(resolve, QUIT_TIMEOUT_MS).unref());
  await Promise.race([
    redis.quit().then(
      () => undefined,
      () => undefined,
    ),
    timeout,
  ]);
  redis.disconnect();
}

/**
 * Registers and starts taking shards. Rejects with AgentStartError when the server refuses the
 * registration or the server or its Redis cannot be reached.
 */
export async function runAgent(options: AgentOptions): Promise<AgentHandle> {
  const { logger } = options;
  const host = hostname();
  const name = options.name ?? host;
  const cores = options.cores ?? availableParallelism();
  const registration = await registerAgent(options.server, options.token, {
    name,
    host,
    cores,
    version: AQA_VERSION,
  });
  const agentId = registration.agent_id;
  const connections: Redis[] = [];
  try {
    for (const what of ['commands', 'subscriber', 'queue'])
      connections.push(await openRedis(registration.redis_url, what, logger));
  } catch (error) {
    for (const c of connections) c.disconnect();
    throw error;
  }
  const [redis, subscriber, queueConnection] = connections as [Redis, Redis, Redis];

  let current: { job: { run_id: string }; controller: AbortController } | null = null;
  let stopping = false;

  const heartbeatKey = agentHeartbeatKey(agentId);
  let beating = false;
  const beat = async (): Promise<void> => {
    // A beat still waiting for Redis (reconnecting) is not doubled.
    if (beating || stopping) return;
    beating = true;
    const heartbeat: AgentHeartbeat = {
      agent_id: agentId,
      name,
      host,
      pid: process.pid,
      cores,
      run_id: current?.job.run_id ?? null,
      at: Date.now(),
    };
    try {
      await redis.set(heartbeatKey, JSON.stringify(heartbeat), 'PX', registration.heartbeat_ttl_ms);
    } catch (error) {
      logger.warn({ key: heartbeatKey }, `heartbeat not written: ${(error as Error).message}; retrying`);
    } finally {
      beating = false;
    }
  };
  await beat();
  const heartbeats = setInterval(() => void beat(), registration.heartbeat_ms);

  subscriber.on('message', (channel: string, message: string) => {
    if (current !== null && channel === runControlChannel(current.job.run_id) && message === 'stop') {
      logger.info({ run_id: current.job.run_id }, 'the server stopped the run');
      current.controller.abort();
    }
  });

  // Stops the agent on its own (`once`, `idleTimeoutMs`); defined with the worker below.
  let finish: (end: AgentEnd) => void = () => undefined;
  let idleTimer: NodeJS.Timeout | undefined;
  const idleTimeoutMs = options.idleTimeoutMs;
  const armIdleTimer = (): void => {
    clearTimeout(idleTimer);
    if (idleTimeoutMs !== undefined && !stopping)
      idleTimer = setTimeout(() => finish({ reason: 'idle', idle_ms: idleTimeoutMs }), idleTimeoutMs);
  };

  const processor = async (job: Job): Promise<ShardOutcome> => {
    clearTimeout(idleTimer);
    let outcome: ShardOutcome | undefined;
    try {
      outcome = await runJob(job);
      return outcome;
    } finally {
      // A job it could not read counts as a failed shard: `once` ends the agent either way.
      if (options.once === true)
        finish({
          reason: 'once',
          outcome: outcome ?? {
            status: 'failed',
            total_requests: 0,
            message: `job ${job.id ?? '?'} not run`,
          },
        });
      else armIdleTimer();
    }
  };

  /** A Locust worker job (docs/adr/0021-load-agents.md "Locust master/worker"), read and run. */
  const locustWorker = (
    job: Job,
  ): { data: LocustWorkerJob; run: (signal: AbortSignal) => Promise<ShardOutcome> } => {
    const problem = locustWorkerJobProblem(job.data);
    if (problem !== null) throw new Error(`Locust worker job ${job.id ?? '?'} cannot be read: ${problem}`);
    const data = job.data as LocustWorkerJob;
    const run = async (signal: AbortSignal): Promise<ShardOutcome> => {
      const onStarted = (): void => options.onLocustWorkerStart?.(data);
      const outcome = await runLocustWorker(data, {
        redis,
        agentId,
        agentName: name,
        logger,
        signal,
        onStarted,
      });
      options.onLocustWorkerEnd?.(data, outcome);
      return outcome;
    };
    return { data, run };
  };

  const runJob = async (job: Job): Promise<ShardOutcome> => {
    if (job.name === LOCUST_WORKER_JOB) {
      const { data, run } = locustWorker(job);
      return runForRun(data.run_id, run);
    }
    if (job.name !== SHARD_JOB)
      throw new Error(
        `agent ${name} takes only ${SHARD_JOB} and ${LOCUST_WORKER_JOB} jobs, not ${JSON.stringify(job.name)}`,
      );
    const problem = shardJobProblem(job.data);
    if (problem !== null) throw new Error(`shard job ${job.id ?? '?'} cannot be read: ${problem}`);
    const data = job.data as ShardJob;
    return runForRun(data.run_id, async (signal) => {
      const outcome = await runShard(data, {
        redis,
        agentId,
        cores,
        logger,
        signal,
        workerEntry: options.workerEntry,
        onStarted: (shards) => options.onShardStart?.(data, shards),
      });
      options.onShardEnd?.(data, outcome);
      return outcome;
    });
  };

  /** Runs one job of `runId`, stopped by the run's control channel or stop key, or the agent's stop. */
  const runForRun = async (
    runId: string,
    run: (signal: AbortSignal) => Promise<ShardOutcome>,
  ): Promise<ShardOutcome> => {
    const data = { run_id: runId };
    const controller = new AbortController();
    current = { job: data, controller };
    const channel = runControlChannel(data.run_id);
    try {
      await subscriber.subscribe(channel);
      // A stop published before the subscription is read from its key.
      if (stopping || (await redis.exists(runStopKey(data.run_id))) === 1) controller.abort();
      void beat();
      return await run(controller.signal);
    } finally {
      current = null;
      await subscriber.unsubscribe(channel).catch(() => undefined);
      void beat();
    }
  };

  const worker = new Worker(registration.queue, processor, {
    connection: queueConnection,
    prefix: registration.prefix,
    concurrency: 1,
    // A shard whose agent died is not run again later: the run went on without it.
    maxStalledCount: 0,
    name: `${name} (${agentId})`,
  });
  // While Redis is away BullMQ reports every reconnect attempt; the connections' own log says it once.
  let lastQueueError = 0;
  worker.on('error', (error) => {
    if (Date.now() - lastQueueError < ERROR_LOG_EVERY_MS) return;
    lastQueueError = Date.now();
    logger.warn({ queue: registration.queue }, `queue ${registration.queue}: ${error.message}`);
  });
  // A job this agent could not read (its shards' own failures are answers, not errors).
  worker.on('failed', (job, error) =>
    logger.error(
      { queue: registration.queue, job: job?.id },
      `shard job ${job?.id ?? '?'}: ${error.message}`,
    ),
  );
  try {
    await worker.waitUntilReady();
  } catch (error) {
    clearInterval(heartbeats);
    await worker.close(true).catch(() => undefined);
    for (const c of connections) c.disconnect();
    throw new AgentStartError(
      `cannot take shards from the queue ${registration.queue}: ${(error as Error).message}`,
    );
  }

  let resolveClosed!: (end: AgentEnd) => void;
  const closed = new Promise<AgentEnd>((resolve) => (resolveClosed = resolve));
  let stopped: Promise<void> | null = null;
  const close = (end: AgentEnd): Promise<void> =>
    (stopped ??= (async () => {
      stopping = true;
      clearInterval(heartbeats);
      clearTimeout(idleTimer);
      current?.controller.abort();
      // Called now, so that BullMQ takes no further job even as it answers the one that just ended
      // (`once`); it resolves after the current shard, whose `done` is written before the queue lets go.
      const workerClosed = worker.close();
      // An agent ending on its own runs no shard now: it leaves the idle agents at once, so no run
      // chooses it. One stopped mid-shard deletes its heartbeat only once that shard ended gracefully.
      if (end.reason !== 'stopped') await redis.del(heartbeatKey).catch(() => undefined);
      await workerClosed;
      await redis.del(heartbeatKey).catch(() => undefined);
      if (end.reason !== 'stopped') {
        const problem = await unregisterAgent(options.server, options.token, agentId);
        if (problem !== null)
          logger.warn({ agent_id: agentId }, `the agent stays on the server's list: ${problem}`);
      }
      await Promise.all(connections.map(closeRedis));
      resolveClosed(end);
    })());
  finish = (end) => void close(end);
  armIdleTimer();
  const stop = (): Promise<void> => close({ reason: 'stopped' });
  return { registration, stop, closed };
}
