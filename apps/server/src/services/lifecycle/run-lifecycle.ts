import type { TestKind } from '@aqa/plan';
import type { FastifyBaseLogger } from 'fastify';
import type { SharedView } from '../../cluster/live-relay';
import type { Replicas } from '../../cluster/replicas';
import { RateLimitedError } from '../../errors';
import type { RunTable } from '../../repositories/server-instance.repository';
import type { AccountUser } from '../account-user';
import { DEMO_RUN_LIMITS, isDemoAccount } from '../demo-account-limits';
import { type LiveEntry, LiveRuns, type Place } from './live-runs';
import type { RunKindRecovery, RunKindTelling } from './run-kind';
import { newRunId, type RunStore } from './run-store';

export type { LiveEntry, Place, StoppedBy } from './live-runs';
export type { RunStore } from './run-store';

export interface RunLimits {
  /** Runs one user may have going at once, of every kind (MAX_RUNS_PER_USER). */
  perUser: number;
  /** Runs the server may have going at once, of every kind (MAX_RUNS_PER_SERVER). */
  perServer: number;
}

/** The two stores of runs: load runs (`runs`), and API, script and UI runs (`functional_runs`). */
export type RunFamily = 'load' | 'functional';

/** A stored run as the recovery finds it unfinished: its id and the server that ran it. */
export interface UnfinishedRow {
  readonly id: string;
  /** Null for a run stored before scale-out (docs/adr/0020-server-replicas.md): this database's only server's. */
  readonly server_id: string | null;
}

/**
 * One family's runs as the recovery reads them back (docs/run-lifecycle.md §6): where they are stored,
 * what each had measured, and the kind's adapter that rebuilds each and words its message.
 */
export interface RunRecovery<Row extends UnfinishedRow, Measured, Ended, Outcome> {
  readonly family: RunFamily;
  /** The table the family's runs are stored in, and how their owners are told. */
  readonly store: RunStore<unknown, Ended, Outcome>;
  /** Before the runs: what a dead server left besides its rows is ended (a load run's tools). */
  before?(alive: ReadonlySet<string>): Promise<void>;
  /** The family's runs whose stored status is unfinished, on every server. */
  unfinished(): Promise<Row[]>;
  /** What the run had stored as it went (a load run's seconds, a functional run's checkpointed calls). */
  measured(row: Row): Promise<Measured>;
  /** The adapter of the run's kind. */
  kindOf(row: Row, measured: Measured): RunKindRecovery<Row, Measured, Ended, Outcome>;
  /** Once a run is ended and told here: whoever follows it through another replica learns it is over. */
  afterEnded?(id: string): void;
  /** Once this sweep ended runs: what the crash left linked to nothing is removed. */
  afterRecovered?(): Promise<void>;
}

/** The view of a going run the lifecycle shares with the other replicas (docs/run-lifecycle.md §4). */
export interface ViewShare {
  /** Shares the view again now: the run moved (a load run's second). */
  refresh(): void;
}

/** A run its kind has prepared, ready to start under the id the lifecycle makes (docs/run-lifecycle.md §1). */
export interface RunLaunch<Started, Ended, Entry extends LiveEntry, Outcome> {
  readonly kind: TestKind;
  /** The table the run is stored in, and how its owner is told. */
  readonly store: RunStore<Started, Ended, Outcome>;
  /** The run's kind: its view for the other replicas, and its message's words. */
  readonly adapter: RunKindTelling<Entry, Outcome>;
  /** The run's row as it starts. */
  started(id: string): Started;
  /** Starts the runner; throws when it cannot. `view` refreshes its shared view. */
  start(id: string, view: ViewShare): GoingRun<Ended, Entry>;
  /** The ending stored and told of a run whose runner could not start. */
  notStarted(id: string, error: unknown): Ended;
  /** Where what happens to the run is said. */
  readonly log: FastifyBaseLogger;
}

