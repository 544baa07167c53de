import type { LightMyRequestResponse } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { newRegistration, registerAndLogin, removeDir, startTestServer, type TestServer } from './helpers';

let server: TestServer | undefined;

afterEach(async () => {
  if (server) {
    await server.close();
    removeDir(server.dataDir);
    server = undefined;
  }
});

const tooManySignIns = /^Too many sign-in attempts\. Try again in \d+ seconds\.$/;

describe('sign-in rate limits', () => {
  it('limits sign-in attempts per IP per minute, with Retry-After', async () => {
    server = await startTestServer({ LOGIN_RATE_LIMIT_PER_IP: '3', LOGIN_FAILURES_PER_ACCOUNT: '100' });
    const attempt = (remoteAddress: string) =>
      server!.request({
        method: 'POST',
        url: '/api/login',
        body: { username: 'someone@example.com', password: 'wrong-password' },
        remoteAddress,
      });
    for (let i = 0; i < 3; i++) expect((await attempt('10.0.0.1')).statusCode).toBe(401);

    server.clock.advance(20_000);
    const limited = await attempt('10.0.0.1');
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBe('40');
    expect(limited.json()).toMatchObject({ detail: 'Too many sign-in attempts. Try again in 40 seconds.' });

    // Another client is not affected, and the first may try again once the minute has passed.
    expect((await attempt('10.0.0.2')).statusCode).toBe(401);
    server.clock.advance(40_000);
    expect((await attempt('10.0.0.1')).statusCode).toBe(401);
  });

  it('locks an address out of an account after its failures, even with the right password; others still try', async () => {
    server = await startTestServer({ LOGIN_RATE_LIMIT_PER_IP: '100', LOGIN_FAILURES_PER_ACCOUNT: '2' });
    const registration = newRegistration();
    expect(
      (await server.request({ method: 'POST', url: '/api/register', body: registration })).statusCode,
    ).toBe(201);
    const attempt = (password: string, remoteAddress: string) =>
      server!.request({
        method: 'POST',
        url: '/api/login',
        body: { username: registration.email.toUpperCase(), password },
        remoteAddress,
      });

    expect((await attempt('wrong-1', '10.0.0.1')).statusCode).toBe(401);
    expect((await attempt('wrong-2', '10.0.0.1')).statusCode).toBe(401);
    const limited = await attempt(registration.password, '10.0.0.1');
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBe(String(15 * 60));
    expect(limited.json<{ detail: string }>().detail).toMatch(tooManySignIns);
    // Failures from one address do not lock the account for another.
    expect((await attempt(registration.password, '10.0.0.2')).statusCode).toBe(200);

    server.clock.advance(15 * 60_000);
    expect((await attempt(registration.password, '10.0.0.1')).statusCode).toBe(200);
  });

  it("every address shares a budget of four times the limit; the owner's right password at a known address still gets in", async () => {
    server = await startTestServer({ LOGIN_RATE_LIMIT_PER_IP: '100', LOGIN_FAILURES_PER_ACCOUNT: '2' });
    const registration = newRegistration();
    await server.request({ method: 'POST', url: '/api/register', body: registration });
    const attempt = (password: string, remoteAddress: string) =>
      server!.request({
        method: 'POST',
        url: '/api/login',
        body: { username: registration.email, password },
        remoteAddress,
      });
    // The owner signs in from home: the address is known from now on.
    expect((await attempt(registration.password, '192.0.2.10')).statusCode).toBe(200);

    // An attacker spends the account's budget (2 × 4 = 8) from four addresses.
    for (let i = 0; i < 8; i++) {
      expect((await attempt(`guess-${i}`, `198.51.100.${i % 4}`)).statusCode).toBe(401);
    }
    // Every attempt is now refused alike, even a fresh address with the right password, and a wrong
    // password from home (as an email without an account is refused: nothing tells the two apart)…
    const fresh = await attempt(registration.password, '198.51.100.200');
    expect(fresh.statusCode).toBe(429);
    expect(fresh.json<{ detail: string }>().detail).toMatch(tooManySignIns);
    expect((await attempt('typo', '192.0.2.10')).statusCode).toBe(429);
    // …but the owner's right password at home signs in.
    expect((await attempt(registration.password, '192.0.2.10')).statusCode).toBe(200);

    server.clock.advance(15 * 60_000);
    expect((await attempt(registration.password, '198.51.100.200')).statusCode).toBe(200);
  });

  it('a good sign-in clears the account failures', async () => {
    server = await startTestServer({ LOGIN_RATE_LIMIT_PER_IP: '100', LOGIN_FAILURES_PER_ACCOUNT: '2' });
    const registration = newRegistration();
    await server.request({ method: 'POST', url: '/api/register', body: registration });
    const attempt = (password: string) =>
      server!.request({
        method: 'POST',
        url: '/api/login',
        body: { username: registration.email, password },
      });
    expect((await attempt('wrong-1')).statusCode).toBe(401);
    expect((await attempt(registration.password)).statusCode).toBe(200);
    expect((await attempt('wrong-2')).statusCode).toBe(401);
    expect((await attempt(registration.password)).statusCode).toBe(200);
  });

  it('counts failures for unknown accounts too, so the limit does not reveal which emails exist', async () => {
    server = await startTestServer({ LOGIN_RATE_LIMIT_PER_IP: '100', LOGIN_FAILURES_PER_ACCOUNT: '1' });
    const attempt = () =>
      server!.request({
        method: 'POST',
        url: '/api/login',
        body: { username: 'ghost@example.com', password: 'whatever' },
      });
    expect((await attempt()).statusCode).toBe(401);
    expect((await attempt()).statusCode).toBe(429);
  });
});

