import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseTargetRules } from '@aqa/engine';
import { browsersPerUserProblem, DEFAULT_UI_BROWSERS } from '@aqa/ui-runner/limits';
import { AUDIT_RETENTION_DAYS_DEFAULT } from '@aqa/plan';
import { z } from 'zod';

/**
 * Where the database lives: the embedded SQLite file (the default), or a PostgreSQL server named by
 * DATABASE_URL=postgres://… (docs/adr/0019-postgresql.md).
 */
export type DatabaseConfig = SqliteDatabaseConfig | PostgresDatabaseConfig;

export interface SqliteDatabaseConfig {
  kind: 'sqlite';
  /** Absolute path of the SQLite file. */
  path: string;
}

export interface PostgresDatabaseConfig {
  kind: 'postgres';
  /** The connection URL as given (postgres:// or postgresql://), passed to node-postgres. */
  url: string;
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  database: DatabaseConfig;
  /**
   * The demo account exists. DEMO_ACCOUNT=auto (the default) turns it on only while the server
   * listens on a loopback address with no reverse proxy in front (TRUST_PROXY off): a reachable
   * server never shows strangers a working password (docs/design.md §11).
   */
  demoAccount: boolean;
  /** Anyone who can reach the server may create an account. SIGN_UP=auto: as DEMO_ACCOUNT=auto (§11). */
  signUp: boolean;
  sessionTtlHours: number;
  /** Sign-in attempts allowed per client IP per minute. */
  loginRateLimitPerIp: number;
  /** Failed sign-ins allowed per account per 15 minutes. */
  loginFailuresPerAccount: number;
  /** Wrong current passwords allowed per account per 15 minutes on the password change. */
  passwordChangeFailuresPerAccount: number;
  /** Registrations allowed per client IP per minute. */
  registerRateLimitPerIp: number;
  /** Failed bearer-token authentications allowed per client IP per minute (docs/adr/0012-api-tokens-and-sessions.md). */
  tokenFailuresPerIp: number;
  webDistDir: string;
  logLevel: LogLevel;
  /** Take the client IP from X-Forwarded-For (only behind a reverse proxy you control). */
  trustProxy: boolean;
  /** Performance runs one user may have going at once. */
  maxRunsPerUser: number;
  /** Performance runs the whole server may have going at once. */
  maxRunsPerServer: number;
  /** The commands that run the external tools; a tool left out is looked up on PATH by its usual name. */
  toolCommands: ToolCommands;
  /** EXTERNAL_TOOLS=off runs every plan on the built-in engine, whatever tools are installed. */
  externalTools: boolean;
  /**
   * AQA_TARGETS_ALLOW / AQA_TARGETS_DENY as written: host names, IP addresses and CIDR ranges that
   * the target guard allows only / refuses, on top of what it always refuses (docs/design.md §11).
   */
  targets: TargetLists;
  /** Imports waiting for a worker, in all and per user; a full queue answers 429 with Retry-After. */
  importQueue: { length: number; perUser: number };
  /**
   * The uploads' bounds (docs/adr/0024-memory-bounds.md), in bytes: UPLOAD_MAX_FILE_MB per file,
   * UPLOAD_MAX_MB per upload (its files together), UPLOADS_AT_ONCE_MB for every upload the server is
   * receiving or importing at once.
   */
  uploads: UploadLimits;
  /** FUNCTIONAL_RUN_MEMORY_MB: the heap one functional run's worker thread may use (docs/adr/0024-memory-bounds.md). */
  functionalRunMemoryMb: number;
  /**
   * The UI tests' browser pool (docs/design.md §9 "UI tests"), as set: AQA_BROWSER_PATH,
   * AQA_UI_BROWSERS, AQA_UI_BROWSERS_PER_USER and AQA_UI_STEP_TIMEOUT_MS. What is left out takes @aqa/ui-runner's default.
   */
  uiBrowsers: UiBrowserSettings;
  /**
   * The OpenAI-compatible model James may ask (docs/design.md §10): AQA_LLM_BASE_URL, AQA_LLM_MODEL
   * and AQA_LLM_API_KEY. Absent: James answers from its analyser only and sends nothing anywhere.
   */
  assistantModel?: AssistantModelSettings;
  /** Single sign-on through an OpenID Connect provider, when OIDC_ISSUER is set (docs/adr/0033-single-sign-on.md). */
  sso?: SsoSettings;
  /** PASSWORD_SIGN_IN=off: accounts sign in only through single sign-on (docs/adr/0033-single-sign-on.md). */
  passwordSignIn: boolean;
  /** AUDIT_RETENTION_DAYS: how long the audit log keeps an entry (docs/adr/0034-audit-log.md). */
  auditRetentionDays: number;
  /**
   * REDIS_URL (redis:// or rediss://): the Redis that several server replicas share for live runs, stop
   * requests and rate limits (docs/adr/0020-server-replicas.md). Optional for one server, required for several.
   */
  redisUrl?: string;
  /**
   * AQA_LOCUST_MASTER_HOST: the address load agents reach this server at, which the Locust workers of
   * a run of a Locust plan on agents dial (docs/adr/0021-load-agents.md "Locust master/worker");
   * default 127.0.0.1 (agents on this machine).
   */
  locustMasterHost?: string;
  /**
   * PUBLIC_URL: the address people open this server at, without a trailing slash; the links in
   * notifications are built on it (docs/adr/0032-notifications-out.md). Default http://localhost:PORT.
   */
  publicUrl: string;
  /** SMTP_URL and SMTP_FROM: the mail server e-mail notification channels send through (docs/operations.md). */
  smtp: { url?: string; from: string };
  /**
   * NOTIFY_RETRY_DELAYS_MS: the waits before each retry of a notification, in ms; one attempt more
   * than there are waits (default 1000,5000: three attempts).
   */
  notifyRetryDelaysMs: number[];
}

