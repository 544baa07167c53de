import { Redis } from 'ioredis';

/**
 * A connection to the Redis load agents use (docs/adr/0021-load-agents.md "Server side"). Commands
 * wait through a reconnection for a few tries, then fail with Redis's words; a run reading its shard
 * stream holds one such connection of its own, because XREAD BLOCK holds the connection it runs on.
 */
export function openAgentRedis(url: string, name: string): Redis {
  const client = new Redis(url, {
    connectionName: name,
    maxRetriesPerRequest: 3,
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
  // Errors are answered to the command that met them; the event itself would crash the process.
  client.on('error', () => undefined);
  return client;
}
