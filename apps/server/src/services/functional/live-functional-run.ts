import { type CallPlace, type FunctionalRunHandle, KeptCalls, MAX_KEPT_CALLS } from '@aqa/engine';
import {
  type CallResult,
  type FunctionalPlan,
  type FunctionalResult,
  said,
  type Said,
  type TestKind,
} from '@aqa/plan';
import type { LiveEntry, StoppedBy } from '../lifecycle/run-lifecycle';
import type { FunctionalCheckpoint } from './functional-checkpoint';

const FUNCTIONAL_STOPPED_BY_SHUTDOWN_SAID = said('functional.stoppedByShutdown');

/**
 * A run in progress, in memory: what get-test-result answers until the outcome is stored. It keeps the
 * calls the runner's outcome does (KeptCalls: docs/adr/0024-memory-bounds.md), and holds its place in the
 * run lifecycle (docs/run-lifecycle.md) until its outcome is stored.
 */
export class LiveFunctionalRun implements LiveEntry {
  private readonly kept = new KeptCalls();
  /** The first calls judged, as the result lists them. */
  get calls(): CallResult[] {
    return this.kept.calls;
  }
  callsSeen = 0;
  passed = 0;
  validationFailures = 0;
  stopReason: Said | null = null;
  /** A UI run waiting for a browser: its place in the queue, from 1; null once it has one. */
  queuePosition: number | null = null;
  /** Screenshots kept so far (a UI run's), numbering the next. */
  screenshots = 0;
  /** Screenshots being written: waited for before the run's end is stored, after which none is taken. */
  readonly savingScreenshots = new Set<Promise<unknown>>();
  ending = false;
  private resolveStored!: () => void;
  /** Settles once the outcome is stored and the run has left the live set. */
  private readonly stored = new Promise<void>((resolve) => (this.resolveStored = resolve));
  readonly handle: FunctionalRunHandle;

  /** `start` starts the runner, giving it this run to report its calls (add) and queue place to. */
  constructor(
    readonly id: string,
    readonly kind: TestKind,
    readonly userId: string,
    readonly workspaceId: string,
    readonly planId: string | null,
    readonly plan: FunctionalPlan,
    readonly startTime: string,
    /** Writes each judged call to the store as the run goes (docs/adr/0016-crash-recovery.md). */
    readonly checkpoint: FunctionalCheckpoint,
    start: (run: LiveFunctionalRun) => FunctionalRunHandle,
  ) {
    this.handle = start(this);
  }

  /** Its outcome is stored, its owner told and its place given back (RunLifecycle#start). */
  markStored(): void {
    this.resolveStored();
  }

  /** An API, script or UI run has no planned length: it ends when its calls or steps do. */
  plannedEndMs(): null {
    return null;
  }

  async stop(by: StoppedBy): Promise<void> {
    if (by === 'shutdown') this.stopReason = FUNCTIONAL_STOPPED_BY_SHUTDOWN_SAID;
    await this.handle.stop();
    await this.stored;
  }

  add(call: CallResult, place: CallPlace): void {
    this.checkpoint.add(call, place);
    this.callsSeen++;
    if (call.success) this.passed++;
    this.validationFailures += call.validation_details.filter((d) => !d.passed).length;
    this.kept.add(call);
  }

  /** What has been judged so far, as a result (per-API rows and the timeline come with the outcome). */
  result(keep = MAX_KEPT_CALLS): FunctionalResult {
    const kept = this.calls.slice(0, keep);
    return {
      test_id: this.id,
      plan_id: this.planId,
      test_name: this.plan.test_name,
      description: this.plan.description,
      status: 'running',
      test_type: this.plan.test_type,
      source: this.plan.source,
      start_time: this.startTime,
      end_time: null,
      error: null,
      summary: {
        total_requests: this.callsSeen,
        successful_requests: this.passed,
        failed_requests: this.callsSeen - this.passed,
        validation_failures: this.validationFailures,
      },
      validation_results: kept,
      validation_results_total: this.callsSeen,
      calls_omitted: this.callsSeen - kept.length,
      api_results: [],
      timeline_data: [],
      ...(this.queuePosition === null ? {} : { queue_position: this.queuePosition }),
    };
  }
}
