import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, findRepoRoot, parseConfig } from './config';

const repoRoot = findRepoRoot();

function problemsOf(env: Record<string, string>): string[] {
  try {
    parseConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('parseConfig', () => {
  it('has the documented defaults', () => {
    const config = parseConfig({});
    expect(config).toEqual({
      port: 5200,
      host: '127.0.0.1',
      dataDir: join(repoRoot, 'data'),
      database: { kind: 'sqlite', path: join(repoRoot, 'data', 'anybodyqa.db') },
      demoAccount: true,
      signUp: true,
      sessionTtlHours: 168,
      loginRateLimitPerIp: 20,
      loginFailuresPerAccount: 5,
      passwordChangeFailuresPerAccount: 5,
      passwordSignIn: true,
      auditRetentionDays: 365,
      registerRateLimitPerIp: 10,
      tokenFailuresPerIp: 30,
      webDistDir: join(repoRoot, 'apps', 'web', 'dist'),
      logLevel: 'info',
      trustProxy: false,
      maxRunsPerUser: 2,
      maxRunsPerServer: 4,
      externalTools: true,
      // No tool command unless configured: the engine finds the tools on PATH.
      toolCommands: {},
      targets: { allow: [], deny: [] },
      importQueue: { length: 16, perUser: 2 },
      // docs/adr/0024-memory-bounds.md: 25 MB a file, 50 MB an upload, 200 MB at once; 256 MB a functional run.
      uploads: { maxFileBytes: 25 * 2 ** 20, maxUploadBytes: 50 * 2 ** 20, atOnceBytes: 200 * 2 ** 20 },
      functionalRunMemoryMb: 256,
      // The UI runner's own defaults apply: /usr/bin/chromium, 2 browsers, 30 s a step.
      uiBrowsers: {},
      // Locust workers on load agents dial the master here (agents on this machine).
      locustMasterHost: '127.0.0.1',
      // docs/adr/0032-notifications-out.md: links on this server's port, no e-mail, three attempts.
      publicUrl: 'http://localhost:5200',
      smtp: { from: 'AnybodyQA <anybodyqa@localhost>' },
      notifyRetryDelaysMs: [1000, 5000],
    });
  });

  it('reads the notification settings and refuses bad ones naming the variable', () => {
    const config = parseConfig({
      PUBLIC_URL: 'https://qa.example.com/aqa/',
      SMTP_URL: 'smtp://user:pass@mail.example.com:587',
      SMTP_FROM: 'QA <qa@example.com>',
      NOTIFY_RETRY_DELAYS_MS: '50, 100,200',
    });
    expect(config.publicUrl).toBe('https://qa.example.com/aqa');
    expect(config.smtp).toEqual({
      url: 'smtp://user:pass@mail.example.com:587',
      from: 'QA <qa@example.com>',
    });
    expect(config.notifyRetryDelaysMs).toEqual([50, 100, 200]);
    expect(parseConfig({ PORT: '8080' }).publicUrl).toBe('http://localhost:8080');
    const problems = problemsOf({
      PUBLIC_URL: 'qa.example.com',
      SMTP_URL: 'mail.example.com',
      NOTIFY_RETRY_DELAYS_MS: '1s',
    });
    expect(problems.map((p) => p.split(':')[0])).toEqual([
      'PUBLIC_URL',
      'SMTP_URL',
      'NOTIFY_RETRY_DELAYS_MS',
    ]);
  });

  it('reads AQA_LOCUST_MASTER_HOST, a host without scheme or port', () => {
    expect(parseConfig({ AQA_LOCUST_MASTER_HOST: ' 10.0.0.5 ' }).locustMasterHost).toBe('10.0.0.5');
    expect(parseConfig({ AQA_LOCUST_MASTER_HOST: 'aqa.internal' }).locustMasterHost).toBe('aqa.internal');
    expect(problemsOf({ AQA_LOCUST_MASTER_HOST: 'http://aqa.internal:5200' })).toEqual([
      'AQA_LOCUST_MASTER_HOST: must be the host name or IP address the load agents reach this server at, without scheme or port, e.g. 10.0.0.5',
    ]);
  });

  it('turns the demo account and sign-up on only on loopback unless told', () => {
    for (const host of ['127.0.0.1', 'localhost', '::1', '[::1]', '127.0.0.2']) {
      expect(parseConfig({ HOST: host })).toMatchObject({ demoAccount: true, signUp: true });
    }
    for (const host of ['0.0.0.0', '::', '192.168.1.10', 'aqa.example.com']) {
      expect(parseConfig({ HOST: host })).toMatchObject({ demoAccount: false, signUp: false });
    }
    // Behind a reverse proxy, a loopback address is reachable from anywhere.
    expect(parseConfig({ HOST: '127.0.0.1', TRUST_PROXY: 'on' })).toMatchObject({
      demoAccount: false,
      signUp: false,
    });
    expect(parseConfig({ HOST: '0.0.0.0', DEMO_ACCOUNT: 'on', SIGN_UP: 'ON' })).toMatchObject({
      demoAccount: true,
      signUp: true,
    });
    expect(parseConfig({ DEMO_ACCOUNT: 'off', SIGN_UP: 'off' })).toMatchObject({
      demoAccount: false,
      signUp: false,
    });
    expect(problemsOf({ SIGN_UP: 'maybe' })).toEqual(['SIGN_UP: must be "auto", "on" or "off"']);
  });

  it('reads the target lists split on commas and spaces', () => {
    expect(
      parseConfig({ AQA_TARGETS_ALLOW: ' staging.example.com, 10.0.0.0/8 ', AQA_TARGETS_DENY: '' }).targets,
    ).toEqual({ allow: ['staging.example.com', '10.0.0.0/8'], deny: [] });
  });

  it('reads the upload and run memory bounds, a file within an upload within what the server takes at once', () => {
    expect(
      parseConfig({
        UPLOAD_MAX_FILE_MB: '40',
        UPLOAD_MAX_MB: '80',
        UPLOADS_AT_ONCE_MB: '400',
        FUNCTIONAL_RUN_MEMORY_MB: '1024',
      }),
    ).toMatchObject({
      uploads: { maxFileBytes: 40 * 2 ** 20, maxUploadBytes: 80 * 2 ** 20, atOnceBytes: 400 * 2 ** 20 },
      functionalRunMemoryMb: 1024,
    });
    expect(
      problemsOf({ UPLOAD_MAX_FILE_MB: '60', UPLOADS_AT_ONCE_MB: '40', FUNCTIONAL_RUN_MEMORY_MB: '32' }),
    ).toEqual(['FUNCTIONAL_RUN_MEMORY_MB: must be at least 64']);
    expect(problemsOf({ UPLOAD_MAX_FILE_MB: '60', UPLOADS_AT_ONCE_MB: '40' })).toEqual([
      'UPLOAD_MAX_FILE_MB: must be at most UPLOAD_MAX_MB (50)',
      'UPLOAD_MAX_MB: must be at most UPLOADS_AT_ONCE_MB (40)',
    ]);
  });

  it('keeps the per-user run limit below the server limit', () => {
    expect(problemsOf({ MAX_RUNS_PER_USER: '4', MAX_RUNS_PER_SERVER: '4' })).toEqual([
      'MAX_RUNS_PER_USER: must be below MAX_RUNS_PER_SERVER (4) so that one user cannot hold every run slot',
    ]);
    expect(problemsOf({ MAX_RUNS_PER_USER: '1', MAX_RUNS_PER_SERVER: '1' })).toEqual([]);
  });

  it('finds the repository root from its own location', () => {
    expect(repoRoot).toBe(join(import.meta.dirname, '..', '..', '..'));
  });

  it('reads every variable and resolves relative paths against the working directory', () => {
    const config = parseConfig(
      {
        PORT: '8080',
        HOST: '127.0.0.1',
        DATA_DIR: 'var/aqa',
        DEMO_ACCOUNT: 'OFF',
        SESSION_TTL_HOURS: '0.5',
        LOGIN_RATE_LIMIT_PER_IP: '3',
        LOGIN_FAILURES_PER_ACCOUNT: '2',
        REGISTER_RATE_LIMIT_PER_IP: '4',
        TOKEN_FAILURES_PER_IP: '7',
        WEB_DIST_DIR: 'web',
        LOG_LEVEL: 'warn',
        TRUST_PROXY: 'on',
      },
      '/srv',
    );
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      dataDir: '/srv/var/aqa',
      database: { kind: 'sqlite', path: '/srv/var/aqa/anybodyqa.db' },
      demoAccount: false,
      sessionTtlHours: 0.5,
      loginRateLimitPerIp: 3,
      loginFailuresPerAccount: 2,
      registerRateLimitPerIp: 4,
      tokenFailuresPerIp: 7,
      webDistDir: '/srv/web',
      logLevel: 'warn',
      trustProxy: true,
    });
  });

  it('reads the run limits and the external tool commands', () => {
    const config = parseConfig({
      MAX_RUNS_PER_USER: '1',
      MAX_RUNS_PER_SERVER: '8',
      JMETER_CMD: ' /opt/jmeter/bin/jmeter ',
      LOCUST_CMD: '/usr/bin/python3 -m locust',
      K6_CMD: '',
    });
    expect(config).toMatchObject({ maxRunsPerUser: 1, maxRunsPerServer: 8 });
    expect(config.toolCommands).toEqual({
      jmeter: '/opt/jmeter/bin/jmeter',
      locust: '/usr/bin/python3 -m locust',
    });
    expect(problemsOf({ MAX_RUNS_PER_USER: '0', MAX_RUNS_PER_SERVER: 'many' })).toEqual([
      'MAX_RUNS_PER_USER: must be at least 1',
      'MAX_RUNS_PER_SERVER: must be a number',
    ]);
  });

  it('reads the UI browser settings, leaving what is unset to the UI runner', () => {
    expect(
      parseConfig({
        AQA_BROWSER_PATH: ' /opt/chromium/chrome ',
        AQA_UI_BROWSERS: '1',
        AQA_UI_STEP_TIMEOUT_MS: '',
      }).uiBrowsers,
    ).toEqual({ browserPath: '/opt/chromium/chrome', maxBrowsers: 1 });
    expect(problemsOf({ AQA_UI_BROWSERS: '0', AQA_UI_STEP_TIMEOUT_MS: '1.5' })).toEqual([
      'AQA_UI_BROWSERS: must be at least 1',
      'AQA_UI_STEP_TIMEOUT_MS: must be a whole number',
    ]);
  });

  it('refuses a per-user browser share that would let one user hold every browser, as MAX_RUNS_PER_USER', () => {
    expect(parseConfig({ AQA_UI_BROWSERS: '4', AQA_UI_BROWSERS_PER_USER: '3' }).uiBrowsers).toEqual({
      maxBrowsers: 4,
      maxPerUser: 3,
    });
    // Against the default of two browsers when AQA_UI_BROWSERS is unset.
    expect(problemsOf({ AQA_UI_BROWSERS_PER_USER: '2' })).toEqual([
      'AQA_UI_BROWSERS_PER_USER: must be below AQA_UI_BROWSERS (2) so that one user cannot hold every browser',
    ]);
    expect(
      problemsOf({ AQA_UI_BROWSERS: '3', AQA_UI_BROWSERS_PER_USER: '5', MAX_RUNS_PER_USER: '9' }),
    ).toEqual([
      'MAX_RUNS_PER_USER: must be below MAX_RUNS_PER_SERVER (4) so that one user cannot hold every run slot',
      'AQA_UI_BROWSERS_PER_USER: must be below AQA_UI_BROWSERS (3) so that one user cannot hold every browser',
    ]);
    expect(problemsOf({ AQA_UI_BROWSERS_PER_USER: '0' })).toEqual([
      'AQA_UI_BROWSERS_PER_USER: must be at least 1',
    ]);
  });

  it("reads James's model, which is there only with an address and a model", () => {
    expect(
      parseConfig({
        AQA_LLM_BASE_URL: 'http://127.0.0.1:11434/v1/',
        AQA_LLM_MODEL: ' llama3 ',
        AQA_LLM_API_KEY: '',
      }).assistantModel,
    ).toEqual({ baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama3' });
    expect(parseConfig({ AQA_LLM_MODEL: 'gpt-4o-mini' }).assistantModel).toBeUndefined();
    expect(problemsOf({ AQA_LLM_BASE_URL: 'https://api.example.com/v1' })).toEqual([
      'AQA_LLM_MODEL: name the model to ask at AQA_LLM_BASE_URL (e.g. gpt-4o-mini)',
    ]);
    expect(problemsOf({ AQA_LLM_BASE_URL: 'api.example.com', AQA_LLM_MODEL: 'm' })).toEqual([
      'AQA_LLM_BASE_URL: must be an http:// or https:// address',
    ]);
  });

  it('treats blank variables as unset', () => {
    expect(parseConfig({ PORT: '', DATA_DIR: ' ', LOG_LEVEL: '' })).toMatchObject({
      port: 5200,
      logLevel: 'info',
      trustProxy: false,
    });
  });

  it.each([
    ['file:/abs/aqa.db', '/abs/aqa.db'],
    ['file:///abs/aqa.db', '/abs/aqa.db'],
    ['/abs/plain.db', '/abs/plain.db'],
    ['rel/aqa.db', '/srv/rel/aqa.db'],
  ])('DATABASE_URL=%s selects SQLite at %s', (url, path) => {
    expect(parseConfig({ DATABASE_URL: url }, '/srv').database).toEqual({ kind: 'sqlite', path });
  });

  it.each([
    'postgres://aqa:secret@db.internal:5432/aqa',
    'postgresql://db/aqa',
    'postgres:///aqa?host=/run/postgresql',
  ])('DATABASE_URL=%s selects PostgreSQL', (url) => {
    expect(parseConfig({ DATABASE_URL: ` ${url} ` }, '/srv').database).toEqual({ kind: 'postgres', url });
  });

  it('names what a PostgreSQL URL lacks, never showing its password', () => {
    expect(problemsOf({ DATABASE_URL: 'postgres://u:p@db' })).toEqual([
      'DATABASE_URL: the PostgreSQL URL names no database; use postgres://user:password@host:5432/database',
    ]);
    expect(problemsOf({ DATABASE_URL: 'postgres:///aqa' })[0]).toMatch(/names no host/);
    const [bad] = problemsOf({ DATABASE_URL: 'mysql://root:hunter2@db/aqa' });
    expect(bad).toMatch(/^DATABASE_URL: unsupported database URL scheme in "mysql:\/\/root:\*\*\*@db\/aqa"/);
    expect(bad).not.toContain('hunter2');
  });

  it('reports every bad variable at once', () => {
    const problems = problemsOf({
      PORT: 'eighty',
      DEMO_ACCOUNT: 'maybe',
      SESSION_TTL_HOURS: '-1',
      LOGIN_RATE_LIMIT_PER_IP: '0',
      LOGIN_FAILURES_PER_ACCOUNT: '2.5',
      LOG_LEVEL: 'loud',
      DATABASE_URL: 'postgres://db',
    });
    expect(problems.map((p) => p.split(':')[0])).toEqual([
      'PORT',
      'DEMO_ACCOUNT',
      'SESSION_TTL_HOURS',
      'LOGIN_RATE_LIMIT_PER_IP',
      'LOGIN_FAILURES_PER_ACCOUNT',
      'LOG_LEVEL',
      'DATABASE_URL',
    ]);
    expect(problems).toContain('DEMO_ACCOUNT: must be "auto", "on" or "off"');
    expect(problems).toContain('PORT: must be a number');
  });
});
