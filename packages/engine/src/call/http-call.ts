import http from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { type InnerPhrase, saidFlat, type TimingPhases } from '@aqa/plan';
import { TLS_CODE_RE } from '../executor/http-error';
import { TargetRefusedError, portOf, type TargetGuard } from '../guard/guard';
import { parseIp } from '../guard/ip';
import { normalizeHost } from '../guard/rules';

/*
 * One HTTP call of a functional run over node:http / node:https, so that where its time went can be
 * read from the socket's events (docs/design.md §9): DNS lookup, TCP connect, TLS handshake, time to
 * the first byte and download, 0 for what a reused keep-alive connection skips. One call is one
 * request: redirects and cookies are call/session-call.ts's. Every failure becomes words.
 */

/**
 * How much of a body is kept in memory for judging and captures; the full size is still counted. A call
 * none of whose rules or captures reads the body keeps only what its evidence shows (compile-call.ts
 * keptBodyBytes; docs/adr/0024-memory-bounds.md).
 */
export const JUDGED_BODY_LIMIT_BYTES = 10 * 1024 * 1024;

export interface UserAgents {
  http: http.Agent;
  https: https.Agent;
}

/** One keep-alive connection pool per user, as a browser tab or a Newman run holds one. */
export function userAgents(insecureTls: boolean): UserAgents {
  return {
    http: new http.Agent({ keepAlive: true, maxSockets: 1 }),
    https: new https.Agent({ keepAlive: true, maxSockets: 1, rejectUnauthorized: !insecureTls }),
  };
}

export function closeAgents(agents: UserAgents): void {
  agents.http.destroy();
  agents.https.destroy();
}

export interface HttpAnswer {
  status: number;
  /** Lowercased names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** The header lines as received, `Name: value` one a line: what a rule's `headers` subject searches. */
  headerLines: string;
  /** Each Set-Cookie header as received (`headers` joins them, which a cookie's Expires breaks). */
  setCookies: string[];
  /** The body's first bytes: at most HttpCallOptions.keepBytes. */
  body: Buffer;
  sizeBytes: number;
  timeMs: number;
  timings: TimingPhases;
}

export type HttpOutcome =
  | { kind: 'answer'; answer: HttpAnswer }
  /** `phrase`: the error as a code and parameters, when it has one. */
  | { kind: 'failed'; error: string; phrase?: InnerPhrase | null; timeMs: number }
  /** Stopped by the run's stop: not a result. */
  | { kind: 'aborted' };

export interface HttpCallOptions {
  agents: UserAgents;
  guard: TargetGuard | undefined;
  timeoutMs: number;
  signal: AbortSignal;
  /** The most bytes of the body kept (the rest is read and counted, not kept); default JUDGED_BODY_LIMIT_BYTES. */
  keepBytes?: number;
}

export interface HttpRequestSpec {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: string | undefined;
}

const round = (ms: number): number => Math.max(0, Math.round(ms * 1000) / 1000);

/** Methods a stale keep-alive connection may be retried for: sending them twice changes nothing more. */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);
const STALE_CONNECTION = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);

/**
 * Sends one request and reads its answer; never rejects. A kept-alive connection the server closed
 * just as it was reused fails before any answer: an idempotent request is then sent once more on a
 * new connection, as browsers and undici do, so an idle server's time-out is not taken for the API's failure.
 */