export interface AssistantModelSettings {
  /** Up to the path that ends before /chat/completions, e.g. https://api.openai.com/v1. */
  baseUrl: string;
  model: string;
  /** Sent as a bearer token when set; a local server may need none. */
  apiKey?: string;
}

/** OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, OIDC_NAME, OIDC_CREATE_ACCOUNTS, OIDC_REDIRECT_URI. */
export interface SsoSettings {
  /** The provider's issuer URL; its /.well-known/openid-configuration is read at start. */
  issuer: string;
  clientId: string;
  /** Absent: a public client (PKCE alone). */
  clientSecret?: string;
  /** What the sign-in button says after "Sign in with". */
  name: string;
  /** A first sign-in of an address with no account creates one. */
  createAccounts: boolean;
  /** The callback URL registered with the provider; absent: this server's address as the request names it. */
  redirectUri?: string;
}

export interface UploadLimits {
  maxFileBytes: number;
  maxUploadBytes: number;
  atOnceBytes: number;
}

/** The UI browser settings that are set; packages/ui-runner defaults the rest (UiBrowserPool.fromEnv). */
export interface UiBrowserSettings {
  /** The Chromium executable. */
  browserPath?: string;
  /** Browser runs at once on the server; more wait in a queue. */
  maxBrowsers?: number;
  /** Browsers one user's runs may hold at once (AQA_UI_BROWSERS_PER_USER); below maxBrowsers. */
  maxPerUser?: number;
  /** The time-out of one step (a page load or an action), in ms. */
  stepTimeoutMs?: number;
}

export interface TargetLists {
  allow: string[];
  deny: string[];
}

