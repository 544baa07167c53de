import type { Socket } from 'node:net';
import { buildConnector } from 'undici';

/**
 * Connections opened before the common start for the users that take an open-model run's first
 * iterations (docs/adr/0027-load-profiles.md, "Connections opened before the start"). A user's first request on a connection
 * of its own costs the worker thread 100–180 µs more than one on an open connection (socket, connect,
 * the parser; measured on this project's machine, docs/performance.md "The open model's first
 * second"). At a high rate from 0 s every iteration of the first milliseconds needs such a user, the
 * thread falls behind, and every late iteration finds the warm users busy and takes another fresh
 * one: the first second carried most of a run's schedule lag and all of its dropped iterations.
 * Opened before the start, those connections cost the start nothing.
 *
 * Each connection is opened with the run's own connector (the target guard and TLS options apply
 * exactly as for any other connection) and handed to its user's undici Client by that Client's
 * connector, once; one the target closed in the meantime is replaced by an ordinary connect. What
 * was not handed over is closed when the shard ends.
 */
export class PreopenedConnections {
  private readonly sockets = new Map<string, Socket>();
  private opener: buildConnector.connector | undefined;
  private closed = false;

  constructor(private readonly connect: buildConnector.BuildOptions | buildConnector.connector) {}

  /**
   * Opens one connection per user and origin, all at once; resolves when every attempt has ended, or
   * after `waitMs` — a target that drops connection attempts (no answer until the connect time-out)
   * must not hold the start back. A connection made later is still handed over if its user has not
   * connected by then. One that fails is not retried: its user connects when it first sends, as
   * without this.
   */
  async open(users: readonly number[], origins: readonly string[], waitMs: number): Promise<void> {
    const attempts: Promise<void>[] = [];
    for (const origin of origins) {
      const target = connectTarget(origin);
      for (const user of users)
        attempts.push(
          new Promise<void>((resolve) => {
            try {
              this.connector()(target, (error, socket) => {
                if (error === null) this.keep(key(user, origin), socket);
                resolve();
              });
            } catch {
              resolve();
            }
          }),
        );
    }
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(attempts),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs))),
    ]);
    clearTimeout(timer);
  }

  /** The `connect` option of `user`'s Client to `origin`: its opened connection first, when it has one. */
  connectFor(user: number, origin: string): buildConnector.BuildOptions | buildConnector.connector {
    const k = key(user, origin);
    if (!this.sockets.has(k)) return this.connect;
    let own: buildConnector.connector | undefined;
    return (target, callback) => {
      const socket = this.sockets.get(k);
      this.sockets.delete(k);
      if (socket !== undefined && !socket.destroyed && socket.readyState === 'open') {
        // undici expects the callback after connect() has returned, as a connect's would come.
        queueMicrotask(() => callback(null, socket));
        return;
      }
      socket?.destroy();
      own ??= typeof this.connect === 'function' ? this.connect : buildConnector(this.connect);
      own(target, callback);
    };
  }

  /** Closes the connections no user took, and any made from now on. */
  closeAll(): void {
    this.closed = true;
    for (const socket of this.sockets.values()) socket.destroy();
    this.sockets.clear();
  }

  get size(): number {
    return this.sockets.size;
  }

  private keep(k: string, socket: Socket): void {
    if (this.closed) socket.destroy();
    else this.sockets.set(k, socket);
  }

  private connector(): buildConnector.connector {
    this.opener ??= typeof this.connect === 'function' ? this.connect : buildConnector(this.connect);
    return this.opener;
  }
}

const key = (user: number, origin: string): string => `${user} ${origin}`;

/** What undici's Client passes its connector for `origin` (lib/dispatcher/client.js, connect()). */
function connectTarget(origin: string): buildConnector.Options {
  const url = new URL(origin);
  let hostname = url.hostname;
  if (hostname.startsWith('[')) hostname = hostname.slice(1, -1);
  return { host: url.host, hostname, protocol: url.protocol, port: url.port };
}
