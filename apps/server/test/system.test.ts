import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import Database from 'libsql';
import { hashToken } from '../src/auth/tokens';
import { closeDatabase, openDatabase, pingDatabase } from '../src/db/database';
import { MIGRATIONS } from '../src/db/migrations';
import { systemRoutes } from '../src/routes/system.routes';
import type { DemoAccountService } from '../src/services/demo-account.service';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeDir, startTestServer, type TestServer } from './helpers';
import { withTestSql } from './test-database';

const servers: TestServer[] = [];
const dirs: string[] = [];

async function start(
  env: Record<string, string> = {},
  dataDir?: string,
  logLines?: string[],
): Promise<TestServer> {
  const server = await startTestServer(env, dataDir, logLines === undefined ? {} : { logLines });
  servers.push(server);
  dirs.push(server.dataDir);
  return server;
}

afterEach(async () => {
  for (const server of servers.splice(0)) await server.app.close();
  for (const dir of dirs.splice(0)) removeDir(dir);
});

describe('GET /api/health', () => {
  it('answers ok after a real database query', async () => {
    const server = await start();
    const response = await server.request({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    const body = response.json<{ status: string; database: string; version: string }>();
    expect(body).toEqual({ status: 'ok', database: 'ok', version: body.version });
    expect(body.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('answers 503 with the reason when the database does not answer', async () => {
    const dataDir = makeTempDir();
    const db = openDatabase({ kind: 'sqlite', path: join(dataDir, 'health.db') });
    await pingDatabase(db);
    await closeDatabase(db);
    const app = Fastify();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    await app.register(systemRoutes, {
      pingDatabase: () => pingDatabase(db),
      demo: {} as DemoAccountService,
      signUp: false,
      sso: undefined,
      passwordSignIn: true,
      version: '1.2.3',
      uploads: { maxFileBytes: 1, maxUploadBytes: 1, atOnceBytes: 1 },
    });
    try {
      const response = await app.inject({ method: 'GET', url: '/api/health' });
      expect(response.statusCode).toBe(503);
      const body = response.json<{ status: string; database: string; reason: string }>();
      expect(body).toMatchObject({ status: 'error', database: 'unavailable', version: '1.2.3' });
      expect(body.reason.length).toBeGreaterThan(0);
    } finally {
      await app.close();
      removeDir(dataDir);
    }
  });
});

describe('GET /api/docs/json', () => {
  it('is an OpenAPI 3 document generated from the schemas, with bearer auth', async () => {
    const server = await start();
    const response = await server.request({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const doc = response.json<{
      openapi: string;
      info: { title: string; version: string };
      paths: Record<
        string,
        Record<string, { security?: unknown[]; requestBody?: unknown; responses: Record<string, unknown> }>
      >;
      components: { securitySchemes: Record<string, unknown>; schemas: Record<string, unknown> };
      security: unknown[];
    }>();
    expect(doc.openapi).toMatch(/^3\.\d+\.\d+$/);
    expect(doc.info.title).toBe('AnybodyQA API');
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/login',
        '/api/register',
        '/api/logout',
        '/api/me',
        '/api/me/password',
        '/api/health',
      ]),
    );
    // The reference's own routes (the page, this document, Swagger UI's files) are not API calls.
    expect(Object.keys(doc.paths).filter((path) => path.startsWith('/api/docs'))).toEqual([]);
    expect(doc.paths['/api/login']?.post?.security).toEqual([]);
    expect(doc.paths['/api/me']?.get?.security).toBeUndefined();
    expect(doc.paths['/api/login']?.post?.responses).toHaveProperty('200');
    expect(doc.paths['/api/register']?.post?.requestBody).toBeDefined();

    // Every $ref points at a component that exists.
    const refs = JSON.stringify(doc).match(/#\/components\/schemas\/[A-Za-z0-9_]+/g) ?? [];
    for (const ref of refs) expect(doc.components.schemas).toHaveProperty(ref.split('/').pop()!);
  });
});

describe('security headers', () => {
  it('sends a CSP the web app can run under, without upgrade-insecure-requests', async () => {
    const server = await start();
    const response = await server.request({ method: 'GET', url: '/api/health' });
    const csp = String(response.headers['content-security-policy']);
    for (const directive of [
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data: blob:",
      "connect-src 'self'",
      "font-src 'self' data:",
      "object-src 'none'",
      "frame-ancestors 'none'",
      "base-uri 'self'",
      "form-action 'self'",
    ]) {
      expect(csp).toContain(directive);
    }
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });
});

describe('error answers', () => {
  it('an unknown /api route is a JSON 404 naming it, even without a token', async () => {
    const server = await start();
    const response = await server.request({ method: 'GET', url: '/api/xyz?a=1' });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.json()).toMatchObject({ detail: 'No API route GET /api/xyz' });
  });

  it('malformed JSON is a 400 that says so', async () => {
    const server = await start();
    const response = await server.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"username": "a@b.co", ',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      detail: 'The request body is not valid JSON',
      code: 'INVALID_JSON',
    });
  });

  it('a body that is not an object is a 400 with the path of the problem', async () => {
    const server = await start();
    const response = await server.request({ method: 'POST', url: '/api/login', body: [1, 2] });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ field: 'body' }] });
  });
});