/** JMETER_CMD, K6_CMD, LOCUST_CMD, BZT_CMD: a command line, e.g. "/usr/bin/python3 -m locust". */
export interface ToolCommands {
  jmeter?: string;
  k6?: string;
  locust?: string;
  taurus?: string;
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Thrown when the environment is unusable; the message lists every bad variable, one per line. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * The repository root: the nearest folder above this file whose package.json declares workspaces.
 * Found from the file, not the working directory, so the defaults hold both for `src/config.ts`
 * (tsx, vitest) and for the bundle at `apps/server/dist/main.mjs`.
 */
export function findRepoRoot(startDir = dirname(fileURLToPath(import.meta.url))): string {
  let dir = startDir;
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && isWorkspaceRoot(manifest)) return dir;
    const parent = dirname(dir);
    if (parent === dir) return process.cwd();
    dir = parent;
  }
}

function isWorkspaceRoot(manifestPath: string): boolean {
  try {
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { workspaces?: unknown };
    return manifest.workspaces !== undefined;
  } catch {
    return false;
  }
}

const blankToUndefined = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

const number = () => z.coerce.number({ error: 'must be a number' });

const positiveInt = (fallback: number) =>
  z.preprocess(
    blankToUndefined,
    number().int('must be a whole number').positive('must be at least 1').default(fallback),
  );

const optionalPositiveInt = z.preprocess(
  blankToUndefined,
  number().int('must be a whole number').positive('must be at least 1').optional(),
);

const onOff = (fallback: 'on' | 'off') =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' ? v.trim().toLowerCase() : undefined),
    z.enum(['on', 'off'], { error: 'must be "on" or "off"' }).default(fallback),
  );

const autoOnOff = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() !== '' ? v.trim().toLowerCase() : undefined),
  z.enum(['auto', 'on', 'off'], { error: 'must be "auto", "on" or "off"' }).default('auto'),
);

/** A list in one variable: entries separated by commas or white space. */
const list = z.preprocess(
  (v) =>
    typeof v === 'string'
      ? v
          .split(/[\s,]+/)
          .map((entry) => entry.trim())
          .filter((entry) => entry !== '')
      : [],
  z.array(z.string()),
);

