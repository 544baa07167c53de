import { createHash } from 'node:crypto';
import { REGISTRATION_ERRORS, SIGN_UP_CLOSED_MESSAGE } from '@aqa/plan';
import { Migrator } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config';
import { hashPassword } from '../src/auth/passwords';
import type { Db } from '../src/db/database';
import { migrationProvider } from '../src/db/migrations';
import {
  newRegistration,
  registerAndLogin,
  removeDir,
  startTestServer,
  testDatabase,
  type TestServer,
} from './helpers';
import { openTestSql } from './test-database';

let server: TestServer;
/** Every password and token the tests used; none may appear in a response other than the login answer. */
const passwordsUsed = new Set<string>();
const tokensIssued = new Set<string>();

beforeAll(async () => {
  server = await startTestServer({ LOGIN_RATE_LIMIT_PER_IP: '1000', REGISTER_RATE_LIMIT_PER_IP: '1000' });
});

afterAll(async () => {
  await server.close();
  removeDir(server.dataDir);
});

async function withDb<T>(on: TestServer, use: (db: Db) => Promise<T>): Promise<T> {
  const db = testDatabase(on);
  try {
    return await use(db);
  } finally {
    await db.destroy();
  }
}

async function register(body: Record<string, unknown>) {
  if (typeof body.password === 'string') passwordsUsed.add(body.password);
  return server.request({ method: 'POST', url: '/api/register', body });
}

async function login(username: string, password: string) {
  passwordsUsed.add(password);
  const response = await server.request({ method: 'POST', url: '/api/login', body: { username, password } });
  if (response.statusCode === 200) tokensIssued.add(response.json<{ token: string }>().token);
  return response;
}

describe('POST /api/register', () => {
  it('creates the account and answers 201 with the user, username set to the email', async () => {
    const body = newRegistration({ email: '  Grace.Hopper@Example.com ', username: 'ignored' });
    const response = await register(body);
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({
      message: 'Account created successfully',
      user: {
        username: 'grace.hopper@example.com',
        email: 'Grace.Hopper@Example.com',
        firstName: 'Ada',
        lastName: 'Lovelace',
        company: 'Analytical Engines',
        role: 'QA Engineer',
      },
    });
  });

  it('accepts a registration without company and role', async () => {
    const { company: _c, role: _r, ...body } = newRegistration();
    const response = await register(body);
    expect(response.statusCode).toBe(201);
    expect(response.json<{ user: { company: string; role: string } }>().user).toMatchObject({
      company: '',
      role: '',
    });
  });

  it.each([
    ['email', { email: '' }, REGISTRATION_ERRORS.emailRequired],
    ['email', { email: 'not-an-email' }, REGISTRATION_ERRORS.emailInvalid],
    ['password', { password: '', confirmPassword: '' }, REGISTRATION_ERRORS.passwordRequired],
    ['password', { password: '12345', confirmPassword: '12345' }, REGISTRATION_ERRORS.passwordTooShort],
    ['confirmPassword', { confirmPassword: 'something-else' }, REGISTRATION_ERRORS.passwordsDoNotMatch],
    ['firstName', { firstName: '   ' }, REGISTRATION_ERRORS.firstNameRequired],
    ['lastName', { lastName: '' }, REGISTRATION_ERRORS.lastNameRequired],
  ])('rejects a bad %s with the spec message: %j', async (field, overrides, message) => {
    const response = await register(newRegistration(overrides));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      detail: message,
      code: 'VALIDATION_FAILED',
      errors: [{ field, message }],
    });
  });

  it('reports every problem at once, joined in detail', async () => {
    const response = await register({
      email: '',
      password: '1',
      confirmPassword: '2',
      firstName: '',
      lastName: '',
    });
    expect(response.statusCode).toBe(400);
    const body = response.json<{ detail: string; errors: { field: string; message: string }[] }>();
    expect(body.errors).toEqual([
      { field: 'email', message: REGISTRATION_ERRORS.emailRequired },
      { field: 'password', message: REGISTRATION_ERRORS.passwordTooShort },
      { field: 'confirmPassword', message: REGISTRATION_ERRORS.passwordsDoNotMatch },
      { field: 'firstName', message: REGISTRATION_ERRORS.firstNameRequired },
      { field: 'lastName', message: REGISTRATION_ERRORS.lastNameRequired },
    ]);
    expect(body.detail).toBe(body.errors.map((e) => e.message).join('; '));
  });

  it('treats missing fields as empty ones, so the spec messages still apply', async () => {
    const response = await server.request({ method: 'POST', url: '/api/register', body: {} });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ detail: string }>().detail).toBe(
      [
        REGISTRATION_ERRORS.emailRequired,
        REGISTRATION_ERRORS.passwordRequired,
        REGISTRATION_ERRORS.firstNameRequired,
        REGISTRATION_ERRORS.lastNameRequired,
      ].join('; '),
    );
  });

  it('refuses a second account whose email differs only by case (409)', async () => {
    const first = newRegistration();
    expect((await register(first)).statusCode).toBe(201);
    const response = await register({ ...newRegistration(), email: first.email.toUpperCase() });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({
      detail: 'An account with this email already exists',
      code: 'EMAIL_TAKEN',
    });
  });
});

