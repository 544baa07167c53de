import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardedConnector, parseTargetRule, parseTargetRules, TargetGuard, type Resolver } from './index';

const guard = (allow: string[], deny: string[], ownPorts: number[] = []) =>
  new TargetGuard({ allow, deny }, { ownPorts: () => ownPorts });
const at = (host: string, port = 80, addresses = [host]) => ({ host, port, addresses });

describe('target list entries (docs/adr/0015-target-guard.md)', () => {
  it('reads host names, *.domains, IPv4 / IPv6 addresses and CIDR ranges', () => {
    const { rules, problems } = parseTargetRules([
      'api.test.example',
      '*.staging.example',
      '10.1.2.3',
      '[::1]',
      '10.0.0.0/8',
      'fd00::/8',
      'Internal-Host.',
    ]);
    expect(problems).toEqual([]);
    expect(rules.map((r) => r.kind)).toEqual([
      'host',
      'subdomains',
      'range',
      'range',
      'range',
      'range',
      'host',
    ]);
  });

  it.each([
    ['10.0.0.0/33', 'prefix length'],
    ['fd00::/129', 'prefix length'],
    ['300.1.1.1', 'not a host name'],
    ['10.1.2', 'not a host name'],
    ['http://api.example', 'is a URL'],
    ['api.example:8080', 'has a port'],
    ['*', 'not a host name'],
    ['bad host!', 'not a host name'],
    ['x/24', 'not an IP address'],
  ])('refuses %s, naming it', (entry, why) => {
    const parsed = parseTargetRule(entry);
    expect(typeof parsed).toBe('string');
    expect(parsed).toContain(`"${entry}"`);
    expect(parsed).toContain(why);
  });

  it('will not build a guard from a bad list, naming the setting', () => {
    expect(() => guard([], ['10.0.0.0/33'])).toThrow(/AQA_TARGETS_DENY: "10.0.0.0\/33"/);
  });
});

describe('decisions', () => {
  it('allows loopback and private targets by default', () => {
    const g = guard([], []);
    for (const host of ['127.0.0.2', '10.1.2.3', '192.168.1.1', '::1', 'fd12::1'])
      expect(g.decide(at(host))).toEqual({ allowed: true });
  });

  it('always refuses link-local and metadata addresses, in either notation', () => {
    const g = guard(['169.254.169.254', '0.0.0.0/0', '::/0'], []);
    for (const host of [
      '169.254.169.254',
      '169.254.0.1',
      '::ffff:169.254.169.254',
      '::ffff:a9fe:a9fe',
      'fe80::1',
      'fe80::1%eth0',
      'fd00:ec2::254',
      '100.100.100.200',
      '192.0.0.192',
    ]) {
      const d = g.decide(at(host));
      expect(d.allowed, host).toBe(false);
      if (!d.allowed) expect(d.reason).toContain('link-local and cloud metadata addresses are never tested');
    }
    expect(g.decide(at('metadata.google.internal', 80, []))).toEqual({
      allowed: false,
      reason:
        'Requests to metadata.google.internal are refused: link-local and cloud metadata addresses are never tested.',
    });
    expect(g.decide(at('metadata.goog.', 80, [])).allowed).toBe(false);
  });

  it("refuses this server's own port on any address of this machine, and only that port", () => {
    const g = guard([], [], [5200]);
    expect(g.decide(at('localhost', 5200, ['127.0.0.1']))).toEqual({
      allowed: false,
      reason: 'Requests to localhost:5200 are refused: that is this AnybodyQA server itself.',
    });
    for (const host of ['127.0.0.1', '127.9.9.9', '0.0.0.0', '::', '::1', '::ffff:127.0.0.1'])
      expect(g.decide(at(host, 5200)).allowed, host).toBe(false);
    expect(g.decide(at('127.0.0.1', 5201))).toEqual({ allowed: true });
    expect(g.decide(at('10.255.255.1', 5200))).toEqual({ allowed: true });
  });

  it('refuses what AQA_TARGETS_DENY names: CIDR v4 and v6, mapped addresses, names and subdomains', () => {
    const g = guard([], ['127.0.0.0/24', 'fd00::/8', 'db.internal', '*.corp.example']);
    expect(g.decide(at('127.0.0.2'))).toEqual({
      allowed: false,
      reason: 'Requests to 127.0.0.2 are refused: it is in AQA_TARGETS_DENY (127.0.0.0/24).',
    });
    expect(g.decide(at('::ffff:127.0.0.9')).allowed).toBe(false);
    expect(g.decide(at('127.0.1.1'))).toEqual({ allowed: true });
    expect(g.decide(at('fd12:3456::1')).allowed).toBe(false);
    expect(g.decide(at('fe00::1'.replace('fe00', 'fc00')))).toEqual({ allowed: true });
    expect(g.decide(at('DB.internal', 80, ['10.0.0.1'])).allowed).toBe(false);
    expect(g.decide(at('a.b.corp.example', 80, ['10.0.0.1'])).allowed).toBe(false);
    expect(g.decide(at('corp.example', 80, ['10.0.0.1']))).toEqual({ allowed: true });
    expect(g.decide(at('svc.local', 80, ['10.9.9.9', '127.0.0.5']))).toEqual({
      allowed: false,
      reason: 'Requests to svc.local (127.0.0.5) are refused: it is in AQA_TARGETS_DENY (127.0.0.0/24).',
    });
  });

  it('with AQA_TARGETS_ALLOW, refuses everything it does not name', () => {
    const g = guard(['127.0.0.3', '*.test.example', '2001:db8::/32'], ['bad.test.example']);
    expect(g.decide(at('127.0.0.3'))).toEqual({ allowed: true });
    expect(g.decide(at('127.0.0.1'))).toEqual({
      allowed: false,
      reason: 'Requests to 127.0.0.1 are refused: it is not in AQA_TARGETS_ALLOW.',
    });
    expect(g.decide(at('api.test.example', 443, ['10.0.0.1']))).toEqual({ allowed: true });
    expect(g.decide(at('bad.test.example', 443, ['10.0.0.1'])).allowed).toBe(false);
    expect(g.decide(at('2001:db8::7'))).toEqual({ allowed: true });
    expect(g.decide(at('other.example', 80, ['127.0.0.3', '127.0.0.4'])).allowed).toBe(false);
    expect(g.decide(at('unresolved.example', 80, [])).allowed).toBe(false);
  });
});