/** True for a host that only this machine can reach: 127.0.0.0/8, ::1 and localhost. */
export function isLoopbackHost(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

const EnvSchema = z.object({
  PORT: z.preprocess(
    blankToUndefined,
    number()
      .int('must be a whole number')
      .min(0, 'must be 0–65535')
      .max(65535, 'must be 0–65535')
      .default(5200),
  ),
  // Loopback unless told otherwise: a deployed server is reachable only once HOST says so (§11).
  HOST: z.preprocess(blankToUndefined, z.string().trim().default('127.0.0.1')),
  DATA_DIR: z.preprocess(blankToUndefined, z.string().optional()),
  DATABASE_URL: z.preprocess(blankToUndefined, z.string().optional()),
  DEMO_ACCOUNT: autoOnOff,
  SIGN_UP: autoOnOff,
  SESSION_TTL_HOURS: z.preprocess(
    blankToUndefined,
    number().positive('must be a positive number of hours').default(168),
  ),
  LOGIN_RATE_LIMIT_PER_IP: positiveInt(20),
  LOGIN_FAILURES_PER_ACCOUNT: positiveInt(5),
  PASSWORD_CHANGE_FAILURES_PER_ACCOUNT: positiveInt(5),
  REGISTER_RATE_LIMIT_PER_IP: positiveInt(10),
  TOKEN_FAILURES_PER_IP: positiveInt(30),
  WEB_DIST_DIR: z.preprocess(blankToUndefined, z.string().optional()),
  TRUST_PROXY: onOff('off'),
  MAX_RUNS_PER_USER: positiveInt(2),
  MAX_RUNS_PER_SERVER: positiveInt(4),
  JMETER_CMD: z.preprocess(blankToUndefined, z.string().trim().optional()),
  K6_CMD: z.preprocess(blankToUndefined, z.string().trim().optional()),
  LOCUST_CMD: z.preprocess(blankToUndefined, z.string().trim().optional()),
  BZT_CMD: z.preprocess(blankToUndefined, z.string().trim().optional()),
  EXTERNAL_TOOLS: onOff('on'),
  AQA_TARGETS_ALLOW: list,
  AQA_TARGETS_DENY: list,
  IMPORT_QUEUE_LENGTH: positiveInt(16),
  IMPORT_QUEUE_PER_USER: positiveInt(2),
  UPLOAD_MAX_FILE_MB: positiveInt(25),
  UPLOAD_MAX_MB: positiveInt(50),
  UPLOADS_AT_ONCE_MB: positiveInt(200),
  FUNCTIONAL_RUN_MEMORY_MB: z.preprocess(
    blankToUndefined,
    number().int('must be a whole number').min(64, 'must be at least 64').default(256),
  ),
  AQA_BROWSER_PATH: z.preprocess(blankToUndefined, z.string().trim().optional()),
  AQA_UI_BROWSERS: optionalPositiveInt,
  AQA_UI_BROWSERS_PER_USER: optionalPositiveInt,
  AQA_UI_STEP_TIMEOUT_MS: optionalPositiveInt,
  AQA_LLM_BASE_URL: z.preprocess(
    blankToUndefined,
    z
      .string()
      .trim()
      .regex(/^https?:\/\/\S+$/i, 'must be an http:// or https:// address')
      .optional(),
  ),
  AQA_LLM_MODEL: z.preprocess(blankToUndefined, z.string().trim().optional()),
  AQA_LLM_API_KEY: z.preprocess(blankToUndefined, z.string().trim().optional()),
  OIDC_ISSUER: z.preprocess(
    blankToUndefined,
    z
      .string()
      .trim()
      .regex(
        /^https?:\/\/\S+$/i,
        "must be the provider's issuer address, e.g. https://login.example.com/realms/qa",
      )
      .optional(),
  ),
  OIDC_CLIENT_ID: z.preprocess(blankToUndefined, z.string().trim().optional()),
  OIDC_CLIENT_SECRET: z.preprocess(blankToUndefined, z.string().trim().optional()),
  OIDC_NAME: z.preprocess(
    blankToUndefined,
    z.string().trim().max(60, 'must be at most 60 characters').default('single sign-on'),
  ),
  OIDC_CREATE_ACCOUNTS: onOff('on'),
  OIDC_REDIRECT_URI: z.preprocess(
    blankToUndefined,
    z
      .string()
      .trim()
      .regex(
        /^https?:\/\/\S+\/api\/auth\/oidc\/callback$/i,
        "must be this server's address followed by /api/auth/oidc/callback",
      )
      .optional(),
  ),
  PASSWORD_SIGN_IN: onOff('on'),
  AUDIT_RETENTION_DAYS: positiveInt(AUDIT_RETENTION_DAYS_DEFAULT),
  REDIS_URL: z.preprocess(
    blankToUndefined,
    z
      .string()
      .trim()
      .regex(/^rediss?:\/\/\S+$/i, 'must be a redis:// or rediss:// address, e.g. redis://127.0.0.1:6379')
      .optional(),
  ),
  AQA_LOCUST_MASTER_HOST: z.preprocess(
    blankToUndefined,
    z
      .string()
      .trim()
      .regex(
        /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?|\[?[0-9A-Fa-f:.]+\]?)$/,
        'must be the host name or IP address the load agents reach this server at, without scheme or port, e.g. 10.0.0.5',
      )
      .default('127.0.0.1'),
  ),
  PUBLIC_URL: z.preprocess(
    blankToUndefined,
    z
      .string()
      .trim()
      .regex(
        /^https?:\/\/[^\s/?#]+(?:\/[^\s?#]*)?$/i,
        'must be an http:// or https:// address, e.g. https://qa.example.com',
      )
      .optional(),
  ),
  SMTP_URL: z.preprocess(
    blankToUndefined,
    z
      .string()
      .trim()
      .regex(
        /^smtps?:\/\/\S+$/i,
        'must be an smtp:// or smtps:// address, e.g. smtp://user:pass@mail.example.com:587',
      )
      .optional(),
  ),
  SMTP_FROM: z.preprocess(
    blankToUndefined,
    z
      .string()
      .trim()
      .regex(
        /^(?:[^<>\s]+@[^<>\s]+|.*<[^<>\s]+@[^<>\s]+>)$/,
        'must be an e-mail address, e.g. "AnybodyQA <qa@example.com>"',
      )
      .default('AnybodyQA <anybodyqa@localhost>'),
  ),
  NOTIFY_RETRY_DELAYS_MS: z.preprocess(
    blankToUndefined,
    z
      .string()
      .trim()
      .regex(
        /^\d+(?:\s*,\s*\d+){0,9}$/,
        'must be up to 10 whole numbers of ms separated by commas, e.g. 1000,5000',
      )
      .default('1000,5000'),
  ),
  LOG_LEVEL: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' ? v.trim().toLowerCase() : undefined),
    z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
  ),
});

