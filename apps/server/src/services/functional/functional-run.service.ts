import { randomBytes } from 'node:crypto';
import { type CallPlace, type FunctionalRunOutcome, reasonColumns, type TargetGuard } from '@aqa/engine';
import {
  type CallResult,
  type FunctionalPlan,
  type FunctionalResult,
  type FunctionalStatus,
  type FunctionalStatusResponse,
  type FunctionalSummary,
  kindOf,
  type Phrase,
  said,
  type TestKind,
} from '@aqa/plan';
import type { UiScreenshot } from '@aqa/ui-runner';
import type { FastifyBaseLogger } from 'fastify';
import { type Clock, isoAt } from '../../clock';
import { ConflictError, NotFoundError } from '../../errors';
import type {
  FunctionalRunRepository,
  FunctionalScreenshotRepository,
} from '../../repositories/functional.repository';
import type { AccountUser } from '../account-user';
import type { FunctionalRunEnding, RunNotices } from '../message.service';
import { demoFunctionalRunProblems, demoRunRefusal } from '../demo-account-limits';
import type { RunLaunch, RunLifecycle } from '../lifecycle/run-lifecycle';
import { refuseGuardedOrigins } from '../runs/target-check';
import type { FunctionalPlanService } from './functional-plan.service';
import { FunctionalCheckpoint, type StoredCall } from './functional-checkpoint';
import { storedPlan } from './functional-recovery';
import {
  adapterFor,
  adapterOfStored,
  type FunctionalKind,
  type FunctionalKindAdapter,
} from './functional-kinds';
import { LISTED_CALLS, listedCalls, rowToResult, type StoredCalls, storedStatus } from './functional-rows';
import { withScriptFramework } from './functional-script';
import {
  type FunctionalRunEnded,
  functionalRunEnded,
  type FunctionalRunStarted,
  FunctionalRunStore,
} from './functional-run-store';
import { LiveFunctionalRun } from './live-functional-run';

export const FUNCTIONAL_RUN_MESSAGES = {
  notFound: 'Test result not found',
  screenshotNotFound: 'Screenshot not found',
  running: 'The test is still running: stop it before deleting its result',
  deleted: 'Test result deleted',
} as const;

/** A running result as the list shows it: LISTED_CALLS calls, failing ones first (listedCalls). */
function listed(result: FunctionalResult): FunctionalResult {
  const kept = listedCalls(result.validation_results, LISTED_CALLS);
  return {
    ...result,
    validation_results: kept,
    calls_omitted: (result.validation_results_total ?? kept.length) - kept.length,
  };
}

/** A screenshot label is the runner's word or a script's file name; longer is cut. */
const SCREENSHOT_LABEL_CHARS = 200;

function notFound(): NotFoundError {
  return new NotFoundError('RESULT_NOT_FOUND', FUNCTIONAL_RUN_MESSAGES.notFound);
}

/**
 * Functional runs (docs/reference/02-running.md §7): started from the plan sent (with the saved plan's
 * id when it has one), run by the engine's functional runner off the event loop, held in memory while
 * they run and stored when they end, when the run's status also becomes its plan's. Always the
 * signed-in user's: another user's run or plan is not found. What differs by kind (how the plan is
 * read, guarded and started, its view for the other replicas, its rebuild after a crash, its message's
 * words) is its adapter's (functional-kinds.ts); the place under the limits every kind shares, the id,
 * the row and the ending (FunctionalRunStore), the view shared, the stop from another replica, the
 * shutdown and the recovery are the run lifecycle's (docs/run-lifecycle.md). Every target passes the target guard as a load run's does
 * (docs/adr/0015-target-guard.md). A UI run may wait for a browser (queue_position), and its
 * screenshots are stored with the run (docs/design.md §9 "UI tests"). Each call and step is
 * checkpointed as it is judged, so a run whose server dies ends `interrupted` with what it had judged
 * (docs/adr/0016-crash-recovery.md).
 */
export class FunctionalRunService {
  /** The run table as the lifecycle inserts, ends and tells of each run (docs/run-lifecycle.md §2). */
  private readonly store: FunctionalRunStore;

