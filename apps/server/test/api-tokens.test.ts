import { createHash } from 'node:crypto';
import { API_TOKEN_MESSAGES, API_TOKENS_PER_USER, type ApiTokenCreated, type ApiTokenList } from '@aqa/plan';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_ONLY_API_ROUTES } from '../src/auth/authenticate';
import {
  closeTestServer,
  registerAndLogin,
  startServerWithTwoUsers,
  type SignedInUser,
  type TestServer,
} from './helpers';
import { withTestSql } from './test-database';

/*
 * API tokens for CI (docs/adr/0012-api-tokens-and-sessions.md): created from a session, shown once,
 * stored hashed, used as a bearer token on the API, refused on the account's own management calls,
 * revoked or expired with a 401 that says which.
 */

let server: TestServer;
let alice: SignedInUser;
let bob: SignedInUser;

beforeAll(async () => {
  // Sessions outlast the days the expiry test moves the clock by.
  ({ server, alice, bob } = await startServerWithTwoUsers({ SESSION_TTL_HOURS: '100000' }));
});
afterAll(() => closeTestServer(server));

async function createToken(user: { token: string }, body: Record<string, unknown>) {
  const response = await server.request({ method: 'POST', url: '/api/tokens', token: user.token, body });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<ApiTokenCreated>();
}

async function listTokens(user: { token: string }) {
  const response = await server.request({ method: 'GET', url: '/api/tokens', token: user.token });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<ApiTokenList>();
}