describe('POST /api/login', () => {
  it('answers the token, the user and the expiry; the email is matched case-insensitively', async () => {
    const body = newRegistration({ company: undefined, role: 'Developer' });
    await register(body);
    const response = await login(`  ${body.email.toUpperCase()} `, body.password);
    expect(response.statusCode).toBe(200);
    const answer = response.json<Record<string, unknown>>();
    expect(Object.keys(answer).sort()).toEqual(['expires_at', 'token', 'user']);
    expect(answer.user).toStrictEqual({
      username: body.email.toLowerCase(),
      email: body.email,
      firstName: 'Ada',
      lastName: 'Lovelace',
      company: '',
      role: 'Developer',
    });
    expect(answer.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Default SESSION_TTL_HOURS is 168: a week from the (test) clock's now.
    expect(answer.expires_at).toBe(new Date(server.clock.nowMs + 168 * 3600_000).toISOString());
  });

  it('answers 401 with one message for a wrong password and for an unknown account', async () => {
    const body = newRegistration();
    await register(body);
    const wrong = await login(body.email, 'not-the-password');
    const unknown = await login('nobody@example.com', body.password);
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ detail: 'Invalid username or password', code: 'INVALID_CREDENTIALS' });
    expect(unknown.json()).toEqual(wrong.json());
  });

  it('requires both fields, with the spec message', async () => {
    const response = await server.request({
      method: 'POST',
      url: '/api/login',
      body: { username: '', password: '' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ detail: string }>().detail).toBe('Please enter username and password');
  });
});

describe('sessions', () => {
  it('GET /api/me answers the signed-in user; without a token it is 401 "Not signed in"', async () => {
    const { token, registration } = await registerAndLogin(server);
    tokensIssued.add(token);
    const me = await server.request({ method: 'GET', url: '/api/me', token });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toEqual({
      user: {
        username: registration.email.toLowerCase(),
        email: registration.email,
        firstName: 'Ada',
        lastName: 'Lovelace',
        company: 'Analytical Engines',
        role: 'QA Engineer',
      },
    });
    const anonymous = await server.request({ method: 'GET', url: '/api/me' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ detail: 'Not signed in' });
    const forged = await server.request({ method: 'GET', url: '/api/me', token: 'x'.repeat(43) });
    expect(forged.statusCode).toBe(401);
    expect(forged.json()).toMatchObject({ detail: 'Not signed in' });
  });

  it('POST /api/logout revokes the token (204), after which it is refused', async () => {
    const { token } = await registerAndLogin(server);
    tokensIssued.add(token);
    const logout = await server.request({ method: 'POST', url: '/api/logout', token });
    expect(logout.statusCode).toBe(204);
    expect(logout.body).toBe('');
    const me = await server.request({ method: 'GET', url: '/api/me', token });
    expect(me.statusCode).toBe(401);
    expect(me.json()).toMatchObject({ code: 'SESSION_REVOKED' });
  });

  it('refuses an expired token with "Your session has expired"', async () => {
    const { token } = await registerAndLogin(server);
    tokensIssued.add(token);
    server.clock.advance(168 * 3600_000 + 1);
    try {
      const me = await server.request({ method: 'GET', url: '/api/me', token });
      expect(me.statusCode).toBe(401);
      expect(me.json()).toEqual({
        detail: 'Your session has expired. Please sign in again.',
        code: 'SESSION_EXPIRED',
      });
    } finally {
      server.clock.advance(-(168 * 3600_000 + 1));
    }
  });

  it('protects every non-public /api route by default', async () => {
    for (const [method, url] of [
      ['POST', '/api/logout'],
      ['PUT', '/api/me'],
      ['POST', '/api/me/password'],
    ] as const) {
      const response = await server.request({ method, url, body: {} });
      expect(response.statusCode, `${method} ${url}`).toBe(401);
    }
  });
});

