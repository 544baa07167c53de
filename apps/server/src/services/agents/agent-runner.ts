import {
  AbortWatch,
  compilePlan,
  dataMergeOf,
  RunAggregator,
  type RunAggregatorOptions,
  type RunSnapshot,
  SnapshotQueue,
  type EngineLogger,
  type RunResult,
  type ShardEvent,
  type ShardJob,
  type ShardIntervalWire,
  type TargetGuard,
} from '@aqa/engine';
import { readTestData, type PerfPlan } from '@aqa/plan';
import { seedOf } from '../runs/builtin-runner';
import type { Runner, RunnerHandle, RunnerStartOptions } from '../runs/runner';
import { AgentFleet, type AgentRunContext } from './agent-fleet';
import { intervalProblem, type PlanCounts, type RunAgentState, type PlacedAgent } from './run-agents';

/** The run's clock for agents; tests shorten it. */
export interface AgentRunTiming {
  /** The agents start together this long after the run is accepted (their workers start meanwhile). */
  startDelayMs: number;
  /** An agent not ready this long after the common start is lost. */
  readyGraceMs: number;
  /** How often the agents' heartbeat keys are read. */
  monitorMs: number;
  /** An agent not done this long after the run's planned end is lost. */
  endGraceMs: number;
}

export const DEFAULT_AGENT_RUN_TIMING: AgentRunTiming = {
  startDelayMs: 3000,
  readyGraceMs: 10_000,
  monitorMs: 1000,
  endGraceMs: 30_000,
};

/**
 * Runs a plan on load agents (docs/adr/0021-load-agents.md "Server side") and reports it as the built-in
 * engine does (a RunSnapshot each second, a RunResult at the end), so the live run, storage, the live
 * stream and thresholds do not know the difference.
 */
export class AgentRunner implements Runner {
  readonly engine = 'builtin' as const;

  constructor(
    private readonly context: AgentRunContext,
    private readonly agents: readonly PlacedAgent[],
    private readonly guard: TargetGuard,
    private readonly log: EngineLogger,
    private readonly timing: Partial<AgentRunTiming> = {},
  ) {}

  start(plan: PerfPlan, options: RunnerStartOptions): RunnerHandle {
    if (options.runId === undefined) throw new Error('a run on load agents needs its run id');
    const run = new AgentRun(
      options.runId,
      plan,
      options.durationSeconds,
      this.agents,
      this.context,
      this.guard,
      options.logger,
      { ...DEFAULT_AGENT_RUN_TIMING, ...this.timing },
    );
    return run.handle();
  }
}

/**
 * One run on agents. Each agent gets its share of the users (numbered from its first_user) and of
 * `{{sequence_number}}` (offset = its index, stride = the agent count) as one job, which it takes with
 * its next-job call (docs/adr/0023-agents-over-http.md); all start at one instant. Their workers'
 * interval reports come back through their event posts, appended to the run's Redis stream, and are
 * merged by ONE RunAggregator, each (agent, local shard) being one of its shards, so the
 * figures are computed exactly as one machine's. An agent whose heartbeat stops, that fails, or that is
 * not ready in time is named, its shards are abandoned, and the run goes on with the others (partial).
 */
class AgentRun {
  private readonly fleet: AgentFleet;
  private readonly states: RunAgentState[];
  private readonly queue = new SnapshotQueue();
  private readonly startAt: number;
  private readonly steps;
  private readonly users: number;
  /** The plan's flows and data sources, which the merge counts as one machine's (docs/adr/0027-load-profiles.md). */
  private readonly merging: RunAggregatorOptions;
  private readonly counts: PlanCounts;
  /** The plan's abort thresholds, judged here on the merged seconds as run.ts judges one machine's. */
  private readonly abort: AbortWatch;
  /** Set before the last flush once every agent ended: its partial second is not judged. */
  private loadEnded = false;
  private aggregator: RunAggregator | null = null;
  /** Interval reports that came before every agent was placed in the aggregator. */
  private readonly early: { state: RunAgentState; wire: ShardIntervalWire }[] = [];
  private stopRequested = false;
  /** Each agent whose engine ended worker threads still busy past the run's end, and its words. */
  private readonly cutShort: string[] = [];
  private finished = false;
  private resolveEnd!: (outcome: { result?: RunResult; error?: Error }) => void;
  private readonly ended = new Promise<{ result?: RunResult; error?: Error }>((r) => (this.resolveEnd = r));
  private readonly result: Promise<RunResult>;

