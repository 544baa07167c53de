import { API_BASE, ApiError, forgetLostWorkspace, REQUEST_TIMEOUT_MS } from './api';
import { clearSession, getToken } from './session';
import { currentWorkspaceId, workspaceHeaders } from './workspace-store';

/**
 * Server-sent events over fetch. `EventSource` cannot send an Authorization header, so the live stream is
 * read with fetch and a ReadableStream, and parsed here as the HTML standard's event-stream format says:
 * lines end with CRLF, LF or CR; `:` starts a comment; `data` lines of one event are joined with "\n"; a
 * blank line dispatches the event (an event without data is dropped); an unfinished event at the end of
 * the stream is dropped.
 */
export interface SseEvent {
  /** The `event` field, "message" when absent. */
  event: string;
  data: string;
  /** The last `id` seen on the stream, if any. */
  id?: string;
}

export class SseParser {
  private buffer = '';
  private started = false;
  private dataLines: string[] = [];
  private eventType = '';
  private lastId: string | undefined;

  /** Feeds decoded text; returns the events completed by it, in order. */
  feed(chunk: string): SseEvent[] {
    let text = this.buffer + chunk;
    if (!this.started && text.length > 0) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    const events: SseEvent[] = [];
    let start = 0;
    for (let i = 0; i < text.length; i++) {
      const char = text[i];
      if (char !== '\n' && char !== '\r') continue;
      // A CR at the end of the chunk may be the first half of a CRLF: wait for the next chunk.
      if (char === '\r' && i === text.length - 1) break;
      this.line(text.slice(start, i), events);
      if (char === '\r' && text[i + 1] === '\n') i++;
      start = i + 1;
    }
    this.buffer = text.slice(start);
    return events;
  }

  /** The stream ended. A trailing CR completes its line; an event without its blank line is dropped. */
  end(): SseEvent[] {
    const events: SseEvent[] = [];
    if (this.buffer.endsWith('\r')) this.line(this.buffer.slice(0, -1), events);
    this.buffer = '';
    this.dataLines = [];
    this.eventType = '';
    return events;
  }

  private line(line: string, events: SseEvent[]): void {
    if (line === '') {
      if (this.dataLines.length > 0) {
        const event: SseEvent = { event: this.eventType || 'message', data: this.dataLines.join('\n') };
        if (this.lastId !== undefined) event.id = this.lastId;
        events.push(event);
      }
      this.dataLines = [];
      this.eventType = '';
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'data':
        this.dataLines.push(value);
        break;
      case 'event':
        this.eventType = value;
        break;
      case 'id':
        if (!value.includes('\u0000')) this.lastId = value;
        break;
      default:
        // `retry` and unknown fields: reconnection is the caller's business here.
        break;
    }
  }
}

export interface EventStreamOptions {
  signal?: AbortSignal;
  onEvent: (event: SseEvent) => void;
  /** Called once the server has answered with an event stream. */
  onOpen?: () => void;
  /** The stream counts as dead when no byte arrives for this long (ms). */
  idleTimeoutMs?: number;
}

/** Events every second plus heartbeats: 15 s of silence means the connection is gone. */
export const STREAM_IDLE_TIMEOUT_MS = 15_000;

function errorOf(text: string): { detail: string | null; code: string | undefined } {
  try {
    const parsed = JSON.parse(text) as unknown;
    if (typeof parsed === 'object' && parsed !== null) {
      const { detail, code } = parsed as Record<string, unknown>;
      return {
        detail: typeof detail === 'string' && detail.trim() ? detail : null,
        code: typeof code === 'string' ? code : undefined,
      };
    }
  } catch {
    // Not JSON: the status line describes it.
  }
  return { detail: null, code: undefined };
}

/**
 * Opens `GET /api{path}` as an event stream with the session's bearer token and calls `onEvent` for each
 * event. Resolves when the server closes the stream; rejects with an ApiError when it cannot be opened
 * (non-OK answer, not an event stream, no answer within the request time-out) or goes silent, and with
 * the AbortError when the caller aborts.
 */
export async function readEventStream(path: string, options: EventStreamOptions): Promise<void> {
  const { signal, onEvent, onOpen } = options;
  const idleTimeoutMs = options.idleTimeoutMs ?? STREAM_IDLE_TIMEOUT_MS;
  const token = getToken();
  const controller = new AbortController();
  let failure: ApiError | null = null;
  const fail = (error: ApiError) => {
    failure ??= error;
    controller.abort();
  };
  const forwardAbort = () => controller.abort();
  if (signal?.aborted) controller.abort();
  signal?.addEventListener('abort', forwardAbort, { once: true });

  let timer = setTimeout(
    () =>
      fail(
        new ApiError({
          kind: 'timeout',
          status: 0,
          message: `Request timed out after ${REQUEST_TIMEOUT_MS / 1000} seconds`,
        }),
      ),
    REQUEST_TIMEOUT_MS,
  );
  const armIdle = () => {
    clearTimeout(timer);
    timer = setTimeout(
      () =>
        fail(
          new ApiError({
            kind: 'timeout',
            status: 0,
            message: `No data from the live stream for ${idleTimeoutMs / 1000} seconds`,
          }),
        ),
      idleTimeoutMs,
    );
  };

  // The stream is of a run in the current workspace (docs/adr/0035-workspaces-and-roles.md).
  const workspace = currentWorkspaceId();
  const headers: Record<string, string> = { Accept: 'text/event-stream', ...workspaceHeaders() };
  if (token) headers.Authorization = `Bearer ${token}`;

  try {
    let response: Response;
    try {
      response = await fetch(`${API_BASE}${path}`, {
        headers,
        signal: controller.signal,
        cache: 'no-store',
        credentials: 'same-origin',
      });
    } catch (error) {
      throw failure ?? (signal?.aborted ? error : networkError(error));
    }
    if (!response.ok) {
      const text = await response.text().catch(() => '');
      if (response.status === 401 && token) clearSession({ expired: true });
      const { detail, code } = errorOf(text);
      forgetLostWorkspace(response.status, code, workspace);
      throw new ApiError({
        kind: 'http',
        status: response.status,
        message: detail ?? `HTTP ${response.status}: ${response.statusText}`,
        code,
      });
    }
    const type = response.headers.get('content-type') ?? '';
    if (!type.includes('text/event-stream') || !response.body) {
      await response.body?.cancel().catch(() => undefined);
      throw new ApiError({
        kind: 'parse',
        status: response.status,
        message: `Expected an event stream, got ${type || 'no content type'}`,
      });
    }
    onOpen?.();
    armIdle();

    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    const parser = new SseParser();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        armIdle();
        for (const event of parser.feed(decoder.decode(value, { stream: true }))) onEvent(event);
      }
      for (const event of parser.feed(decoder.decode())) onEvent(event);
      for (const event of parser.end()) onEvent(event);
    } catch (error) {
      throw failure ?? (signal?.aborted ? error : networkError(error));
    } finally {
      reader.releaseLock();
    }
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', forwardAbort);
  }
}

function networkError(error: unknown): ApiError {
  return new ApiError({
    kind: 'network',
    status: 0,
    message: error instanceof Error && error.message ? error.message : 'Failed to fetch',
    cause: error,
  });
}