const SQLITE_FILE_NAME = 'anybodyqa.db';
const MB = 1024 * 1024;

/**
 * Reads the configuration from an environment (normally process.env) once. Relative paths are
 * resolved against the working directory. Every problem is reported at once in a ConfigError.
 */
export function parseConfig(env: Record<string, string | undefined>, cwd = process.cwd()): Config {
  const parsed = EnvSchema.safeParse(env);
  const problems = parsed.success
    ? []
    : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  const databaseUrl = typeof env.DATABASE_URL === 'string' ? env.DATABASE_URL.trim() : '';
  const repoRoot = findRepoRoot();
  const dataDir = env.DATA_DIR?.trim() ? resolve(cwd, env.DATA_DIR.trim()) : join(repoRoot, 'data');
  const database = parseDatabaseUrl(databaseUrl === '' ? undefined : databaseUrl, dataDir, cwd);
  if (typeof database === 'string') problems.push(`DATABASE_URL: ${database}`);
  if (parsed.success) {
    const { MAX_RUNS_PER_USER: perUser, MAX_RUNS_PER_SERVER: perServer } = parsed.data;
    // Two accounts of one person must not be able to hold every slot (docs/design.md §11).
    if (perServer > 1 && perUser >= perServer) {
      problems.push(
        `MAX_RUNS_PER_USER: must be below MAX_RUNS_PER_SERVER (${perServer}) so that one user cannot hold every run slot`,
      );
    }
    // Nor every browser of the UI runs (docs/design.md §9 "UI tests").
    const { AQA_UI_BROWSERS: browsers, AQA_UI_BROWSERS_PER_USER: browsersPerUser } = parsed.data;
    const browsersProblem =
      browsersPerUser === undefined
        ? null
        : browsersPerUserProblem(browsers ?? DEFAULT_UI_BROWSERS, browsersPerUser);
    if (browsersProblem !== null) problems.push(`AQA_UI_BROWSERS_PER_USER: ${browsersProblem}`);
    // Each bad entry of the target lists, by name (docs/adr/0015-target-guard.md).
    const { AQA_TARGETS_ALLOW: allow, AQA_TARGETS_DENY: deny } = parsed.data;
    for (const problem of parseTargetRules(allow).problems) problems.push(`AQA_TARGETS_ALLOW: ${problem}`);
    for (const problem of parseTargetRules(deny).problems) problems.push(`AQA_TARGETS_DENY: ${problem}`);
    // One file must fit in one upload, and one upload in what the server takes at once (docs/adr/0024-memory-bounds.md).
    const { UPLOAD_MAX_FILE_MB: file, UPLOAD_MAX_MB: upload, UPLOADS_AT_ONCE_MB: atOnce } = parsed.data;
    if (file > upload) problems.push(`UPLOAD_MAX_FILE_MB: must be at most UPLOAD_MAX_MB (${upload})`);
    if (upload > atOnce) problems.push(`UPLOAD_MAX_MB: must be at most UPLOADS_AT_ONCE_MB (${atOnce})`);
    // Single sign-on needs its client, and password sign-in may only be turned off when it is there.
    const { OIDC_ISSUER: issuer, OIDC_CLIENT_ID: clientId, PASSWORD_SIGN_IN: passwords } = parsed.data;
    if (issuer !== undefined && clientId === undefined)
      problems.push('OIDC_CLIENT_ID: name the client registered with the provider at OIDC_ISSUER');
    if (issuer === undefined && clientId !== undefined)
      problems.push("OIDC_ISSUER: set the provider's issuer address for OIDC_CLIENT_ID");
    if (passwords === 'off' && issuer === undefined)
      problems.push(
        'PASSWORD_SIGN_IN: may be off only with single sign-on (OIDC_ISSUER), or no one could sign in',
      );
    if (parsed.data.AQA_LLM_BASE_URL !== undefined && parsed.data.AQA_LLM_MODEL === undefined) {
      problems.push('AQA_LLM_MODEL: name the model to ask at AQA_LLM_BASE_URL (e.g. gpt-4o-mini)');
    }
  }
  if (!parsed.success || typeof database === 'string' || problems.length > 0) {
    throw new ConfigError(problems);
  }
  const values = parsed.data;
  // Only this machine can reach the server: a loopback address, and no reverse proxy in front
  // (TRUST_PROXY=on says one forwards other machines' requests; docs/design.md §11).
  const localOnly = isLoopbackHost(values.HOST) && values.TRUST_PROXY !== 'on';

  return {
    port: values.PORT,
    host: values.HOST,
    dataDir,
    database,
    demoAccount: values.DEMO_ACCOUNT === 'on' || (values.DEMO_ACCOUNT === 'auto' && localOnly),
    signUp: values.SIGN_UP === 'on' || (values.SIGN_UP === 'auto' && localOnly),
    sessionTtlHours: values.SESSION_TTL_HOURS,
    loginRateLimitPerIp: values.LOGIN_RATE_LIMIT_PER_IP,
    loginFailuresPerAccount: values.LOGIN_FAILURES_PER_ACCOUNT,
    passwordChangeFailuresPerAccount: values.PASSWORD_CHANGE_FAILURES_PER_ACCOUNT,
    registerRateLimitPerIp: values.REGISTER_RATE_LIMIT_PER_IP,
    tokenFailuresPerIp: values.TOKEN_FAILURES_PER_IP,
    webDistDir: values.WEB_DIST_DIR
      ? resolve(cwd, values.WEB_DIST_DIR)
      : join(repoRoot, 'apps', 'web', 'dist'),
    logLevel: values.LOG_LEVEL,
    trustProxy: values.TRUST_PROXY === 'on',
    maxRunsPerUser: values.MAX_RUNS_PER_USER,
    maxRunsPerServer: values.MAX_RUNS_PER_SERVER,
    externalTools: values.EXTERNAL_TOOLS === 'on',
    targets: { allow: values.AQA_TARGETS_ALLOW, deny: values.AQA_TARGETS_DENY },
    importQueue: { length: values.IMPORT_QUEUE_LENGTH, perUser: values.IMPORT_QUEUE_PER_USER },
    uploads: {
      maxFileBytes: values.UPLOAD_MAX_FILE_MB * MB,
      maxUploadBytes: values.UPLOAD_MAX_MB * MB,
      atOnceBytes: values.UPLOADS_AT_ONCE_MB * MB,
    },
    functionalRunMemoryMb: values.FUNCTIONAL_RUN_MEMORY_MB,
    uiBrowsers: withoutUndefined({
      browserPath: values.AQA_BROWSER_PATH,
      maxBrowsers: values.AQA_UI_BROWSERS,
      maxPerUser: values.AQA_UI_BROWSERS_PER_USER,
      stepTimeoutMs: values.AQA_UI_STEP_TIMEOUT_MS,
    }),
    toolCommands: withoutUndefined({
      // Unset: the engine finds `jmeter` on PATH (Debian's runs through the engine's own launcher).
      jmeter: values.JMETER_CMD,
      k6: values.K6_CMD,
      locust: values.LOCUST_CMD,
      taurus: values.BZT_CMD,
    }),
    ...assistantModel(values.AQA_LLM_BASE_URL, values.AQA_LLM_MODEL, values.AQA_LLM_API_KEY),
    ...(values.REDIS_URL === undefined ? {} : { redisUrl: values.REDIS_URL }),
    ...(values.OIDC_ISSUER === undefined || values.OIDC_CLIENT_ID === undefined
      ? {}
      : {
          sso: withoutUndefined({
            issuer: values.OIDC_ISSUER,
            clientId: values.OIDC_CLIENT_ID,
            clientSecret: values.OIDC_CLIENT_SECRET,
            name: values.OIDC_NAME,
            createAccounts: values.OIDC_CREATE_ACCOUNTS === 'on',
            redirectUri: values.OIDC_REDIRECT_URI,
          }),
        }),
    passwordSignIn: values.PASSWORD_SIGN_IN === 'on',
    auditRetentionDays: values.AUDIT_RETENTION_DAYS,
    locustMasterHost: values.AQA_LOCUST_MASTER_HOST,
    publicUrl: (values.PUBLIC_URL ?? `http://localhost:${values.PORT}`).replace(/\/+$/, ''),
    smtp: { ...(values.SMTP_URL === undefined ? {} : { url: values.SMTP_URL }), from: values.SMTP_FROM },
    notifyRetryDelaysMs: values.NOTIFY_RETRY_DELAYS_MS.split(',').map((ms) => Number(ms.trim())),
  };
}

