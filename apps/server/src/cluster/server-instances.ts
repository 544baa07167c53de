import { randomBytes } from 'node:crypto';
import { readlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { ServerInstanceRow } from '../db/schema';
import type { ServerInstanceRepository } from '../repositories/server-instance.repository';

/** How often a server says it is alive (docs/adr/0020-server-replicas.md). */
export const BEAT_MS = 5000;
/** A server not seen for this long is taken for dead: its runs may be ended by any other. */
export const ALIVE_WITHIN_MS = 15_000;

/**
 * A second server on the database without a shared Redis (none here, or the other one is not on this
 * Redis): neither would see the other's runs.
 */
export class AnotherServerError extends Error {
  constructor(other: ServerInstanceRow, secondsAgo: number, otherRedis: boolean) {
    super(
      `Another AnybodyQA server (${other.host}, pid ${other.pid}, seen ${secondsAgo} s ago) uses this database` +
        `${otherRedis ? ' but not this Redis' : ''}; several servers need REDIS_URL set to one Redis they all share.`,
    );
    this.name = 'AnotherServerError';
  }
}

/** The servers on one Redis say so there, so a server can tell one that shares its Redis (LiveRelay). */
export interface Presence {
  /** Says this server is on this Redis for the next ALIVE_WITHIN_MS. */
  mark(serverId: string): Promise<void>;
  /** Those of `serverIds` that said so within ALIVE_WITHIN_MS. */
  present(serverIds: string[]): Promise<Set<string>>;
}

/** The inode of the first (the host's) pid namespace on Linux. */
const INITIAL_PID_NAMESPACE = '4026531836';

/**
 * Where this server's pids mean something: the host name, and the pid namespace when it is not the
 * host's (two containers with the host's network share its name but not their pids).
 */
function machineName(): string {
  let namespace: string | undefined;
  try {
    namespace = /\[(\d+)\]/.exec(readlinkSync('/proc/self/ns/pid'))?.[1];
  } catch {
    namespace = undefined;
  }
  const name = hostname();
  return namespace === undefined || namespace === INITIAL_PID_NAMESPACE
    ? name
    : `${name} pid-ns ${namespace}`;
}

/** Whether a process of this machine still exists (signal 0 checks without sending anything). */
function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, as another user's process.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * This server process in the server_instances table (docs/adr/0020-server-replicas.md): registered at
 * start-up, refreshed every BEAT_MS, removed at a clean shutdown. Other servers read the table to tell
 * a run whose server is alive from one whose server died.
 */
export class ServerInstances {
  readonly id = `srv_${randomBytes(9).toString('base64url')}`;
  /** The host name (with the pid namespace inside a container): pids are compared only on the same. */
  readonly host = machineName();
  readonly pid = process.pid;
  private beating: NodeJS.Timeout | undefined;
  private presence: Presence | null = null;
  /** Set at shutdown: a beat still in flight must not write the row again. */
  private removed = false;

  constructor(
    private readonly store: ServerInstanceRepository,
    private readonly log: FastifyBaseLogger,
  ) {}

  /**
   * Registers this server and starts its beat. Another live server on the database that does not share
   * this server's Redis — there is none (`presence` null), or it is not on that Redis — refuses the
   * start with AnotherServerError.
   */
  async register(presence: Presence | null): Promise<void> {
    this.presence = presence;
    // Said on Redis before the row is written: a server that sees the row finds it there too.
    await presence?.mark(this.id);
    const now = Date.now();
    const rows = await this.store.all();
    const others = rows.filter((row) => row.id !== this.id && this.isAlive(row, now));
    const sharing =
      presence === null ? new Set<string>() : await presence.present(others.map((row) => row.id));
    const other = others.find((row) => !sharing.has(row.id));
    if (other !== undefined) {
      const secondsAgo = Math.max(0, Math.round((now - Date.parse(other.last_seen_at)) / 1000));
      throw new AnotherServerError(other, secondsAgo, presence !== null);
    }
    const at = new Date(now).toISOString();
    await this.store.insert(this.row(at));
    this.beating = setInterval(() => void this.beat(), BEAT_MS);
    this.beating.unref();
  }

  /** Says this server is alive; a missing row (removed by mistake) is written again. */
  async beat(): Promise<void> {
    const at = new Date().toISOString();
    try {
      await this.presence?.mark(this.id);
      const found = await this.store.touch(this.id, at);
      if (!found && !this.removed) await this.store.insert(this.row(at));
    } catch (err) {
      this.log.error({ err }, 'Could not record that this server is alive');
    }
  }

  /** At a clean shutdown, once its runs are stored: the server leaves the table. */
  async remove(): Promise<void> {
    this.removed = true;
    clearInterval(this.beating);
    await this.store.remove([this.id]);
  }

  /** The ids of the servers alive now, this one included. */
  async aliveIds(): Promise<Set<string>> {
    const now = Date.now();
    const rows = await this.store.all();
    const alive = new Set(rows.filter((row) => this.isAlive(row, now)).map((row) => row.id));
    alive.add(this.id);
    return alive;
  }

  /** Every registered server (alive or not), by id: where each ran, for leftover tool processes. */
  async all(): Promise<Map<string, ServerInstanceRow>> {
    const rows = await this.store.all();
    return new Map(rows.map((row) => [row.id, row]));
  }

  /** Forgets the rows of dead servers that own no unfinished run and no recorded tool process. */
  async pruneDead(): Promise<void> {
    const alive = await this.aliveIds();
    const owning = await this.store.owningServerIds();
    const rows = await this.store.all();
    const gone = rows.map((row) => row.id).filter((id) => !alive.has(id) && !owning.has(id));
    await this.store.remove(gone);
  }

  /** This server's row, seen at `at`. */
  private row(at: string): ServerInstanceRow {
    return { id: this.id, host: this.host, pid: this.pid, started_at: at, last_seen_at: at };
  }

  /**
   * Seen within ALIVE_WITHIN_MS, and, on this machine, its process still exists: a server killed here
   * a moment ago is dead at once, so a restart recovers its runs without waiting.
   */
  private isAlive(row: ServerInstanceRow, nowMs: number): boolean {
    if (row.id === this.id) return true;
    if (nowMs - Date.parse(row.last_seen_at) > ALIVE_WITHIN_MS) return false;
    if (row.host === this.host && row.pid !== this.pid && !processExists(row.pid)) return false;
    return true;
  }
}
