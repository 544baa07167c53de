import type { EngineLogger } from '../types';
import { AgentCallError, type AgentClient } from './agent-client';
import type { ShardEvent } from './protocol';

/** Waits between tries of a post that failed for a reason that may pass (network, 5xx, 429). */
const RETRY_MS = [250, 500, 1000, 2000];
/** The post body's own fields and separators around its events, with room to spare. */
const BODY_OVERHEAD = 64;
/** How often the same failure is logged while posts keep being tried. */
const LOG_EVERY_MS = 10_000;

/** Where a job writes its events: in order, each once; `flushed` waits until they are delivered. */
export interface ShardEventSink {
  write(event: ShardEvent): void;
  flushed(): Promise<void>;
}

export interface ShardEventSenderOptions {
  client: AgentClient;
  runId: string;
  logger: EngineLogger;
  /** The server's limits from the registration. */
  maxEventsPerPost: number;
  maxPostBytes: number;
  /** The server said the run was stopped, or that the run is not this agent's any more. */
  onStop: () => void;
}

/**
 * The agent's sender of one run's shard events (docs/adr/0023-agents-over-http.md): events are numbered
 * 1, 2, … in the order they were written and posted in that order, one post at a time, as many as are
 * waiting (within the server's limits of events and bytes per post). A post that failed for a reason
 * that may pass is sent again with the same numbers, which the server keeps once: the run's stream gets
 * every event once, in order (`done` after every interval). The answer says whether the run was
 * stopped.
 */
export class ShardEventSender implements ShardEventSink {
  private readonly queue: { seq: number; event: ShardEvent; text: string }[] = [];
  private nextSeq = 1;
  private pumping: Promise<void> | null = null;
  /** Posts end: the server no longer takes this run's events from this agent, or the sender was abandoned. */
  private closed = false;
  private lastLogged = 0;

  constructor(private readonly options: ShardEventSenderOptions) {}

  write(event: ShardEvent): void {
    if (this.closed) return;
    let text = JSON.stringify(event);
    if (Buffer.byteLength(text) + BODY_OVERHEAD > this.options.maxPostBytes) {
      // One report the server would refuse whole: the share fails in words instead of losing it quietly.
      const failed: ShardEvent = {
        type: 'failed',
        agent_index: event.agent_index,
        message: `an ${event.type} report of ${Buffer.byteLength(text).toLocaleString('en-US')} bytes is over the server's limit of ${this.options.maxPostBytes.toLocaleString('en-US')} bytes per post`,
      };
      this.options.onStop();
      event = failed;
      text = JSON.stringify(failed);
    }
    this.queue.push({ seq: this.nextSeq++, event, text });
    this.kick();
  }

  /** Starts posting unless a post is on its way; what is written meanwhile follows it. */
  private kick(): void {
    this.pumping ??= this.pump().finally(() => {
      this.pumping = null;
      if (this.queue.length > 0 && !this.closed) this.kick();
    });
  }

  /**
   * Resolves once every event written so far was taken by the server, or could not be (refused, or
   * `timeoutMs` passed: logged, with how many were not delivered).
   */
  async flushed(timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.queue.length > 0 && !this.closed) {
      if (Date.now() > deadline) {
        this.options.logger.error(
          { run_id: this.options.runId, events: this.queue.length },
          `${this.queue.length} shard event(s) of run ${this.options.runId} could not be delivered to the server within ${Math.round(timeoutMs / 1000)} s; the server counts this agent lost`,
        );
        this.close();
        return;
      }
      await (this.pumping ?? new Promise((r) => setTimeout(r, 50)));
    }
  }

  /** Stops posting; what is still waiting is dropped. */
  close(): void {
    this.closed = true;
    this.queue.length = 0;
  }

  private async pump(): Promise<void> {
    let failures = 0;
    while (this.queue.length > 0 && !this.closed) {
      const batch = this.batch();
      const first = batch[0]!.seq;
      try {
        const answer = await this.options.client.postEvents(
          this.options.runId,
          first,
          batch.map((b) => b.event),
        );
        failures = 0;
        while (this.queue.length > 0 && this.queue[0]!.seq <= answer.accepted_through) this.queue.shift();
        if (answer.stop) this.options.onStop();
      } catch (error) {
        const e = error instanceof AgentCallError ? error : new AgentCallError(String(error), null, true);
        if (!e.retry) {
          // 404: the run is over or not this agent's; 400/413: the server cannot take these events.
          this.options.logger.error(
            { run_id: this.options.runId, status: e.status },
            `the shard events of run ${this.options.runId} are not taken: ${e.message}`,
          );
          this.close();
          this.options.onStop();
          return;
        }
        if (Date.now() - this.lastLogged >= LOG_EVERY_MS) {
          this.lastLogged = Date.now();
          this.options.logger.warn(
            { run_id: this.options.runId },
            `shard events not delivered yet: ${e.message}; retrying`,
          );
        }
        const wait =
          e.retryAfterS !== null ? e.retryAfterS * 1000 : RETRY_MS[Math.min(failures, RETRY_MS.length - 1)]!;
        failures += 1;
        await new Promise((r) => setTimeout(r, wait));
      }
    }
  }

  /** The waiting events that fit one post, from the first (always at least that one). */
  private batch(): { seq: number; event: ShardEvent; text: string }[] {
    const { maxEventsPerPost, maxPostBytes } = this.options;
    let bytes = BODY_OVERHEAD;
    const batch: { seq: number; event: ShardEvent; text: string }[] = [];
    for (const item of this.queue) {
      const size = Buffer.byteLength(item.text) + 1;
      if (batch.length > 0 && (batch.length >= maxEventsPerPost || bytes + size > maxPostBytes)) break;
      batch.push(item);
      bytes += size;
    }
    return batch;
  }
}
