import { afterEach, describe, expect, it, vi } from 'vitest';
import { json } from '@/test/render';
import { ApiError } from './api';
import { saveSession } from './session';
import { readEventStream, SseParser, type SseEvent } from './sse';

function parseAll(chunks: string[]): SseEvent[] {
  const parser = new SseParser();
  return [...chunks.flatMap((chunk) => parser.feed(chunk)), ...parser.end()];
}

describe('SseParser', () => {
  it('dispatches an event at a blank line, with its type and data', () => {
    expect(parseAll(['event: status\ndata: {"a":1}\n\n'])).toEqual([{ event: 'status', data: '{"a":1}' }]);
  });

  it('names events without a type "message"', () => {
    expect(parseAll(['data: hi\n\n'])).toEqual([{ event: 'message', data: 'hi' }]);
  });

  it('joins data lines with a line feed', () => {
    expect(parseAll(['data: one\ndata: two\ndata\n\n'])).toEqual([{ event: 'message', data: 'one\ntwo\n' }]);
  });

  it('accepts CRLF, CR and LF line endings', () => {
    expect(parseAll(['event: a\r\ndata: 1\r\n\r\nevent: b\rdata: 2\r\revent: c\ndata: 3\n\n'])).toEqual([
      { event: 'a', data: '1' },
      { event: 'b', data: '2' },
      { event: 'c', data: '3' },
    ]);
  });

  it('reassembles events and CRLF pairs split across chunks', () => {
    expect(parseAll(['eve', 'nt: snap', 'shot\r', '\ndata: {"second"', ':1}\r', '\n\r', '\n'])).toEqual([
      { event: 'snapshot', data: '{"second":1}' },
    ]);
  });

  it('ignores comments (heartbeats) and unknown fields', () => {
    expect(parseAll([': keep-alive\n\n', 'retry: 1000\nfoo: bar\ndata: x\n\n'])).toEqual([
      { event: 'message', data: 'x' },
    ]);
  });

  it('drops events without data, and resets the type after each event', () => {
    expect(parseAll(['event: ping\n\ndata: x\n\n'])).toEqual([{ event: 'message', data: 'x' }]);
  });

  it('removes one leading space of a value only, and reads a field without a colon', () => {
    expect(parseAll(['data:  two spaces\n\n', 'data:none\n\n'])).toEqual([
      { event: 'message', data: ' two spaces' },
      { event: 'message', data: 'none' },
    ]);
  });

  it('keeps the last event id', () => {
    expect(parseAll(['id: 7\ndata: a\n\ndata: b\n\n'])).toEqual([
      { event: 'message', data: 'a', id: '7' },
      { event: 'message', data: 'b', id: '7' },
    ]);
  });

  it('strips a byte order mark at the start of the stream', () => {
    expect(parseAll(['\uFEFFdata: a\n\n'])).toEqual([{ event: 'message', data: 'a' }]);
  });

  it('drops an unfinished event at the end of the stream', () => {
    expect(parseAll(['data: a\n\ndata: half'])).toEqual([{ event: 'message', data: 'a' }]);
    expect(parseAll(['data: a\n'])).toEqual([]);
  });

  it('completes a line ended by a trailing CR at the end of the stream', () => {
    const parser = new SseParser();
    expect(parser.feed('data: a\r\r')).toEqual([]);
    expect(parser.end()).toEqual([{ event: 'message', data: 'a' }]);
  });
});

function streamResponse(chunks: string[], init: ResponseInit = {}): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
  return new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' }, ...init });
}

describe('readEventStream', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('reads /api + path with the bearer token and calls back for each event', async () => {
    saveSession({ token: 'tok-9', user: { username: 'a@b.co', email: 'a@b.co' } });
    const fetchMock = vi.fn((_url: string, _init?: RequestInit) =>
      Promise.resolve(streamResponse(['event: status\ndata: {"x":1}\n\n', 'event: end\ndata: {"x":2}\n\n'])),
    );
    vi.stubGlobal('fetch', fetchMock);
    const events: SseEvent[] = [];
    const onOpen = vi.fn();
    await readEventStream('/test-stream/t1', { onEvent: (event) => events.push(event), onOpen });
    expect(events).toEqual([
      { event: 'status', data: '{"x":1}' },
      { event: 'end', data: '{"x":2}' },
    ]);
    expect(onOpen).toHaveBeenCalledOnce();
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/test-stream/t1');
    expect((init?.headers as Record<string, string>).Authorization).toBe('Bearer tok-9');
    expect((init?.headers as Record<string, string>).Accept).toBe('text/event-stream');
  });

  it('rejects with the server detail when the stream cannot be opened', async () => {
    vi.stubGlobal('fetch', () =>
      Promise.resolve(json({ detail: 'Test result not found' }, 404, 'Not Found')),
    );
    const error = await readEventStream('/test-stream/nope', { onEvent: () => undefined }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(404);
    expect((error as ApiError).message).toBe('Test result not found');
  });

  it('rejects an answer that is not an event stream', async () => {
    vi.stubGlobal('fetch', () => Promise.resolve(json({ ok: true })));
    const error = await readEventStream('/test-stream/t', { onEvent: () => undefined }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).kind).toBe('parse');
  });

  it('rejects with a network error when the connection fails', async () => {
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    const error = await readEventStream('/test-stream/t', { onEvent: () => undefined }).catch(
      (e: unknown) => e,
    );
    expect((error as ApiError).kind).toBe('network');
  });

  it('gives up on a stream that goes silent', async () => {
    vi.useFakeTimers();
    vi.stubGlobal('fetch', (_url: string, init?: RequestInit) => {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('data: first\n\n'));
          init?.signal?.addEventListener('abort', () =>
            controller.error(new DOMException('aborted', 'AbortError')),
          );
        },
      });
      return Promise.resolve(new Response(body, { headers: { 'Content-Type': 'text/event-stream' } }));
    });
    const events: SseEvent[] = [];
    const done = readEventStream('/test-stream/t', {
      onEvent: (e) => events.push(e),
      idleTimeoutMs: 5_000,
    }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(5_001);
    const error = await done;
    expect(events).toEqual([{ event: 'message', data: 'first' }]);
    expect((error as ApiError).kind).toBe('timeout');
  });

  it('passes the caller abort through as an AbortError', async () => {
    vi.stubGlobal('fetch', (_url: string, init?: RequestInit) => {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          init?.signal?.addEventListener('abort', () =>
            controller.error(new DOMException('aborted', 'AbortError')),
          );
        },
      });
      return Promise.resolve(new Response(body, { headers: { 'Content-Type': 'text/event-stream' } }));
    });
    const controller = new AbortController();
    const done = readEventStream('/test-stream/t', {
      onEvent: () => undefined,
      signal: controller.signal,
    }).catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort();
    const error = await done;
    expect(error).toBeInstanceOf(DOMException);
    expect((error as DOMException).name).toBe('AbortError');
  });
});
