import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { type AppOptions, buildApp } from '../src/app';
import { type DatabaseConfig, parseConfig } from '../src/config';
import { type Db, openDatabase } from '../src/db/database';
import { dropTestDatabase, testDatabaseEnv } from './test-database';

/** A clock the test moves by hand. */
export class ManualClock {
  constructor(public nowMs = Date.parse('2030-01-01T00:00:00.000Z')) {}
  readonly now = (): number => this.nowMs;
  advance(ms: number): void {
    this.nowMs += ms;
  }
}

export interface TestServer {
  app: FastifyInstance;
  dataDir: string;
  /** The store the server runs on: SQLite in dataDir, or its own PostgreSQL database (AQA_TEST_DB=postgres). */
  database: DatabaseConfig;
  clock: ManualClock;
  /** Every raw response body seen through `request`, for the "nothing secret leaks" checks. */
  payloads: string[];
  request(options: RequestOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export interface RequestOptions {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH' | 'HEAD';
  url: string;
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
  remoteAddress?: string;
}

export function makeTempDir(): string {
  return mkdtempSync(join(tmpdir(), 'aqa-server-test-'));
}

/**
 * Starts the real app on a real SQLite file in a temp folder, or, with AQA_TEST_DB=postgres (the
 * node-postgres vitest project), on a PostgreSQL database of that folder's own (test-database.ts), so a
 * server started again on the same folder finds its data. Defaults suit tests: no logs, demo account
 * off, no web build; `env` overrides any variable as the server would read it.
 */
export async function startTestServer(
  env: Record<string, string> = {},
  dataDir = makeTempDir(),
  options: {
    logLines?: string[];
    validationLimits?: AppOptions['validationLimits'];
    importLimits?: AppOptions['importLimits'];
    scheduler?: AppOptions['scheduler'];
  } = {},
): Promise<TestServer> {
  const clock = new ManualClock();
  const config = parseConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DEMO_ACCOUNT: 'off',
    WEB_DIST_DIR: join(dataDir, 'no-web-build'),
    ...(await testDatabaseEnv(dataDir)),
    ...env,
  });
  const logLines = options.logLines;
  const app = await buildApp(config, {
    now: clock.now,
    ...(options.validationLimits === undefined ? {} : { validationLimits: options.validationLimits }),
    ...(options.importLimits === undefined ? {} : { importLimits: options.importLimits }),
    ...(options.scheduler === undefined ? {} : { scheduler: options.scheduler }),
    ...(logLines === undefined
      ? {}
      : { logDestination: { write: (line: string) => void logLines.push(line) } }),
  });
  const payloads: string[] = [];
  return {
    app,
    dataDir,
    database: config.database,
    clock,
    payloads,
    async request({ method, url, token, body, headers = {}, remoteAddress }) {
      const response = await app.inject({
        method,
        url,
        headers: { ...(token === undefined ? {} : { authorization: `Bearer ${token}` }), ...headers },
        ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
        ...(remoteAddress === undefined ? {} : { remoteAddress }),
      });
      payloads.push(response.body);
      return response;
    },
    async close() {
      await app.close();
    },
  };
}

/**
 * Removes a test server's data folder, and on PostgreSQL drops the folder's database (in the
 * background: the tests that call this have closed the server, whose pool is gone).
 */
export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  dropTestDatabase(dir);
}

/**
 * A Kysely handle on the test server's own store, for the tests that look at or change rows directly
 * (SQLite or PostgreSQL alike). Close it with `db.destroy()` when done.
 */
export function testDatabase(server: Pick<TestServer, 'database'>): Db {
  return openDatabase(server.database);
}

let counter = 0;

/** A valid registration body with a fresh email each call. */
export function newRegistration(overrides: Record<string, unknown> = {}) {
  counter += 1;
  const email = `tester${counter}.${Date.now()}@example.com`;
  return {
    email,
    username: email,
    password: 'secret-pass-1',
    confirmPassword: 'secret-pass-1',
    firstName: 'Ada',
    lastName: 'Lovelace',
    company: 'Analytical Engines',
    role: 'QA Engineer',
    ...overrides,
  };
}

/** Registers and signs in; returns the token and the credentials used. */
export async function registerAndLogin(server: TestServer, overrides: Record<string, unknown> = {}) {
  const registration = newRegistration(overrides);
  const registered = await server.request({ method: 'POST', url: '/api/register', body: registration });
  if (registered.statusCode !== 201) throw new Error(`register failed: ${registered.body}`);
  const login = await server.request({
    method: 'POST',
    url: '/api/login',
    body: { username: registration.email, password: registration.password },
  });
  if (login.statusCode !== 200) throw new Error(`login failed: ${login.body}`);
  const { token } = login.json<{ token: string }>();
  return { token, registration };
}

/** A signed-in user as the scoping tests use them: the token, and the email user_email may name. */
export interface SignedInUser {
  token: string;
  email: string;
}

/**
 * A server with two signed-in users, alice and bob, for the "another user's thing is not found"
 * checks; sign-in limits are raised so that many users can register from the one test address. `env`
 * sets more of the server's variables.
 */
export async function startServerWithTwoUsers(
  env: Record<string, string> = {},
  options: Parameters<typeof startTestServer>[2] = {},
): Promise<{
  server: TestServer;
  alice: SignedInUser;
  bob: SignedInUser;
}> {
  const server = await startTestServer(
    {
      LOGIN_RATE_LIMIT_PER_IP: '1000',
      REGISTER_RATE_LIMIT_PER_IP: '1000',
      ...env,
    },
    undefined,
    options,
  );
  const signIn = async (): Promise<SignedInUser> => {
    const { token, registration } = await registerAndLogin(server);
    return { token, email: registration.email };
  };
  return { server, alice: await signIn(), bob: await signIn() };
}

/** Closes a test server and removes its data folder; a server that never started is passed over. */
export async function closeTestServer(server: TestServer | undefined): Promise<void> {
  if (server === undefined) return;
  await server.close();
  removeDir(server.dataDir);
}