  constructor(
    private readonly runId: string,
    private readonly plan: PerfPlan,
    private readonly durationSeconds: number,
    agents: readonly PlacedAgent[],
    context: AgentRunContext,
    private readonly guard: TargetGuard,
    private readonly log: EngineLogger,
    private readonly timing: AgentRunTiming,
  ) {
    const compiled = compilePlan(plan, durationSeconds);
    this.steps = compiled.info;
    this.users = compiled.users;
    const model = plan.load_profile?.model;
    const dataSources = plan.data_sources?.length ?? 0;
    // The CSV (up to 10 MB) is read here only for the result's words once a source ran out.
    this.merging = {
      flows: compiled.flowInfo,
      data: dataMergeOf(dataSources, () => readTestData(plan), model),
    };
    this.counts = { steps: compiled.info.length, flows: compiled.flowInfo.length, dataSources };
    this.abort = new AbortWatch(plan.abort_thresholds ?? [], compiled.info, {
      flows: compiled.flowInfo,
      ...(model === undefined ? {} : { model }),
    });
    this.fleet = new AgentFleet(
      runId,
      agents,
      context,
      log,
      { monitorMs: timing.monitorMs, streamError: 'Could not read the shard stream of the run' },
      (event) => this.onEvent(event),
    );
    this.states = this.fleet.states;
    this.startAt = Date.now() + timing.startDelayMs;
    this.result = this.ended.then(async (outcome) => {
      await this.fleet.cleanUp();
      if (outcome.error !== undefined) throw outcome.error;
      return outcome.result!;
    });
    this.result.catch(() => undefined);
    void this.dispatch().catch((error: unknown) => {
      this.end({ error: error instanceof Error ? error : new Error(String(error)) });
    });
  }

  handle(): RunnerHandle {
    return {
      snapshots: this.queue,
      result: this.result,
      stop: () => this.stop(),
      agents: () => this.fleet.views(),
    };
  }

  /** Holds the agents and queues one shard job for each. */
  private async dispatch(): Promise<void> {
    const holdMs = (this.durationSeconds + 120) * 1000 + this.timing.startDelayMs + this.timing.readyGraceMs;
    await this.fleet.claim(holdMs);
    const guard = this.guard.settings();
    let firstUser = 0;
    const jobOf = (state: RunAgentState) => {
      const job: ShardJob = {
        run_id: this.runId,
        agent_index: state.index,
        agent_count: this.states.length,
        // The plan's flows, test data and abort thresholds go with it (protocol.ts ShardJob).
        plan: { ...this.plan, concurrent_users: state.placed.users },
        // One seed for the run, the one a run on this server would take: every agent shuffles the same rows.
        data_seed: seedOf(this.runId),
        // Each agent follows its place in the profile (sequence_split): the merged load is the plan's line.
        ...(this.plan.load_profile === undefined ? {} : { load_profile: this.plan.load_profile }),
        duration_seconds: this.durationSeconds,
        users: state.placed.users,
        first_user: firstUser,
        sequence_split: { offset: state.index, stride: this.states.length },
        start_at_epoch_ms: this.startAt,
        guard,
      };
      firstUser += state.placed.users;
      return { kind: 'shard' as const, shard: job };
    };
    await this.fleet.dispatch(jobOf, holdMs);
    this.log.info(
      { agents: this.states.map((s) => `${s.placed.name}:${s.placed.users}`), startAt: this.startAt },
      'Shards queued for the load agents',
    );
    this.fleet.monitor({
      since: () => this.startAt,
      beforeStart: 'before its share started',
      deadline: (state, now) => this.deadline(state, now),
      onLost: (state, message) => this.lose(state, 'lost', message),
    });
  }

