import { createServer } from 'node:net';
import {
  checkableUrl,
  compilePlan,
  locustWorkerFiles,
  SnapshotQueue,
  startToolRun,
  type EngineLogger,
  type LocustWorkerFigures,
  type LocustWorkerJob,
  type RunResult,
  type ShardEvent,
  type TargetGuard,
  ToolRunError,
  type ToolRunHandle,
} from '@aqa/engine';
import type { PerfPlan, RunAgent } from '@aqa/plan';
import type { Runner, RunnerHandle, RunnerStartOptions } from '../runs/runner';
import { AgentFleet, type AgentRunContext } from './agent-fleet';
import type { PlacedAgent, RunAgentState } from './run-agents';

/** Where the server's Locust master listens and runs (docs/adr/0021-load-agents.md "Locust master/worker"). */
export interface LocustMasterSettings {
  /** The address the agents dial (AQA_LOCUST_MASTER_HOST). */
  host: string;
  /** LOCUST_CMD and PATH as configured for the server's own Locust runs. */
  env: NodeJS.ProcessEnv;
  cacheDir?: string | undefined;
}

/** The run's clock; tests may shorten it. */
export interface LocustAgentTiming {
  /** How often the agents' heartbeat keys are read. */
  monitorMs: number;
  /** How long the master waits for all its workers before it gives up, seconds. */
  workersWaitS: number;
  /** How long the master waits for its workers' last reports after stopping them, seconds. */
  finalWaitS: number;
  /** How long a stop waits for the master's graceful end before it is signalled (then killed). */
  stopGraceMs: number;
}

export const DEFAULT_LOCUST_AGENT_TIMING: LocustAgentTiming = {
  monitorMs: 1000,
  workersWaitS: 30,
  finalWaitS: 5,
  stopGraceMs: 15_000,
};

/** What Locust's master prints when not all its workers came in time (locust/main.py). */
const LOCUST_GAVE_UP = 'Gave up waiting for workers';

/** The address the master binds: loopback when the agents dial a loopback address, else every interface. */
export function masterBindHost(host: string): string {
  return ['127.0.0.1', 'localhost', '::1', '[::1]'].includes(host.toLowerCase()) ? '127.0.0.1' : '*';
}

