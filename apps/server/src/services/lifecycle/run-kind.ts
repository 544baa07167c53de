import type { MessageText } from '../message-text';

/**
 * What differs between the kinds of test (docs/run-lifecycle.md §7): how what was sent is read into the
 * plan that runs, which origins the target guard decides first, whether this server can run it now,
 * which runner starts it, what another replica reads of it while it runs, how a run a dead server left
 * unfinished is rebuilt from what it measured, and the words of its owner's message once it ends. The
 * load runs' adapter is `services/runs/load-kind.ts` (the built-in engine, the external tools and the
 * load agents); the API, script and UI runs' are `services/functional/functional-kinds.ts`. Everything
 * else — the place under the limits, the id, the row, the live runs, the stop, the view shared with the
 * other replicas, the shutdown, the store, the message sent and the recovery's order — is the run
 * lifecycle's (`run-lifecycle.ts`), the same for every kind.
 */

/** A run as its kind read it, before any place is held or anything is stored. */
export interface PreparedRun<Plan> {
  /** The plan as it will run (a Taurus script's read into its calls, a load plan compiled). */
  readonly plan: Plan;
  /** The written-out origins the target guard decides before the run starts; a template host is checked during the run. */
  readonly origins: ReadonlySet<string>;
}

/** What every runner answers as it starts: how to stop it, and its result. */
export interface RunHandle {
  /** Ends the run, keeping what it measured; `result` then settles. */
  stop(): Promise<void>;
  /** Settles when the run ends; rejects only when the runner itself breaks (a failed call is data). */
  readonly result: Promise<unknown>;
}

/** The types one kind's adapter works in, from what is sent to start a run to its owner's message. */
export interface RunKindTypes {
  /** What is sent to start a run. */
  sent: unknown;
  /** The plan as it runs. */
  plan: unknown;
  /** What the service gives the runner as it starts. */
  options: unknown;
  /** The runner's handle. */
  handle: RunHandle;
  /** A run of the kind going on this server, as its service holds it. */
  live: unknown;
  /** What another replica (or its owner's screen there) reads of a live run: JSON. */
  view: unknown;
  /** A run's stored row, as the recovery finds it unfinished. */
  row: unknown;
  /** What the run had measured when its server died, as the recovery reads it back. */
  measured: unknown;
  /** A run's ending, in its table's terms (its store's `storeEnding`). */
  ended: unknown;
  /** A run that ended as its owner's message tells it. */
  outcome: unknown;
}

/** What the lifecycle asks of a going run's kind: its view for the other replicas, and its ending's words. */
export interface RunKindTelling<Live, Outcome> {
  /** What another replica reads of the live run (docs/run-lifecycle.md §4): refreshed while it goes. */
  view(live: Live): unknown;
  /** The words of the owner's message about a run of this kind that ended (docs/reference/02-running.md §2 "Messages"). */
  message(outcome: Outcome): MessageText;
}

/** What the recovery asks of the kind of a run a dead server left unfinished (docs/run-lifecycle.md §6). */
export interface RunKindRecovery<Row, Measured, Ended, Outcome> {
  /** The run rebuilt from what it measured and ended `interrupted` (docs/adr/0016-crash-recovery.md). */
  recover(row: Row, measured: Measured): Ended;
  message(outcome: Outcome): MessageText;
}

/** One kind's adapter (or one adapter for several kinds run alike), over that kind's runners. */
export interface RunKindAdapter<T extends RunKindTypes>
  extends
    RunKindTelling<T['live'], T['outcome']>,
    RunKindRecovery<T['row'], T['measured'], T['ended'], T['outcome']> {
  /**
   * The plan as it will run and the origins to guard, or the refusal in words of one that cannot run (its
   * problems, each under the field it concerns): nothing is stored before it.
   */
  prepare(sent: T['sent']): Promise<PreparedRun<T['plan']>>;
  /** Why this server cannot run it now (a 503 saying what is missing); null when it can. */
  unavailable(sent: T['sent']): Error | null;
  /** Starts the runner; throws when it cannot start (the lifecycle then stores the run failed). */
  start(plan: T['plan'], options: T['options']): T['handle'];
  view(live: T['live']): T['view'];
}
