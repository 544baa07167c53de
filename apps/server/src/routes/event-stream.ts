import type { ServerResponse } from 'node:http';
import type { LiveEvent } from '../services/runs/live-stream-output';
import type { TestResult } from '@aqa/plan';

/** A comment line this often keeps proxies from closing a quiet stream. */
const HEARTBEAT_MS = 15_000;

/**
 * One client's live stream of a run (server-sent events): `status` on connect, a `snapshot` per
 * second, `end` with the final result, then the response ends. Events that arrive before the
 * response is open are held and sent in order once it is.
 */
export class RunEventStream {
  private raw: ServerResponse | null = null;
  private readonly queued: LiveEvent[] = [];
  private heartbeat: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | null = null;
  private closed = false;
  private ending = false;

  /** `final` reads the stored result once the run is over; its failure is reported to `onError`. */
  constructor(
    private readonly final: () => Promise<TestResult>,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** Pass to the run's subscription. */
  readonly listener = (event: LiveEvent): void => {
    if (this.raw === null) this.queued.push(event);
    else this.handle(event);
  };

  /** Starts the response. `unsubscribe` null means the run is over: status and end go out at once. */
  open(raw: ServerResponse, initial: TestResult, unsubscribe: (() => void) | null): void {
    this.raw = raw;
    this.unsubscribe = unsubscribe;
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      // no-store like every signed-in answer (docs/design.md §11); no-transform keeps proxies from buffering.
      'cache-control': 'no-store, no-transform',
      connection: 'keep-alive',
      // nginx would otherwise buffer the stream.
      'x-accel-buffering': 'no',
    });
    raw.on('close', () => this.close());
    this.send('status', initial);
    if (unsubscribe === null) {
      this.send('end', initial);
      this.close();
      return;
    }
    this.heartbeat = setInterval(() => this.write(': heartbeat\n\n'), HEARTBEAT_MS);
    this.heartbeat.unref();
    for (const event of this.queued.splice(0)) this.handle(event);
  }

  private handle(event: LiveEvent): void {
    if (event.type === 'snapshot') this.send('snapshot', event.snapshot);
    else void this.end();
  }

  private async end(): Promise<void> {
    if (this.ending) return;
    this.ending = true;
    try {
      this.send('end', await this.final());
    } catch (err) {
      this.onError(err);
    }
    this.close();
  }

  private send(event: string, data: unknown): void {
    this.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  private write(chunk: string): void {
    const raw = this.raw;
    if (raw !== null && !this.closed && !raw.destroyed) raw.write(chunk);
  }

  /** Ends the response and lets go of the run (also when the client goes away). */
  private close(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.heartbeat);
    this.unsubscribe?.();
    if (this.raw !== null && !this.raw.writableEnded) this.raw.end();
  }
}