describe('profile and password', () => {
  it('PUT /api/me updates name, company and role (trimmed) and answers the user', async () => {
    const { token, registration } = await registerAndLogin(server);
    tokensIssued.add(token);
    const response = await server.request({
      method: 'PUT',
      url: '/api/me',
      token,
      body: { firstName: ' Grace ', lastName: 'Hopper', company: 'Navy', role: '' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      user: {
        username: registration.email.toLowerCase(),
        email: registration.email,
        firstName: 'Grace',
        lastName: 'Hopper',
        company: 'Navy',
        role: '',
      },
    });
    const me = await server.request({ method: 'GET', url: '/api/me', token });
    expect(me.json<{ user: { firstName: string } }>().user.firstName).toBe('Grace');
  });

  it('PUT /api/me rejects a blank first name with the spec message', async () => {
    const { token } = await registerAndLogin(server);
    const response = await server.request({
      method: 'PUT',
      url: '/api/me',
      token,
      body: { firstName: ' ', lastName: 'X' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ detail: REGISTRATION_ERRORS.firstNameRequired });
  });

  it('POST /api/me/password refuses a wrong current password (400)', async () => {
    const { token } = await registerAndLogin(server);
    tokensIssued.add(token);
    const response = await server.request({
      method: 'POST',
      url: '/api/me/password',
      token,
      body: { currentPassword: 'wrong-one', newPassword: 'new-secret-2', confirmPassword: 'new-secret-2' },
    });
    passwordsUsed.add('wrong-one').add('new-secret-2');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      detail: 'Current password is incorrect',
      errors: [{ field: 'currentPassword', message: 'Current password is incorrect' }],
    });
  });

  it('POST /api/me/password validates the new password with the spec messages', async () => {
    const { token, registration } = await registerAndLogin(server);
    const response = await server.request({
      method: 'POST',
      url: '/api/me/password',
      token,
      body: { currentPassword: registration.password, newPassword: '123', confirmPassword: '456' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ detail: string }>().detail).toBe(
      `${REGISTRATION_ERRORS.passwordTooShort}; ${REGISTRATION_ERRORS.passwordsDoNotMatch}`,
    );
  });

  it('a successful change keeps this session, revokes the others, and the new password works', async () => {
    const { token: current, registration } = await registerAndLogin(server);
    const other = (await login(registration.email, registration.password)).json<{ token: string }>().token;
    tokensIssued.add(current);
    const change = await server.request({
      method: 'POST',
      url: '/api/me/password',
      token: current,
      body: {
        currentPassword: registration.password,
        newPassword: 'brand-new-pass',
        confirmPassword: 'brand-new-pass',
      },
    });
    passwordsUsed.add('brand-new-pass');
    expect(change.statusCode).toBe(204);
    expect((await server.request({ method: 'GET', url: '/api/me', token: current })).statusCode).toBe(200);
    expect((await server.request({ method: 'GET', url: '/api/me', token: other })).statusCode).toBe(401);
    expect((await login(registration.email, registration.password)).statusCode).toBe(401);
    expect((await login(registration.email, 'brand-new-pass')).statusCode).toBe(200);
  });
});

describe('one transaction for the password change (docs/design.md §11)', () => {
  it('keeps the old password when the other sessions cannot be ended', async () => {
    const { token: current, registration } = await registerAndLogin(server);
    const other = (await login(registration.email, registration.password)).json<{ token: string }>().token;
    // A second connection to the same store makes the revocation fail inside the change: a trigger,
    // in each store's words.
    const sql = openTestSql(server.database);
    if (sql.dialect === 'postgres') {
      await sql.run(`CREATE FUNCTION refuse_revoke() RETURNS trigger LANGUAGE plpgsql
                     AS $$ BEGIN RAISE EXCEPTION 'revocation refused by the test'; END $$`);
      await sql.run(`CREATE TRIGGER refuse_revoke BEFORE UPDATE OF revoked_at ON sessions
                     FOR EACH ROW EXECUTE FUNCTION refuse_revoke()`);
    } else {
      await sql.run(`CREATE TRIGGER refuse_revoke BEFORE UPDATE OF revoked_at ON sessions
                     BEGIN SELECT RAISE(ABORT, 'revocation refused by the test'); END`);
    }
    try {
      const change = await server.request({
        method: 'POST',
        url: '/api/me/password',
        token: current,
        body: {
          currentPassword: registration.password,
          newPassword: 'never-stored-1',
          confirmPassword: 'never-stored-1',
        },
      });
      passwordsUsed.add('never-stored-1');
      expect(change.statusCode).toBe(500);
    } finally {
      if (sql.dialect === 'postgres') {
        await sql.run('DROP TRIGGER refuse_revoke ON sessions');
        await sql.run('DROP FUNCTION refuse_revoke()');
      } else {
        await sql.run('DROP TRIGGER refuse_revoke');
      }
      await sql.close();
    }
    expect((await server.request({ method: 'GET', url: '/api/me', token: other })).statusCode).toBe(200);
    expect((await login(registration.email, 'never-stored-1')).statusCode).toBe(401);
    expect((await login(registration.email, registration.password)).statusCode).toBe(200);
  });
});

describe('control characters in account fields (docs/design.md §11)', () => {
  it('refuses them in the email and names with a 400 naming the field, and stores nothing', async () => {
    for (const [field, value] of [
      ['email', 'nul\u0000@example.com'],
      ['firstName', 'Ada\u0000Evil'],
      ['lastName', 'Love\nlace'],
      ['company', 'Engines\u2028Ltd'],
    ] as const) {
      const response = await register(newRegistration({ [field]: value }));
      expect(response.statusCode, field).toBe(400);
      expect(response.json<{ errors: { field: string }[] }>().errors.map((e) => e.field)).toEqual([field]);
    }
    expect((await login('nul@example.com', 'secret-pass-1')).statusCode).toBe(401);
  });
});

/** Characters no one sees, each of which once made a new account that looked like another. */
const INVISIBLE = {
  'zero-width space': '\u200b',
  'zero-width non-joiner': '\u200c',
  'zero-width joiner': '\u200d',
  'word joiner': '\u2060',
  'byte order mark': '\ufeff',
  'left-to-right mark': '\u200e',
  'right-to-left override': '\u202e',
  'first strong isolate': '\u2068',
  'soft hyphen': '\u00ad',
  'Hangul filler': '\u3164',
  'C1 control': '\u0085',
};

/** The same address in full-width letters: NFKC reads it as the ASCII one. */
function fullWidth(text: string): string {
  return [...text]
    .map((c) => (c >= '!' && c <= '~' ? String.fromCodePoint(c.codePointAt(0)! + 0xfee0) : c))
    .join('');
}

describe('emails that look like another (docs/adr/0018-safe-defaults-and-lockout.md)', () => {
  it('refuses an email with an invisible character at sign-up, naming the field, and makes no account', async () => {
    const victim = newRegistration();
    expect((await register(victim)).statusCode).toBe(201);
    const [local, domain] = victim.email.split('@') as [string, string];
    for (const [name, char] of Object.entries(INVISIBLE)) {
      const lookalike = `${local.slice(0, 3)}${char}${local.slice(3)}@${domain}`;
      const response = await register({ ...newRegistration(), email: lookalike });
      expect(response.statusCode, name).toBe(400);
      const answer = response.json<{ detail: string; errors: { field: string; message: string }[] }>();
      expect(answer.errors, name).toEqual([
        { field: 'email', message: REGISTRATION_ERRORS.emailInvisibleCharacters },
      ]);
      expect(answer.detail, name).toMatch(/^Email cannot contain invisible characters/);
    }
    // …and at sign-in, before any account is looked up.
    const [name, char] = ['zero-width space', INVISIBLE['zero-width space']];
    const signIn = await login(`${char}${victim.email}`, victim.password);
    expect(signIn.statusCode, name).toBe(400);
    expect(signIn.json<{ errors: { field: string; message: string }[] }>().errors).toEqual([
      {
        field: 'username',
        message:
          'Username cannot contain invisible characters (zero-width spaces or joiners, direction marks, byte order marks)',
      },
    ]);
  });

  it('reads a full-width or compatibility spelling as the address it looks like: one account, not two', async () => {
    const victim = newRegistration();
    expect((await register(victim)).statusCode).toBe(201);
    const lookalike = await register({ ...newRegistration(), email: fullWidth(victim.email) });
    expect(lookalike.statusCode).toBe(409);
    expect(lookalike.json()).toMatchObject({ code: 'EMAIL_TAKEN' });
    // The owner signs in with either spelling; a ligature (ﬁ → fi) is the same account too.
    expect((await login(fullWidth(victim.email.toUpperCase()), victim.password)).statusCode).toBe(200);

    const ligature = newRegistration({ email: `ﬁnance.${Date.now()}@example.com` });
    const created = await register(ligature);
    expect(created.statusCode).toBe(201);
    // Kept as it reads: NFKC, case kept; the username is the key.
    const plain = ligature.email.replace('ﬁ', 'fi');
    expect(created.json<{ user: { email: string; username: string } }>().user).toMatchObject({
      email: plain,
      username: plain,
    });
    expect((await register({ ...newRegistration(), email: plain.toUpperCase() })).statusCode).toBe(409);
    expect((await login(plain, ligature.password)).statusCode).toBe(200);
    expect((await login(ligature.email, ligature.password)).statusCode).toBe(200);
  });

  it('a user_email in full-width letters names the signed-in user', async () => {
    const { token, registration } = await registerAndLogin(server);
    const mine = await server.request({
      method: 'GET',
      url: `/api/get-test-results?user_email=${encodeURIComponent(fullWidth(registration.email))}`,
      token,
    });
    expect(mine.statusCode, mine.body).toBe(200);
  });
});

describe('accounts made before emails were keyed by NFKC (migration 0017, docs/operations.md §8)', () => {
  it('re-keys a full-width address; one that reads as another account keeps its key and is named at start, as is one with an invisible character', async () => {
    const first = await startTestServer();
    const dataDir = first.dataDir;
    const db = testDatabase(first);
    const passwordHash = await hashPassword('legacy-pass-1');
    const legacy = [
      // As the lower-case-only rule keyed them.
      ['legacy-plain', 'Ada@Example.com', 'ada@example.com'],
      ['legacy-lookalike', '\uff41da@example.com', '\uff41da@example.com'],
      ['legacy-wide', '\uff42ob@example.com', '\uff42ob@example.com'],
      ['legacy-invisible', 'ada\u200b@example.com', 'ada\u200b@example.com'],
    ] as const;
    for (const [index, [id, email, key]] of legacy.entries()) {
      const at = new Date(Date.UTC(2029, 0, 1 + index)).toISOString();
      await db
        .insertInto('users')
        .values({
          id,
          email,
          email_normalized: key,
          username: key,
          first_name: 'Legacy',
          last_name: 'User',
          company: '',
          role: '',
          password_hash: passwordHash,
          created_at: at,
          updated_at: at,
        })
        .execute();
    }
    // The database as a server before 0017 left it: the migrations released after it undone, 0017 not run.
    const migrated = await new Migrator({ db, provider: migrationProvider }).migrateTo('0017_email_nfkc');
    if (migrated.error !== undefined) throw new Error('Migrating to 0017 failed', { cause: migrated.error });
    await db
      .deleteFrom('kysely_migration' as never)
      .where('name' as never, '=', '0017_email_nfkc' as never)
      .execute();
    await db.destroy();
    await first.close();

    const logLines: string[] = [];
    const second = await startTestServer({ LOG_LEVEL: 'warn' }, dataDir, { logLines });
    try {
      const signIn = (username: string) =>
        second.request({ method: 'POST', url: '/api/login', body: { username, password: 'legacy-pass-1' } });
      // Re-keyed: its owner signs in as the address reads, in either spelling.
      expect((await signIn('bob@example.com')).json()).toMatchObject({
        user: { email: '\uff42ob@example.com' },
      });
      expect((await signIn('\uff42ob@example.com')).statusCode).toBe(200);
      // The account that held "ada@example.com" keeps it.
      expect((await signIn('\uff41da@example.com')).json()).toMatchObject({
        user: { email: 'Ada@Example.com' },
      });
      const keys = await withDb(second, (handle) =>
        handle
          .selectFrom('users')
          .select(['id', 'email_normalized'])
          .where('id', 'like', 'legacy-%')
          .execute(),
      );
      expect(Object.fromEntries(keys.map((row) => [row.id, row.email_normalized]))).toEqual({
        'legacy-plain': 'ada@example.com',
        'legacy-lookalike': '\uff41da@example.com',
        'legacy-wide': 'bob@example.com',
        'legacy-invisible': 'ada\u200b@example.com',
      });
      // The operator is told which accounts cannot sign in as they read, and why.
      const warned = (id: string) => logLines.find((line) => line.includes(`The account ${id} `));
      expect(warned('legacy-lookalike')).toContain(
        'which reads as \\"ada@example.com\\", the email of another account',
      );
      expect(warned('legacy-invisible')).toContain('ada\\\\u{200B}@example.com');
      expect(warned('legacy-invisible')).toContain('holds invisible characters');
      expect(warned('legacy-wide')).toBeUndefined();
      expect(warned('legacy-plain')).toBeUndefined();
    } finally {
      await second.close();
      removeDir(dataDir);
    }
  });
});

describe('Cache-Control: no-store on private answers (docs/design.md §11)', () => {
  it('is on signed-in answers, errors, sign-in and sign-up answers, and not on the API reference', async () => {
    const registration = newRegistration();
    const answers = [
      await register(registration),
      await login(registration.email, registration.password),
      await login(registration.email, 'wrong-password'),
      await server.request({ method: 'GET', url: '/api/demo-credentials' }),
    ];
    const { token } = answers[1]!.json<{ token: string }>();
    answers.push(
      await server.request({ method: 'GET', url: '/api/me', token }),
      await server.request({ method: 'GET', url: '/api/get-test-plans?limit=5', token }),
      await server.request({ method: 'GET', url: '/api/me' }),
      await server.request({ method: 'GET', url: '/api/no-such-route', token }),
    );
    for (const answer of answers) {
      expect(answer.headers['cache-control'], `${answer.statusCode} ${answer.body.slice(0, 80)}`).toBe(
        'no-store',
      );
    }
    const docs = await server.request({ method: 'GET', url: '/api/docs/json' });
    expect(docs.statusCode).toBe(200);
    expect(docs.headers['cache-control']).not.toBe('no-store');
  });
});

describe('SIGN_UP=off (docs/design.md §11)', () => {
  let closed: TestServer;

  beforeAll(async () => {
    closed = await startTestServer({ SIGN_UP: 'off' });
  });

  afterAll(async () => {
    await closed.close();
    removeDir(closed.dataDir);
  });

  it('refuses every registration with 403 SIGN_UP_CLOSED, before looking at the body', async () => {
    for (const body of [newRegistration(), {}]) {
      const response = await closed.request({ method: 'POST', url: '/api/register', body });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ detail: SIGN_UP_CLOSED_MESSAGE, code: 'SIGN_UP_CLOSED' });
    }
  });

  it('tells the sign-in page that sign-up is closed; an open server says it is open', async () => {
    const shown = await closed.request({ method: 'GET', url: '/api/demo-credentials' });
    expect(shown.json()).toEqual({ enabled: false, sign_up: false });
    const open = await server.request({ method: 'GET', url: '/api/demo-credentials' });
    expect(open.json()).toEqual({ enabled: false, sign_up: true });
  });

  it('is what a reachable HOST gets by default, with the demo account off', () => {
    const reachable = parseConfig({ HOST: '0.0.0.0' });
    expect({ signUp: reachable.signUp, demoAccount: reachable.demoAccount }).toEqual({
      signUp: false,
      demoAccount: false,
    });
  });
});

describe('secrets never leave the server', () => {
  it('no response contains a password, a password hash or a token hash', () => {
    expect(server.payloads.length).toBeGreaterThan(20);
    const all = server.payloads.join('\n');
    expect(all).not.toContain('password_hash');
    expect(all).not.toContain('$argon2');
    // Short test passwords ("1", "") could appear by coincidence; the real ones are 6+ characters.
    for (const password of [...passwordsUsed].filter((p) => p.length >= 6)) {
      expect(all.includes(`"${password}"`), `password ${password} leaked`).toBe(false);
    }
    for (const token of tokensIssued) {
      const hash = createHash('sha256').update(token).digest('hex');
      expect(all).not.toContain(hash);
    }
  });
});