describe('demo account', () => {
  it('when on, is created at start-up, published, and can sign in', async () => {
    const server = await start({ DEMO_ACCOUNT: 'on' });
    const credentials = await server.request({ method: 'GET', url: '/api/demo-credentials' });
    expect(credentials.json()).toEqual({
      enabled: true,
      username: 'demo@anybodyqa.dev',
      password: 'demo1234',
      sign_up: true,
    });
    const login = await server.request({
      method: 'POST',
      url: '/api/login',
      body: { username: 'demo@anybodyqa.dev', password: 'demo1234' },
    });
    expect(login.statusCode).toBe(200);
    expect(login.json<{ user: unknown }>().user).toEqual({
      username: 'demo@anybodyqa.dev',
      email: 'demo@anybodyqa.dev',
      firstName: 'Demo',
      lastName: 'User',
      company: 'AnybodyQA',
      role: 'QA Engineer',
    });
  });

  it('gets its published password back at the next start if someone changed it', async () => {
    const dataDir = makeTempDir();
    const first = await start({ DEMO_ACCOUNT: 'on' }, dataDir);
    const { token } = (
      await first.request({
        method: 'POST',
        url: '/api/login',
        body: { username: 'demo@anybodyqa.dev', password: 'demo1234' },
      })
    ).json<{ token: string }>();
    await first.request({
      method: 'POST',
      url: '/api/me/password',
      token,
      body: { currentPassword: 'demo1234', newPassword: 'changed!', confirmPassword: 'changed!' },
    });
    await first.app.close();
    const second = await start({ DEMO_ACCOUNT: 'on' }, dataDir);
    const login = await second.request({
      method: 'POST',
      url: '/api/login',
      body: { username: 'demo@anybodyqa.dev', password: 'demo1234' },
    });
    expect(login.statusCode).toBe(200);
  });

  it('when off, is not published and an existing demo account is deleted', async () => {
    const dataDir = makeTempDir();
    const on = await start({ DEMO_ACCOUNT: 'on' }, dataDir);
    await on.app.close();
    const off = await start({ DEMO_ACCOUNT: 'off' }, dataDir);
    const credentials = await off.request({ method: 'GET', url: '/api/demo-credentials' });
    expect(credentials.json()).toEqual({ enabled: false, sign_up: true });
    const login = await off.request({
      method: 'POST',
      url: '/api/login',
      body: { username: 'demo@anybodyqa.dev', password: 'demo1234' },
    });
    expect(login.statusCode).toBe(401);
  });
});

