/**
 * What differs between the kinds of test as a run starts (docs/run-lifecycle.md §7): how what was sent is
 * read into the plan that runs, which origins the target guard decides first, whether this server can
 * run it now, and which runner starts it. The load runs' adapter is `services/runs/load-kind.ts` (the
 * built-in engine, the external tools and the load agents); the API, script and UI runs' are
 * `services/functional/functional-kinds.ts`. Everything else — the place under the limits, the id, the
 * row, the live runs, the stop, the shutdown, the store and the message — is the run lifecycle's
 * (`run-lifecycle.ts`), the same for every kind.
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

/** One kind's adapter (or one adapter for several kinds run alike), over that kind's runners. */
export interface RunKindAdapter<Sent, Plan, Options, Handle extends RunHandle> {
  /**
   * The plan as it will run and the origins to guard, or the refusal in words of one that cannot run (its
   * problems, each under the field it concerns): nothing is stored before it.
   */
  prepare(sent: Sent): Promise<PreparedRun<Plan>>;
  /** Why this server cannot run it now (a 503 saying what is missing); null when it can. */
  unavailable(sent: Sent): Error | null;
  /** Starts the runner; throws when it cannot start (the lifecycle then stores the run failed). */
  start(plan: Plan, options: Options): Handle;
}
