import { type TargetGuard, endLeftoverTool, PlanCompileError, type ToolProcessRecord } from '@aqa/engine';
import enginePackage from '@aqa/engine/package.json' with { type: 'json' };
import type { ChartData, EngineInfo, PastRun, RunStarted, StoredStatus, TestResult } from '@aqa/plan';
import type { FastifyBaseLogger } from 'fastify';
import type { Replicas } from '../../cluster/replicas';
import { NotFoundError } from '../../errors';
import type { PlanRepository } from '../../repositories/plan.repository';
import type { RunRepository, RunViewRow } from '../../repositories/run.repository';
import type { AccountUser } from '../account-user';
import type { AgentPlacement } from '../agents/agent-placement';
import type { RunLaunch, RunLifecycle } from '../lifecycle/run-lifecycle';
import type { RunNotices } from '../message.service';
import { PLAN_MESSAGES } from '../plan.service';
import { rowToPlan } from '../saved-plan';
import { LiveRun } from './live-run';
import type { LiveListener } from './live-stream-output';
import {
  chartDataView,
  isLive,
  pastRunView,
  testResultView,
  type RunConfig,
  type RunRecord,
  type StepInfo,
} from './run-model';
import { planForRun, RUN_MESSAGES, runSeconds, type RunTestRequest } from './run-request';
import { annotationsOf, rowToPoint, rowToRecord, rowToState } from './run-rows';
import { type EndedLoadRecord, type LoadRunEnded, LoadRunStore } from './load-run-store';
import type { RunnerChoice, RunnerRegistry } from './runner';
import { refuseGuardedOrigins } from './target-check';
import { goingLoadRun } from './load-run-going';
import { compileError, LoadKind, type LoadRunPlan, type LoadRunSent, type LoadRunView } from './load-kind';
import type { ToolDetector } from './tool-detector';

/** Runs per page of GET /api/get-test-results when the caller names no limit. */
const DEFAULT_PAGE_SIZE = 100;

export interface StreamSubscription {
  /** The run as get-test-result answers it, at the moment of subscribing. */
  initial: TestResult;
  /** Stops the events; null when the run is already over (nothing will follow). */
  unsubscribe: (() => void) | null;
}

/**
 * Performance runs (docs/reference/02-running.md §4, docs/design.md §4): starting one from a saved plan (refused, with the
 * reason, when the plan cannot run, no target answers, or a limit is reached), following it live,
 * stopping it, and reading it back. A run is stored as it goes (one row of points a second) and
 * once more when it ends; runs are always the signed-in user's: another user's run is not found. How a
 * run is read, guarded, started, shown to another replica, rebuilt after a crash and worded in its
 * message is its kind adapter's (LoadKind); its place under the limits, its id, row and ending
 * (LoadRunStore), its view shared, its stop from another replica, the shutdown and the recovery are the
 * run lifecycle's (docs/run-lifecycle.md).
 */
export class RunService {
  /** The run table as the lifecycle inserts, ends and tells of each run (docs/run-lifecycle.md §2). */
  private readonly store: LoadRunStore;
  /** How a load run is read, guarded, started, shown, rebuilt and worded, over the runners (docs/run-lifecycle.md §7). */
  private readonly load: LoadKind;

  constructor(
    private readonly runs: RunRepository,
    private readonly plans: PlanRepository,
    private readonly lifecycle: RunLifecycle,
    runners: RunnerRegistry,
    private readonly tools: ToolDetector,
    private readonly log: FastifyBaseLogger,
    /** Asked about every host of a plan before its run starts (docs/adr/0015-target-guard.md). */
    private readonly guard: TargetGuard,
    /** Told of every run that ends, once it is stored: the owner's message (docs/reference/02-running.md §2 "Messages"). */
    notices: RunNotices,
    /** The other server replicas: runs they own are read and streamed through Redis. */
    private readonly replicas: Replicas,
  ) {
    this.store = new LoadRunStore(runs, notices);
    this.load = new LoadKind(runners, guard, log);
    // At start-up and in every sweep (docs/adr/0016-crash-recovery.md): the tools a dead server left are
    // ended first; then each run it left unfinished is rebuilt by LoadKind#recover from its stored seconds.
    lifecycle.recoverWith({
      family: 'load',
      store: this.store,
      before: (alive) => this.endLeftoverTools(alive),
      unfinished: () => this.runs.unfinished(),
      measured: async (row) => (await this.runs.pointsOf(row.id)).map(rowToPoint),
      kindOf: () => this.load,
      // Clients following it through another replica learn it is over.
      afterEnded: (id) => this.replicas.relay?.publish(id, { type: 'end' }),
    });
  }

