import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the target answers one request: status 200, body {"ok":true} and no delay unless said. */
export type TargetAnswer = (request: IncomingMessage) => { status?: number; body?: string; delayMs?: number };

/**
 * A local API for the browser tests that counts every request it receives, so a test can compare the
 * totals a run reports with what really arrived. It listens on 127.0.0.1 on a free port.
 */
export class CountingTarget {
  received = 0;
  origin = '';
  private server: Server | undefined;

  constructor(private readonly answer: TargetAnswer = () => ({})) {}

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      this.received++;
      request.resume();
      const { status = 200, body = '{"ok":true}', delayMs = 0 } = this.answer(request);
      const send = () => {
        response.writeHead(status, {
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body),
        });
        response.end(body);
      };
      if (delayMs > 0) setTimeout(send, delayMs);
      else send();
    });
    const server = this.server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
