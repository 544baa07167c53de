/**
 * The agent's Redis connections (docs/adr/0021-load-agents.md). The first connection is checked at
 * start-up, so an unreachable Redis stops the agent with words; after that ioredis reconnects by
 * itself, commands wait for the connection (maxRetriesPerRequest: null keeps the shard events' order
 * and loses none), and errors are logged, not fatal.
 */
import { Redis } from 'ioredis';
import type { EngineLogger } from '../types';
import { AgentStartError } from './register';

/** The URL as it may be shown: its password replaced. */
export function shownRedisUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password !== '') u.password = '***';
    return u.toString();
  } catch {
    return url;
  }
}

function redisReason(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  if (e.code === 'ECONNREFUSED')
    return 'connection refused (is Redis running there, and may this machine reach it?)';
  if (e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN') return 'no such host';
  if (e.code === 'ETIMEDOUT') return 'no answer in time';
  return e.message || String(error);
}

/** How often the same Redis failure is logged while ioredis keeps reconnecting. */
export const ERROR_LOG_EVERY_MS = 10_000;

/** Logs a connection's errors (once per ERROR_LOG_EVERY_MS) and when it is back. */
function logErrors(redis: Redis, what: string, url: string, logger: EngineLogger): void {
  let lastLogged = 0;
  let failing = false;
  redis.on('error', (error: unknown) => {
    failing = true;
    const now = Date.now();
    if (now - lastLogged < ERROR_LOG_EVERY_MS) return;
    lastLogged = now;
    logger.warn(
      { redis: shownRedisUrl(url), connection: what },
      `Redis ${shownRedisUrl(url)} (${what}): ${redisReason(error)}; retrying`,
    );
  });
  redis.on('ready', () => {
    if (!failing) return;
    failing = false;
    lastLogged = 0;
    logger.info(
      { redis: shownRedisUrl(url), connection: what },
      `Redis ${shownRedisUrl(url)} (${what}) is back`,
    );
  });
}

/**
 * Opens a connection to `url` and checks it answers; an unreachable Redis is an AgentStartError.
 * `what` names the connection in the log (commands, subscriber, queue).
 */
export async function openRedis(url: string, what: string, logger: EngineLogger): Promise<Redis> {
  let redis: Redis;
  try {
    redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: null, connectTimeout: 5000 });
  } catch (error) {
    throw new AgentStartError(
      `the Redis URL ${shownRedisUrl(url)} is not usable: ${(error as Error).message}`,
    );
  }
  let firstError: unknown;
  const onError = (error: unknown): void => {
    firstError ??= error;
  };
  redis.on('error', onError);
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    redis.disconnect();
    throw new AgentStartError(
      `cannot reach the server's Redis at ${shownRedisUrl(url)}: ${redisReason(firstError ?? error)}`,
    );
  } finally {
    redis.off('error', onError);
  }
  logErrors(redis, what, url, logger);
  return redis;
}
