import { TEST_KINDS, type TestKind } from '@aqa/plan';
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { Replicas } from '../../cluster/replicas';
import { RateLimitedError } from '../../errors';
import type { AccountUser } from '../account-user';
import { DEMO_ACCOUNT } from '../demo-account.service';
import type { LiveRelay } from '../../cluster/live-relay';
import type { MessageText } from '../message-text';
import {
  type LiveEntry,
  type RunLaunch,
  RunLifecycle,
  type RunStore,
  type StoppedBy,
  type UnfinishedRow,
} from './run-lifecycle';
import type { RunKindAdapter } from './run-kind';

/*
 * The one place under the limits, stop and shutdown for runs of every kind (docs/run-lifecycle.md), on a
 * server without Redis; the limits across replicas and the stop through Redis are proven end to end by
 * test/replicas.test.ts.
 */

const silent = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  child: () => silent,
} as unknown as FastifyBaseLogger;
const noReplicas = {
  relay: null,
  serverId: 'srv_here',
  runningElsewhere: () => Promise.resolve(0),
} as unknown as Replicas;

function userNamed(id: string, email = `${id}@example.com`): AccountUser {
  return {
    id,
    email,
    username: id,
    firstName: '',
    lastName: '',
    company: '',
    role: '',
    workspaceId: id,
    workspaceRole: 'owner',
  };
}

class FakeRun implements LiveEntry {
  stoppedBy: StoppedBy | null = null;
  constructor(
    readonly id: string,
    readonly userId: string,
    readonly kind: TestKind,
    private readonly endMs: number | null = null,
  ) {}
  get workspaceId(): string {
    return this.userId;
  }
  plannedEndMs(): number | null {
    return this.endMs;
  }
  stop(by: StoppedBy): Promise<void> {
    this.stoppedBy = by;
    return Promise.resolve();
  }
}

async function refusal(promise: Promise<unknown>): Promise<RateLimitedError> {
  const error = await promise.then(
    () => undefined,
    (err: unknown) => err,
  );
  if (!(error instanceof RateLimitedError)) throw new Error(`expected a 429, got ${String(error)}`);
  return error;
}

/** A toy kind's adapter: its view, recovery and message say what they were given. */
type ToyAdapter = RunKindAdapter<{
  sent: string;
  plan: string;
  options: object;
  handle: { stop: () => Promise<void>; result: Promise<unknown> };
  live: FakeRun;
  view: { toy: string };
  row: UnfinishedRow;
  measured: string;
  ended: string;
  outcome: string;
}>;

function toyMessage(words: string): MessageText {
  return { kind: 'completed', test_type: 'api', name: 'toy', title: words, body: '', body_phrases: [] };
}

function toyAdapter(): Pick<ToyAdapter, 'view' | 'message'> {
  return {
    view: (live) => ({ toy: `view of ${live.id}` }),
    message: (outcome) => toyMessage(`${outcome} told`),
  };
}

/** A store that writes down what the lifecycle asks of it, in order; `taken` runs another replica ended first. */
function recordingStore(
  steps: string[],
  taken: ReadonlySet<string> = new Set(),
): RunStore<string, string, string> {
  return {
    table: 'functional_runs',
    insertStarted: (started, serverId) => (steps.push(`insert ${started} on ${serverId}`), Promise.resolve()),
    storeEnding: (id, ended, unfinishedOnly) => {
      if (unfinishedOnly === true && taken.has(id)) return Promise.resolve(false);
      steps.push(`store ${ended}`);
      return Promise.resolve(true);
    },
    notify: (_id, ended, message) => (steps.push(`notify ${message(ended).title}`), Promise.resolve()),
  };
}