  async start(user: AccountUser, request: RunTestRequest): Promise<RunStarted> {
    const saved = await this.plans.findInWorkspace(user.workspaceId, request.plan_id);
    if (saved === undefined) throw new NotFoundError('PLAN_NOT_FOUND', PLAN_MESSAGES.notFound);
    const plan = planForRun(rowToPlan(saved), request, user.email);
    const sent: LoadRunSent = {
      plan,
      durationSeconds: runSeconds(plan, request),
      engine: request.engine,
      agents: request.agents,
    };
    const prepared = await this.load.prepare(sent);
    // The cheap refusal first: a server without Redis refuses a run on agents before any target is probed.
    const unavailable = this.load.unavailable(sent);
    if (unavailable !== null) throw unavailable;
    // Chosen as the run is prepared: the answer names the engine that runs it.
    let choice!: RunnerChoice;
    let live: LiveRun;
    try {
      live = await this.lifecycle.start(user, async () => {
        await refuseGuardedOrigins(this.guard, prepared.origins);
        choice = await this.load.choose(user, sent, prepared.plan);
        return this.launch(user, saved.id, prepared.plan, choice);
      });
    } catch (err) {
      // A runner that refuses the plan as it starts says why, as the compile would have.
      if (err instanceof PlanCompileError) throw compileError(err);
      throw err;
    }
    return { test_id: live.id, status: 'running', engine: choice.runner.engine, engine_note: choice.note };
  }

  /** Lets runs ask for load agents (`agents: N`); without it such a run is refused in words. */
  useAgents(placement: AgentPlacement): void {
    this.load.useAgents(placement);
  }

  /** The user's runs, newest first (a live run with its current figures), and their total. */
  async list(
    user: AccountUser,
    query: {
      planId?: string | undefined;
      status?: StoredStatus | undefined;
      limit?: number | undefined;
      offset?: number | undefined;
    },
  ): Promise<{ runs: PastRun[]; total: number }> {
    const { rows, total } = await this.runs.listInWorkspace(user.workspaceId, {
      planId: query.planId,
      status: query.status,
      limit: query.limit ?? DEFAULT_PAGE_SIZE,
      offset: query.offset ?? 0,
    });
    const now = Date.now();
    return { runs: await Promise.all(rows.map((row) => this.pastRunOf(user, row, now))), total };
  }

  /** One run as the list shows it; 404 when the user has no run with this id. */
  async pastRun(user: AccountUser, id: string): Promise<PastRun> {
    const row = await this.runs.findViewInWorkspace(user.workspaceId, id);
    if (row === undefined) throw new NotFoundError('RUN_NOT_FOUND', RUN_MESSAGES.notFound);
    return this.pastRunOf(user, row, Date.now());
  }

  private async pastRunOf(user: AccountUser, row: RunViewRow, nowMs: number): Promise<PastRun> {
    const record =
      this.liveRun(user, row.id)?.toRecord() ?? (await this.remoteView(row))?.record ?? rowToState(row);
    return pastRunView(record, nowMs, annotationsOf(row));
  }

  async result(user: AccountUser, id: string): Promise<TestResult> {
    return testResultView(await this.record(user, id), Date.now());
  }

  /** The run now, and its live events from here on (while it runs). */
  async subscribe(user: AccountUser, id: string, listener: LiveListener): Promise<StreamSubscription> {
    const live = this.liveRun(user, id);
    if (live !== undefined) {
      const unsubscribe = live.stream.subscribe(listener);
      return { initial: testResultView(live.toRecord(), Date.now()), unsubscribe };
    }
    return this.subscribeElsewhere(user, id, listener);
  }