  constructor(
    private readonly runs: FunctionalRunRepository,
    private readonly plans: FunctionalPlanService,
    /** How each kind reads, guards, starts, shows, rebuilds and words its run (functional-kinds.ts, docs/run-lifecycle.md §7). */
    private readonly kinds: Readonly<Record<FunctionalKind, FunctionalKindAdapter>>,
    private readonly screenshots: FunctionalScreenshotRepository,
    /** The place under the run limits every kind shares, stops from other replicas, shutdown and recovery. */
    private readonly lifecycle: RunLifecycle,
    private readonly guard: TargetGuard,
    private readonly now: Clock,
    private readonly log: FastifyBaseLogger,
    /** Told of every run that ends, once it is stored: the owner's message (docs/reference/02-running.md §2 "Messages"). */
    notices: RunNotices,
  ) {
    this.store = new FunctionalRunStore(runs, plans, notices);
    // At start-up, and in every replica's sweep (docs/adr/0020-server-replicas.md): each run a dead server
    // left running is rebuilt by its kind's adapter from the calls it had checkpointed and ends
    // `interrupted`, and so does its plan's status; it gets its one message, and the screenshots its
    // stored steps do not link to go (docs/adr/0016-crash-recovery.md).
    lifecycle.recoverWith({
      family: 'functional',
      store: this.store,
      unfinished: () => this.runs.unfinished(),
      measured: async (row) => ({
        plan: storedPlan(row.config),
        calls: await this.checkpointedCalls(row.id),
      }),
      kindOf: (row, { plan }) => adapterOfStored(this.kinds, row, plan),
      afterRecovered: () => this.collectOrphans(),
    });
  }

  async start(user: AccountUser, asSent: FunctionalPlan): Promise<{ test_id: string }> {
    // A script every execution of which runs in a browser runs in one, as parse-script reads it.
    const sent = withScriptFramework(asSent);
    const planId = sent.plan_id?.trim() || null;
    // The plan must be the user's: another user's id is "not found", and nothing runs.
    if (planId !== null) await this.plans.assertOwned(user, planId);
    const kind = kindOf(sent);
    const adapter = adapterFor(this.kinds, sent);
    // A plan that cannot run starts nothing.
    const { plan, origins } = await adapter.prepare(sent);
    const demo = demoFunctionalRunProblems(user.email, plan);
    if (demo.length > 0) throw demoRunRefusal(demo, true);
    const unavailable = adapter.unavailable(plan);
    if (unavailable !== null) throw unavailable;
    const run = await this.lifecycle.start(user, async () => {
      // Every written-out host, decided by the guard before the run starts (403 TARGET_REFUSED naming the
      // host and the setting); a host written as a template is asked at every connection during the run.
      await refuseGuardedOrigins(this.guard, origins);
      return this.launch(user, planId, kind, adapter, plan);
    });
    return { test_id: run.id };
  }

  /** The run, ready for the lifecycle to insert, start and store (docs/run-lifecycle.md §1). */
  private launch(
    user: AccountUser,
    planId: string | null,
    kind: TestKind,
    adapter: FunctionalKindAdapter,
    plan: FunctionalPlan,
  ): RunLaunch<FunctionalRunStarted, FunctionalRunEnded, LiveFunctionalRun, FunctionalRunEnding> {
    const startTime = isoAt(this.now());
    return {
      kind,
      store: this.store,
      adapter,
      log: this.log,
      started: (id) => ({
        id,
        user_id: user.id,
        workspace_id: user.workspaceId,
        plan_id: planId,
        test_name: plan.test_name,
        description: plan.description,
        status: 'running',
        test_type: plan.test_type,
        source: plan.source,
        kind,
        config: JSON.stringify(plan),
        start_time: startTime,
      }),
      start: (id) => {
        const startMs = this.now();
        const checkpoint = new FunctionalCheckpoint(
          id,
          this.runs,
          () => this.now() - startMs,
          (err, seq) =>
            this.log.error({ err, runId: id, seq }, 'Could not checkpoint the calls of a functional run'),
        );
        const run = new LiveFunctionalRun(
          id,
          kind,
          user.id,
          user.workspaceId,
          planId,
          plan,
          startTime,
          checkpoint,
          (live) =>
            adapter.start(plan, {
              guard: this.guard.settings(),
              onCall: (call: CallResult, place: CallPlace) => live.add(call, place),
              // A UI run's: one user holds at most AQA_UI_BROWSERS_PER_USER of this server's browsers.
              owner: user.id,
              saveScreenshot: (shot) => this.saveScreenshot(live, shot),
              onQueued: (position) => {
                live.queuePosition = position;
              },
            }),
        );
        return {
          entry: run,
          ended: run.handle.result
            .catch((error: unknown): FunctionalRunOutcome => this.brokenRunner(run, error))
            .then((outcome) => this.ending(run, outcome)),
          // Its view (its result so far) is made again only when a call, its queue place or a screenshot changed it.
          viewVersion: () => `${run.callsSeen}:${run.queuePosition}:${run.screenshots}`,
          settled: () => run.markStored(),
        };
      },
      notStarted: (id, error) => {
        const failed = said('functional.runnerFailed', { reason: messageOf(error) });
        const summary = {
          total_requests: 0,
          successful_requests: 0,
          failed_requests: 0,
          validation_failures: 0,
        };
        const calls: StoredCalls = {
          validation_results: [],
          calls_omitted: 0,
          api_results: [],
          timeline_data: [],
        };
        return this.ended(
          { id, userId: user.id, workspaceId: user.workspaceId, planId, plan },
          'failed',
          reasonColumns(failed),
          summary,
          calls,
        );
      },
    };
  }

