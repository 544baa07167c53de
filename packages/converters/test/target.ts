/* eslint-disable no-restricted-imports -- Node-only test helper, imported by *.test.ts files only. */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The local target the generated scripts run against. It hands out linked values (a login gives a token
 * and a session; the profile of that session has an id; saving the profile gives a reference) and checks
 * on every later call that the values it receives belong together, so a script that loses or mixes up an
 * extracted value, or sends steps out of order, leaves a mismatch behind.
 */

export interface TargetRequest {
  method: string;
  /** Path and query as sent. */
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface TargetResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Array<[string, string]>;
  headers: Record<string, string>;
  body: string;
  /** Session that the request belongs to, when the target could tell. */
  session?: number;
  at: number;
}

interface Session {
  n: number;
  token: string;
  user: string;
  seq: string;
  steps: string[];
}

export const OAUTH_CLIENT = { id: 'client-1', secret: 's3cr:et$${x}&=' };
export const BASIC = { username: 'alice', password: 'p@ss:word' };
export const API_KEY = { name: 'X-Api-Key', value: 'key-123' };
export const QUERY_KEY = { name: 'api_key', value: 'q-456' };

export class Target {
  readonly requests: RecordedRequest[] = [];
  readonly mismatches: string[] = [];
  readonly sessions: Session[] = [];
  readonly oauthTokens: string[] = [];
  private seq = 0;

