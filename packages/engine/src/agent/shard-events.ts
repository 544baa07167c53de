import type { Redis } from 'ioredis';
import type { EngineLogger } from '../types';
import { runStreamKey, type ShardEvent } from './protocol';

/**
 * The agent's writer of one run's shard events (docs/adr/0021-load-agents.md): every event is one
 * XADD of field `e` (the event as JSON) to runStreamKey(run), chained on the one before, so the server
 * reads them in the order they happened (`done` after every interval).
 */
export class ShardEventStream {
  private chain: Promise<void> = Promise.resolve();
  private readonly key: string;

  constructor(
    private readonly redis: Redis,
    runId: string,
    private readonly logger: EngineLogger,
  ) {
    this.key = runStreamKey(runId);
  }

  write(event: ShardEvent): void {
    const text = JSON.stringify(event);
    this.chain = this.chain.then(async () => {
      try {
        await this.redis.xadd(this.key, '*', 'e', text);
      } catch (error) {
        // Commands wait through reconnects (redis.ts); an error here is Redis refusing the entry.
        this.logger.error(
          { stream: this.key, event: event.type },
          `cannot write the ${event.type} event to ${this.key}: ${(error as Error).message}`,
        );
      }
    });
  }

  /** Resolves once every event written so far is in Redis (or refused and logged). */
  flushed(): Promise<void> {
    return this.chain;
  }
}