  /**
   * The user's runs, newest first (only the newest `limit` when given), each with its first three
   * calls and how many it judged.
   */
  async list(user: AccountUser, limit?: number): Promise<FunctionalResult[]> {
    const rows = await this.runs.listHeadsInWorkspace(user.workspaceId, limit);
    return Promise.all(
      rows.map(async (row) => {
        const live = this.liveRun(user, row.id);
        if (live !== undefined) return listed(live.result());
        const remote = await this.remoteView(row);
        return remote === undefined ? rowToResult(row) : listed(remote);
      }),
    );
  }

  /** The whole result; while running, what has been judged so far (on whichever replica runs it). */
  async result(user: AccountUser, id: string): Promise<FunctionalResult> {
    const live = this.liveRun(user, id);
    if (live !== undefined) return live.result();
    const row = await this.runs.findInWorkspace(user.workspaceId, id);
    if (row === undefined) throw notFound();
    return (await this.remoteView(row)) ?? rowToResult(row);
  }

  /** The result so far of a run another replica owns, as that replica keeps it in Redis. */
  private remoteView(row: { id: string; status: string }): Promise<FunctionalResult | undefined> {
    return this.lifecycle.viewElsewhere<FunctionalResult>(row.id, row.status === 'running');
  }

  async status(user: AccountUser, id: string): Promise<FunctionalStatusResponse> {
    if (this.liveRun(user, id) !== undefined) return { test_id: id, status: 'running' };
    // Only the status column: an ended run's stored calls may be megabytes.
    const status = await this.runs.findStatusInWorkspace(user.workspaceId, id);
    if (status === undefined) throw notFound();
    return { test_id: id, status: storedStatus(status) };
  }

  /** Ends a run within a second, keeping what it measured; a run already over answers its status. */
  async stop(user: AccountUser, id: string): Promise<FunctionalStatusResponse> {
    const live = this.liveRun(user, id);
    if (live !== undefined) {
      await live.stop('user');
    } else if (
      this.lifecycle.hasReplicas &&
      (await this.runs.findStatusInWorkspace(user.workspaceId, id)) === 'running'
    ) {
      // Another replica runs it (docs/adr/0020-server-replicas.md): ask it, and wait for the stored end.
      await this.lifecycle.stopElsewhere(this.store.table, [id]);
    }
    return this.status(user, id);
  }

  /** A screenshot of the user's run, as JPEG bytes; another user's run or shot is not found. */
  async screenshot(user: AccountUser, runId: string, shotId: string): Promise<Buffer> {
    const jpeg = await this.screenshots.findJpegInWorkspace(user.workspaceId, runId, shotId);
    if (jpeg === undefined)
      throw new NotFoundError('SCREENSHOT_NOT_FOUND', FUNCTIONAL_RUN_MESSAGES.screenshotNotFound);
    return jpeg;
  }

  async delete(user: AccountUser, id: string): Promise<void> {
    if (this.liveRun(user, id) !== undefined)
      throw new ConflictError('RUN_IN_PROGRESS', FUNCTIONAL_RUN_MESSAGES.running);
    if (await this.runs.deleteEndedInWorkspace(user.workspaceId, id)) return;
    if ((await this.runs.findStatusInWorkspace(user.workspaceId, id)) === undefined) throw notFound();
    throw new ConflictError('RUN_IN_PROGRESS', FUNCTIONAL_RUN_MESSAGES.running);
  }