/** A run whose runner started: its entry in the live runs, and how it ends. */
export interface GoingRun<Ended, Entry extends LiveEntry> {
  readonly entry: Entry;
  /** Settles, never rejecting, once the run is over and its own writes are done: its ending, to store. */
  readonly ended: Promise<Ended>;
  /**
   * What changes the run's view, when the view is refreshed each second whether or not the run moved: an
   * unchanged version only keeps the view in Redis alive, without making it again.
   */
  readonly viewVersion?: () => string;
  /** Once its ending is stored: whoever follows the run learns it is over. Never rejects. */
  afterStored?(): Promise<void>;
  /** Once the run is stored, told and its place given back: a stop of it resolves. */
  settled(): void;
}

/**
 * The one lifecycle of a run on this server, whatever its kind (docs/run-lifecycle.md): the order a run
 * starts and ends in (reserve, id, insert, occupy, store, notify, release), the place under the limits,
 * the live runs, the view shared with the other replicas, a stop asked by another replica and a stop
 * asked of one, the shutdown and the recovery of a dead server's runs. The run services ask their kind's
 * adapter (run-kind.ts) to prepare and start a run, and read their runs back; the lifecycle asks it for
 * the run's view, its rebuild after a crash and its message's words, so that every kind starts, counts,
 * shows, stops, stores, tells and recovers the same way.
 */
export class RunLifecycle {
  private readonly live = new LiveRuns();
  private readonly recoveries: (() => Promise<[RunFamily, number]>)[] = [];

  constructor(
    private readonly limits: RunLimits,
    /** The other server replicas: runs they own are stopped through Redis (docs/adr/0020-server-replicas.md). */
    private readonly replicas: Replicas,
    private readonly log: FastifyBaseLogger,
  ) {
    replicas.relay?.onStopRequest((runId) => this.stopForReplica(runId));
  }

  /**
   * Holds a place under the limits, or refuses with the number and what to do (a 429 with Retry-After).
   * Every kind holds its place for as long as it runs, so load, API, script and UI runs share
   * MAX_RUNS_PER_USER and MAX_RUNS_PER_SERVER. MAX_RUNS_PER_USER counts the user's runs on every replica
   * (docs/adr/0020-server-replicas.md); MAX_RUNS_PER_SERVER is each replica's own.
   */
  async reserve(user: AccountUser): Promise<Place> {
    // This server's place is held before the other replicas are asked, so two starts here cannot both
    // take the last one.
    const place = this.reserveHere(user);
    try {
      const elsewhere = await this.replicas.runningElsewhere(user.id);
      if (elsewhere > 0) {
        const here = this.live.counts(user.id).user - 1;
        this.refuseOverUserLimit(user, here + elsewhere);
      }
      return place;
    } catch (error) {
      place.release();
      throw error;
    }
  }

  /**
   * Starts a run of the user, the same way for every kind (docs/run-lifecycle.md §1): a place reserved
   * under the limits, the run prepared by its kind (`prepare` refuses in words a run that cannot start),
   * its id made, its row inserted, its runner started and its place occupied; then, once it is over, its
   * ending stored, its followers and its owner told, and its place released. A runner that cannot start
   * ends the run `failed`, stored and told, and the error is thrown. Answers the run's live entry.
   */
  async start<Started, Ended, Entry extends LiveEntry, Outcome>(
    user: AccountUser,
    prepare: () => Promise<RunLaunch<Started, Ended, Entry, Outcome>>,
  ): Promise<Entry> {
    const place = await this.reserve(user);
    try {
      const launch = await prepare();
      const id = newRunId(launch.kind);
      await launch.store.insertStarted(launch.started(id), this.replicas.serverId);
      let going: GoingRun<Ended, Entry>;
      // Shared once the runner started; a second measured before then has nothing to refresh.
      let shared: SharedView | undefined = undefined;
      try {
        going = launch.start(id, { refresh: () => shared?.refresh() });
      } catch (error) {
        const ended = launch.notStarted(id, error);
        await launch.store.storeEnding(id, ended);
        await launch.store.notify(id, ended, (outcome) => launch.adapter.message(outcome));
        throw error;
      }
      const { entry } = going;
      // Its view, for the other replicas to read while it goes (docs/adr/0020-server-replicas.md).
      shared = this.replicas.relay?.shareView(id, () => launch.adapter.view(entry), going.viewVersion);
      place.occupy(entry);
      void this.finish(id, launch, going, place, shared);
      return going.entry;
    } catch (error) {
      place.release();
      throw error;
    }
  }

