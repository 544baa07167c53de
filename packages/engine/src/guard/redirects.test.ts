import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TestTarget } from '../testing/target';
import { guardedConnector } from './connector';
import { TargetGuard } from './guard';
import { RedirectNotFollowedError, redirectHop, requestFollowingRedirects } from './redirects';

/*
 * requestFollowingRedirects (docs/adr/0015-target-guard.md "Redirects"): each hop through the guarded
 * connector, so a Location on an allowed target that points at a denied address or at this server's
 * own port is refused before anything connects there; a hop limit; the method and headers each hop
 * carries.
 */

const target = new TestTarget();
/** Stands for this AnybodyQA server: its port is the guard's own, refused on any local address. */
const self = new TestTarget();
/** A listener on 127.0.0.2, which the guard denies; counts connections. */
let denied: { server: Server; origin: string; connections: number };
let guard: TargetGuard;
let agent: Agent;

beforeAll(async () => {
  await Promise.all([target.start(), self.start()]);
  const server = createServer((_req, res) => res.end('secret'));
  denied = { server, origin: '', connections: 0 };
  server.on('connection', () => denied.connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.2', resolve));
  denied.origin = `http://127.0.0.2:${(server.address() as AddressInfo).port}`;
  guard = new TargetGuard({ allow: [], deny: ['127.0.0.2'] }, { ownPorts: () => [self.port] });
  agent = new Agent({ connect: guardedConnector(guard) });
});

afterAll(async () => {
  await agent.close();
  await Promise.all([target.close(), self.close()]);
  await new Promise<void>((resolve) => denied.server.close(() => resolve()));
});

beforeEach(() => {
  target.reset();
  self.reset();
  target.route = (req, res) => {
    const to = req.query.get('to');
    if (req.path === '/redirect' && to !== null) {
      res.writeHead(Number(req.query.get('status') ?? 302), { location: to });
      res.end('moved');
      return;
    }
    if (req.path === '/loop') {
      res.writeHead(302, { location: '/loop' });
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        method: req.method,
        body: req.body,
        authorization: req.headers.authorization ?? null,
      }),
    );
  };
});

const redirect = (to: string, status = 302) =>
  `${target.origin}/redirect?status=${status}&to=${encodeURIComponent(to)}`;

describe('requestFollowingRedirects', () => {
  it('follows a redirect on allowed targets and says where it went', async () => {
    const { response, url, redirects } = await requestFollowingRedirects(redirect('/final'), {
      dispatcher: agent,
      maxRedirects: 5,
    });
    expect(response.statusCode).toBe(200);
    expect(url.href).toBe(`${target.origin}/final`);
    expect(redirects.map((r) => [r.status, r.location.pathname])).toEqual([[302, '/final']]);
    expect(await response.body.json()).toMatchObject({ method: 'GET' });
  });

  it('refuses a hop to a denied address before it connects', async () => {
    await expect(
      requestFollowingRedirects(redirect(`${denied.origin}/secret`), { dispatcher: agent, maxRedirects: 5 }),
    ).rejects.toThrow('Requests to 127.0.0.2 are refused: it is in AQA_TARGETS_DENY (127.0.0.2).');
    expect(denied.connections).toBe(0);
    expect(target.count).toBe(1);
  });

  it("refuses a hop to this server's own port, by address and by name", async () => {
    for (const host of ['127.0.0.1', 'localhost']) {
      await expect(
        requestFollowingRedirects(redirect(`http://${host}:${self.port}/api/demo-credentials`), {
          dispatcher: agent,
          maxRedirects: 5,
        }),
      ).rejects.toThrow(`:${self.port} are refused: that is this AnybodyQA server itself.`);
    }
    expect(self.connections).toBe(0);
  });

  it('stops past the hop limit, naming it, having sent one request more than the limit', async () => {
    const error = await requestFollowingRedirects(`${target.origin}/loop`, {
      dispatcher: agent,
      maxRedirects: 3,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedirectNotFollowedError);
    expect((error as Error).message).toBe(
      `More than 3 redirects from ${target.origin}/loop: the last pointed at ${target.origin}/loop`,
    );
    expect(target.count).toBe(4);
  });

  it('follows no redirect to a scheme other than http and https', async () => {
    await expect(
      requestFollowingRedirects(redirect('file:///etc/passwd'), { dispatcher: agent, maxRedirects: 5 }),
    ).rejects.toThrow('which is not followed: only http and https are');
  });

  it('continues a POST as GET after 303, repeats it after 307, and drops credentials on another origin', async () => {
    const post = { dispatcher: agent, maxRedirects: 5, method: 'POST', body: 'a=1' };
    const seeOther = await requestFollowingRedirects(redirect('/final', 303), post);
    expect(await seeOther.response.body.json()).toEqual({ method: 'GET', body: '', authorization: null });
    const temporary = await requestFollowingRedirects(redirect('/final', 307), post);
    expect(await temporary.response.body.json()).toEqual({
      method: 'POST',
      body: 'a=1',
      authorization: null,
    });

    const withToken = { dispatcher: agent, maxRedirects: 5, headers: { Authorization: 'Bearer t' } };
    const sameOrigin = await requestFollowingRedirects(redirect('/final'), withToken);
    expect(await sameOrigin.response.body.json()).toMatchObject({ authorization: 'Bearer t' });
    const otherOrigin = await requestFollowingRedirects(
      redirect(`http://localhost:${target.port}/final`),
      withToken,
    );
    expect(await otherOrigin.response.body.json()).toMatchObject({ authorization: null });
  });
});

describe('redirectHop', () => {
  const a = new URL('http://127.0.0.1:1/a');
  const b = new URL('http://127.0.0.1:1/b');
  const other = new URL('http://127.0.0.2:1/b');
  const put = {
    method: 'PUT',
    body: 'x',
    headers: { 'content-type': 'text/plain', authorization: 'Bearer t', cookie: 'c=1' },
  };

  it("turns 301, 302 and 303 into GET for any method but HEAD as Newman does, only 303 and POST's 301/302 as fetch does", () => {
    for (const status of [301, 302, 303]) {
      expect(redirectHop(put, status, a, b, 'newman')).toEqual({
        method: 'GET',
        body: undefined,
        headers: { authorization: 'Bearer t', cookie: 'c=1' },
      });
      expect(redirectHop({ ...put, method: 'HEAD' }, status, a, b, 'newman').method).toBe('HEAD');
    }
    expect(redirectHop(put, 302, a, b, 'fetch')).toEqual(put);
    expect(redirectHop({ ...put, method: 'POST' }, 302, a, b, 'fetch').method).toBe('GET');
  });

  it('keeps the method and body for 307 and 308, and drops credentials on another origin', () => {
    for (const status of [307, 308]) {
      expect(redirectHop(put, status, a, b, 'newman')).toEqual(put);
      expect(redirectHop(put, status, a, other, 'newman')).toEqual({
        ...put,
        headers: { 'content-type': 'text/plain' },
      });
    }
  });
});
