import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';

/** How long start-up waits for the Redis to answer before refusing to start. */
const CONNECT_TIMEOUT_MS = 3000;
/** Longest pause between reconnection attempts once the Redis was reached. */
const MAX_RECONNECT_DELAY_MS = 2000;

/** A Redis that cannot be reached at start-up: the server does not start (docs/adr/0020-server-replicas.md). */
export class RedisUnreachableError extends Error {
  constructor(address: string, reason: string) {
    super(
      `Cannot reach the Redis named by REDIS_URL at ${address}: ${reason}. Start that Redis, or correct REDIS_URL (leave it unset for a single server).`,
    );
    this.name = 'RedisUnreachableError';
  }
}

/**
 * The server's two connections to the shared Redis (docs/adr/0020-server-replicas.md): one for commands
 * and publishing, one in subscriber mode (a subscribed connection can run no other command).
 */
export interface RedisConnections {
  command: Redis;
  subscriber: Redis;
  /** host:port of the Redis, for messages. */
  address: string;
  close(): Promise<void>;
}

/** host:port of a redis:// or rediss:// URL, without its credentials. */
export function redisAddress(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port === '' ? '6379' : parsed.port}`;
}

/**
 * Opens both connections, or throws RedisUnreachableError naming REDIS_URL and host:port. Once reached,
 * ioredis reconnects by itself after a network error; commands wait for it (bounded by their retries).
 */
export async function connectRedis(url: string, log: FastifyBaseLogger): Promise<RedisConnections> {
  const address = redisAddress(url);
  const command = await openConnection(url, address, 'command', log);
  let subscriber: Redis;
  try {
    subscriber = await openConnection(url, address, 'subscriber', log);
  } catch (error) {
    command.disconnect();
    throw error;
  }
  let closing: Promise<unknown> | undefined;
  return {
    command,
    subscriber,
    address,
    // Once, however many callers ask (the shutdown and a failed start-up may both).
    async close() {
      closing ??= Promise.allSettled([command.quit(), subscriber.quit()]);
      await closing;
    },
  };
}

async function openConnection(
  url: string,
  address: string,
  role: string,
  log: FastifyBaseLogger,
): Promise<Redis> {
  let established = false;
  let lastError = '';
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: CONNECT_TIMEOUT_MS,
    maxRetriesPerRequest: 3,
    // Before the first connection, one failure is the answer; after it, keep trying to reconnect.
    retryStrategy: (times) => (established ? Math.min(times * 200, MAX_RECONNECT_DELAY_MS) : null),
  });
  client.on('error', (error: Error) => {
    if (!established) return;
    // One line per distinct failure: a Redis that is down would otherwise log at every retry.
    if (error.message === lastError) return;
    lastError = error.message;
    log.error({ err: error, redis: address, connection: role }, 'The connection to Redis failed');
  });
  client.on('ready', () => {
    if (established && lastError !== '')
      log.info({ redis: address, connection: role }, 'Reconnected to Redis');
    established = true;
    lastError = '';
  });
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    client.disconnect();
    throw new RedisUnreachableError(address, error instanceof Error ? error.message : String(error));
  }
  return client;
}
