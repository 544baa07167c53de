import {
  Agent,
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { connect, isIP, type AddressInfo, type Socket } from 'node:net';
import { describeError, portOf, TargetRefusedError, type TargetGuard } from '@aqa/engine';

/*
 * The connection-level target guard of a UI run (docs/adr/0015-target-guard.md): the run's browser
 * context sends every connection through this local proxy, which connects as the API runner does — an
 * address decided at once, a name through the guard's lookup on the addresses it resolves to then, so
 * a name re-pointed at a refused address is refused too. It catches what a route handler cannot see: redirects, and WebSocket and HTTPS tunnels. A
 * refused plain request is answered 403 with the guard's reason, one whose target cannot be reached 502
 * with the network error in words, both marked as the proxy's own answer; a refused or failed tunnel is
 * closed, and its reason kept by host and port for the step's failed requests.
 */

/**
 * Marks an answer the proxy made itself — a guard refusal, or a target it could not reach — so the step
 * reports the reason in words instead of the proxy's 403 or 502 as if the target had answered.
 */
export const REFUSED_HEADER = 'x-aqa-target-refused';

export interface GuardProxy {
  /** The proxy's address for the browser context: http://127.0.0.1:port. */
  server: string;
  /**
   * Why a request got no answer from its target — the guard refused it, or the target could not be
   * reached — a plain one by its URL, an HTTPS or WebSocket one by its host and port.
   */
  refusalOf(url: string): string | undefined;
  close(): Promise<void>;
}

/** Headers only the browser-to-proxy hop means. */
const HOP_BY_HOP = [
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'upgrade',
];

function unbracket(host: string): string {
  return host.replace(/^\[(.*)\]$/, '$1');
}

/** Why the guard refuses an address outright; a name is decided when it is looked up. */
function refusedAddress(guard: TargetGuard, host: string, port: number): string | null {
  if (isIP(host) === 0) return null;
  const decision = guard.decide({ host, port, addresses: [host] });
  return decision.allowed ? null : decision.reason;
}

function refusalText(error: Error): string | null {
  return error instanceof TargetRefusedError ? error.message : null;
}

function withoutHopByHop(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const out = { ...headers };
  for (const name of HOP_BY_HOP) delete out[name];
  return out;
}

export async function startGuardProxy(guard: TargetGuard): Promise<GuardProxy> {
  const agent = new Agent({ keepAlive: true });
  const sockets = new Set<Socket>();
  const refusals = new Map<string, string>();
  const tunnelRefusals = new Map<string, string>();
  const track = (socket: Socket): void => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  };

  /** A plain http:// request, sent on as the browser wrote it. */
  const forward = (req: IncomingMessage, res: ServerResponse): void => {
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('Not a proxy request');
      return;
    }
    const port = portOf(url.port, url.protocol);
    const host = unbracket(url.hostname);
    const refuse = (reason: string): void => {
      refusals.set(url.href, reason);
      res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8', [REFUSED_HEADER]: '1' }).end(reason);
    };
    const refused = refusedAddress(guard, host, port);
    if (refused !== null) return refuse(refused);
    const upstream = httpRequest(
      {
        host,
        port,
        method: req.method,
        path: `${url.pathname}${url.search}`,
        headers: withoutHopByHop(req.headers),
        agent,
        lookup: guard.lookupFor(port),
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, withoutHopByHop(answer.headers));
        answer.pipe(res);
      },
    );
    upstream.on('error', (error) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      const reason = refusalText(error) ?? describeError(error, `${host}:${port}`, false);
      refusals.set(url.href, reason);
      const status = refusalText(error) === null ? 502 : 403;
      res
        .writeHead(status, { 'content-type': 'text/plain; charset=utf-8', [REFUSED_HEADER]: '1' })
        .end(reason);
    });
    req.pipe(upstream);
  };

  /** A CONNECT tunnel (https://, ws://, wss://) to host:port. */
  const tunnel = (req: IncomingMessage, client: Socket, head: Buffer): void => {
    track(client);
    client.on('error', () => client.destroy());
    const target = req.url ?? '';
    const colon = target.lastIndexOf(':');
    const host = unbracket(target.slice(0, colon));
    const port = Number(target.slice(colon + 1));
    if (colon === -1 || !Number.isInteger(port) || port < 1 || port > 65535) {
      client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
      return;
    }
    const refuse = (reason: string): void => {
      tunnelRefusals.set(`${host}:${port}`, reason);
      client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
    };
    const refused = refusedAddress(guard, host, port);
    if (refused !== null) return refuse(refused);
    let established = false;
    const upstream = connect({ host, port, lookup: guard.lookupFor(port) }, () => {
      established = true;
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    track(upstream);
    upstream.on('error', (error) => {
      if (established) {
        client.destroy();
        return;
      }
      const reason = refusalText(error);
      if (reason !== null) return refuse(reason);
      tunnelRefusals.set(`${host}:${port}`, describeError(error, `${host}:${port}`, false));
      client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
    });
    client.on('close', () => upstream.destroy());
  };

  const server = createServer(forward);
  server.on('connection', track);
  server.on('connect', tunnel);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    server: `http://127.0.0.1:${port}`,
    refusalOf: (text) => {
      const found = refusals.get(text);
      if (found !== undefined) return found;
      try {
        const url = new URL(text);
        const scheme = url.protocol === 'wss:' ? 'https:' : url.protocol;
        return tunnelRefusals.get(`${unbracket(url.hostname)}:${portOf(url.port, scheme)}`);
      } catch {
        return undefined;
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        agent.destroy();
        server.close(() => resolve());
      }),
  };
}
