import { afterEach, describe, expect, it } from 'vitest';
import { newRegistration, removeDir, startTestServer, type TestServer } from './helpers';

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

  it('limits failed sign-ins per account over 15 minutes, even with the right password, from any IP', async () => {
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
    expect((await attempt('wrong-2', '10.0.0.2')).statusCode).toBe(401);
    const limited = await attempt(registration.password, '10.0.0.3');
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBe(String(15 * 60));
    expect(limited.json<{ detail: string }>().detail).toMatch(tooManySignIns);

    server.clock.advance(15 * 60_000);
    expect((await attempt(registration.password, '10.0.0.3')).statusCode).toBe(200);
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