  /** Stores a run's ending once it is over, tells its followers and its owner, and releases its place. Never rejects. */
  private async finish<Started, Ended, Entry extends LiveEntry, Outcome>(
    id: string,
    launch: RunLaunch<Started, Ended, Entry, Outcome>,
    going: GoingRun<Ended, Entry>,
    place: Place,
    shared: SharedView | undefined,
  ): Promise<void> {
    const { store } = launch;
    const log = launch.log.child({ runId: id });
    let viewShared = shared !== undefined;
    const stopSharing = () => {
      if (viewShared) shared?.stop();
      viewShared = false;
    };
    try {
      const ended = await going.ended;
      let stored = false;
      try {
        stored = await store.storeEnding(id, ended);
      } catch (err) {
        log.error({ err }, 'The ending of a run could not be stored');
      }
      // From now on its stored ending answers, on every replica.
      stopSharing();
      await going.afterStored?.();
      // Told once stored: the message links to the run as the store has it.
      if (stored) await store.notify(id, ended, (outcome) => launch.adapter.message(outcome));
    } catch (err) {
      log.error({ err }, 'A run could not be ended');
    } finally {
      stopSharing();
      place.release();
      going.settled();
    }
  }

  /** The workspace's run going on this server; undefined for another's, or one not going here. */
  find(user: AccountUser, id: string): LiveEntry | undefined {
    const live = this.live.get(id);
    return live !== undefined && live.workspaceId === user.workspaceId ? live : undefined;
  }

  /** The workspace's runs going on this server. */
  runningOf(user: AccountUser): LiveEntry[] {
    return this.live.ofWorkspace(user.workspaceId);
  }

  /** Whether this server runs the run (for any user). */
  runsHere(id: string): boolean {
    return this.live.get(id) !== undefined;
  }

  /**
   * Asks the replica that owns each run to stop it (docs/adr/0020-server-replicas.md), and waits, bounded,
   * until its stored status is final. The caller passes the runs it found unfinished in `table`; without
   * Redis there is no other replica and nothing is asked.
   */
  async stopElsewhere(table: RunTable, ids: readonly string[]): Promise<void> {
    const relay = this.replicas.relay;
    if (relay === null) return;
    await Promise.all(
      ids.map(async (id) => {
        await relay.requestStop(id);
        await this.replicas.waitUntilEnded(table, id);
      }),
    );
  }

  /**
   * The live view of a run another replica owns, as that replica keeps it in Redis
   * (docs/adr/0020-server-replicas.md): undefined without Redis, for a run whose stored status is over
   * (`unfinished` false), or when no view could be read (said in the log).
   */
  async viewElsewhere<View>(id: string, unfinished: boolean): Promise<View | undefined> {
    const relay = this.replicas.relay;
    if (relay === null || !unfinished) return undefined;
    try {
      return await relay.readView<View>(id);
    } catch (err) {
      this.log.warn({ err, runId: id }, 'Could not read the live view of a run from Redis');
      return undefined;
    }
  }

  /** Whether another replica may own a run: only with Redis (docs/adr/0020-server-replicas.md). */
  get hasReplicas(): boolean {
    return this.replicas.relay !== null;
  }

  /** Adds a family's recovery; recoveries run in the order added (load first: it ends left-over tools). */
  recoverWith<Row extends UnfinishedRow, Measured, Ended, Outcome>(
    recovery: RunRecovery<Row, Measured, Ended, Outcome>,
  ): void {
    this.recoveries.push(async () => [recovery.family, await this.recover(recovery)]);
  }

  /**
   * At start-up and in every replica's sweep (cluster/sweeper.ts): every run a dead server left unfinished
   * ends `interrupted`, keeping what it measured. Answers how many, by family.
   */
  async recoverInterrupted(): Promise<Record<RunFamily, number>> {
    const ended: Record<RunFamily, number> = { load: 0, functional: 0 };
    for (const recover of this.recoveries) {
      const [family, count] = await recover();
      ended[family] += count;
    }
    return ended;
  }

