import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { migratePlan, type PerfPlan, type PerfPlanInput, type UrlEntryInput } from '@aqa/plan';

export interface RecordedRequest {
  method: string;
  url: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: string;
}

export type Route = (req: RecordedRequest, res: ServerResponse) => void | Promise<void>;

/**
 * A local HTTP target for the engine's tests: listens on 127.0.0.1 (port 0), counts every request
 * it receives, records them (up to `maxRecorded`), and answers through `route` (200 "ok" by default).
 */
export class TestTarget {
  count = 0;
  /** Connections accepted since the last reset (each virtual user opens its own). */
  connections = 0;
  readonly recorded: RecordedRequest[] = [];
  readonly byPath = new Map<string, number>();
  route: Route = (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('ok');
  };
  private readonly server = createServer((req, res) => this.handle(req, res));
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(private readonly maxRecorded = 200_000) {
    this.server.keepAliveTimeout = 60_000;
    this.server.on('connection', (s) => {
      this.connections++;
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
  }

  get origin(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<this> {
    // A deep accept queue, for tests that start thousands of users (capped by net.core.somaxconn).
    await new Promise<void>((resolve) =>
      this.server.listen({ port: 0, host: '127.0.0.1', backlog: 8192 }, resolve),
    );
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Connections open now. */
  get openConnections(): number {
    return this.sockets.size;
  }

  /** Closes every open connection from the target's side, as a server's idle time-out would. */
  dropConnections(): void {
    for (const s of this.sockets) s.destroy();
  }

  reset(): void {
    this.count = 0;
    this.connections = 0;
    this.recorded.length = 0;
    this.byPath.clear();
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    this.count++;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const u = new URL(req.url ?? '/', 'http://x');
      const rec: RecordedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        path: u.pathname,
        query: u.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      this.byPath.set(rec.path, (this.byPath.get(rec.path) ?? 0) + 1);
      if (this.recorded.length < this.maxRecorded) this.recorded.push(rec);
      void Promise.resolve(this.route(rec, res)).catch(() => res.destroy());
    });
  }
}

/** A URL entry as tests write it (every field but url optional). */
export type TestEntry = Omit<UrlEntryInput, 'timeout'> & { timeout?: number };

/** A valid plan for tests: no think time unless a step sets one. */
export function testPlan(urls: TestEntry[], over: Partial<PerfPlanInput> = {}): PerfPlan {
  return migratePlan({
    name: 'test',
    concurrent_users: 2,
    duration: 1,
    ...over,
    urls: urls.map((u) => ({ thinkTime: '0', ...u })),
  });
}