  /** CPU time this process spent on the agents' events (parse to merged snapshot), µs; for the bench. */
  private mergeCpuUs = 0;
  private snapshots = 0;

  /** Handles one event, timing the merge (docs/performance.md "Runs on load agents"). */
  private onEvent(event: ShardEvent): void {
    const before = process.cpuUsage();
    this.handleEvent(event);
    const spent = process.cpuUsage(before);
    this.mergeCpuUs += spent.user + spent.system;
  }

  private handleEvent(event: ShardEvent): void {
    const state = this.states[event.agent_index];
    if (state === undefined || this.finished) return;
    switch (event.type) {
      case 'ready':
        if (state.status !== 'waiting') return;
        state.status = 'running';
        state.shards = event.shards;
        this.placeIfAllKnown();
        return;
      case 'interval': {
        if (state.ended) return;
        // The agent is the user's own program, but a report the merge cannot take must not break it.
        const problem = intervalProblem(event.wire, state.shards, this.counts, this.durationSeconds);
        if (problem !== null) {
          this.lose(
            state,
            'failed',
            `agent ${state.placed.name} sent a report the server cannot use: ${problem}`,
          );
          return;
        }
        state.count(event.wire);
        if (this.aggregator === null || state.firstShard === null)
          this.early.push({ state, wire: event.wire });
        else this.aggregator.add({ ...event.wire, shard: state.firstShard + event.wire.shard });
        return;
      }
      case 'done':
        if (state.ended) return;
        if (event.status === 'stopped' && !this.stopRequested) {
          state.end(
            'lost',
            `agent ${state.placed.name} stopped its share early (it was stopped on its machine)`,
          );
        } else {
          state.end('done', null);
        }
        // The run's duration is a hard bound on agents too (docs/adr/0022-linear-time-patterns.md).
        if (event.cut_short !== undefined)
          this.cutShort.push(`agent ${state.placed.name}: ${event.cut_short}`);
        this.settle();
        return;
      case 'failed':
        this.lose(state, 'failed', `agent ${state.placed.name} could not run its share: ${event.message}`);
        return;
    }
  }

  /** Once every agent is ready or gone, the aggregator is built over the ready agents' shards. */
  private placeIfAllKnown(): void {
    if (this.aggregator !== null) return;
    if (this.states.some((s) => s.status === 'waiting')) return;
    let next = 0;
    for (const state of this.states) {
      if (state.shards === null || state.status === 'lost' || state.status === 'failed') continue;
      state.firstShard = next;
      next += state.shards;
    }
    if (next === 0) return;
    this.aggregator = new RunAggregator(this.steps, next, (snapshot) => this.emit(snapshot), this.merging);
    const early = this.early.splice(0);
    for (const { state, wire } of early) {
      if (state.firstShard !== null) this.aggregator.add({ ...wire, shard: state.firstShard + wire.shard });
    }
    this.settle();
  }

  /**
   * One merged second: judged on the abort thresholds exactly as run.ts judges one machine's (the same
   * AbortWatch, grace and window: docs/adr/0027-load-profiles.md "Abort criteria"); one that breaks
   * stops every agent, and the result says why.
   */
  private emit(snapshot: RunSnapshot): void {
    for (const state of this.states) state.intervalEmitted(snapshot.second - 1, snapshot.intervalS);
    this.snapshots += 1;
    const verdict = this.abort.add(snapshot, !this.stopRequested && !this.loadEnded);
    if (verdict !== undefined) {
      this.log.info({ abort: verdict.aborted.text }, 'abort threshold broke; stopping the run on its agents');
      void this.stop();
    }
    this.queue.push(snapshot);
  }