  /**
   * Ends each run of the family whose server is not alive as `interrupted`, rebuilt by its kind's adapter
   * from what it measured, and tells its owner in the adapter's words (docs/adr/0016-crash-recovery.md);
   * answers how many this call ended (another replica may end some first).
   */
  private async recover<Row extends UnfinishedRow, Measured, Ended, Outcome>(
    recovery: RunRecovery<Row, Measured, Ended, Outcome>,
  ): Promise<number> {
    const alive = await this.replicas.aliveIds();
    await recovery.before?.(alive);
    // A run whose server is alive goes on there; one before 0013 (no server) was this database's only.
    const rows = (await recovery.unfinished()).filter(
      (row) => row.server_id === null || !alive.has(row.server_id),
    );
    let interrupted = 0;
    for (const row of rows) {
      const measured = await recovery.measured(row);
      const kind = recovery.kindOf(row, measured);
      const ended = kind.recover(row, measured);
      // Conditional: of two replicas ending it at once, one does, and writes the one message.
      if (!(await recovery.store.storeEnding(row.id, ended, true))) continue;
      interrupted++;
      await recovery.store.notify(row.id, ended, (outcome) => kind.message(outcome));
      recovery.afterEnded?.(row.id);
    }
    // A crash is what leaves evidence linked to nothing: look for it once one was found.
    if (interrupted > 0) await recovery.afterRecovered?.();
    return interrupted;
  }

  /**
   * At shutdown: the starts being prepared are waited for, so no run starts unseen; then every run of
   * every kind stops with the server's reason and is stored.
   */
  async shutdown(): Promise<void> {
    await this.live.startsPrepared();
    await Promise.all(this.live.all().map((run) => run.stop('shutdown')));
  }

  /** A stop request from another replica: acted on when this server runs the run. */
  private stopForReplica(runId: string): void {
    const live = this.live.get(runId);
    if (live === undefined) return;
    this.log.info({ runId, kind: live.kind }, 'Stopping a run at the request of another replica');
    void live.stop('user');
  }

  /** The user's limit: the demo account's password is public, so one run at a time for it. */
  private perUserLimit(user: AccountUser): number {
    // docs/adr/0018-safe-defaults-and-lockout.md
    return isDemoAccount(user.email)
      ? Math.min(DEMO_RUN_LIMITS.runsAtOnce, this.limits.perUser)
      : this.limits.perUser;
  }

  private refuseOverUserLimit(user: AccountUser, going: number): void {
    const n = this.perUserLimit(user);
    if (going < n) return;
    throw new RateLimitedError(
      'RUN_LIMIT_USER',
      `You already have ${n} ${n === 1 ? 'test' : 'tests'} running. Stop one or wait for it to finish.`,
      secondsUntilOneEnds(this.live.ofUser(user.id)),
    );
  }

  private reserveHere(user: AccountUser): Place {
    const { user: mine, server } = this.live.counts(user.id);
    this.refuseOverUserLimit(user, mine);
    if (server >= this.limits.perServer) {
      const n = this.limits.perServer;
      throw new RateLimitedError(
        'RUN_LIMIT_SERVER',
        `This server is already running ${n} ${n === 1 ? 'test' : 'tests'}, as many as it allows at once. Try again when one finishes.`,
        secondsUntilOneEnds(this.live.all()),
      );
    }
    return this.live.reserve(user.id);
  }
}

/**
 * Retry-After for a refusal: the seconds until the first run with a planned length ends, between 1 and
 * 60; 60 when none has one (an API, script or UI run ends when its calls do).
 */
function secondsUntilOneEnds(runs: readonly LiveEntry[]): number {
  const now = Date.now();
  const left = runs.flatMap((run) => {
    const end = run.plannedEndMs();
    return end === null ? [] : [(end - now) / 1000];
  });
  return Math.max(1, Math.ceil(Math.min(60, ...left)));
}
