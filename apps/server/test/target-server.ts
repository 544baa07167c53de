import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { selfSignedCertificate } from './self-signed-cert';

/** One request as the target received it. */
export interface ReceivedRequest {
  method: string;
  /** Path and query as sent. */
  url: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: string;
}

export type TargetHandler = (request: ReceivedRequest, response: ServerResponse) => void;

/** A local HTTP(S) server on 127.0.0.1 that records, in order, every request it receives. */
export interface TargetServer {
  /** "http://127.0.0.1:PORT" (or https://). */
  origin: string;
  port: number;
  received: ReceivedRequest[];
  /** How many requests reached this path. */
  count(path: string): number;
  close(): Promise<void>;
}

export async function startTarget(
  handler: TargetHandler,
  options: { tls?: boolean } = {},
): Promise<TargetServer> {
  const received: ReceivedRequest[] = [];
  const listener = (incoming: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const url = new URL(incoming.url ?? '/', 'http://target');
      const request: ReceivedRequest = {
        method: incoming.method ?? '',
        url: incoming.url ?? '/',
        path: url.pathname,
        query: url.searchParams,
        headers: incoming.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      received.push(request);
      handler(request, response);
    });
  };
  const server: Server = options.tls
    ? createHttpsServer(selfSignedCertificate(), listener)
    : createHttpServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    port,
    received,
    count: (path) => received.filter((r) => r.path === path).length,
    close: () =>
      new Promise<void>((resolve) => {
        // Requests that are never answered (the time-out tests) would otherwise keep close() waiting.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

/** A port on 127.0.0.1 that nothing listens on: bound by the OS, then released. */
export async function closedPort(): Promise<number> {
  const server = createHttpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