/** A TCP port nobody listens on now, on `bindHost` ('*': every interface). */
async function freePort(bindHost: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, bindHost === '*' ? '0.0.0.0' : bindHost, () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** The plan's written-out hosts, as the server's guard checked them (target-check.ts). */
function originsOf(plan: PerfPlan, durationSeconds: number): string[] {
  const origins = new Set<string>();
  for (const step of compilePlan(plan, durationSeconds).steps) {
    if (step.origin !== null) origins.add(step.origin);
    const token = step.oauth2 === null ? null : checkableUrl(step.oauth2.tokenUrl);
    if (token !== null) origins.add(token.origin);
  }
  return [...origins];
}

/**
 * Runs a Locust plan on load agents in Locust's own master/worker mode (docs/adr/0021-load-agents.md
 * "Locust master/worker"): the master runs here through the engine's Locust adapter, so its snapshots
 * and result are read exactly as those of a Locust run on this server; each agent runs one worker.
 */
export class LocustAgentRunner implements Runner {
  readonly engine = 'locust' as const;

  constructor(
    private readonly context: AgentRunContext,
    private readonly agents: readonly PlacedAgent[],
    private readonly guard: TargetGuard,
    private readonly master: LocustMasterSettings,
    private readonly timing: Partial<LocustAgentTiming> = {},
  ) {}

  start(plan: PerfPlan, options: RunnerStartOptions): RunnerHandle {
    if (options.runId === undefined) throw new Error('a run on load agents needs its run id');
    const run = new LocustAgentRun(options.runId, plan, options, this.agents, {
      context: this.context,
      guard: this.guard,
      master: this.master,
      timing: { ...DEFAULT_LOCUST_AGENT_TIMING, ...this.timing },
    });
    return run.handle();
  }
}

interface RunContext {
  context: AgentRunContext;
  guard: TargetGuard;
  master: LocustMasterSettings;
  timing: LocustAgentTiming;
}

/** One agent's figures as Locust's master reported them, and its throughput between two reports. */
interface LocustFigures {
  figures: LocustWorkerFigures;
  at: number;
  requestsPerSecond: number;
}

class LocustAgentRun {
  private readonly fleet: AgentFleet;
  private readonly states: RunAgentState[];
  private readonly figures = new Map<number, LocustFigures>();
  private readonly queue = new SnapshotQueue();
  private readonly log: EngineLogger;
  private tool: ToolRunHandle | null = null;
  private stopRequested = false;
  /** Why the run cannot go on before its load started (an agent failed or was lost): it fails in these words. */
  private refusal: string | null = null;
  /** Every worker reported to the master: the load runs, and a lost agent only makes it partial. */
  private loadStarted = false;
  private loadStartedAt: number | null = null;
  private readonly result: Promise<RunResult>;

  constructor(
    private readonly runId: string,
    private readonly plan: PerfPlan,
    private readonly options: RunnerStartOptions,
    agents: readonly PlacedAgent[],
    private readonly ctx: RunContext,
  ) {
    this.log = options.logger;
    this.fleet = new AgentFleet(
      runId,
      agents,
      ctx.context,
      this.log,
      { monitorMs: ctx.timing.monitorMs, streamError: 'Could not read the stream of the Locust workers' },
      (event) => this.onEvent(event),
    );
    this.states = this.fleet.states;
    this.result = this.run().finally(async () => {
      this.queue.close();
      await this.cleanUp();
    });
    this.result.catch(() => undefined);
  }

  handle(): RunnerHandle {
    return {
      snapshots: this.queue,
      result: this.result,
      stop: () => this.stop(),
      agents: () => this.views(),
    };
  }

  private async run(): Promise<RunResult> {
    const { master, timing } = this.ctx;
    const durationSeconds = this.options.durationSeconds;
    await this.fleet.claim(this.holdMs());
    const bindHost = masterBindHost(master.host);
    const port = await freePort(bindHost);
    const tool = startToolRun(this.plan, 'locust', {
      durationSeconds,
      logger: this.log,
      env: master.env,
      ...(master.cacheDir === undefined ? {} : { cacheDir: master.cacheDir }),
      ...(this.options.onToolProcess === undefined ? {} : { onProcess: this.options.onToolProcess }),
      stopGraceMs: timing.stopGraceMs,
      locustMaster: {
        bindHost,
        bindPort: port,
        workers: this.states.length,
        workersWaitS: timing.workersWaitS,
        finalWaitS: timing.finalWaitS,
        onWorkers: (workers) => this.onWorkers(workers),
      },
    });
    this.tool = tool;
    if (this.stopRequested || this.refusal !== null) void tool.stop();
    const forwarded = (async () => {
      for await (const snapshot of tool.snapshots) this.queue.push(snapshot);
    })();
    try {
      await this.dispatch(port);
      // Locust tracks its workers itself, too.
      this.fleet.monitor({
        since: () => this.loadStartedAt,
        beforeStart: 'before its worker started',
        onLost: (state, message) => this.lose(state, 'lost', message),
      });
      const result = await tool.result;
      if (this.refusal !== null) throw new Error(this.refusal);
      for (const state of this.states) if (!state.ended) state.end('done', null);
      return result;
    } catch (error) {
      const gaveUp = error instanceof ToolRunError && error.details.includes(LOCUST_GAVE_UP);
      const why = this.refusal ?? (gaveUp ? this.silentWorkers(port) : null);
      // The others' workers were ended with the master: none of them failed.
      for (const state of this.states) if (!state.ended) state.end('done', null);
      // An agent that could not run its worker says why better than the master that waited for it.
      if (why !== null) throw new Error(why, { cause: error });
      throw error;
    } finally {
      this.fleet.close();
      await forwarded;
    }
  }

  /**
   * Why the master gave up waiting for its workers, naming the agents (each then failed, with its own
   * reason), or null when every worker reported (or the run was stopped).
   */
  private silentWorkers(port: number): string | null {
    if (this.loadStarted || this.stopRequested) return null;
    const silent = this.states.filter((s) => !s.ended && !this.figures.has(s.index));
    if (silent.length === 0) return null;
    const where = `${this.ctx.master.host}:${port}`;
    const list = (states: RunAgentState[]): string =>
      `${states.length === 1 ? 'agent' : 'agents'} ${states.map((s) => s.placed.name).join(', ')}`;
    const notStarted = silent.filter((s) => s.status === 'waiting');
    const notReached = silent.filter((s) => s.status !== 'waiting');
    const reasons: string[] = [];
    if (notStarted.length > 0)
      reasons.push(
        `${list(notStarted)} did not start a Locust worker (is it running the aqa program this server serves?)`,
      );
    if (notReached.length > 0)
      reasons.push(
        `the Locust worker of ${list(notReached)} did not reach it at ${where}: AQA_LOCUST_MASTER_HOST must be this server's address as the agents reach it`,
      );
    for (const state of notStarted) state.end('failed', 'it did not start a Locust worker');
    for (const state of notReached)
      state.end('failed', `its Locust worker did not reach the master at ${where}`);
    return `The Locust master gave up waiting for its workers after ${this.ctx.timing.workersWaitS} s: ${reasons.join('; ')}.`;
  }

  /** How long the agents and their jobs are held at most, should this server die. */
  private holdMs(): number {
    return (this.options.durationSeconds + this.ctx.timing.workersWaitS + 120) * 1000;
  }

  /** One Locust worker job for each agent, all dialling this run's master. */
  private async dispatch(port: number): Promise<void> {
    const { files, locustfile } = locustWorkerFiles(this.plan);
    const origins = originsOf(this.plan, this.options.durationSeconds);
    const guard = this.ctx.guard.settings();
    const endsAt = Date.now() + (this.ctx.timing.workersWaitS + this.options.durationSeconds) * 1000;
    await this.fleet.dispatch((state) => {
      const job: LocustWorkerJob = {
        run_id: this.runId,
        agent_index: state.index,
        agent_count: this.states.length,
        files,
        locustfile,
        master_host: this.ctx.master.host,
        master_port: port,
        users: state.placed.users,
        origins,
        guard,
        ends_at_epoch_ms: endsAt,
      };
      return { kind: 'locust-worker' as const, locust_worker: job };
    }, this.holdMs());
    this.log.info(
      { agents: this.states.map((s) => s.placed.name), master: `${this.ctx.master.host}:${port}` },
      'Locust worker jobs queued for the load agents',
    );
  }

  /** The master's per-agent figures (locust-distributed.ts): users and requests its worker reported. */
  private onWorkers(workers: ReadonlyMap<number, LocustWorkerFigures>): void {
    const now = Date.now();
    for (const [index, figures] of workers) {
      const before = this.figures.get(index);
      // The file changes with any worker's report: an agent's throughput is measured between its own.
      if (before !== undefined && before.figures.reports === figures.reports) {
        before.figures = figures;
        if (figures.users === 0) before.requestsPerSecond = 0;
        continue;
      }
      const seconds = before === undefined ? 0 : (now - before.at) / 1000;
      const rps =
        before === undefined || seconds <= 0
          ? 0
          : Math.round(((figures.requests - before.figures.requests) / seconds) * 100) / 100;
      this.figures.set(index, { figures, at: now, requestsPerSecond: figures.users === 0 ? 0 : rps });
    }
    if (!this.loadStarted && this.states.every((s) => this.figures.has(s.index))) {
      this.loadStarted = true;
      this.loadStartedAt = now;
    }
  }

  private onEvent(event: ShardEvent): void {
    const state = this.states[event.agent_index];
    if (state === undefined) return;
    switch (event.type) {
      case 'ready':
        if (state.status === 'waiting') state.status = 'running';
        return;
      case 'done':
        if (!state.ended) state.end('done', null);
        return;
      case 'failed':
        this.lose(state, 'failed', `agent ${state.placed.name} could not run its share: ${event.message}`);
        return;
      case 'interval':
        // A Locust worker's figures reach the server through its master, never through this stream.
        return;
    }
  }

  /**
   * An agent failed or was lost. Before every worker reported, the master would only wait for it: the
   * run fails in the agent's words. After, Locust hands its users to the other workers and the result
   * is partial.
   */
  private lose(state: RunAgentState, status: 'lost' | 'failed', message: string): void {
    if (state.ended) return;
    state.end(status, message);
    this.log.warn({ agent: state.placed.name, agentId: state.placed.agent_id }, message);
    if (!this.loadStarted && this.refusal === null) {
      this.refusal = message;
      void this.tool?.stop();
    }
  }

  /**
   * Each agent as the run shows it. Users: what its worker reported to Locust's master (the most it ran
   * at once), else — before its first report — its even share. Requests: what its worker reported, which
   * add up to the master's total.
   */
  private views(): RunAgent[] {
    return this.fleet.views((state, view) => {
      const reported = this.figures.get(state.index);
      if (reported === undefined) return view;
      return {
        ...view,
        users: reported.figures.peak_users > 0 ? reported.figures.peak_users : view.users,
        requests: reported.figures.requests,
        requests_per_second: state.ended ? 0 : reported.requestsPerSecond,
      };
    });
  }

  /**
   * Stops the master gracefully: it stops its workers, waits for their last reports and quits them. The
   * agents are told to stop only after (cleanUp), so none ends its worker before that worker reported.
   */
  private async stop(): Promise<void> {
    if (!this.stopRequested) {
      this.stopRequested = true;
      void this.tool?.stop();
    }
    await this.result.then(
      () => undefined,
      () => undefined,
    );
  }

  private async cleanUp(): Promise<void> {
    // A worker whose master is gone (or never came) is ended by its agent, which hears the stop at its
    // next heartbeat; once the run's keys are deleted below, its heartbeat answer says stop too.
    await this.fleet.tellStop();
    // The agents' last words (done, failed) may still be on their way; they are read for a moment.
    await this.fleet.cleanUp(500);
  }
}
