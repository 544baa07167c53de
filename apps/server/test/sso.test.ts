import type { AddressInfo } from 'node:net';
import { SSO_MESSAGES } from '@aqa/plan';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeTestServer, registerAndLogin, startTestServer, type TestServer } from './helpers';
import { startTestOidcProvider, type TestOidcProvider } from './oidc-test-provider';

/*
 * Single sign-on (docs/adr/0033-single-sign-on.md) against a real OpenID Connect provider on a local
 * port: the browser's side is played by fetch with a cookie jar, following each redirect as a browser
 * would, from the server's start URL through the provider's login and consent to the server's callback.
 */

/** Cookies by host, as a browser keeps them (path and expiry are not needed here). */
class CookieJar {
  private readonly byHost = new Map<string, Map<string, string>>();
  header(url: URL): string {
    return [...(this.byHost.get(url.host) ?? new Map<string, string>())]
      .map(([k, v]) => `${k}=${v}`)
      .join('; ');
  }
  store(url: URL, setCookies: string[]): void {
    const cookies = this.byHost.get(url.host) ?? new Map<string, string>();
    for (const line of setCookies) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      if (value === '' || /max-age=0/i.test(line)) cookies.delete(name);
      else cookies.set(name, value);
    }
    this.byHost.set(url.host, cookies);
  }
}

