import type { ShardEvent } from '@aqa/engine';
import type { Redis } from 'ioredis';
import { runStreamKey } from './agent-keys';

/** What the reader calls: each event in order, and each distinct failure to read. */
export interface ShardStreamHandlers {
  onEvent: (event: ShardEvent) => void;
  onError: (error: Error) => void;
}

/** How long one XREAD waits for new entries before the loop looks whether it should end. */
const BLOCK_MS = 500;
/** Entries read at most per XREAD. */
const BATCH = 1000;

type StreamReply = [key: string, entries: [id: string, fields: string[]][]][] | null;

/**
 * Reads a run's shard events (docs/adr/0021-load-agents.md "Server side") from runStreamKey(run) in the
 * order they were kept (docs/adr/0023-agents-over-http.md), with XREAD BLOCK on a connection of its own
 * (a blocked connection runs no other command). Each event is handed to `onEvent` before the next is
 * read; an event that cannot be read, or that `onEvent` throws on, is reported and the reading goes on.
 */
export class ShardStreamReader {
  private ending = false;
  readonly done: Promise<void>;

  constructor(
    private readonly redis: Redis,
    runId: string,
    private readonly handlers: ShardStreamHandlers,
  ) {
    this.done = this.loop(runStreamKey(runId));
  }

  /** Ends the loop after the XREAD in progress (at most BLOCK_MS) and closes the connection. */
  async end(): Promise<void> {
    this.ending = true;
    await this.done;
    this.redis.disconnect();
  }

  private async loop(key: string): Promise<void> {
    let lastId = '0';
    let lastError = '';
    while (!this.ending) {
      let reply: StreamReply;
      try {
        reply = await this.redis.xread('COUNT', BATCH, 'BLOCK', BLOCK_MS, 'STREAMS', key, lastId);
        lastError = '';
      } catch (error) {
        const err = error instanceof Error ? error : new Error(String(error));
        // One report per distinct failure; ioredis reconnects by itself.
        if (err.message !== lastError) this.handlers.onError(err);
        lastError = err.message;
        await new Promise((r) => setTimeout(r, BLOCK_MS));
        continue;
      }
      for (const [, entries] of reply ?? []) {
        for (const [id, fields] of entries) {
          lastId = id;
          const text = fieldValue(fields, 'e');
          if (text === undefined) continue;
          try {
            this.handlers.onEvent(JSON.parse(text) as ShardEvent);
          } catch (error) {
            this.handlers.onError(error instanceof Error ? error : new Error(String(error)));
          }
        }
      }
    }
  }
}

function fieldValue(fields: string[], name: string): string | undefined {
  for (let i = 0; i + 1 < fields.length; i += 2) if (fields[i] === name) return fields[i + 1];
  return undefined;
}