async function savePlan(user: { token: string }, name: string) {
  const response = await server.request({
    method: 'POST',
    url: '/api/save-test-plan',
    token: user.token,
    body: {
      name,
      tool: 'k6',
      concurrent_users: 1,
      duration: 1,
      urls: [{ method: 'GET', url: 'http://127.0.0.1:9/x' }],
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ id: string }>().id;
}

function readTokenRows(): Promise<Record<string, unknown>[]> {
  return withTestSql(server.database, (sql) => sql.all('select * from api_tokens'));
}

describe('API tokens', () => {
  it('are created once, listed without the token, act for their user on the API, and are revoked at once', async () => {
    const planName = `Alice's plan ${Date.now()}`;
    await savePlan(alice, planName);
    const created = await createToken(alice, { name: '  GitHub Actions  ' });
    expect(created.token).toMatch(/^aqa_[A-Za-z0-9_-]{43}$/);
    expect(created).toMatchObject({
      name: 'GitHub Actions',
      last_used_at: null,
      expires_at: null,
      expired: false,
    });
    expect(created.created_at).toBe(new Date(server.clock.now()).toISOString());

    // The list never carries the token or its hash.
    const hash = createHash('sha256').update(created.token).digest('hex');
    const listed = await server.request({ method: 'GET', url: '/api/tokens', token: alice.token });
    expect(listed.body).not.toContain(created.token);
    expect(listed.body).not.toContain(hash);
    const { token: _shownOnce, ...withoutToken } = created;
    expect(listed.json<ApiTokenList>()).toEqual({ tokens: [withoutToken], limit: API_TOKENS_PER_USER });

    // The database holds the sha256 of the token, and the token nowhere.
    const rows = (await readTokenRows()).filter((row) => row.id === created.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.token_hash).toBe(hash);
    expect(JSON.stringify(await readTokenRows())).not.toContain(created.token.slice(4));

    // The token acts for Alice: her plans, her profile, and user_email may name only her.
    const plans = await server.request({ method: 'GET', url: '/api/get-test-plans', token: created.token });
    expect(plans.statusCode, plans.body).toBe(200);
    expect(plans.json<{ name: string }[]>().map((p) => p.name)).toEqual([planName]);
    const me = await server.request({ method: 'GET', url: '/api/me', token: created.token });
    expect(me.json<{ user: { email: string } }>().user.email).toBe(alice.email);
    const asBob = await server.request({
      method: 'GET',
      url: `/api/get-test-plans?user_email=${encodeURIComponent(bob.email)}`,
      token: created.token,
    });
    expect(asBob.statusCode).toBe(403);

    // last_used_at: set on first use, then at most once a minute.
    const firstUse = new Date(server.clock.now()).toISOString();
    expect((await listTokens(alice)).tokens[0]?.last_used_at).toBe(firstUse);
    server.clock.advance(30_000);
    await server.request({ method: 'GET', url: '/api/get-test-plans', token: created.token });
    expect((await listTokens(alice)).tokens[0]?.last_used_at).toBe(firstUse);
    server.clock.advance(31_000);
    await server.request({ method: 'GET', url: '/api/get-test-plans', token: created.token });
    expect((await listTokens(alice)).tokens[0]?.last_used_at).toBe(
      new Date(server.clock.now()).toISOString(),
    );

    // Bob cannot revoke it (404, like an unknown id), and it keeps working.
    const bobDeletes = await server.request({
      method: 'DELETE',
      url: `/api/tokens/${created.id}`,
      token: bob.token,
    });
    expect(bobDeletes.statusCode).toBe(404);
    expect(bobDeletes.json()).toMatchObject({
      code: 'API_TOKEN_NOT_FOUND',
      detail: API_TOKEN_MESSAGES.notFound,
    });
    expect((await listTokens(bob)).tokens).toEqual([]);

    const revoked = await server.request({
      method: 'DELETE',
      url: `/api/tokens/${created.id}`,
      token: alice.token,
    });
    expect(revoked.statusCode).toBe(204);
    const refused = await server.request({ method: 'GET', url: '/api/get-test-plans', token: created.token });
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ code: 'API_TOKEN_REVOKED', detail: API_TOKEN_MESSAGES.revoked });
    expect((await listTokens(alice)).tokens).toEqual([]);
    const again = await server.request({
      method: 'DELETE',
      url: `/api/tokens/${created.id}`,
      token: alice.token,
    });
    expect(again.statusCode).toBe(404);
  });

  it('may not manage tokens, change the profile or password, or sign out: 403 with words', async () => {
    const { token } = await createToken(alice, { name: 'CI' });
    server.clock.advance(1000);
    const { id: otherId } = await createToken(alice, { name: 'Other CI' });
    const calls = [
      { method: 'POST', url: '/api/tokens', body: { name: 'minted by a token' } },
      { method: 'GET', url: '/api/tokens' },
      { method: 'DELETE', url: `/api/tokens/${otherId}` },
      { method: 'PUT', url: '/api/me', body: { firstName: 'Mallory', lastName: 'X' } },
      {
        method: 'POST',
        url: '/api/me/password',
        body: { currentPassword: 'x', newPassword: 'yyyyyy', confirmPassword: 'yyyyyy' },
      },
      { method: 'POST', url: '/api/logout' },
    ] as const;
    expect(calls).toHaveLength(SESSION_ONLY_API_ROUTES.size);
    for (const call of calls) {
      const response = await server.request({ ...call, token });
      expect(response.statusCode, `${call.method} ${call.url}`).toBe(403);
      expect(response.json()).toMatchObject({
        code: 'SESSION_REQUIRED',
        detail: API_TOKEN_MESSAGES.sessionRequired,
      });
    }
    // Nothing changed: the profile, the other token, the session.
    const me = await server.request({ method: 'GET', url: '/api/me', token: alice.token });
    expect(me.json<{ user: { firstName: string } }>().user.firstName).toBe('Ada');
    expect((await listTokens(alice)).tokens.map((t) => t.name)).toEqual(['Other CI', 'CI']);
    // Signing out the session and changing the password end sessions, not API tokens.
    const second = await registerAndLogin(server);
    const kept = await createToken(second, { name: 'kept' });
    const changed = await server.request({
      method: 'POST',
      url: '/api/me/password',
      token: second.token,
      body: {
        currentPassword: second.registration.password,
        newPassword: 'new-pass-2',
        confirmPassword: 'new-pass-2',
      },
    });
    expect(changed.statusCode, changed.body).toBe(204);
    await server.request({ method: 'POST', url: '/api/logout', token: second.token });
    expect((await server.request({ method: 'GET', url: '/api/me', token: second.token })).statusCode).toBe(
      401,
    );
    const afterLogout = await server.request({
      method: 'GET',
      url: '/api/get-test-plans',
      token: kept.token,
    });
    expect(afterLogout.statusCode).toBe(200);
  });

  it('are of the API scope unless made for load agents; an agent token is refused on the API, in words (docs/adr/0023-agents-over-http.md)', async () => {
    const plain = await createToken(alice, { name: 'CI without scope' });
    const agent = await createToken(alice, { name: 'Agents', scope: 'agent' });
    expect([plain.scope, agent.scope]).toEqual(['api', 'agent']);
    const listed = (await listTokens(alice)).tokens;
    expect(listed.find((t) => t.id === plain.id)?.scope).toBe('api');
    expect(listed.find((t) => t.id === agent.id)?.scope).toBe('agent');
    // A token of the days before scopes (its row written without one, as migration 0015 found them) is api.
    const rows = await readTokenRows();
    expect(rows.find((r) => r.id === agent.id)?.scope).toBe('agent');
    const userId = rows.find((r) => r.id === agent.id)?.user_id;
    await withTestSql(server.database, (sql) =>
      sql.run(
        'insert into api_tokens (id, user_id, name, token_hash, created_at) values (?, ?, ?, ?, ?)',
        'old-token',
        userId,
        'Before scopes',
        'f'.repeat(64),
        '2029-01-01T00:00:00.000Z',
      ),
    );
    expect((await listTokens(alice)).tokens.find((t) => t.id === 'old-token')?.scope).toBe('api');
    const asApi = await server.request({ method: 'GET', url: '/api/me', token: plain.token });
    expect(asApi.statusCode).toBe(200);
    const asAgent = await server.request({ method: 'GET', url: '/api/me', token: agent.token });
    expect(asAgent.statusCode).toBe(403);
    expect(asAgent.json()).toMatchObject({
      code: 'AGENT_TOKEN_NOT_ALLOWED',
      detail: API_TOKEN_MESSAGES.agentTokenOnlyForAgents,
    });
  });

  it('expire after the days asked for, and say so', async () => {
    const created = await createToken(alice, { name: 'Nightly', expires_in_days: 7 });
    expect(created.expires_at).toBe(new Date(server.clock.now() + 7 * 86_400_000).toISOString());
    const fromText = await createToken(alice, { name: 'Text days', expires_in_days: '30' });
    expect(fromText.expires_at).toBe(new Date(server.clock.now() + 30 * 86_400_000).toISOString());
    const never = await createToken(alice, { name: 'Never', expires_in_days: null });
    expect(never.expires_at).toBeNull();

    server.clock.advance(7 * 86_400_000 - 1);
    const before = await server.request({ method: 'GET', url: '/api/get-test-plans', token: created.token });
    expect(before.statusCode).toBe(200);
    server.clock.advance(1);
    const after = await server.request({ method: 'GET', url: '/api/get-test-plans', token: created.token });
    expect(after.statusCode).toBe(401);
    expect(after.json()).toMatchObject({ code: 'API_TOKEN_EXPIRED', detail: API_TOKEN_MESSAGES.expired });
    const listed = (await listTokens(alice)).tokens;
    expect(listed.find((t) => t.id === created.id)?.expired).toBe(true);
    expect(listed.find((t) => t.id === never.id)?.expired).toBe(false);
    // A token that never was one of ours gets words too.
    const unknown = await server.request({ method: 'GET', url: '/api/me', token: `aqa_${'A'.repeat(43)}` });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toMatchObject({ code: 'API_TOKEN_INVALID', detail: API_TOKEN_MESSAGES.unknown });
  });

  it('refuses a bad name or expiry with the rule, and more than the limit per user', async () => {
    const user = await registerAndLogin(server);
    const cases: [Record<string, unknown>, string][] = [
      [{}, API_TOKEN_MESSAGES.nameRequired],
      [{ name: '   ' }, API_TOKEN_MESSAGES.nameRequired],
      [{ name: 'a\nb' }, 'Token name cannot contain control characters or line breaks'],
      [{ name: 'x'.repeat(101) }, API_TOKEN_MESSAGES.nameTooLong],
      [{ name: 'ok', expires_in_days: 0 }, API_TOKEN_MESSAGES.expiryInvalid],
      [{ name: 'ok', expires_in_days: 3651 }, API_TOKEN_MESSAGES.expiryInvalid],
      [{ name: 'ok', expires_in_days: 1.5 }, API_TOKEN_MESSAGES.expiryInvalid],
      [{ name: 'ok', expires_in_days: '1e3' }, API_TOKEN_MESSAGES.expiryInvalid],
      [{ name: 'ok', expires_in_days: -1 }, API_TOKEN_MESSAGES.expiryInvalid],
      [{ name: 'ok', scope: 'admin' }, API_TOKEN_MESSAGES.scopeInvalid],
    ];
    for (const [body, message] of cases) {
      const response = await server.request({ method: 'POST', url: '/api/tokens', token: user.token, body });
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json<{ detail: string }>().detail, JSON.stringify(body)).toBe(message);
    }
    expect((await createToken(user, { name: 'x'.repeat(100), expires_in_days: 3650 })).name).toHaveLength(
      100,
    );
    for (let i = 1; i < API_TOKENS_PER_USER; i++) await createToken(user, { name: `token ${i}` });
    const over = await server.request({
      method: 'POST',
      url: '/api/tokens',
      token: user.token,
      body: { name: 'one more' },
    });
    expect(over.statusCode).toBe(409);
    expect(over.json()).toMatchObject({ code: 'TOO_MANY_API_TOKENS', detail: API_TOKEN_MESSAGES.tooMany });
    // Revoking one frees a place.
    const first = (await listTokens(user)).tokens.at(-1)!;
    await server.request({ method: 'DELETE', url: `/api/tokens/${first.id}`, token: user.token });
    await createToken(user, { name: 'one more' });
  });
});