  handle(req: TargetRequest): TargetResponse {
    const parsed = new URL(req.url, 'http://target.invalid');
    const record: RecordedRequest = {
      method: req.method,
      path: decodeURIComponent(parsed.pathname),
      query: [...parsed.searchParams],
      headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k.toLowerCase(), v])),
      body: req.body,
      at: this.seq++,
    };
    this.requests.push(record);
    return this.route(record);
  }

  private route(r: RecordedRequest): TargetResponse {
    const { method, path } = r;
    if (method === 'POST' && path === '/oauth/token') return this.oauthToken(r);
    if (method === 'POST' && path === '/api/login') return this.login(r);
    if (method === 'GET' && path === '/api/profile') return this.profile(r);
    if (method === 'PUT' && path.startsWith('/api/profiles/')) return this.saveProfile(r);
    if (method === 'GET' && path.startsWith('/api/refs/')) return this.ref(r);
    if (method === 'GET' && path === '/api/secure') return this.secure(r);
    if (method === 'GET' && path === '/api/ping') return this.ping(r);
    if (path.startsWith('/api/echo')) return json(200, { ok: true });
    return json(404, { error: `no route ${method} ${path}` });
  }

  private mismatch(r: RecordedRequest, message: string): TargetResponse {
    this.mismatches.push(`${r.method} ${r.path}: ${message}`);
    return json(409, { error: message });
  }

  private bySession(r: RecordedRequest, token: string | undefined, step: string): Session | TargetResponse {
    const session = this.sessions.find((s) => s.token === token);
    if (!session) return this.mismatch(r, `unknown token ${String(token)}`);
    r.session = session.n;
    session.steps.push(step);
    return session;
  }

  private oauthToken(r: RecordedRequest): TargetResponse {
    const form = new URLSearchParams(r.body);
    if (
      form.get('grant_type') !== 'client_credentials' ||
      form.get('client_id') !== OAUTH_CLIENT.id ||
      form.get('client_secret') !== OAUTH_CLIENT.secret
    ) {
      return this.mismatch(r, `bad client credentials ${r.body}`);
    }
    const token = `oauth-${this.oauthTokens.length + 1}`;
    this.oauthTokens.push(token);
    return json(200, { access_token: token, token_type: 'Bearer', expires_in: 3600 });
  }

  private login(r: RecordedRequest): TargetResponse {
    let parsed: { user?: unknown };
    try {
      parsed = JSON.parse(r.body) as { user?: unknown };
    } catch {
      return this.mismatch(r, `body is not JSON: ${r.body}`);
    }
    const user = typeof parsed.user === 'string' ? parsed.user : '';
    const seq = /^u(\d+)$/.exec(user)?.[1];
    if (!seq) return this.mismatch(r, `user ${user} has no sequence number`);
    const n = this.sessions.length + 1;
    const session: Session = { n, token: `tok-${n}`, user, seq, steps: ['login'] };
    this.sessions.push(session);
    r.session = n;
    return json(200, { token: session.token, session: `s-${n}`, user });
  }

  private profile(r: RecordedRequest): TargetResponse {
    const token = r.headers.authorization?.replace(/^Bearer /, '');
    const session = this.bySession(r, token, 'profile');
    if (!('n' in session)) return session;
    const seq = r.query.find(([k]) => k === 'seq')?.[1];
    if (seq !== session.seq) return this.mismatch(r, `seq ${String(seq)} is not the login's ${session.seq}`);
    return json(200, { id: `p-${session.n}`, name: `User ${session.n}`, seq: Number(seq) });
  }

  private saveProfile(r: RecordedRequest): TargetResponse {
    const session = this.bySession(r, r.headers['x-session-token'], 'save');
    if (!('n' in session)) return session;
    if (r.path !== `/api/profiles/p-${session.n}`)
      return this.mismatch(r, `path is not the profile of session ${session.n}`);
    if (r.headers[API_KEY.name.toLowerCase()] !== API_KEY.value)
      return this.mismatch(r, 'api key header missing');
    if (r.body !== `{"note":"n${session.seq}"}`) return this.mismatch(r, `body ${r.body}`);
    return {
      status: 200,
      headers: { 'content-type': 'application/xml' },
      body: `<result><status>saved</status><ref>r-${session.n}</ref></result>`,
    };
  }

  private ref(r: RecordedRequest): TargetResponse {
    const n = Number(/^\/api\/refs\/r-(\d+)$/.exec(r.path)?.[1]);
    const session = this.sessions.find((s) => s.n === n);
    if (!session) return this.mismatch(r, 'unknown ref');
    r.session = n;
    session.steps.push('ref');
    const expected = `Basic ${Buffer.from(`${BASIC.username}:${BASIC.password}`).toString('base64')}`;
    if (r.headers.authorization !== expected)
      return this.mismatch(r, `basic auth ${r.headers.authorization}`);
    return { status: 200, headers: { 'content-type': 'text/plain' }, body: `ref ok ${n}` };
  }

  private secure(r: RecordedRequest): TargetResponse {
    const token = r.headers.authorization?.replace(/^Bearer /, '');
    if (!token || !this.oauthTokens.includes(token)) return this.mismatch(r, `oauth token ${String(token)}`);
    return json(200, { secure: true });
  }

  private ping(r: RecordedRequest): TargetResponse {
    const key = r.query.find(([k]) => k === QUERY_KEY.name)?.[1];
    if (key !== QUERY_KEY.value) return this.mismatch(r, `query api key ${String(key)}`);
    return json(200, { pong: true });
  }

  /** Requests to a path (prefix match for paths ending in "/"). */
  count(method: string, path: string): number {
    return this.requests.filter(
      (r) => r.method === method && (path.endsWith('/') ? r.path.startsWith(path) : r.path === path),
    ).length;
  }
}

function json(status: number, body: unknown): TargetResponse {
  return { status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
}

/** The target behind a real HTTP server on 127.0.0.1 and a free port. */
export async function startTargetServer(
  target = new Target(),
): Promise<{ target: Target; base: string; close: () => Promise<void>; server: Server }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const response = target.handle({
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: flatHeaders(req.headers),
        body: Buffer.concat(chunks).toString('utf8'),
      });
      res.writeHead(response.status, response.headers);
      res.end(response.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    target,
    server,
    base: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function flatHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers)) {
    if (value !== undefined) out[key] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}