  /**
   * A run another replica owns (docs/adr/0020-server-replicas.md): its events relayed from Redis. The
   * channel is subscribed before the status is read again, so an end between the two is not missed.
   */
  private async subscribeElsewhere(
    user: AccountUser,
    id: string,
    listener: LiveListener,
  ): Promise<StreamSubscription> {
    const relay = this.replicas.relay;
    const before = await this.result(user, id);
    if (relay === null || !isLive(before.status)) return { initial: before, unsubscribe: null };
    const unsubscribe = await relay.listen(id, listener);
    try {
      const initial = await this.result(user, id);
      if (isLive(initial.status)) return { initial, unsubscribe };
      unsubscribe();
      return { initial, unsubscribe: null };
    } catch (error) {
      unsubscribe();
      throw error;
    }
  }

  /** Graceful stop; resolves once the partial result is stored. A finished run is left as it is. */
  async stop(user: AccountUser, id: string): Promise<{ test_id: string; status: TestResult['status'] }> {
    const live = this.liveRun(user, id);
    if (live !== undefined) await live.stop('user');
    else await this.stopElsewhere(user, [id]);
    const { status } = await this.result(user, id);
    return { test_id: id, status };
  }

  /** Stops every run of the user (and no one else's), on every replica; returns their ids. */
  async stopAll(user: AccountUser): Promise<{ stopped: string[] }> {
    const mine = this.lifecycle.runningOf(user).filter((run) => run instanceof LiveRun);
    const elsewhere = !this.lifecycle.hasReplicas
      ? []
      : (
          await this.runs.listInWorkspace(user.workspaceId, { status: 'running', limit: 1000, offset: 0 })
        ).rows
          .map((row) => row.id)
          .filter((id) => !this.lifecycle.runsHere(id));
    await Promise.all([...mine.map((run) => run.stop('user')), this.stopElsewhere(user, elsewhere)]);
    return { stopped: [...mine.map((run) => run.id), ...elsewhere] };
  }

  /** Has the replica that owns each of the user's unfinished runs stop it (RunLifecycle#stopElsewhere). */
  private async stopElsewhere(user: AccountUser, ids: string[]): Promise<void> {
    if (!this.lifecycle.hasReplicas) return;
    const unfinished: string[] = [];
    for (const id of ids) {
      const row = await this.runs.findInWorkspace(user.workspaceId, id);
      if (row !== undefined && isLive(row.status)) unfinished.push(id);
    }
    await this.lifecycle.stopElsewhere(this.store.table, unfinished);
  }

  async chartData(user: AccountUser, id: string): Promise<ChartData> {
    const live = this.liveRun(user, id);
    if (live !== undefined) {
      const points = (await this.runs.pointsOf(id)).map(rowToPoint);
      return chartDataView(live.toRecord(), points, live.histogram());
    }
    const row = await this.runs.findInWorkspace(user.workspaceId, id);
    if (row === undefined) throw new NotFoundError('RUN_NOT_FOUND', RUN_MESSAGES.notFound);
    const remote = await this.remoteView(row);
    const record = remote?.record ?? rowToRecord(row);
    const points = (await this.runs.pointsOf(id)).map(rowToPoint);
    return chartDataView(record, points, remote === undefined ? record.histogram : remote.histogram);
  }

  async engines(): Promise<EngineInfo[]> {
    const builtin: EngineInfo = {
      tool: 'builtin',
      name: 'Built-in engine',
      installed: true,
      version: enginePackage.version,
      command: null,
      usable: true,
      reason: null,
    };
    return [builtin, ...(await this.tools.detectAll())];
  }

  /**
   * Before a sweep's runs, through the run lifecycle (docs/adr/0016-crash-recovery.md): the tools a
   * server that died left running are ended and their folders removed.
   */
  private async endLeftoverTools(alive: ReadonlySet<string>): Promise<void> {
    const servers = await this.replicas.instances.all();
    const processes = await this.runs.processes();
    const owners = await this.replicas.serversOfRuns([...new Set(processes.map((row) => row.run_id))]);
    for (const row of processes) {
      // Only a dead server's tools, and only on this machine (docs/adr/0020-server-replicas.md): a live
      // replica's are its own, and a pid means nothing on another host. Runs before 0013 have no server.
      const owner = owners.get(row.run_id) ?? null;
      const server = owner === null ? undefined : servers.get(owner);
      if (owner !== null && (alive.has(owner) || server?.host !== this.replicas.instances.host)) continue;
      const outcome = await endLeftoverTool({
        pid: row.pid,
        startTicks: row.start_ticks,
        workDir: row.work_dir,
      });
      this.log.warn(
        { runId: row.run_id, pid: row.pid, dir: row.work_dir, outcome },
        outcome === 'ended'
          ? 'Ended a tool left running by the last server process, and removed its folder'
          : 'A tool of the last server process had already ended; removed its folder',
      );
      await this.runs.forgetProcesses(row.run_id);
    }
  }

