/**
 * The load agent (`aqa agent`, docs/adr/0021-load-agents.md, docs/adr/0023-agents-over-http.md):
 * registers with the server over HTTP with an API token of the agent scope, beats a heartbeat, and takes
 * jobs of runs one at a time, running each with the built-in engine (or a Locust worker) and posting its
 * workers' interval reports back. It speaks only HTTP(S) to the server and holds no credential of the
 * server's Redis or database: the server's answers are all it needs.
 */
import { availableParallelism, hostname } from 'node:os';
import type { EngineLogger } from '../types';
import { AQA_VERSION } from '../version';
import type { AgentCallError } from './agent-client';
import { AgentClient } from './agent-client';
import type { AgentJob, AgentRegistration, LocustWorkerJob, ShardJob } from './protocol';
import { AgentStartError, registerAgent, unregisterAgent } from './register';
import { runLocustWorker, locustWorkerJobProblem } from './run-locust-worker';
import { runShard, shardJobProblem, type ShardOutcome } from './run-shard';
import { ShardEventSender, type ShardEventSink } from './shard-events';

export interface AgentOptions {
  /** The server's origin and base path, without a trailing slash. */
  server: string;
  /** An API token of the agent scope, of the user the agent works for. */
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
 * Why the agent stopped: stop() (a signal), its one shard ended (`once`, with the shard's outcome), no
 * shard came for `idleTimeoutMs`, or the server refused the agent after it started (its token revoked,
 * the agent removed from its user's list). An agent that ends on its own also leaves the server's list.
 */
export type AgentEnd =
  | { reason: 'stopped' }
  | { reason: 'once'; outcome: ShardOutcome }
  | { reason: 'idle'; idle_ms: number }
  | { reason: 'refused'; message: string };

export interface AgentHandle {
  registration: AgentRegistration;
  /** Stops the current shard gracefully (its result is still sent), then says the agent is offline. */
  stop(): Promise<void>;
  /** Resolves once the agent has stopped, saying why. */
  closed: Promise<AgentEnd>;
}

/** How often the same failure to reach the server is logged while the agent keeps trying. */
export const ERROR_LOG_EVERY_MS = 10_000;
/** After a next-job call failed, the agent waits this long before the next. */
const JOB_RETRY_MS = 1000;

/** The server's answers that say this agent may not go on: its token or the agent itself is refused. */
const refusedStatus = (status: number | null): boolean => status === 401 || status === 403 || status === 404;

/**
 * Registers and starts taking jobs. Rejects with AgentStartError when the server refuses the
 * registration or cannot be reached.
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
  const client = new AgentClient(options.server, options.token, registration);

  let current: { runId: string; controller: AbortController } | null = null;
  let stopping = false;
  // Stops the agent; defined with close() below.
  let finish: (end: AgentEnd) => void = () => undefined;

  let lastBeatError = 0;
  let beating = false;
  /** One heartbeat; its answer may stop the run it named. A beat still on its way is not doubled. */
  const beat = async (): Promise<void> => {
    if (beating || stopping) return;
    beating = true;
    const runId = current?.runId ?? null;
    try {
      const answer = await client.heartbeat(runId);
      if (answer.stop && current !== null && current.runId === runId) {
        logger.info({ run_id: runId }, 'the server stopped the run');
        current.controller.abort();
      }
    } catch (error) {
      const e = error as AgentCallError;
      if (refusedStatus(e.status)) finish({ reason: 'refused', message: e.message });
      else if (Date.now() - lastBeatError >= ERROR_LOG_EVERY_MS) {
        lastBeatError = Date.now();
        logger.warn({ agent_id: agentId }, `heartbeat not delivered: ${e.message}; retrying`);
      }
    } finally {
      beating = false;
    }
  };
  try {
    await client.heartbeat(null);
  } catch (error) {
    throw new AgentStartError(`the first heartbeat was not taken: ${(error as Error).message}`);
  }
  const heartbeats = setInterval(() => void beat(), registration.heartbeat_ms);

  let idleTimer: NodeJS.Timeout | undefined;
  const idleTimeoutMs = options.idleTimeoutMs;
  const armIdleTimer = (): void => {
    clearTimeout(idleTimer);
    if (idleTimeoutMs !== undefined && !stopping)
      idleTimer = setTimeout(() => finish({ reason: 'idle', idle_ms: idleTimeoutMs }), idleTimeoutMs);
  };

  const sender = (runId: string, onStop: () => void): ShardEventSender =>
    new ShardEventSender({
      client,
      runId,
      logger,
      maxEventsPerPost: registration.max_events_per_post,
      maxPostBytes: registration.max_post_bytes,
      onStop,
    });

  /** Runs one job of `runId`, stopped by the server's answers or the agent's stop. */
  const runForRun = async (
    runId: string,
    run: (signal: AbortSignal, events: ShardEventSink) => Promise<ShardOutcome>,
  ): Promise<ShardOutcome> => {
    const controller = new AbortController();
    const events = sender(runId, () => controller.abort());
    current = { runId, controller };
    try {
      if (stopping) controller.abort();
      void beat();
      const outcome = await run(controller.signal, events);
      await events.flushed();
      return outcome;
    } finally {
      current = null;
      void beat();
    }
  };

  /** Reads and runs one job; a job it cannot read is answered failed. */
  const runJob = async (job: AgentJob): Promise<ShardOutcome> => {
    if (job.kind === 'locust-worker') {
      const data = job.locust_worker;
      const problem = locustWorkerJobProblem(data);
      if (problem !== null) return refuseJob(data, `the Locust worker job cannot be read: ${problem}`);
      return runForRun(data.run_id, async (signal, events) => {
        const outcome = await runLocustWorker(data, {
          events,
          agentId,
          agentName: name,
          logger,
          signal,
          onStarted: () => options.onLocustWorkerStart?.(data),
        });
        options.onLocustWorkerEnd?.(data, outcome);
        return outcome;
      });
    }
    const data = job.shard;
    const problem = shardJobProblem(data);
    if (problem !== null) return refuseJob(data, `the shard job cannot be read: ${problem}`);
    return runForRun(data.run_id, async (signal, events) => {
      const outcome = await runShard(data, {
        events,
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

  /** Answers a job `failed` in words, without running it. */
  const refuseJob = async (
    data: { run_id: string; agent_index: number },
    message: string,
  ): Promise<ShardOutcome> => {
    logger.error({ run_id: data.run_id }, message);
    const events = sender(data.run_id, () => undefined);
    events.write({ type: 'failed', agent_index: data.agent_index, message });
    await events.flushed(10_000);
    return { status: 'failed', total_requests: 0, message };
  };

  /** A job that came as the agent was ending: `done` stopped, no request (the server counts it lost). */
  const declineJob = async (job: AgentJob): Promise<void> => {
    const data = job.kind === 'shard' ? job.shard : job.locust_worker;
    const events = sender(data.run_id, () => undefined);
    events.write({ type: 'done', agent_index: data.agent_index, status: 'stopped', total_requests: 0 });
    await events.flushed(10_000);
  };

  const polling = new AbortController();
  let lastPollError = 0;
  /** Takes jobs one at a time until the agent stops. */
  const takeJobs = async (): Promise<void> => {
    while (!stopping) {
      let job: AgentJob | null;
      try {
        job = await client.nextJob(registration.job_wait_ms, polling.signal);
      } catch (error) {
        if (stopping) return;
        const e = error as AgentCallError;
        if (refusedStatus(e.status)) {
          finish({ reason: 'refused', message: e.message });
          return;
        }
        if (Date.now() - lastPollError >= ERROR_LOG_EVERY_MS) {
          lastPollError = Date.now();
          logger.warn({ agent_id: agentId }, `cannot take jobs now: ${e.message}; retrying`);
        }
        await new Promise((r) => setTimeout(r, (e.retryAfterS ?? 0) * 1000 || JOB_RETRY_MS));
        continue;
      }
      if (job === null) continue;
      if (stopping) {
        await declineJob(job);
        return;
      }
      clearTimeout(idleTimer);
      let outcome: ShardOutcome | undefined;
      try {
        outcome = await runJob(job);
      } catch (error) {
        logger.error({ agent_id: agentId }, `the job could not be run: ${(error as Error).message}`);
      }
      if (options.once === true) {
        finish({
          reason: 'once',
          outcome: outcome ?? { status: 'failed', total_requests: 0, message: 'the job could not be run' },
        });
        return;
      }
      armIdleTimer();
    }
  };
  const taking = takeJobs();

  let resolveClosed!: (end: AgentEnd) => void;
  const closed = new Promise<AgentEnd>((resolve) => (resolveClosed = resolve));
  let stopped: Promise<void> | null = null;
  const offline = async (): Promise<void> => {
    await client.heartbeat(null, true).catch((error: unknown) => {
      logger.warn({ agent_id: agentId }, `could not say the agent is offline: ${(error as Error).message}`);
    });
  };
  const close = (end: AgentEnd): Promise<void> =>
    (stopped ??= (async () => {
      stopping = true;
      clearInterval(heartbeats);
      clearTimeout(idleTimer);
      current?.controller.abort();
      // No further job is taken; the one running ends gracefully, its events sent.
      polling.abort();
      // An agent ending on its own runs no shard now: it is offline at once, so no run chooses it. One
      // stopped mid-shard says so only once that shard ended gracefully.
      if (end.reason === 'once' || end.reason === 'idle') await offline();
      await taking;
      if (end.reason !== 'refused') await offline();
      if (end.reason === 'once' || end.reason === 'idle') {
        const problem = await unregisterAgent(options.server, options.token, registration.paths.leave);
        if (problem !== null)
          logger.warn({ agent_id: agentId }, `the agent stays on the server's list: ${problem}`);
      }
      resolveClosed(end);
    })());
  finish = (end) => void close(end);
  armIdleTimer();
  const stop = (): Promise<void> => close({ reason: 'stopped' });
  return { registration, stop, closed };
}
