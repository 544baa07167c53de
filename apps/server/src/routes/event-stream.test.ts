import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { describe, expect, it, vi } from 'vitest';
import type { LiveSnapshot, TestResult } from '@aqa/plan';
import { RunEventStream } from './event-stream';

/** Just enough of a ServerResponse to watch what the stream writes. */
class FakeResponse extends EventEmitter {
  chunks: string[] = [];
  headers: Record<string, string> = {};
  destroyed = false;
  writableEnded = false;
  writeHead(_status: number, headers: Record<string, string>) {
    this.headers = headers;
    return this;
  }
  write(chunk: string) {
    this.chunks.push(chunk);
    return true;
  }
  end() {
    this.writableEnded = true;
    return this;
  }
  get events() {
    return this.chunks.map((c) => /^event: (\w+)/.exec(c)?.[1] ?? c.trim());
  }
}

const status = { test_id: 'run_1', status: 'running' } as TestResult;
const final = { test_id: 'run_1', status: 'completed' } as TestResult;
const snapshot = { second: 1 } as LiveSnapshot;

describe('RunEventStream', () => {
  it('sends status, then snapshots held before it opened, then the final result, and ends', async () => {
    const raw = new FakeResponse();
    const unsubscribe = vi.fn();
    const stream = new RunEventStream(() => Promise.resolve(final), vi.fn());
    stream.listener({ type: 'snapshot', snapshot });
    stream.open(raw as unknown as ServerResponse, status, unsubscribe);
    expect(raw.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    stream.listener({ type: 'snapshot', snapshot: { ...snapshot, second: 2 } });
    stream.listener({ type: 'end' });
    await vi.waitFor(() => expect(raw.writableEnded).toBe(true));
    expect(raw.events).toEqual(['status', 'snapshot', 'snapshot', 'end']);
    expect(raw.chunks.at(-1)).toBe(`event: end\ndata: ${JSON.stringify(final)}\n\n`);
    expect(unsubscribe).toHaveBeenCalledTimes(1);
  });

  it('lets go of the run when the client goes away', () => {
    const raw = new FakeResponse();
    const unsubscribe = vi.fn();
    const stream = new RunEventStream(() => Promise.resolve(final), vi.fn());
    stream.open(raw as unknown as ServerResponse, status, unsubscribe);
    raw.destroyed = true;
    raw.emit('close');
    expect(unsubscribe).toHaveBeenCalledTimes(1);
    stream.listener({ type: 'snapshot', snapshot });
    expect(raw.events).toEqual(['status']);
  });

  it('sends a comment every 15 s while the run is quiet', () => {
    vi.useFakeTimers();
    try {
      const raw = new FakeResponse();
      const stream = new RunEventStream(() => Promise.resolve(final), vi.fn());
      stream.open(raw as unknown as ServerResponse, status, vi.fn());
      vi.advanceTimersByTime(30_000);
      expect(raw.chunks.filter((c) => c === ': heartbeat\n\n')).toHaveLength(2);
      raw.emit('close');
      vi.advanceTimersByTime(30_000);
      expect(raw.chunks.filter((c) => c === ': heartbeat\n\n')).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('answers a finished run with status and end at once', () => {
    const raw = new FakeResponse();
    new RunEventStream(() => Promise.resolve(final), vi.fn()).open(
      raw as unknown as ServerResponse,
      final,
      null,
    );
    expect(raw.events).toEqual(['status', 'end']);
    expect(raw.writableEnded).toBe(true);
  });
});