  /** The user's load run going on this server. */
  private liveRun(user: AccountUser, id: string): LiveRun | undefined {
    const live = this.lifecycle.find(user, id);
    return live instanceof LiveRun ? live : undefined;
  }

  private async record(user: AccountUser, id: string): Promise<RunRecord> {
    const live = this.liveRun(user, id);
    if (live !== undefined) return live.toRecord();
    const row = await this.runs.findInWorkspace(user.workspaceId, id);
    if (row === undefined) throw new NotFoundError('RUN_NOT_FOUND', RUN_MESSAGES.notFound);
    return (await this.remoteView(row))?.record ?? rowToRecord(row);
  }

  /**
   * The live view of a run the database says is going on and another replica owns, as that replica keeps
   * it in Redis (docs/adr/0020-server-replicas.md); undefined for a run that is over, or without a view.
   */
  private remoteView(row: { id: string; status: string }): Promise<LoadRunView | undefined> {
    return this.lifecycle.viewElsewhere<LoadRunView>(row.id, isLive(row.status));
  }

  /** The run, ready for the lifecycle to insert, start and store (docs/run-lifecycle.md §1). */
  private launch(
    user: AccountUser,
    planId: string,
    prepared: LoadRunPlan,
    choice: RunnerChoice,
  ): RunLaunch<RunRecord, LoadRunEnded, LiveRun, EndedLoadRecord> {
    const { plan, compiled, durationSeconds } = prepared;
    const steps: StepInfo[] = compiled.info.map((info, index) => ({ index, ...info }));
    const { script: _script, data_files: _files, ...planAsRun } = plan;
    const config: RunConfig = { plan: planAsRun, duration_seconds: durationSeconds, steps };
    // Run times are physical: the engine measures them with the real clock.
    const startedAt = new Date().toISOString();
    const recordOf = (id: string): RunRecord => ({
      id,
      user_id: user.id,
      workspace_id: user.workspaceId,
      plan_id: planId,
      plan_name: plan.name,
      status: 'running',
      tool: plan.tool,
      engine: choice.runner.engine,
      engine_note: choice.note,
      config,
      concurrent_users: plan.concurrent_users,
      duration_seconds: durationSeconds,
      started_at: startedAt,
      ended_at: null,
      error: null,
      error_details: null,
      summary: null,
      api_results: [],
      errors: {},
      histogram: null,
    });
    return {
      kind: 'load',
      store: this.store,
      adapter: this.load,
      log: this.log.child({ planId }),
      started: recordOf,
      start: (id, view) => {
        const record = recordOf(id);
        const log = this.log.child({ runId: id, planId });
        const onToolProcess = (tool: ToolProcessRecord): void => this.recordProcess(id, tool, log);
        const handle = this.load.start(prepared, { choice, logger: log, onToolProcess, runId: id });
        const live = new LiveRun(record, handle);
        log.info(
          { engine: record.engine, users: record.concurrent_users, durationSeconds, steps: steps.length },
          'Run started',
        );
        return goingLoadRun(live, this.runs, this.replicas.relay, view, log);
      },
      notStarted: (id, err) => {
        const error = err instanceof Error ? err.message : String(err);
        const ended = { status: 'failed' as const, error, ended_at: new Date().toISOString() };
        return {
          userId: user.id,
          workspaceId: user.workspaceId,
          columns: ended,
          record: { ...recordOf(id), ...ended },
        };
      },
    };
  }

  /** Records a tool process of the run, so a later start can end it if this server dies. */
  private recordProcess(runId: string, tool: ToolProcessRecord, log: FastifyBaseLogger): void {
    const row = {
      run_id: runId,
      pid: tool.pid,
      start_ticks: tool.startTicks,
      work_dir: tool.workDir,
      started_at: new Date().toISOString(),
    };
    this.runs.recordProcess(row).catch((err: unknown) => {
      log.error({ err, pid: tool.pid }, 'Could not record the tool process of the run');
    });
  }
}
