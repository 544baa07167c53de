import { randomBytes } from 'node:crypto';
import type { ApiTokenCreated } from '@aqa/plan';
import type { LightMyRequestResponse } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { closeTestServer, registerAndLogin, startTestServer, type TestServer } from './helpers';
import { testStore } from './test-database';

/*
 * Issue 23 point 8: bearer-token guessing is throttled per client address
 * (docs/adr/0012-api-tokens-and-sessions.md). Past TOKEN_FAILURES_PER_IP failed tokens a minute, an
 * address gets 429 with Retry-After for any token it has not used before — looked up or not, valid or
 * not, the same answer — while the tokens it used keep working and other addresses go on. With
 * REDIS_URL, replicas count one limit.
 */

const servers: TestServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await closeTestServer(server);
});

async function start(env: Record<string, string> = {}): Promise<TestServer> {
  const server = await startTestServer({
    LOGIN_RATE_LIMIT_PER_IP: '1000',
    REGISTER_RATE_LIMIT_PER_IP: '1000',
    TOKEN_FAILURES_PER_IP: '5',
    ...env,
  });
  servers.push(server);
  return server;
}

function me(server: TestServer, token: string, remoteAddress: string): Promise<LightMyRequestResponse> {
  return server.request({ method: 'GET', url: '/api/me', token, remoteAddress });
}

async function createToken(server: TestServer, session: string, name: string): Promise<string> {
  const response = await server.request({
    method: 'POST',
    url: '/api/tokens',
    token: session,
    body: { name },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<ApiTokenCreated>().token;
}

const guess = (): string => `aqa_${randomBytes(32).toString('base64url')}`;
const tooMany =
  /^Too many requests with a token that is not valid came from this address\. Try again in \d+ seconds\.$/;

describe('failed bearer tokens, per client address', () => {
  it('answer 429 with Retry-After past the limit, before any lookup; tokens the address used keep working; others go on', async () => {
    const server = await start();
    const { token: session } = await registerAndLogin(server);
    const office = '198.51.100.23';
    const elsewhere = '192.0.2.40';
    const ci = await createToken(server, session, 'ci at the office');
    const unused = await createToken(server, session, 'never used at the office');
    const revoked = await createToken(server, session, 'revoked');
    const tokens = await server.request({ method: 'GET', url: '/api/tokens', token: session });
    const revokedId = tokens
      .json<{ tokens: { id: string; name: string }[] }>()
      .tokens.find((t) => t.name === 'revoked')!.id;
    await server.request({ method: 'DELETE', url: `/api/tokens/${revokedId}`, token: session });
    // The office's CI job worked before the guessing started.
    expect((await me(server, ci, office)).statusCode).toBe(200);

    // Five failures of every kind: unknown API token, unknown session, revoked, cut short.
    const failures = [guess(), randomBytes(32).toString('base64url'), revoked, guess(), session.slice(0, -3)];
    for (const token of failures) expect((await me(server, token, office)).statusCode).toBe(401);

    const limited = await me(server, guess(), office);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(limited.json()).toMatchObject({
      code: 'TOO_MANY_TOKEN_FAILURES',
      detail: expect.stringMatching(tooMany) as string,
    });
    // A valid token the office never used gets the very same answer: a guess past the limit learns nothing.
    const unusedThere = await me(server, unused, office);
    expect(unusedThere.statusCode).toBe(429);
    expect(unusedThere.body).toBe(limited.body);
    expect(unusedThere.headers['retry-after']).toBe(limited.headers['retry-after']);
    // The token the office used keeps working, and the account is not touched elsewhere.
    expect((await me(server, ci, office)).statusCode).toBe(200);
    expect((await me(server, unused, elsewhere)).statusCode).toBe(200);
    expect((await me(server, guess(), elsewhere)).statusCode).toBe(401);
    // No token guesses nothing: not signed in, as before; public routes answer.
    const none = await server.request({ method: 'GET', url: '/api/me', remoteAddress: office });
    expect(none.json()).toMatchObject({ code: 'NOT_SIGNED_IN' });
    expect(
      (await server.request({ method: 'GET', url: '/api/health', remoteAddress: office })).statusCode,
    ).toBe(200);

    // A user of the office who signs in meanwhile gets a session that works from there.
    const signedIn = await registerAndLogin(server);
    const fromOffice = await server.request({
      method: 'POST',
      url: '/api/login',
      body: { username: signedIn.registration.email, password: signedIn.registration.password },
      remoteAddress: office,
    });
    expect((await me(server, fromOffice.json<{ token: string }>().token, office)).statusCode).toBe(200);

    server.clock.advance(60_000);
    expect((await me(server, guess(), office)).statusCode).toBe(401);
    expect((await me(server, unused, office)).statusCode).toBe(200);
  });

  const redisUrl = process.env.AQA_TEST_REDIS_URL ?? '';
  it.skipIf(redisUrl === '')('are counted once across two servers on one Redis', async () => {
    // A Redis database of this file's own per store (the SQLite and PostgreSQL projects may run at once).
    const env = { REDIS_URL: `${redisUrl}/${testStore() === 'postgres' ? 13 : 12}` };
    const [a, b] = [await start(env), await start(env)];
    const address = `203.0.113.${randomBytes(1)[0]! % 200}`;
    const { token: session } = await registerAndLogin(b);
    const known = await createToken(b, session, 'used here');
    expect((await me(b, known, address)).statusCode).toBe(200);
    for (let i = 0; i < 5; i++)
      expect((await me(i % 2 === 0 ? a : b, guess(), address)).statusCode).toBe(401);
    expect((await me(a, guess(), address)).statusCode).toBe(429);
    expect((await me(b, guess(), address)).statusCode).toBe(429);
    // Known through B; still working through B.
    expect((await me(b, known, address)).statusCode).toBe(200);
  });
});
