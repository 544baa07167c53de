import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a receiver got: its body as sent, its headers, and whether its signature verified. */
export interface Received {
  path: string;
  body: string;
  headers: Record<string, string | string[] | undefined>;
  /** X-AQA-Signature matched the HMAC-SHA256 of the exact body with the receiver's secret; null: none sent. */
  signatureValid: boolean | null;
}

export interface Receiver {
  origin: string;
  port: number;
  received: Received[];
  /** The statuses to answer, in turn; the last one is kept once the list runs out. */
  answerWith(statuses: number[]): void;
  close(): Promise<void>;
}

/** Checks a body's X-AQA-Signature as a receiver would: `sha256=` and the hex HMAC-SHA256 of the exact bytes. */
export function verifySignature(secret: string, body: Buffer, header: string | undefined): boolean {
  if (header === undefined || !header.startsWith('sha256=')) return false;
  const expected = createHmac('sha256', secret).update(body).digest();
  const given = Buffer.from(header.slice('sha256='.length), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * A real local HTTP receiver of notifications: counts what it gets, verifies each body's HMAC with
 * `secret`, and answers the statuses it is told to (200 unless told). `port` 0 picks a free one; a
 * given port lets a test bring a receiver up where one was down.
 */
export async function startReceiver(secret = '', port = 0): Promise<Receiver> {
  const received: Received[] = [];
  let statuses = [200];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const header = req.headers['x-aqa-signature'];
      received.push({
        path: (req.url ?? '/').split('?')[0] ?? '/',
        body: body.toString('utf8'),
        headers: req.headers,
        signatureValid: typeof header === 'string' ? verifySignature(secret, body, header) : null,
      });
      const status = statuses.length > 1 ? (statuses.shift() ?? 200) : (statuses[0] ?? 200);
      res.writeHead(status, { 'content-type': 'text/plain' });
      res.end(status >= 500 ? `receiver broke (${status})` : 'ok');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${bound}`,
    port: bound,
    received,
    answerWith(list) {
      statuses = [...list];
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on (bound, then let go): a receiver that is down. */
export async function downPort(): Promise<number> {
  const probe = await startReceiver();
  await probe.close();
  return probe.port;
}
