import { STATUS_CODES } from 'node:http';
import { performance } from 'node:perf_hooks';
import { type Dispatcher, request } from 'undici';
import { describeNetworkError } from './network-error';

/** A request ready to send: templates expanded, parameters in the URL, authorization in place. */
export interface OutgoingRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: string | undefined;
}

export interface ReceivedResponse {
  status: number;
  /** The standard reason phrase of the status ("Not Found"); HTTP/2 and many servers send none. */
  statusText: string;
  /** Lowercased names; a header sent more than once is joined with ", ". */
  headers: Record<string, string>;
  /** At most the read limit of the body. */
  body: Buffer;
  /** The body's size in bytes: exact, except when it was cut and the server gave no Content-Length (null). */
  sizeBytes: number | null;
  /** The body was larger than the read limit and only its start was read. */
  truncated: boolean;
  /** From sending the request to the last byte read. */
  timeMs: number;
}

export type Exchange =
  { ok: true; response: ReceivedResponse } | { ok: false; error: string; timedOut: boolean };

export interface ExchangeLimits {
  dispatcher: Dispatcher;
  timeoutMs: number;
  maxBodyBytes: number;
  /** Appended to the time-out message, e.g. when the whole validation's limit cut this request short. */
  timeoutNote?: string | undefined;
}

/**
 * Sends one request and reads its answer. Never throws for anything the network or the target
 * does: a refused connection, an unknown host, a TLS failure or a time-out comes back as
 * `{ ok: false, error }` in words. The time-out covers the whole exchange, body included.
 */
export async function exchange(outgoing: OutgoingRequest, limits: ExchangeLimits): Promise<Exchange> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, limits.timeoutMs);
  const started = performance.now();
  try {
    const response = await request(outgoing.url, {
      method: outgoing.method,
      headers: outgoing.headers,
      body: outgoing.body,
      dispatcher: limits.dispatcher,
      signal: controller.signal,
    });
    const chunks: Buffer[] = [];
    let read = 0;
    let truncated = false;
    for await (const bytes of response.body as AsyncIterable<Buffer>) {
      if (read + bytes.length > limits.maxBodyBytes) {
        chunks.push(bytes.subarray(0, limits.maxBodyBytes - read));
        read = limits.maxBodyBytes;
        truncated = true;
        // Leaving the loop destroys the stream: the rest of the body is never downloaded.
        break;
      }
      chunks.push(bytes);
      read += bytes.length;
    }
    const timeMs = Math.round(performance.now() - started);
    const headers = flattenHeaders(response.headers);
    return {
      ok: true,
      response: {
        status: response.statusCode,
        statusText: STATUS_CODES[response.statusCode] ?? '',
        headers,
        body: Buffer.concat(chunks, read),
        sizeBytes: truncated ? declaredLength(headers, read) : read,
        truncated,
        timeMs,
      },
    };
  } catch (error) {
    if (timedOut) {
      const note = limits.timeoutNote === undefined ? '' : ` ${limits.timeoutNote}`;
      return {
        ok: false,
        error: `Timed out after ${formatSeconds(limits.timeoutMs)} s${note}`,
        timedOut: true,
      };
    }
    return { ok: false, error: describeNetworkError(error, outgoing.url), timedOut: false };
  } finally {
    clearTimeout(timer);
  }
}

/** "2", "1.5": seconds with at most one decimal, as a person writes them. */
export function formatSeconds(ms: number): string {
  return String(Math.round(ms / 100) / 10);
}

function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/** The Content-Length of a cut body when it is believable (at least what was read), else null. */
function declaredLength(headers: Record<string, string>, read: number): number | null {
  const declared = Number(headers['content-length']);
  return Number.isSafeInteger(declared) && declared >= read ? declared : null;
}
