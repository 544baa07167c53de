import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, startTestServer, type TestServer } from '../apps/server/test/helpers';
import { parseAccountArgs, UsageError } from './add-account';
import { ROOT } from './check-doc-citations';

let server: TestServer;

beforeAll(async () => {
  // A server whose sign-up is off, running on the database the script writes to.
  server = await startTestServer({ SIGN_UP: 'off' });
});

afterAll(async () => {
  await server.close();
  removeDir(server.dataDir);
});

function addAccount(args: string[], stdin: string) {
  return spawnSync(join(ROOT, 'node_modules/.bin/tsx'), [join(ROOT, 'scripts/add-account.ts'), ...args], {
    cwd: ROOT,
    input: stdin,
    encoding: 'utf8',
    // The server's own store: its SQLite file in DATA_DIR, or its PostgreSQL database (node-postgres project).
    env: {
      ...process.env,
      DATA_DIR: server.dataDir,
      ...(server.database.kind === 'postgres' ? { DATABASE_URL: server.database.url } : {}),
      LOG_LEVEL: 'silent',
    },
    timeout: 60_000,
  });
}

const signIn = (username: string, password: string) =>
  server.request({ method: 'POST', url: '/api/login', body: { username, password } });

describe('npm run add-account (docs/adr/0018-safe-defaults-and-lockout.md)', () => {
  it('creates an account the running server signs in, with the password from standard input', async () => {
    const run = addAccount(
      ['--email', 'Operator@Example.com', '--name', 'Op Erator', '--role', 'Admin'],
      'op-pass-77\n',
    );
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('Account created: Operator@Example.com (Op Erator)');
    const login = await signIn('operator@example.com', 'op-pass-77');
    expect(login.statusCode).toBe(200);
    expect(login.json()).toMatchObject({ user: { firstName: 'Op', lastName: 'Erator', role: 'Admin' } });
  });

  it('refuses an email with an invisible character, and one that reads as an existing address', async () => {
    const invisible = addAccount(
      ['--email', 'oper\u200bator@example.com', '--name', 'Op Erator'],
      'op-pass-77\n',
    );
    expect(invisible.status).toBe(1);
    expect(invisible.stderr).toContain(
      '  - email: Email cannot contain invisible characters (zero-width spaces or joiners, direction marks, byte order marks)',
    );
    expect((await signIn('oper\u200bator@example.com', 'op-pass-77')).statusCode).toBe(400);

    const first = addAccount(['--email', 'ﬁrst@example.com', '--name', 'Fi Rst'], 'op-pass-77\n');
    expect(first.stderr).toBe('');
    expect(first.stdout).toContain('Account created: first@example.com (Fi Rst)');
    const again = addAccount(['--email', 'ＦＩＲＳＴ@example.com', '--name', 'Fi Rst'], 'op-pass-78\n');
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('add-account: An account with this email already exists');
    expect((await signIn('first@example.com', 'op-pass-77')).statusCode).toBe(200);
    // Three runs of the script, each starting tsx.
  }, 120_000);

  it('never takes a password from the command line, and needs an email and both names', () => {
    expect(() => parseAccountArgs(['--email', 'a@b.c', '--name', 'A B', '--password=long-enough-1'])).toThrow(
      'the password is never taken from the command line',
    );
    expect(() => parseAccountArgs(['--email', 'a@b.c', '--name', 'A B', '-pw', 'x'])).toThrow(UsageError);
    expect(() => parseAccountArgs(['--name', 'A B'])).toThrow('--email is required');
    expect(() => parseAccountArgs(['--email', 'a@b.c', '--name', 'Cher'])).toThrow(
      'give a first and a last name',
    );
    expect(
      parseAccountArgs(['--email', 'a@b.c', '--first-name', 'Ada', '--last-name', 'King Lovelace']),
    ).toEqual({
      email: 'a@b.c',
      firstName: 'Ada',
      lastName: 'King Lovelace',
      company: '',
      role: '',
    });
  });
});
