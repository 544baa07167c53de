import type { FastifyBaseLogger } from 'fastify';
import type { LiveEvent, LiveListener } from '../services/runs/live-stream-output';
import type { RedisConnections } from './redis';
import { ALIVE_WITHIN_MS, type Presence } from './server-instances';

/** The run's live events (snapshot, end), as its owner's LiveStreamOutput sends them. */
export const liveChannel = (runId: string): string => `aqa:replicas:run:${runId}:live`;
/** The run's current view (what get-test-result answers while it runs), refreshed each second. */
export const viewKey = (runId: string): string => `aqa:replicas:run:${runId}:view`;
/** Stop requests: a replica that does not own a run asks its owner to stop it. */
export const STOP_CHANNEL = 'aqa:replicas:stop';
/** A server on this Redis, refreshed with its beat (ServerInstances). */
export const serverKey = (serverId: string): string => `aqa:replicas:server:${serverId}`;

/** A view outlives its owner's last refresh by this long; a dead owner's view then disappears. */
export const VIEW_TTL_MS = 5000;

/** How often the owner refreshes a run's view in Redis, whether or not the run moved. */
const VIEW_REFRESH_MS = 1000;

/** A run's view shared with the other replicas (LiveRelay#shareView). */
export interface SharedView {
  /** Refreshes the view now (a second was measured). */
  refresh(): void;
  /** Stops refreshing and drops the view: the run is stored, its stored result answers from now on. */
  stop(): void;
}

interface StopRequest {
  run_id: string;
}

/**
 * The Redis side of runs shared between replicas (docs/adr/0020-server-replicas.md): the owner of a run
 * publishes its live events and keeps its view fresh; any replica reads the view, relays the events to
 * its own clients, and asks the owner to stop a run. Messages are JSON.
 */
export class LiveRelay implements Presence {
  /** Channel → the listeners of this process; the channel is subscribed while it has any. */
  private readonly listeners = new Map<string, Set<LiveListener>>();
  private readonly stopHandlers: ((runId: string) => void)[] = [];

  constructor(
    private readonly redis: RedisConnections,
    private readonly log: FastifyBaseLogger,
  ) {
    redis.subscriber.on('message', (channel: string, message: string) => this.dispatch(channel, message));
  }

  async mark(serverId: string): Promise<void> {
    await this.redis.command.set(serverKey(serverId), '1', 'PX', ALIVE_WITHIN_MS);
  }

  async present(serverIds: string[]): Promise<Set<string>> {
    if (serverIds.length === 0) return new Set();
    const found = await this.redis.command.mget(serverIds.map(serverKey));
    return new Set(serverIds.filter((_, index) => found[index] !== null));
  }

  /** Subscribes to the stop requests; call once at start-up. */
  async start(): Promise<void> {
    await this.redis.subscriber.subscribe(STOP_CHANNEL);
  }

  /** Called with the id of every run some replica asks to stop (each owner acts on its own). */
  onStopRequest(handler: (runId: string) => void): void {
    this.stopHandlers.push(handler);
  }

  async requestStop(runId: string): Promise<void> {
    const request: StopRequest = { run_id: runId };
    await this.redis.command.publish(STOP_CHANNEL, JSON.stringify(request));
  }

  /** Sends one live event of a run this replica owns; a failure is logged, the run goes on. */
  publish(runId: string, event: LiveEvent): void {
    this.redis.command.publish(liveChannel(runId), JSON.stringify(event)).catch((err: unknown) => {
      this.log.error({ err, runId }, 'Could not publish a live event of the run');
    });
  }

  /** Stores the run's current view for VIEW_TTL_MS. */
  writeView(runId: string, view: unknown): void {
    this.redis.command
      .set(viewKey(runId), JSON.stringify(view), 'PX', VIEW_TTL_MS)
      .catch((err: unknown) => this.log.error({ err, runId }, 'Could not store the live view of the run'));
  }

  /** Keeps an unchanged view for another VIEW_TTL_MS. */
  keepView(runId: string): void {
    this.redis.command.pexpire(viewKey(runId), VIEW_TTL_MS).catch((err: unknown) => {
      this.log.error({ err, runId }, 'Could not keep the live view of the run');
    });
  }

  /** Drops the view of a run that has ended (its stored result answers from now on). */
  dropView(runId: string): void {
    this.redis.command.del(viewKey(runId)).catch((err: unknown) => {
      this.log.error({ err, runId }, 'Could not remove the live view of the run');
    });
  }

  /**
   * Shares the view of a run this replica owns until `stop`: written now and every VIEW_REFRESH_MS,
   * whether or not the run moved, so that it outlives VIEW_TTL_MS only while its owner lives. With
   * `version`, a view whose version is unchanged is only kept alive, not made and sent again.
   */
  shareView(runId: string, view: () => unknown, version?: () => string): SharedView {
    let written: string | undefined;
    const refresh = () => {
      const now = version?.();
      if (now !== undefined && now === written) return this.keepView(runId);
      written = now;
      this.writeView(runId, view());
    };
    refresh();
    const timer = setInterval(refresh, VIEW_REFRESH_MS);
    timer.unref();
    return {
      refresh,
      stop: () => {
        clearInterval(timer);
        this.dropView(runId);
      },
    };
  }

  /** The run's current view as its owner stored it; undefined when none is fresh. */
  async readView<T>(runId: string): Promise<T | undefined> {
    const text = await this.redis.command.get(viewKey(runId));
    return text === null ? undefined : (JSON.parse(text) as T);
  }

  /**
   * Relays the live events of a run another replica owns to `listener`; resolves once subscribed, to
   * the function that stops the events.
   */
  async listen(runId: string, listener: LiveListener): Promise<() => void> {
    const channel = liveChannel(runId);
    let set = this.listeners.get(channel);
    if (set === undefined) {
      set = new Set();
      this.listeners.set(channel, set);
      await this.redis.subscriber.subscribe(channel);
    }
    set.add(listener);
    return () => {
      const current = this.listeners.get(channel);
      if (current === undefined) return;
      current.delete(listener);
      if (current.size > 0) return;
      this.listeners.delete(channel);
      this.redis.subscriber.unsubscribe(channel).catch((err: unknown) => {
        this.log.warn({ err, runId }, 'Could not unsubscribe from the live events of the run');
      });
    };
  }

  private dispatch(channel: string, message: string): void {
    try {
      if (channel === STOP_CHANNEL) {
        const { run_id: runId } = JSON.parse(message) as StopRequest;
        for (const handler of this.stopHandlers) handler(runId);
        return;
      }
      const set = this.listeners.get(channel);
      if (set === undefined) return;
      const event = JSON.parse(message) as LiveEvent;
      for (const listener of [...set]) {
        // One broken subscriber must not cost the others their events.
        try {
          listener(event);
        } catch (err) {
          this.log.warn({ err, channel }, 'A relayed live listener failed');
          set.delete(listener);
        }
      }
    } catch (err) {
      this.log.error({ err, channel }, 'Could not read a message from Redis');
    }
  }
}