function assistantModel(
  baseUrl: string | undefined,
  model: string | undefined,
  apiKey: string | undefined,
): { assistantModel?: AssistantModelSettings } {
  if (baseUrl === undefined || model === undefined) return {};
  return {
    assistantModel: {
      baseUrl: baseUrl.replace(/\/+$/, ''),
      model,
      ...(apiKey === undefined ? {} : { apiKey }),
    },
  };
}

function withoutUndefined<T extends object>(record: T): T {
  return Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined)) as T;
}

/** Returns the database to open, or a sentence saying why the URL cannot be used. */
function parseDatabaseUrl(url: string | undefined, dataDir: string, cwd: string): DatabaseConfig | string {
  if (url === undefined) return { kind: 'sqlite', path: join(dataDir, SQLITE_FILE_NAME) };
  const value = url.trim();
  if (/^postgres(ql)?:\/\//i.test(value)) return parsePostgresUrl(value);
  if (value.startsWith('file://')) {
    try {
      return { kind: 'sqlite', path: fileURLToPath(value) };
    } catch (cause) {
      return `not a usable file URL (${(cause as Error).message})`;
    }
  }
  const path = value.startsWith('file:') ? value.slice('file:'.length) : value;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(path)) {
    return `unsupported database URL scheme in "${redactPassword(value)}"; use postgres://user:password@host:5432/database or a SQLite file path (file:/abs/path.db)`;
  }
  if (path === '') return 'the SQLite file path is empty';
  return { kind: 'sqlite', path: isAbsolute(path) ? path : resolve(cwd, path) };
}

/** A PostgreSQL URL checked for what node-postgres needs: a host and a database name. */
function parsePostgresUrl(value: string): PostgresDatabaseConfig | string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `"${redactPassword(value)}" is not a valid URL; use postgres://user:password@host:5432/database`;
  }
  // A socket directory given as ?host=/run/postgresql stands for the host.
  if (url.hostname === '' && !url.searchParams.has('host'))
    return 'the PostgreSQL URL names no host; use postgres://user:password@host:5432/database';
  if (url.pathname.replace(/^\//, '') === '') {
    return 'the PostgreSQL URL names no database; use postgres://user:password@host:5432/database';
  }
  return { kind: 'postgres', url: value };
}

/** The URL with its password replaced by ***, for messages and logs. */
export function redactPassword(value: string): string {
  return value.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*:)[^@/]*@/i, '$1***@');
}