describe('the lock-out tells no one which emails have accounts (docs/adr/0018-safe-defaults-and-lockout.md)', () => {
  /** What an answer shows a client: status, body and every header but the date. */
  function seen(response: LightMyRequestResponse) {
    const { date: _date, ...headers } = response.headers;
    return { status: response.statusCode, body: response.body, headers };
  }

  it('answers an existing account and an unknown email alike, attempt by attempt, from a shared address and others', async () => {
    server = await startTestServer({ LOGIN_RATE_LIMIT_PER_IP: '1000', LOGIN_FAILURES_PER_ACCOUNT: '2' });
    const owner = newRegistration();
    await server.request({ method: 'POST', url: '/api/register', body: owner });
    const shared = '203.0.113.7';
    // The owner signs in from an office address an attacker shares: it is known for the account.
    const home = await server.request({
      method: 'POST',
      url: '/api/login',
      body: { username: owner.email, password: owner.password },
      remoteAddress: shared,
    });
    expect(home.statusCode).toBe(200);
    const ghost = `ghost.${Date.now()}@example.com`;

    // The same attempts against both, interleaved: wrong passwords from the shared address, then from
    // four others, then a fresh address; the clock moves between some of them.
    const plan: { address: string; advanceMs?: number }[] = [
      { address: shared },
      { address: shared },
      { address: shared },
      ...[0, 1, 2, 3].flatMap((n) => [
        { address: `198.51.100.${n}` },
        { address: `198.51.100.${n}`, advanceMs: 10_000 },
      ]),
      { address: '198.51.100.77' },
      { address: shared, advanceMs: 60_000 },
    ];
    const answers: Record<'owner' | 'ghost', ReturnType<typeof seen>[]> = { owner: [], ghost: [] };
    for (const [index, step] of plan.entries()) {
      for (const [who, username] of [
        ['owner', owner.email],
        ['ghost', ghost],
      ] as const) {
        const response = await server.request({
          method: 'POST',
          url: '/api/login',
          body: { username, password: `guess-${index}` },
          remoteAddress: step.address,
        });
        answers[who].push(seen(response));
      }
      if (step.advanceMs !== undefined) server.clock.advance(step.advanceMs);
    }
    expect(answers.owner.map((a) => a.status)).toEqual(answers.ghost.map((a) => a.status));
    expect(answers.owner).toEqual(answers.ghost);
    // The limits did bite: both were refused, with a Retry-After.
    const refused = answers.ghost.filter((a) => a.status === 429);
    expect(refused.length).toBeGreaterThan(2);
    expect(refused.every((a) => Number(a.headers['retry-after']) > 0)).toBe(true);
  });

  it('spends comparable time on an existing account and an unknown email', async () => {
    server = await startTestServer({ LOGIN_RATE_LIMIT_PER_IP: '1000', LOGIN_FAILURES_PER_ACCOUNT: '1000' });
    const owner = newRegistration();
    await server.request({ method: 'POST', url: '/api/register', body: owner });
    const times: Record<'owner' | 'ghost', number[]> = { owner: [], ghost: [] };
    for (let i = 0; i < 7; i++) {
      for (const [who, username] of [
        ['ghost', `ghost${i}@example.com`],
        ['owner', owner.email],
      ] as const) {
        const started = performance.now();
        const response = await server.request({
          method: 'POST',
          url: '/api/login',
          body: { username, password: `guess-${i}` },
        });
        times[who].push(performance.now() - started);
        expect(response.statusCode).toBe(401);
      }
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    // Both verify an argon2 hash (the unknown email a dummy one); a lookup alone would be ~100× faster.
    const ratio = median(times.owner) / median(times.ghost);
    expect(ratio).toBeGreaterThan(1 / 3);
    expect(ratio).toBeLessThan(3);
  });
});

describe('password change limit (docs/design.md §11)', () => {
  it('refuses wrong current passwords beyond the limit per 15 minutes with 429 and Retry-After', async () => {
    server = await startTestServer({ PASSWORD_CHANGE_FAILURES_PER_ACCOUNT: '2' });
    const { token, registration } = await registerAndLogin(server);
    const change = (currentPassword: string) =>
      server!.request({
        method: 'POST',
        url: '/api/me/password',
        token,
        body: { currentPassword, newPassword: 'next-pass-9', confirmPassword: 'next-pass-9' },
      });
    expect((await change('wrong-1')).statusCode).toBe(400);
    server.clock.advance(60_000);
    expect((await change('wrong-2')).statusCode).toBe(400);
    // Even the right password waits now: the limit is what stops a stolen session guessing.
    const limited = await change(registration.password);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBe(String(14 * 60));
    expect(limited.json()).toMatchObject({
      code: 'TOO_MANY_PASSWORD_ATTEMPTS',
      detail: 'Too many wrong current passwords. Try again in 840 seconds.',
    });
    server.clock.advance(14 * 60_000);
    expect((await change(registration.password)).statusCode).toBe(204);
  });
});

describe('registration rate limit', () => {
  it('limits registrations per IP per minute', async () => {
    server = await startTestServer({ REGISTER_RATE_LIMIT_PER_IP: '2' });
    const register = () => server!.request({ method: 'POST', url: '/api/register', body: newRegistration() });
    expect((await register()).statusCode).toBe(201);
    expect((await register()).statusCode).toBe(201);
    const limited = await register();
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBe('60');
    expect(limited.json()).toMatchObject({ detail: 'Too many sign-up attempts. Try again in 60 seconds.' });
  });
});