describe('checking on the resolved address', () => {
  const resolveTo =
    (address: string): Resolver =>
    () =>
      Promise.resolve([{ address, family: address.includes(':') ? 6 : 4 }]);

  it('checkUrl refuses a name that resolves to a denied address, with the scheme default port', async () => {
    const g = new TargetGuard({ allow: [], deny: ['10.0.0.0/8'] }, { resolve: resolveTo('10.1.1.1') });
    expect(await g.checkUrl('https://api.example/x')).toEqual({
      allowed: false,
      reason: 'Requests to api.example (10.1.1.1) are refused: it is in AQA_TARGETS_DENY (10.0.0.0/8).',
    });
    const own = new TargetGuard(
      { allow: [], deny: [] },
      { ownPorts: () => [443], resolve: resolveTo('::1') },
    );
    expect((await own.checkUrl('https://api.example/')).allowed).toBe(false);
  });

  it('checkUrl resolves localhost with the system resolver', async () => {
    const g = guard([], ['127.0.0.1', '::1']);
    const d = await g.checkUrl('http://localhost:47101/');
    expect(d.allowed).toBe(false);
    if (!d.allowed)
      expect(d.reason).toMatch(
        /^Requests to localhost \((127\.0\.0\.1|::1)\) are refused: it is in AQA_TARGETS_DENY/,
      );
  });

  it('lookupFor fails with the guard error, or answers like dns.lookup', async () => {
    const g = new TargetGuard({ allow: [], deny: ['10.0.0.0/8'] }, { resolve: resolveTo('10.1.1.1') });
    const err = await new Promise<NodeJS.ErrnoException | null>((resolve) =>
      g.lookupFor(80)('api.example', { all: true }, (e) => resolve(e)),
    );
    expect(err?.code).toBe('AQA_TARGET_REFUSED');
    const ok = new TargetGuard({ allow: [], deny: [] }, { resolve: resolveTo('10.1.1.1') });
    const one = await new Promise<unknown[]>((resolve) =>
      ok.lookupFor(80)('api.example', {}, (...args) => resolve(args)),
    );
    expect(one).toEqual([null, '10.1.1.1', 4]);
  });
});

describe('guardedConnector', () => {
  let server: Server;
  let port = 0;
  let received = 0;
  beforeAll(async () => {
    server = createServer((_req, res) => {
      received++;
      res.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const send = async (g: TargetGuard, host: string) => {
    const agent = new Agent({ connect: guardedConnector(g, { timeout: 2000 }) });
    try {
      const res = await request(`http://${host}:${port}/`, { dispatcher: agent });
      return { status: res.statusCode, body: await res.body.text() };
    } catch (e) {
      return { error: e as NodeJS.ErrnoException };
    } finally {
      await agent.close();
    }
  };

  it('refuses a denied address and a name resolving to it before anything is sent, and lets others through', async () => {
    received = 0;
    const denied = await send(guard([], ['127.0.0.1']), '127.0.0.1');
    expect(denied.error?.code).toBe('AQA_TARGET_REFUSED');
    expect(denied.error?.message).toBe(
      'Requests to 127.0.0.1 are refused: it is in AQA_TARGETS_DENY (127.0.0.1).',
    );
    const viaName = await send(
      new TargetGuard(
        { allow: [], deny: ['127.0.0.1'] },
        { resolve: () => Promise.resolve([{ address: '127.0.0.1', family: 4 }]) },
      ),
      'target.test',
    );
    expect(viaName.error?.message).toContain('target.test (127.0.0.1)');
    expect(received).toBe(0);
    const own = await send(guard([], [], [port]), '127.0.0.1');
    expect(own.error?.message).toContain('that is this AnybodyQA server itself');
    expect(received).toBe(0);
    expect(await send(guard([], ['127.0.0.2']), '127.0.0.1')).toEqual({ status: 200, body: 'ok' });
    expect(received).toBe(1);
  });
});