describe('RunLifecycle', () => {
  it('counts runs of every kind, and starts being prepared, against the per-user limit', async () => {
    const lifecycle = new RunLifecycle({ perUser: 3, perServer: 10 }, noReplicas, silent);
    const alice = userNamed('alice');
    (await lifecycle.reserve(alice)).occupy(new FakeRun('load_1', 'alice', 'load'));
    (await lifecycle.reserve(alice)).occupy(new FakeRun('ui_1', 'alice', 'ui'));
    const preparing = await lifecycle.reserve(alice);
    const refused = await refusal(lifecycle.reserve(alice));
    expect(refused.code).toBe('RUN_LIMIT_USER');
    expect(refused.message).toBe('You already have 3 tests running. Stop one or wait for it to finish.');
    // Another user is not counted against alice's limit.
    await expect(lifecycle.reserve(userNamed('bob'))).resolves.toBeDefined();
    preparing.release();
    await expect(lifecycle.reserve(alice)).resolves.toBeDefined();
  });

  it("counts every user's runs of every kind against the per-server limit", async () => {
    const lifecycle = new RunLifecycle({ perUser: 5, perServer: 2 }, noReplicas, silent);
    (await lifecycle.reserve(userNamed('alice'))).occupy(new FakeRun('api_1', 'alice', 'api'));
    const bobs = await lifecycle.reserve(userNamed('bob'));
    bobs.occupy(new FakeRun('script_1', 'bob', 'script'));
    const refused = await refusal(lifecycle.reserve(userNamed('carol')));
    expect(refused.code).toBe('RUN_LIMIT_SERVER');
    expect(refused.message).toContain('already running 2 tests');
    bobs.release();
    expect(lifecycle.find(userNamed('bob'), 'script_1')).toBeUndefined();
    await expect(lifecycle.reserve(userNamed('carol'))).resolves.toBeDefined();
  });

  it('lets the demo account hold one place at a time (docs/adr/0018-safe-defaults-and-lockout.md)', async () => {
    const lifecycle = new RunLifecycle({ perUser: 3, perServer: 10 }, noReplicas, silent);
    const demo = userNamed('demo', DEMO_ACCOUNT.email);
    (await lifecycle.reserve(demo)).occupy(new FakeRun('api_1', 'demo', 'api'));
    const refused = await refusal(lifecycle.reserve(demo));
    expect(refused.message).toBe('You already have 1 test running. Stop one or wait for it to finish.');
  });

  it('answers Retry-After from the first planned end, and 60 s when no run has one', async () => {
    const lifecycle = new RunLifecycle({ perUser: 1, perServer: 10 }, noReplicas, silent);
    const alice = userNamed('alice');
    (await lifecycle.reserve(alice)).occupy(new FakeRun('api_1', 'alice', 'api'));
    expect((await refusal(lifecycle.reserve(alice))).retryAfterS).toBe(60);
    const bob = userNamed('bob');
    (await lifecycle.reserve(bob)).occupy(new FakeRun('load_1', 'bob', 'load', Date.now() + 9_500));
    expect((await refusal(lifecycle.reserve(bob))).retryAfterS).toBe(10);
  });

  it("finds a run only for its own user, and gives each kind's run back as it was occupied", async () => {
    const lifecycle = new RunLifecycle({ perUser: 3, perServer: 10 }, noReplicas, silent);
    const run = new FakeRun('ui_1', 'alice', 'ui');
    (await lifecycle.reserve(userNamed('alice'))).occupy(run);
    expect(lifecycle.find(userNamed('alice'), 'ui_1')).toBe(run);
    expect(lifecycle.find(userNamed('bob'), 'ui_1')).toBeUndefined();
    expect(lifecycle.runsHere('ui_1')).toBe(true);
    expect(lifecycle.runningOf(userNamed('alice'))).toEqual([run]);
  });

  it('at shutdown waits for the starts being prepared, then stops the runs of every kind', async () => {
    const lifecycle = new RunLifecycle({ perUser: 5, perServer: 10 }, noReplicas, silent);
    const load = new FakeRun('load_1', 'alice', 'load');
    const ui = new FakeRun('ui_1', 'bob', 'ui');
    (await lifecycle.reserve(userNamed('alice'))).occupy(load);
    const preparing = await lifecycle.reserve(userNamed('bob'));
    const shutdown = lifecycle.shutdown();
    preparing.occupy(ui);
    await shutdown;
    expect([load.stoppedBy, ui.stoppedBy]).toEqual(['shutdown', 'shutdown']);
  });

  describe('recovery', () => {
    /** Replicas of which only `srv_alive` beats. */
    const oneAlive = {
      ...noReplicas,
      aliveIds: () => Promise.resolve(new Set(['srv_alive'])),
    } as unknown as Replicas;

    /** A family whose runs are `rows`, each ended and told through `steps`; `taken` ends first elsewhere. */
    function family(
      name: 'load' | 'functional',
      rows: UnfinishedRow[],
      steps: string[],
      taken: ReadonlySet<string> = new Set(),
    ) {
      const toy: Pick<ToyAdapter, 'recover' | 'message'> = {
        recover: (row, measured) => (
          steps.push(`recover ${row.id} from ${measured}`),
          `interrupted ${row.id}`
        ),
        message: (outcome) => toyMessage(`${outcome} told`),
      };
      return {
        family: name,
        store: recordingStore(steps, taken),
        before: (alive: ReadonlySet<string>) => (
          steps.push(`${name}: before, alive ${[...alive].join()}`),
          Promise.resolve()
        ),
        unfinished: () => Promise.resolve(rows),
        measured: (row: UnfinishedRow) => Promise.resolve(`what ${row.id} measured`),
        kindOf: () => toy,
        afterEnded: (id: string) => steps.push(`followers of ${id} told`),
        afterRecovered: () => (steps.push(`${name}: orphans collected`), Promise.resolve()),
      };
    }

    it("asks each family's kind to rebuild the runs of dead servers, stores, tells and answers how many", async () => {
      const lifecycle = new RunLifecycle({ perUser: 5, perServer: 10 }, oneAlive, silent);
      const steps: string[] = [];
      lifecycle.recoverWith(
        family(
          'load',
          [
            { id: 'load_dead', server_id: 'srv_dead' },
            { id: 'load_alive', server_id: 'srv_alive' },
            { id: 'load_old', server_id: null },
          ],
          steps,
        ),
      );
      lifecycle.recoverWith(
        family('functional', [{ id: 'ui_taken', server_id: 'srv_dead' }], steps, new Set(['ui_taken'])),
      );
      expect(await lifecycle.recoverInterrupted()).toEqual({ load: 2, functional: 0 });
      expect(steps).toEqual([
        'load: before, alive srv_alive',
        'recover load_dead from what load_dead measured',
        'store interrupted load_dead',
        'notify interrupted load_dead told',
        'followers of load_dead told',
        'recover load_old from what load_old measured',
        'store interrupted load_old',
        'notify interrupted load_old told',
        'followers of load_old told',
        'load: orphans collected',
        // Another replica ended it first: not told twice, and nothing to collect.
        'functional: before, alive srv_alive',
        'recover ui_taken from what ui_taken measured',
      ]);
    });
  });

  describe('start', () => {
    function launch(
      steps: string[],
      start: RunLaunch<string, string, FakeRun, string>['start'],
      adapter: RunLaunch<string, string, FakeRun, string>['adapter'] = toyAdapter(),
    ): RunLaunch<string, string, FakeRun, string> {
      return {
        kind: 'api',
        store: recordingStore(steps),
        adapter,
        log: silent,
        started: (id) => (id.startsWith(TEST_KINDS.api.idPrefix) ? 'row of an api run' : `row of ${id}`),
        start,
        notStarted: (_id, error) => `failed: ${String(error)}`,
      };
    }

    it('makes the id, inserts, occupies the place, then stores, tells and releases once the run is over', async () => {
      const lifecycle = new RunLifecycle({ perUser: 1, perServer: 10 }, noReplicas, silent);
      const alice = userNamed('alice');
      const steps: string[] = [];
      let end!: (ending: string) => void;
      let settled!: () => void;
      const done = new Promise<void>((resolve) => (settled = resolve));
      const run = await lifecycle.start(alice, () =>
        Promise.resolve(
          launch(steps, (id) => {
            steps.push('start');
            return {
              entry: new FakeRun(id, 'alice', 'api'),
              ended: new Promise<string>((resolve) => (end = resolve)),
              afterStored: () => (steps.push('followers told'), Promise.resolve()),
              settled: () => (steps.push('settled'), settled()),
            };
          }),
        ),
      );
      expect(run.id.startsWith(TEST_KINDS.api.idPrefix)).toBe(true);
      expect(lifecycle.find(alice, run.id)).toBe(run);
      // Its place is held while it runs.
      expect((await refusal(lifecycle.reserve(alice))).code).toBe('RUN_LIMIT_USER');
      end('completed');
      await done;
      expect(steps).toEqual([
        'insert row of an api run on srv_here',
        'start',
        'store completed',
        'followers told',
        'notify completed told',
        'settled',
      ]);
      expect(lifecycle.runsHere(run.id)).toBe(false);
      await expect(lifecycle.reserve(alice)).resolves.toBeDefined();
    });

    it("shares its kind's view of a going run with the other replicas until its ending is stored", async () => {
      const shared: { id: string; view: () => unknown; refreshed: number; stopped: boolean }[] = [];
      const relay = {
        onStopRequest: () => undefined,
        shareView: (id: string, view: () => unknown) => {
          const entry = { id, view, refreshed: 0, stopped: false };
          shared.push(entry);
          return { refresh: () => entry.refreshed++, stop: () => (entry.stopped = true) };
        },
      } as unknown as LiveRelay;
      const lifecycle = new RunLifecycle(
        { perUser: 1, perServer: 10 },
        { ...noReplicas, relay } as unknown as Replicas,
        silent,
      );
      const steps: string[] = [];
      let end!: (ending: string) => void;
      let settled!: () => void;
      const done = new Promise<void>((resolve) => (settled = resolve));
      const run = await lifecycle.start(userNamed('alice'), () =>
        Promise.resolve(
          launch(steps, (id, view) => ({
            entry: new FakeRun(id, 'alice', 'api'),
            ended: new Promise<string>((resolve) => (end = resolve)).then(
              (ending) => (view.refresh(), ending),
            ),
            settled,
          })),
        ),
      );
      expect(shared.map((entry) => [entry.id, entry.view()])).toEqual([
        [run.id, { toy: `view of ${run.id}` }],
      ]);
      expect(shared[0]!.stopped).toBe(false);
      end('completed');
      await done;
      expect(shared[0]).toMatchObject({ refreshed: 1, stopped: true });
      expect(steps.at(-1)).toBe('notify completed told');
    });

    it('stores and tells a run whose runner cannot start as failed, throws, and gives its place back', async () => {
      const lifecycle = new RunLifecycle({ perUser: 1, perServer: 10 }, noReplicas, silent);
      const alice = userNamed('alice');
      const steps: string[] = [];
      const started = lifecycle.start(alice, () =>
        Promise.resolve(
          launch(steps, () => {
            throw new Error('no runner');
          }),
        ),
      );
      await expect(started).rejects.toThrow('no runner');
      expect(steps).toEqual([
        'insert row of an api run on srv_here',
        'store failed: Error: no runner',
        'notify failed: Error: no runner told',
      ]);
      await expect(lifecycle.reserve(alice)).resolves.toBeDefined();
    });

    it('gives the place back, with nothing stored, when the run cannot be prepared', async () => {
      const lifecycle = new RunLifecycle({ perUser: 1, perServer: 10 }, noReplicas, silent);
      const alice = userNamed('alice');
      await expect(lifecycle.start(alice, () => Promise.reject(new Error('target refused')))).rejects.toThrow(
        'target refused',
      );
      await expect(lifecycle.reserve(alice)).resolves.toBeDefined();
    });
  });
});