export function httpCall(
  spec: HttpRequestSpec,
  options: HttpCallOptions,
  retried = false,
): Promise<HttpOutcome> {
  const { url } = spec;
  const secure = url.protocol === 'https:';
  const port = portOf(url.port, url.protocol);
  const host = normalizeHost(url.hostname);
  const where = `${url.hostname}:${port}`;
  const t0 = performance.now();
  const elapsed = (): number => round(performance.now() - t0);

  if (options.signal.aborted) return Promise.resolve({ kind: 'aborted' });
  const literal = parseIp(host) !== null;
  if (options.guard && literal) {
    const decision = options.guard.decide({ host, port, addresses: [host] });
    if (!decision.allowed) return Promise.resolve({ kind: 'failed', error: decision.reason, timeMs: 0 });
  }

  return new Promise<HttpOutcome>((resolve) => {
    let settled = false;
    let timedOut = false;
    let headersAt: number | undefined;
    let socketReused = false;
    let lookupAt: number | undefined;
    let connectAt: number | undefined;
    let secureAt: number | undefined;
    /** The time-out timer and the abort listener, undone when the call ends. */
    const cleanups: (() => void)[] = [];

    const finish = (outcome: HttpOutcome | Promise<HttpOutcome>): void => {
      if (settled) return;
      settled = true;
      cleanups.forEach((undo) => undo());
      resolve(outcome);
    };
    const fail = (error: unknown): void => {
      if (options.signal.aborted) return finish({ kind: 'aborted' });
      const code = (error as NodeJS.ErrnoException | undefined)?.code ?? '';
      if (socketReused && !timedOut && headersAt === undefined && !retried && IDEMPOTENT.has(spec.method)) {
        if (STALE_CONNECTION.has(code)) return finish(httpCall(spec, options, true));
      }
      const seconds = options.timeoutMs / 1000;
      const failure = timedOut
        ? saidFlat(headersAt === undefined ? 'net.noResponseWithin' : 'net.responseUnfinished', { seconds })
        : describeFailure(error, where, headersAt !== undefined);
      finish({ kind: 'failed', error: failure.text, phrase: failure.phrase, timeMs: elapsed() });
    };

    let request: http.ClientRequest;
    try {
      request = (secure ? https : http).request({
        protocol: url.protocol,
        hostname: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
        port,
        path: `${url.pathname}${url.search}`,
        method: spec.method,
        headers:
          spec.body === undefined
            ? spec.headers
            : { ...spec.headers, 'Content-Length': Buffer.byteLength(spec.body) },
        agent: secure ? options.agents.https : options.agents.http,
        ...(options.guard && !literal ? { lookup: options.guard.lookupFor(port) } : {}),
      });
    } catch (e) {
      // A header value Node refuses (a line break, a non-Latin-1 character) is the plan's mistake.
      const failure = saidFlat('net.couldNotSend', { reason: (e as Error).message });
      finish({ kind: 'failed', error: failure.text, phrase: failure.phrase, timeMs: 0 });
      return;
    }
    const onAbort = (): void => {
      request.destroy();
      finish({ kind: 'aborted' });
    };
    options.signal.addEventListener('abort', onAbort);
    const timer = setTimeout(() => {
      timedOut = true;
      request.destroy();
    }, options.timeoutMs);
    cleanups.push(
      () => clearTimeout(timer),
      () => options.signal.removeEventListener('abort', onAbort),
    );

    request.on('socket', (socket: Socket) => {
      if (!socket.connecting) {
        socketReused = true;
        return;
      }
      socket.once('lookup', () => (lookupAt = performance.now()));
      socket.once('connect', () => (connectAt = performance.now()));
      socket.once('secureConnect', () => (secureAt = performance.now()));
    });
    request.on('error', fail);
    request.on('response', (response) => {
      headersAt = performance.now();
      const chunks: Buffer[] = [];
      const keep = options.keepBytes ?? JUDGED_BODY_LIMIT_BYTES;
      let kept = 0;
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (kept < keep) {
          const part = kept + chunk.length > keep ? chunk.subarray(0, keep - kept) : chunk;
          chunks.push(part);
          kept += part.length;
        }
      });
      response.on('error', fail);
      response.on('aborted', () => fail(new Error('aborted')));
      response.on('end', () => {
        const endAt = performance.now();
        const firstByteAt = headersAt ?? endAt;
        const dns = socketReused || lookupAt === undefined ? 0 : lookupAt - t0;
        const connect = socketReused || connectAt === undefined ? 0 : connectAt - (lookupAt ?? t0);
        const tls =
          socketReused || secureAt === undefined || connectAt === undefined ? 0 : secureAt - connectAt;
        const readyAt = socketReused ? t0 : (secureAt ?? connectAt ?? t0);
        finish({
          kind: 'answer',
          answer: {
            status: response.statusCode ?? 0,
            headers: flatHeaders(response.headers),
            headerLines: headerLines(response.rawHeaders),
            setCookies: response.headers['set-cookie'] ?? [],
            body: Buffer.concat(chunks),
            sizeBytes: size,
            timeMs: round(endAt - t0),
            timings: {
              dns: round(dns),
              connect: round(connect),
              tls: round(tls),
              ttfb: round(firstByteAt - readyAt),
              download: round(endAt - firstByteAt),
            },
          },
        });
      });
    });
    request.end(spec.body);
  });
}

/** Node's raw headers (name, value, name, value…) as `Name: value` lines, names spelled as sent. */
function headerLines(raw: readonly string[]): string {
  const lines: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) lines.push(`${raw[i]}: ${raw[i + 1]}`);
  return lines.join('\n');
}

function flatHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

/** A network error in words a person understands, naming where the call went. */
export function describeError(error: unknown, where: string, answered: boolean): string {
  return describeFailure(error, where, answered).text;
}

/**
 * The same, with its phrase for screens in another language (docs/adr/0025-phrases.md); a target guard's
 * refusal stays as written.
 */
export function describeFailure(
  error: unknown,
  where: string,
  answered: boolean,
): { text: string; phrase: InnerPhrase | null } {
  if (error instanceof TargetRefusedError) return { text: error.message, phrase: null };
  const e = error as NodeJS.ErrnoException;
  const code = typeof e.code === 'string' ? e.code : '';
  const host = where.slice(0, where.lastIndexOf(':'));
  if (answered) return saidFlat('net.closedMidResponse', { where });
  if (code === 'ECONNREFUSED') return saidFlat('net.refused', { where });
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return saidFlat('net.hostNotFound', { host });
  if (code === 'ECONNRESET' || code === 'EPIPE') return saidFlat('net.closedBeforeResponse', { where });
  if (code === 'ETIMEDOUT') return saidFlat('net.connectTimeout', { where });
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return saidFlat('net.unreachable', { where });
  if (code === 'HPE_INVALID_CONSTANT' || code.startsWith('HPE_')) return saidFlat('net.notHttp', { where });
  if (TLS_CODE_RE.test(code)) return saidFlat('net.tls', { where, reason: e.message });
  return saidFlat('net.failed', { where, reason: e.message || code || String(error) });
}
