import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/*
 * The API the parity collections (./collections) are written against: a small shop with a login, a
 * bearer-protected profile and orders, a cookie session, a redirect, paging and an echo. It listens on
 * 127.0.0.1 (port 0) and counts every request it receives, by path, so a test can tell what a runner
 * really sent. The credentials are the environment file's (environments/local.postman_environment.json).
 */

export const USERNAME = 'ada';
export const PASSWORD = 'lovelace-1815';
/** Pages of GET /items: the setNextRequest loop of the legacy collection walks them all. */
export const ITEM_PAGES = 3;

interface Order {
  id: string;
  item: string;
  quantity: number;
  reference: string | null;
  status: 'open';
  created_at: string;
}

export class ParityApi {
  /** Every request received since start (or the last reset). */
  count = 0;
  readonly byPath = new Map<string, number>();
  private readonly tokens = new Set<string>();
  private readonly sessions = new Set<string>();
  private readonly orders = new Map<string, Order>();
  private next = 1;
  private readonly server = createServer((req, res) => void this.handle(req, res));
  private readonly sockets = new Set<Socket>();
  private port = 0;

  constructor() {
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  get origin(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen({ port: 0, host: '127.0.0.1' }, resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Forgets the requests counted, tokens, sessions and orders: each run starts from the same state. */
  reset(): void {
    this.count = 0;
    this.byPath.clear();
    this.tokens.clear();
    this.sessions.clear();
    this.orders.clear();
    this.next = 1;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname;
    this.count++;
    this.byPath.set(path, (this.byPath.get(path) ?? 0) + 1);
    const text = await readBody(req);
    const method = req.method ?? 'GET';
    const json = (status: number, body: unknown, headers: Record<string, string> = {}): void => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
      res.end(JSON.stringify(body));
    };
    const authorised = (): boolean => {
      const token = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
      if (token !== undefined && this.tokens.has(token)) return true;
      json(401, { error: 'unauthorized' }, { 'www-authenticate': 'Bearer' });
      return false;
    };

    if (method === 'GET' && path === '/health') return json(200, { status: 'ok' });
    if (method === 'POST' && path === '/login') {
      const body = parseJson(text) as { username?: unknown; password?: unknown } | undefined;
      if (body?.username !== USERNAME || body.password !== PASSWORD) {
        return json(401, { error: 'invalid credentials' });
      }
      const token = `tok-${this.next++}`;
      this.tokens.add(token);
      return json(200, { token, expires_in: 3600, user: { id: 1, username: USERNAME } });
    }
    if (method === 'GET' && path === '/me') {
      if (!authorised()) return;
      return json(200, { id: 1, username: USERNAME, email: 'ada@example.test', roles: ['admin', 'qa'] });
    }
    if (method === 'GET' && path === '/roles') return json(200, { roles: ['admin', 'qa', 'viewer'] });
    if (method === 'POST' && path === '/orders') {
      if (!authorised()) return;
      const body = parseJson(text) as { item?: unknown; quantity?: unknown; reference?: unknown } | undefined;
      if (typeof body?.item !== 'string' || body.item === '') return json(400, { error: 'item is required' });
      if (typeof body.quantity !== 'number' || body.quantity <= 0) {
        return json(422, { error: 'quantity must be a positive number' });
      }
      const order: Order = {
        id: `ord-${this.next++}`,
        item: body.item,
        quantity: body.quantity,
        reference: typeof body.reference === 'string' ? body.reference : null,
        status: 'open',
        created_at: new Date().toISOString(),
      };
      this.orders.set(order.id, order);
      return json(201, order, { location: `/orders/${order.id}` });
    }
    const orderId = /^\/orders\/([^/]+)$/.exec(path)?.[1];
    if (method === 'GET' && orderId !== undefined) {
      if (!authorised()) return;
      const order = this.orders.get(decodeURIComponent(orderId));
      return order === undefined ? json(404, { error: 'order not found' }) : json(200, order);
    }
    if (method === 'GET' && path === '/session') {
      const session = `s-${this.next++}`;
      this.sessions.add(session);
      return json(200, { session: 'started' }, { 'set-cookie': `session=${session}; Path=/; HttpOnly` });
    }
    if (method === 'GET' && path === '/cart') {
      const session = /(?:^|;\s*)session=([^;]+)/.exec(req.headers.cookie ?? '')?.[1];
      return session !== undefined && this.sessions.has(session)
        ? json(200, { session, items: [] })
        : json(403, { error: 'no session' });
    }
    if (method === 'GET' && path === '/old-profile') {
      res.writeHead(302, { location: '/profile-page' });
      return void res.end();
    }
    if (method === 'GET' && path === '/profile-page') return json(200, { page: 'profile' });
    if (method === 'GET' && path === '/items') {
      const page = Number(url.searchParams.get('page') ?? '1');
      if (!Number.isInteger(page) || page < 1 || page > ITEM_PAGES)
        return json(404, { error: 'no such page' });
      const items = [1, 2].map((n) => ({ id: (page - 1) * 2 + n }));
      return json(200, { page, items, has_more: page < ITEM_PAGES });
    }
    if (path === '/echo') {
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      return json(200, {
        method,
        query: Object.fromEntries(url.searchParams),
        headers,
        body: parseJson(text) ?? text,
      });
    }
    json(404, { error: `no route for ${method} ${path}` });
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