  /** Marks an agent lost or failed: its shards will not be waited for, the run goes on with the others. */
  private lose(state: RunAgentState, status: 'lost' | 'failed', message: string): void {
    if (state.ended) return;
    const shards = state.globalShards();
    state.end(status, message);
    this.log.warn({ agent: state.placed.name, agentId: state.placed.agent_id }, message);
    if (this.aggregator !== null && shards.length > 0) this.aggregator.abandonShards(shards);
    this.placeIfAllKnown();
    this.settle();
  }

  /** Why an agent still beating is out of time (not ready in its grace, not done long past the end), or null. */
  private deadline(state: RunAgentState, now: number): string | null {
    if (state.status === 'waiting' && now > this.startAt + this.timing.readyGraceMs) {
      const grace = Math.round(this.timing.readyGraceMs / 1000);
      return `agent ${state.placed.name} did not start its share within ${grace} s of the run's start`;
    }
    if (now > this.startAt + this.durationSeconds * 1000 + this.timing.endGraceMs)
      return `agent ${state.placed.name} did not finish its share in time`;
    return null;
  }

  /** Ends the run once every agent is done, lost or failed. */
  private settle(): void {
    if (this.finished || this.states.some((s) => !s.ended)) return;
    const done = this.states.filter((s) => s.status === 'done');
    // Stopped before any agent started: a stopped run that measured nothing.
    if (this.aggregator === null && this.stopRequested && done.length > 0) {
      this.aggregator = new RunAggregator(this.steps, 0, () => undefined, this.merging);
    }
    if (done.length === 0 || this.aggregator === null) {
      const reasons = this.states.map((s) => s.error ?? `agent ${s.placed.name} ended without data`);
      this.end({
        error: new Error(
          `${this.states.length === 1 ? 'The load agent' : `All ${this.states.length} load agents`} of the run stopped: ${reasons.join('; ')}`,
        ),
      });
      return;
    }
    const aggregator = this.aggregator;
    this.loadEnded = true;
    aggregator.flush(true);
    this.log.info(
      {
        agents: this.states.length,
        snapshots: this.snapshots,
        mergeCpuMs: Math.round(this.mergeCpuUs / 100) / 10,
        mergeCpuUsPerSnapshot: this.snapshots === 0 ? 0 : Math.round(this.mergeCpuUs / this.snapshots),
      },
      'Run on load agents merged',
    );
    // The built-in engine's own ending (packages/engine/src/run.ts): the same figures from the same merge.
    this.end({
      result: {
        status: this.stopRequested ? 'stopped' : 'completed',
        started_at: new Date(this.startAt).toISOString(),
        ended_at: new Date().toISOString(),
        ...aggregator.resultFigures(this.users),
        workers: this.states.reduce((n, s) => n + (s.shards ?? 0), 0),
        ...(this.cutShort.length === 0 ? {} : { cut_short: this.cutShort.join('; ') }),
        ...this.abort.resultFields(),
      },
    });
  }

  private end(outcome: { result?: RunResult; error?: Error }): void {
    if (this.finished) return;
    this.finished = true;
    this.fleet.close();
    this.queue.close();
    this.resolveEnd(outcome);
  }

  /** Asks every agent to stop gracefully; resolves when each said done or was lost. */
  private async stop(): Promise<void> {
    if (!this.finished && !this.stopRequested) {
      this.stopRequested = true;
      await this.fleet.tellStop();
      // An agent that had not started its share sends nothing once stopped (docs/adr/0021-load-agents.md):
      // a job not yet taken is dropped, one taken learns of the stop at its next heartbeat.
      for (const state of this.states) if (state.status === 'waiting') state.end('done', null);
      this.placeIfAllKnown();
      this.settle();
    }
    await this.result.then(
      () => undefined,
      () => undefined,
    );
  }
}