  /** A run's checkpointed calls in the order judged; a row that does not read is passed over, said in the log. */
  private async checkpointedCalls(runId: string): Promise<StoredCall[]> {
    const calls: StoredCall[] = [];
    for (const text of await this.runs.callsOf(runId)) {
      try {
        const row: unknown = JSON.parse(text);
        if (!Array.isArray(row)) throw new Error('not a list of calls');
        calls.push(...(row as StoredCall[]));
      } catch (err) {
        this.log.error(
          { err, runId },
          'A checkpoint of a functional run does not read; its calls are left out',
        );
      }
    }
    return calls;
  }

  /**
   * Removes stored evidence linked to nothing (FunctionalRunRepository#collectOrphans): at start-up, and
   * after a sweep that ended a dead replica's runs.
   */
  async collectOrphans(): Promise<void> {
    const collected = await this.runs.collectOrphans();
    if (collected.screenshots + collected.calls > 0) {
      this.log.warn(collected, 'Removed stored screenshots and calls of functional runs linked to nothing');
    }
  }

  /** The user's API, script or UI run going on this server. */
  private liveRun(user: AccountUser, id: string): LiveFunctionalRun | undefined {
    const live = this.lifecycle.find(user, id);
    return live instanceof LiveFunctionalRun ? live : undefined;
  }

  /**
   * Keeps a UI run's screenshot with the run (deleted with it) and answers its id. One taken once the
   * run's end is being stored is refused, so none is left behind linked to no step.
   */
  private async saveScreenshot(run: LiveFunctionalRun, shot: UiScreenshot): Promise<string> {
    if (run.ending) throw new Error('The run has ended: its screenshots are stored');
    const id = `ss_${randomBytes(12).toString('base64url')}`;
    run.screenshots += 1;
    const saving = this.screenshots.insert({
      id,
      run_id: run.id,
      seq: run.screenshots,
      label: shot.label.slice(0, SCREENSHOT_LABEL_CHARS),
      failure: shot.failure ? 1 : 0,
      jpeg: shot.jpeg,
      created_at: isoAt(this.now()),
    });
    run.savingScreenshots.add(saving);
    try {
      await saving;
    } finally {
      run.savingScreenshots.delete(saving);
    }
    return id;
  }

  /** A runner that broke (not a failed call: those are data) ends the run failed, keeping its calls. */
  private brokenRunner(run: LiveFunctionalRun, error: unknown): FunctionalRunOutcome {
    const live = run.result();
    const message = error instanceof Error ? error.message : String(error);
    const failed = said('functional.runnerFailed', { reason: message });
    return {
      status: 'failed',
      start_time: run.startTime,
      end_time: isoAt(this.now()),
      ...reasonColumns(failed),
      summary: live.summary,
      validation_results: live.validation_results,
      calls_omitted: live.calls_omitted ?? 0,
      api_results: [],
      timeline_data: [],
    };
  }

  /**
   * How the run ended, once its checkpoint and screenshots are written, so that its ending is its last
   * write (the lifecycle stores it).
   */
  private async ending(run: LiveFunctionalRun, outcome: FunctionalRunOutcome): Promise<FunctionalRunEnded> {
    const calls: StoredCalls = {
      validation_results: outcome.validation_results,
      calls_omitted: outcome.calls_omitted,
      api_results: outcome.api_results,
      timeline_data: outcome.timeline_data,
    };
    const reason =
      outcome.error !== null
        ? { error: outcome.error, error_phrase: outcome.error_phrase }
        : reasonColumns(run.stopReason);
    run.ending = true;
    await Promise.allSettled([...run.savingScreenshots]);
    await run.checkpoint.close();
    return this.ended(run, outcome.status, reason, outcome.summary, calls);
  }

  /** A run's ending in its table's terms and its owner's message, ended now. */
  private ended(
    run: { id: string; userId: string; workspaceId: string; planId: string | null; plan: FunctionalPlan },
    status: Exclude<FunctionalStatus, 'running'>,
    reason: { error: string | null; error_phrase: Phrase | null },
    summary: FunctionalSummary,
    calls: StoredCalls,
  ): FunctionalRunEnded {
    return functionalRunEnded(
      {
        id: run.id,
        userId: run.userId,
        workspaceId: run.workspaceId,
        planId: run.planId,
        name: run.plan.test_name,
      },
      { status, ...reason, summary, calls, endTime: isoAt(this.now()) },
    );
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