describe('database', () => {
  it('migrations are idempotent: a second start on the same file keeps the data', async () => {
    const dataDir = makeTempDir();
    const first = await start({}, dataDir);
    const registration = {
      email: 'keep@example.com',
      password: 'keep-me-1',
      confirmPassword: 'keep-me-1',
      firstName: 'Keep',
      lastName: 'Me',
    };
    expect(
      (await first.request({ method: 'POST', url: '/api/register', body: registration })).statusCode,
    ).toBe(201);
    await first.app.close();

    const second = await start({}, dataDir);
    const login = await second.request({
      method: 'POST',
      url: '/api/login',
      body: { username: 'keep@example.com', password: 'keep-me-1' },
    });
    expect(login.statusCode).toBe(200);
    await second.app.close();

    await withTestSql(second.database, async (sql) => {
      const applied = await sql.all<{ name: string }>('select name from kysely_migration order by name');
      expect(applied.map((m) => m.name)).toEqual(Object.keys(MIGRATIONS).sort());
      expect(applied.map((m) => m.name)).toContain('0002_plans');
      // SQLite's readers and writer share the file through the WAL (database.ts); PostgreSQL has no such mode.
      if (sql.dialect === 'sqlite') {
        expect(await sql.get('PRAGMA journal_mode')).toMatchObject({ journal_mode: 'wal' });
      }
    });
  });

  it('deleting a user deletes their sessions (foreign keys are on)', async () => {
    const dataDir = makeTempDir();
    const on = await start({ DEMO_ACCOUNT: 'on' }, dataDir);
    await on.request({
      method: 'POST',
      url: '/api/login',
      body: { username: 'demo@anybodyqa.dev', password: 'demo1234' },
    });
    await on.app.close();
    const off = await start({ DEMO_ACCOUNT: 'off' }, dataDir);
    await off.app.close();
    const sessions = await withTestSql(off.database, (sql) => sql.get('select count(*) as n from sessions'));
    expect(sessions).toMatchObject({ n: 0 });
  });

  it('DATABASE_URL=file:… selects the SQLite file', async () => {
    const dataDir = makeTempDir();
    const server = await start({ DATABASE_URL: `file:${join(dataDir, 'custom', 'my.db')}` }, dataDir);
    expect((await server.request({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    const sqlite = new Database(join(dataDir, 'custom', 'my.db'));
    try {
      expect(
        sqlite.prepare("select count(*) as n from sqlite_master where name = 'users'").get(),
      ).toMatchObject({ n: 1 });
    } finally {
      sqlite.close();
    }
  });
});

describe('web app', () => {
  function makeWebBuild(dir: string): string {
    const dist = join(dir, 'web-dist');
    mkdirSync(join(dist, 'assets'), { recursive: true });
    writeFileSync(join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
    writeFileSync(join(dist, 'assets', 'index-abc123.js'), 'console.log(1)');
    writeFileSync(join(dist, 'favicon.svg'), '<svg/>');
    return dist;
  }

  it('without a build, / answers a plain 503 saying how to build it', async () => {
    const server = await start();
    const response = await server.request({ method: 'GET', url: '/' });
    expect(response.statusCode).toBe(503);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    expect(response.body).toBe('The web app is not built. Run npm start.\n');
  });

  it('serves files, falls back to index.html for app routes, and caches only hashed assets', async () => {
    const dataDir = makeTempDir();
    const server = await start({ WEB_DIST_DIR: makeWebBuild(dataDir) }, dataDir);

    const root = await server.request({ method: 'GET', url: '/' });
    expect(root.statusCode).toBe(200);
    expect(root.body).toContain('id="root"');
    expect(root.headers['cache-control']).toBe('no-cache');

    const route = await server.request({ method: 'GET', url: '/test-result/abc?x=1' });
    expect(route.statusCode).toBe(200);
    expect(route.headers['content-type']).toMatch(/^text\/html/);
    expect(route.body).toContain('id="root"');
    expect(route.headers['cache-control']).toBe('no-cache');
    expect(route.headers['content-security-policy']).toBeDefined();

    const asset = await server.request({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');

    const favicon = await server.request({ method: 'GET', url: '/favicon.svg' });
    expect(favicon.headers['cache-control']).toBe('no-cache');

    expect((await server.request({ method: 'GET', url: '/assets/missing-123.js' })).statusCode).toBe(404);
    expect((await server.request({ method: 'GET', url: '/api/nope' })).json()).toMatchObject({
      detail: 'No API route GET /api/nope',
    });
  });
});

describe('logs', () => {
  it('carry no password, password hash, token or token hash, even at trace level', async () => {
    const lines: string[] = [];
    const server = await start({ LOG_LEVEL: 'trace', DEMO_ACCOUNT: 'on' }, undefined, lines);
    const registration = {
      email: 'logged@example.com',
      password: 'log-secret-1',
      confirmPassword: 'log-secret-1',
      firstName: 'Log',
      lastName: 'Ged',
    };
    await server.request({ method: 'POST', url: '/api/register', body: registration });
    await server.request({
      method: 'POST',
      url: '/api/login',
      body: { username: registration.email, password: 'wrong-secret-9' },
    });
    const login = await server.request({
      method: 'POST',
      url: '/api/login',
      body: { username: registration.email, password: registration.password },
    });
    const { token } = login.json<{ token: string }>();
    await server.request({ method: 'GET', url: '/api/me', token });
    await server.request({
      method: 'POST',
      url: '/api/me/password',
      token,
      body: {
        currentPassword: registration.password,
        newPassword: 'log-secret-2',
        confirmPassword: 'log-secret-2',
      },
    });
    await server.app.close();

    const log = lines.join('');
    // Requests are logged (at debug), so the check below looks at real request lines.
    expect(log).toContain('"url":"/api/login"');
    for (const secret of [
      'log-secret-1',
      'log-secret-2',
      'wrong-secret-9',
      'demo1234',
      token,
      hashToken(token),
      '$argon2',
    ]) {
      expect(log.includes(secret), `${secret} appears in the logs`).toBe(false);
    }
  });
});
