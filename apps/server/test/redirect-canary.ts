import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PerfPlanInput, TestResult } from '@aqa/plan';
import { expect } from 'vitest';
import type { TestServer } from './helpers';
import { startTarget, type TargetServer } from './target-server';

/*
 * What the redirect tests of every runner share (docs/adr/0015-target-guard.md "Redirects"): a canary
 * on a denied loopback address that counts every connection and request it gets, a counter of the
 * requests that reach the platform's own /api/demo-credentials, and an allowed target on 127.0.0.1
 * whose answers redirect to both. A runner that follows a redirect is caught by either count; one that
 * reads a redirect target's content gives itself away in what it sends to /echo next.
 */

/** What the canary answers: a secret a redirect must never reach, as the platform's demo password is. */
export const SECRET = 'demo1234';

/** Where the canary listens: AQA_TARGETS_DENY names it. */
export const DENIED_HOST = '127.0.0.2';

/** A listener on a denied address: whatever it receives, it must stay 0. */
export interface Canary {
  origin: string;
  connections(): number;
  requests(): number;
  close(): Promise<void>;
}

export async function startCanary(host = DENIED_HOST): Promise<Canary> {
  let connections = 0;
  let requests = 0;
  const server: Server = createServer((req, res) => {
    requests++;
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ username: 'demo@anybodyqa.dev', password: SECRET }));
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://${host}:${port}`,
    connections: () => connections,
    requests: () => requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The path on the platform a redirect points at: it answers the demo password when DEMO_ACCOUNT=on. */
export const PLATFORM_PATH = '/api/demo-credentials';

/**
 * Counts the requests that reach PLATFORM_PATH on the listening test server's own port (which the
 * guard always refuses): the tests' own calls go through inject(), never through the port.
 */
export function countPlatform(server: TestServer): { origin: string; requests: () => number } {
  const { port } = server.app.server.address() as AddressInfo;
  let requests = 0;
  server.app.server.on('request', (req: IncomingMessage) => {
    if ((req.url ?? '').startsWith(PLATFORM_PATH)) requests++;
  });
  return { origin: `http://127.0.0.1:${port}`, requests: () => requests };
}

/** An allowed target on 127.0.0.1 whose /to-denied and /to-platform answer 302 to the canaries. */
export interface RedirectingTarget extends TargetServer {
  /** What each request to /echo carried in its query: the values the run extracted before. */
  echoed(): string[];
}

/** The body of each 302: what a run that does not follow reads. */
export const REDIRECT_BODY = 'Moved elsewhere';

export async function startRedirectingTarget(locations: {
  denied: string;
  platform: string;
}): Promise<RedirectingTarget> {
  const target = await startTarget((request, response) => {
    const to =
      request.path === '/to-denied'
        ? `${locations.denied}/secret`
        : request.path === '/to-platform'
          ? `${locations.platform}${PLATFORM_PATH}`
          : undefined;
    if (to !== undefined) {
      response.writeHead(302, { location: to, 'content-type': 'text/plain' });
      response.end(REDIRECT_BODY);
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end('{"ok":true}');
  });
  return {
    ...target,
    echoed: () => target.received.filter((r) => r.path === '/echo').map((r) => r.query.toString()),
  };
}

/**
 * A load plan's steps that walk into both redirects, each with an assertion that the answer is the 302
 * itself and an extraction of the secret; a step that sends what was extracted to /echo; and a step
 * whose OAuth2 token URL redirects to the canary.
 */
export function redirectSteps(origin: string): PerfPlanInput['urls'] {
  const redirected = (path: string, variable: string) => ({
    method: 'GET' as const,
    name: path.slice(1),
    url: `${origin}${path}`,
    thinkTime: '100ms',
    assertionType: 'status' as const,
    assertionOperator: 'equals' as const,
    assertionValue: '302',
    extractType: 'regex' as const,
    extractName: variable,
    extractValue: 'demo\\d+',
  });
  return [
    redirected('/to-denied', 'fromDenied'),
    redirected('/to-platform', 'fromPlatform'),
    {
      method: 'GET',
      name: 'echo',
      url: `${origin}/echo?denied={{fromDenied}}&platform={{fromPlatform}}`,
      thinkTime: '100ms',
    },
    // The OAuth2 token request is redirected too: it gets no token, and follows nowhere.
    {
      method: 'GET',
      name: 'with-token',
      url: `${origin}/with-token`,
      thinkTime: '100ms',
      authorization: { type: 'oauth2', token: 'client:secret', tokenUrl: `${origin}/to-denied`, scope: '' },
    },
  ];
}

/** What the canary, the platform and /echo have received at one moment. */
export interface Counts {
  /** Connections and requests the canary received. */
  connections: number;
  requests: number;
  /** Requests that reached the platform's PLATFORM_PATH. */
  platform: number;
  /** Requests to the target's /echo. */
  echoed: number;
  /** OAuth2 token requests (POSTs) the target answered with its redirect. */
  tokens: number;
}

/** The canary, the platform counter and the redirecting target of one suite, read together. */
export class RedirectWatch {
  constructor(
    readonly canary: Canary,
    readonly platform: { origin: string; requests: () => number },
    readonly target: RedirectingTarget,
  ) {}

  counts(): Counts {
    return {
      connections: this.canary.connections(),
      requests: this.canary.requests(),
      platform: this.platform.requests(),
      echoed: this.target.echoed().length,
      tokens: this.target.received.filter((r) => r.method === 'POST' && r.path === '/to-denied').length,
    };
  }

  /**
   * Nothing reached the canary or the platform's page since `before`, and nothing sent to /echo since
   * holds the secret (a run that followed would have extracted it there).
   */
  expectNothingPastTheRedirects(before: Counts): void {
    expect({ ...this.counts(), echoed: before.echoed, tokens: before.tokens }).toEqual(before);
    const echoed = this.target.echoed().slice(before.echoed);
    expect(echoed.filter((query) => query.includes(SECRET))).toEqual([]);
  }

  /**
   * A load run of redirectSteps since `before`: each redirecting step answered, every time, with the
   * 302 itself (its "status equals 302" assertion passed, and a 3xx is no error), the /echo step ran,
   * and the token request was sent to the redirect.
   */
  expectEveryAnswerThe302(result: TestResult, before: Counts): void {
    expect(result.error).toBeNull();
    expect(result.status).toBe('completed');
    const [toDenied, toPlatform, echo] = result.api_results;
    const rows = JSON.stringify(result.api_results.map((r) => [r.name, r.total_requests, r.failed_requests]));
    for (const row of [toDenied, toPlatform]) {
      expect(row?.total_requests, rows).toBeGreaterThan(0);
      expect(row?.failed_requests, JSON.stringify(row?.errors_by_kind)).toBe(0);
    }
    expect(echo?.total_requests, rows).toBeGreaterThan(0);
    expect(this.target.count('/to-denied')).toBeGreaterThan(0);
    expect(this.counts().tokens - before.tokens, 'OAuth2 token requests to the redirect').toBeGreaterThan(0);
  }
}