/** Follows redirects from `start` until the server sends the browser back to its web app (/login…). */
async function browse(start: string, jar: CookieJar, serverHost: string): Promise<URL> {
  let url = new URL(start);
  for (let hop = 0; hop < 20; hop++) {
    const response = await fetch(url, { redirect: 'manual', headers: { cookie: jar.header(url) } });
    jar.store(url, response.headers.getSetCookie());
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || location === null)
      throw new Error(`${url.href} answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
    url = new URL(location, url);
    if (url.host === serverHost && url.pathname.startsWith('/login')) return url;
  }
  throw new Error('too many redirects');
}

let provider: TestOidcProvider;
const servers: TestServer[] = [];

beforeAll(async () => {
  provider = await startTestOidcProvider();
});

afterAll(async () => {
  for (const server of servers) await closeTestServer(server);
  await provider?.close();
});

/** A listening server with single sign-on through the test provider, and its address. */
async function ssoServer(env: Record<string, string> = {}): Promise<{ server: TestServer; origin: string }> {
  const server = await startTestServer({
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: 'aqa',
    OIDC_CLIENT_SECRET: 'aqa-client-secret',
    OIDC_NAME: 'Corp Login',
    LOGIN_RATE_LIMIT_PER_IP: '1000',
    REGISTER_RATE_LIMIT_PER_IP: '1000',
    ...env,
  });
  servers.push(server);
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const origin = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
  provider.register({
    clientId: 'aqa',
    clientSecret: 'aqa-client-secret',
    redirectUri: `${origin}/api/auth/oidc/callback`,
  });
  return { server, origin };
}

function fragmentOf(url: URL): URLSearchParams {
  return new URLSearchParams(url.hash.slice(1));
}

describe('single sign-on through an OpenID Connect provider', () => {
  it('signs a new person in, creating the account of the verified address, and the same account the next time', async () => {
    const { origin } = await ssoServer();
    const host = new URL(origin).host;
    const shown: unknown = await (await fetch(`${origin}/api/demo-credentials`)).json();
    expect(shown).toMatchObject({ sso: { name: 'Corp Login' } });
    expect(shown).not.toHaveProperty('password_sign_in');

    provider.signInAs('ada');
    const back = await browse(`${origin}/api/auth/oidc/start?return_to=/schedules`, new CookieJar(), host);
    expect(back.pathname).toBe('/login/sso');
    const signedIn = fragmentOf(back);
    expect(signedIn.get('return_to')).toBe('/schedules');
    const me = await fetch(`${origin}/api/me`, {
      headers: { authorization: `Bearer ${signedIn.get('token')}` },
    });
    expect(me.status).toBe(200);
    const { user } = (await me.json()) as {
      user: { id?: string; email: string; firstName: string; lastName: string };
    };
    expect(user).toMatchObject({ email: 'ada@corp.example', firstName: 'Ada', lastName: 'Lovelace' });

    // The next time, the same account: its runs and plans are where they were.
    const again = fragmentOf(await browse(`${origin}/api/auth/oidc/start`, new CookieJar(), host));
    expect(again.get('token')).not.toBe(signedIn.get('token'));
    const meAgain = await fetch(`${origin}/api/me`, {
      headers: { authorization: `Bearer ${again.get('token')}` },
    });
    expect(((await meAgain.json()) as { user: { email: string } }).user.email).toBe('ada@corp.example');
    expect(again.get('return_to')).toBe('/dashboard');
  });

  it('signs an existing password account in by its address, whatever its case', async () => {
    const { server, origin } = await ssoServer();
    await registerAndLogin(server, {
      email: 'grace.hopper@corp.example',
      username: 'grace.hopper@corp.example',
    });
    provider.signInAs('grace');
    const back = await browse(`${origin}/api/auth/oidc/start`, new CookieJar(), new URL(origin).host);
    const me = await fetch(`${origin}/api/me`, {
      headers: { authorization: `Bearer ${fragmentOf(back).get('token')}` },
    });
    expect(((await me.json()) as { user: { firstName: string } }).user.firstName).toBe('Ada');
  });

  it('refuses an unverified address, an address without an account when accounts are not created, and a callback from another browser', async () => {
    const { origin } = await ssoServer({ OIDC_CREATE_ACCOUNTS: 'off' });
    const host = new URL(origin).host;
    provider.signInAs('eve');
    const unverified = await browse(`${origin}/api/auth/oidc/start`, new CookieJar(), host);
    expect(unverified.pathname + unverified.search).toBe('/login?sso_error=email_not_verified');

    provider.signInAs('ada');
    const noAccount = await browse(`${origin}/api/auth/oidc/start`, new CookieJar(), host);
    expect(noAccount.search).toBe('?sso_error=no_account');

    provider.signInAs('nomail');
    const noEmail = await browse(`${origin}/api/auth/oidc/start`, new CookieJar(), host);
    expect(noEmail.search).toBe('?sso_error=no_email');

    // The provider's redirect replayed in a browser that did not start the sign-in (no state cookie).
    const start = await fetch(`${origin}/api/auth/oidc/start`, { redirect: 'manual' });
    const state = new URL(start.headers.get('location')!).searchParams.get('state')!;
    const forged = await fetch(`${origin}/api/auth/oidc/callback?code=abc&state=${state}`, {
      redirect: 'manual',
    });
    expect(forged.headers.get('location')).toBe('/login?sso_error=expired');
  });

  it('with password sign-in off, refuses passwords and sign-up and shows only single sign-on', async () => {
    const { server } = await ssoServer({ PASSWORD_SIGN_IN: 'off', SIGN_UP: 'on', DEMO_ACCOUNT: 'on' });
    const shown = await server.request({ method: 'GET', url: '/api/demo-credentials' });
    expect(shown.json()).toEqual({
      enabled: false,
      sign_up: false,
      sso: { name: 'Corp Login' },
      password_sign_in: false,
    });
    const login = await server.request({
      method: 'POST',
      url: '/api/login',
      body: { username: 'demo@anybodyqa.dev', password: 'demo1234' },
    });
    expect(login.statusCode).toBe(403);
    expect(login.json()).toMatchObject({
      code: 'PASSWORD_SIGN_IN_OFF',
      detail: SSO_MESSAGES.passwordSignInOff,
    });
    const register = await server.request({ method: 'POST', url: '/api/register', body: {} });
    expect(register.statusCode).toBe(403);
  });

  it('says the provider cannot be reached, and answers 404 on a server without single sign-on', async () => {
    const down = await startTestServer({ OIDC_ISSUER: 'http://127.0.0.1:9', OIDC_CLIENT_ID: 'aqa' });
    servers.push(down);
    const unreachable = await down.request({ method: 'GET', url: '/api/auth/oidc/start' });
    expect(unreachable.statusCode).toBe(302);
    expect(unreachable.headers.location).toBe('/login?sso_error=provider_unreachable');

    const plain = await startTestServer();
    servers.push(plain);
    const none = await plain.request({ method: 'GET', url: '/api/auth/oidc/start' });
    expect(none.statusCode).toBe(404);
    expect(none.json()).toMatchObject({ code: 'SSO_NOT_CONFIGURED' });
  });
});
