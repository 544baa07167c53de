import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AGENT_PROTOCOL_VERSION } from '@aqa/engine';
import { roleAllows, type WorkspaceRole } from '@aqa/plan';
import { ruleOf } from '../src/auth/route-roles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCountingTarget, type CountingTarget } from './counting-target';
import {
  registerAndLogin,
  removeDir,
  startTestServer,
  type RequestOptions,
  type TestServer,
} from './helpers';
import { waitFor } from './wait-for';
import { testStore, withTestSql } from './test-database';

/*
 * The cross-user matrix (docs/design.md §11, "Probes and backups"): every operation of the OpenAPI document that
 * names a stored thing (an id in its path, query or body) or a user (`user_email`) is called by another
 * user with the owner's ids, with the owner's email in any case and with spaces, with no token and with
 * garbage tokens. Every answer must be 401/403/404, none may carry the owner's data, and the owner's
 * rows in SQLite are byte-for-byte the same afterwards. The operations come from GET /api/docs/json,
 * so a route added later is probed without anyone editing this file.
 *
 * It is also the role matrix (docs/adr/0035-workspaces-and-roles.md): the owner's things live in a team
 * workspace, which a viewer and an editor are members of. Every operation that acts in a workspace is
 * called by each of them (signed in and with an API token) with the owner's ids in that workspace: what
 * their role may not do answers 403 WORKSPACE_ROLE and changes nothing, what a viewer may read answers
 * 2xx; the other user, not a member, naming the workspace gets 404 everywhere.
 */

// ── The OpenAPI document, as far as the matrix reads it ─────────────────────────────────────────

interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  items?: JsonSchema;
  minItems?: number;
  minimum?: number;
  minLength?: number;
  format?: string;
}

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: JsonSchema;
}

interface OperationObject {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  security?: unknown[];
}

interface OpenApiDocument {
  paths: Record<string, Record<string, OperationObject>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

type Method = RequestOptions['method'];
/** Performance plans and runs, functional plans (fplan) and runs (frun), UI runs' screenshots (shot), API tokens. */
/** Load agents (agent) and the runs on them that an agent writes events into (agentRun). */
/** Schedules of saved plans (schedule, docs/adr/0031-schedules.md); notification channels (channel, docs/adr/0032-notifications-out.md). */
type IdKind =
  | 'plan'
  | 'run'
  | 'fplan'
  | 'frun'
  | 'shot'
  | 'token'
  | 'agent'
  | 'agentRun'
  | 'schedule'
  | 'channel'
  | 'workspace'
  | 'member'
  | 'invite'
  | 'any';

/** A place in a request where an id goes. */
interface IdSlot {
  where: 'path' | 'query' | 'body';
  name: string;
  kind: IdKind;
}

interface Operation {
  method: Method;
  path: string;
  key: string;
  public: boolean;
  slots: IdSlot[];
  /** Where the operation takes `user_email`, if it does. */
  emailIn: 'query' | 'body' | undefined;
  /** The JSON body's schema (resolved), when the operation takes one. */
  body: JsonSchema | undefined;
  /** Query parameters that must be sent, other than ids and user_email. */
  requiredQuery: Parameter[];
}

// ── What is expected, by name ────────────────────────────────────────────────────────────────────

/**
 * The operations that answer without a session (`PUBLIC_API_ROUTES` in src/auth/authenticate.ts,
 * and the API reference's own files). A new public operation fails the test until it is listed here
 * on purpose.
 */
const PUBLIC_OPERATIONS = new Set([
  'GET /api/health',
  'GET /api/demo-credentials',
  'POST /api/register',
  'POST /api/login',
  // Single sign-on's two navigations (docs/adr/0033-single-sign-on.md): how a browser gets a session.
  'GET /api/auth/oidc/start',
  'GET /api/auth/oidc/callback',
  // The aqa command line (download.routes.ts): a program with no secret, fetched by CI before it signs in.
  'GET /downloads/aqa.mjs',
]);

/**
 * Signed-in operations that name no stored thing and no user: they act on the caller's own account,
 * on the text they are sent, or on the server as a whole, so only the no-token and garbage-token
 * cases apply to them (and do, to every one).
 */
const NOT_SCOPED: Record<string, string> = {
  'POST /api/logout': "ends the caller's own session",
  'GET /api/me': "the caller's own account",
  'PUT /api/me': "the caller's own account",
  'POST /api/me/password': "the caller's own password",
  'POST /api/tokens': 'creates an API token of the caller',
  'GET /api/tokens': "the caller's own API tokens",
  'GET /api/workspaces': "the caller's own workspaces",
  'POST /api/workspaces': 'creates a workspace of the caller',
  'GET /api/invites/{token}': 'the invite link is its own secret: any signed-in holder may read it',
  'POST /api/invites/{token}/accept': 'the invite link is its own secret: any signed-in holder may use it',
  'GET /api/schedules': "the caller's own schedules",
  'GET /api/audit': "the caller's own audit log",
  'GET /api/audit/export': "the caller's own audit log, as CSV",
  'POST /api/notification-channels': 'creates a notification channel of the caller',
  'GET /api/notification-channels': "the caller's own notification channels",
  'POST /api/agents/register': 'registers a load agent of the caller',
  'GET /api/agents': "the caller's own load agents",
  'GET /api/engines': 'the engines installed on the server, the same for everyone',
  'GET /api/upload-limits': "the server's upload bounds, the same for everyone",
  'POST /api/parse-swagger': 'turns the uploaded document into a plan; stores nothing',
  'POST /api/parse-postman': 'turns the uploaded collection into a plan; stores nothing',
  'POST /api/parse-har': 'turns the uploaded HAR into a plan; stores nothing',
  'POST /api/parse-curl': 'turns the pasted command into a plan; stores nothing',
  'POST /api/parse-taurus': 'turns the uploaded Taurus configuration into a plan; stores nothing',
  'POST /api/functional/parse-file': 'turns the uploaded file into a plan; stores nothing',
  'POST /api/functional/parse-script': 'reads the Taurus script it is sent; stores nothing',
};

/**
 * Id slots where an owner's id is not an address but is ignored or filters the caller's own things:
 * with the owner's id only there, a 2xx answer is right, as long as it carries none of the owner's
 * data (checked) and no row of the caller comes to point at the owner's (checked at the end).
 */
const IGNORED_OR_FILTER_SLOTS: Record<string, string> = {
  'POST /api/save-test-plan body.id': 'a save always creates a new plan of the caller; an id sent is ignored',
  'PUT /api/update-test-plan/{id} body.id': 'the path names the plan; an id in the body is ignored',
  'GET /api/get-test-result/{id} query.plan_id':
    'accepted for the spec client; the run id alone identifies the run',
  'GET /api/get-test-results query.plan_id':
    "filters the caller's own runs: another's plan gives an empty list",
  'POST /api/functional/save-config body.id':
    'a save always creates a new plan of the caller; an id sent is ignored',
  'POST /api/functional/save-config body._id': 'the same, under its older name',
  'POST /api/functional/save-config body.plan_id': 'the same: a save names no other plan',
  'PUT /api/functional/update-config/{id} body.id': 'the path names the plan; an id in the body is ignored',
  'PUT /api/functional/update-config/{id} body._id': 'the same, under its older name',
  'PUT /api/functional/update-config/{id} body.plan_id': 'the same',
  'PUT /api/agents/{id}/heartbeat body.run_id':
    "the run the caller's own agent says it runs: another's run only answers stop (docs/adr/0023-agents-over-http.md)",
  'POST /api/functional/run-test body.id':
    'the run is of the plan sent, and plan_id names its saved plan; an id in the body is ignored',
  'POST /api/functional/run-test body._id': 'the same, under its older name',
};

/**
 * The calls only an API token of the agent scope may make (AGENT_API_ROUTES in src/auth/authenticate.ts,
 * docs/adr/0023-agents-over-http.md): the matrix makes them with each person's agent token.
 */
const AGENT_OPERATIONS = new Set([
  'POST /api/agents/register',
  'PUT /api/agents/{id}/heartbeat',
  'POST /api/agents/{id}/jobs/next',
  'POST /api/agents/{id}/runs/{runId}/events',
]);

/** The token a person makes the call with: their agent token on the agent calls, else their session. */
const tokenFor = (person: { token: string; agentToken: string }, op: Operation): string =>
  AGENT_OPERATIONS.has(op.key) ? person.agentToken : person.token;

/** Names of id fields whose name does not say "id". */
const RUN_ID_ALIASES = new Set(['base', 'candidate']);

/** Plausible values for fields the bodies and queries carry, by name; the schema fills the rest. */
function plausibleValues(target: CountingTarget): Record<string, unknown> {
  return {
    name: 'Matrix plan',
    description: 'Written by the cross-user matrix',
    command: 'set users to 3',
    // An account that exists, for adding a member to a workspace.
    email: guestEmail,
    test_name: 'Matrix name',
    notes: 'Matrix notes',
    concurrent_users: 2,
    duration: 1,
    // A run started by the matrix (the caller's own control) lasts a second.
    duration_seconds: 1,
    urls: [{ method: 'GET', url: `${target.origin}/matrix`, name: 'Matrix step', thinkTime: '10ms' }],
    // A functional plan: one call, once, without pauses.
    apis: [{ name: 'Matrix API', url: `${target.origin}/matrix-functional` }],
    iterations: 1,
    think_time: 0,
    // An agent's calls: no wait for a job, and an event numbered 1, which its run already keeps.
    wait_ms: 0,
    first_seq: 1,
    // A schedule: every weekday at 02:00, read in UTC.
    cron: '0 2 * * 1-5',
    timezone: 'UTC',
    events: [{ type: 'failed', agent_index: 0, message: 'matrix' }],
  };
}

// ── Reading the document ─────────────────────────────────────────────────────────────────────────

function resolve(doc: OpenApiDocument, schema: JsonSchema | undefined): JsonSchema | undefined {
  if (schema?.$ref === undefined) return schema;
  const name = /^#\/components\/schemas\/(.+)$/.exec(schema.$ref)?.[1];
  const found = name === undefined ? undefined : doc.components?.schemas?.[name];
  if (found === undefined) throw new Error(`unresolved ${schema.$ref}`);
  return resolve(doc, found);
}

function isIdName(name: string): boolean {
  return name === 'id' || name.endsWith('_id') || /[a-z]Id$/.test(name) || RUN_ID_ALIASES.has(name);
}

function kindOf(name: string, path: string): IdKind {
  if (path.startsWith('/api/tokens/')) return 'token';
  // /api/workspaces/{id} and its members/{userId} (docs/adr/0035-workspaces-and-roles.md).
  if (path.startsWith('/api/workspaces/'))
    return name === 'userId' ? 'member' : name === 'inviteId' ? 'invite' : 'workspace';
  if (path.startsWith('/api/schedules/')) return 'schedule';
  if (path.startsWith('/api/notification-channels/')) return 'channel';
  // GET and PUT /api/plans/{id}/notifications: a load plan.
  if (path.startsWith('/api/plans/')) return 'plan';
  if (path.startsWith('/api/agents/')) return /run/i.test(name) ? 'agentRun' : 'agent';
  // Functional calls name their plan by id or plan_id on the plan calls, and their run on the others.
  if (path.startsWith('/api/functional/')) {
    // GET screenshot/{testId}/{shotId}: a run, and one of its screenshots.
    if (name === 'testId') return 'frun';
    if (name === 'shotId') return 'shot';
    if (name === 'plan_id' || /config|plan/.test(path)) return 'fplan';
    return name === 'id' && /\{id\}/.test(path) ? 'frun' : 'fplan';
  }
  if (/plan/i.test(name)) return 'plan';
  if (/test|run|result/i.test(name) || RUN_ID_ALIASES.has(name)) return 'run';
  return 'any';
}

function operationsOf(doc: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [verb, op] of Object.entries(item)) {
      const method = verb.toUpperCase() as Method;
      if (!['GET', 'POST', 'PUT', 'DELETE', 'PATCH'].includes(method)) continue;
      const parameters = op.parameters ?? [];
      const body = resolve(doc, op.requestBody?.content?.['application/json']?.schema);
      const bodyProps = Object.keys(body?.properties ?? {});
      const slots: IdSlot[] = [
        ...parameters
          .filter((p) => p.in === 'path' || (p.in === 'query' && isIdName(p.name)))
          .map((p) => ({ where: p.in as 'path' | 'query', name: p.name, kind: kindOf(p.name, path) })),
        ...bodyProps
          .filter(isIdName)
          .map((name) => ({ where: 'body' as const, name, kind: kindOf(name, path) })),
      ];
      const emailIn = parameters.some((p) => p.in === 'query' && p.name === 'user_email')
        ? 'query'
        : bodyProps.includes('user_email')
          ? 'body'
          : undefined;
      operations.push({
        method,
        path,
        key: `${method} ${path}`,
        public: Array.isArray(op.security) && op.security.length === 0,
        slots,
        emailIn,
        body,
        requiredQuery: parameters.filter(
          (p) => p.in === 'query' && p.required === true && !isIdName(p.name) && p.name !== 'user_email',
        ),
      });
    }
  }
  return operations;
}

/** A value that fits the schema: its const, default or first enum value, or the smallest of its type. */
function sample(doc: OpenApiDocument, raw: JsonSchema | undefined, hints: Record<string, unknown>): unknown {
  const schema = resolve(doc, raw);
  if (schema === undefined) return 'x';
  if (schema.const !== undefined) return schema.const;
  if (schema.default !== undefined) return schema.default;
  if (schema.enum !== undefined) return schema.enum[0];
  const alternatives = schema.anyOf ?? schema.oneOf ?? schema.allOf;
  if (alternatives !== undefined) return sample(doc, alternatives[0], hints);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const object: Record<string, unknown> = {};
      for (const [name, property] of Object.entries(schema.properties ?? {})) {
        if (name in hints) object[name] = hints[name];
        else if (schema.required?.includes(name)) object[name] = sample(doc, property, hints);
      }
      return object;
    }
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => sample(doc, schema.items, hints));
    case 'integer':
    case 'number':
      return Math.max(1, schema.minimum ?? 1);
    case 'boolean':
      return false;
    case 'string':
      return schema.format === 'email'
        ? 'matrix@example.com'
        : 'x'.repeat(Math.max(1, schema.minLength ?? 1));
    default:
      return 'x';
  }
}

// ── The world: an owner with one of everything, and another user ───────────────────────────────

interface Person {
  token: string;
  email: string;
  userId: string;
  planId: string;
  /** A completed run of the plan: named, with notes, the plan's baseline. */
  runId: string;
  /** A saved functional plan. */
  functionalPlanId: string;
  /** A completed functional run of it. */
  functionalRunId: string;
  /** An ended UI run (in Chromium), and a screenshot of it. */
  uiRunId: string;
  shotId: string;
  /** An API token for CI (its id; the token is never used here). */
  apiTokenId: string;
  /** An API token of the agent scope (docs/adr/0023-agents-over-http.md), and the load agent it registered. */
  agentToken: string;
  agentId: string;
  /** A run on that agent, still going: its agent took the job and said it was ready. */
  agentRunId: string;
  /** A schedule of the plan. */
  scheduleId: string;
  /** A webhook notification channel. */
  channelId: string;
  /** Their team workspace (the owner's things are all in it), and a member of it they may remove. */
  workspaceId: string;
  mateId: string;
  /** An invite link to it, not used. */
  inviteId: string;
  /** An API token of the api scope, whole: the matrix calls with it too. */
  apiToken: string;
}

/** A member of the owner's team workspace, signed in and with an API token. */
interface Member {
  role: WorkspaceRole;
  userId: string;
  token: string;
  apiToken: string;
}

let server: TestServer;
let target: CountingTarget;
let doc: OpenApiDocument;
let owner: Person;
let other: Person;
/** A run of the owner's still going while the matrix runs: nobody else may stop or read it. */
let ownerLiveRunId: string;
/** A functional run of the owner's still going while the matrix runs. */
let ownerLiveFunctionalRunId: string;
/** Random text in each person's names, plan, run name and notes: found in an answer, it is their data. */
const secret = { owner: randomBytes(6).toString('hex'), other: randomBytes(6).toString('hex') };
/** The viewer and the editor of the owner's team workspace. */
let members: Member[];
/** An account of no one's workspace: the address a member is added by. */
let guestEmail: string;

/** The workspace each token acts in when a call names none: the owner's tokens act in their team workspace. */
const workspaceOfToken = new Map<string, string>();

async function call(options: RequestOptions) {
  const workspace = options.token === undefined ? undefined : workspaceOfToken.get(options.token);
  const named = options.headers?.['x-workspace-id'] !== undefined;
  return server.request(
    workspace === undefined || named
      ? options
      : { ...options, headers: { ...options.headers, 'x-workspace-id': workspace } },
  );
}

async function ok<T>(options: RequestOptions, status = 200): Promise<T> {
  const response = await call(options);
  if (response.statusCode !== status)
    throw new Error(`${options.method} ${options.url}: ${response.statusCode} ${response.body}`);
  return response.json<T>();
}

/** Asks `url` (a load run's result or a functional run's status) until its status is `wanted`. */
async function waitForStatus(person: { token: string }, url: string, wanted: string): Promise<void> {
  let status = '';
  await waitFor(
    () => `${url} to say ${wanted} (it says ${status})`,
    async () => {
      ({ status } = await ok<{ status: string }>({ method: 'GET', url, token: person.token }));
      return status === wanted ? true : undefined;
    },
    40_000,
    200,
  );
}

type Label = keyof typeof secret;

/** The user's id: the id of their personal workspace (docs/adr/0035-workspaces-and-roles.md); the API answers no other. */
async function personalWorkspaceOf(token: string): Promise<string> {
  const { workspaces } = await ok<{ workspaces: { id: string; personal: boolean }[] }>({
    method: 'GET',
    url: '/api/workspaces',
    token,
  });
  return workspaces.find((workspace) => workspace.personal)!.id;
}

async function makePerson(
  label: Label,
  actInTeam: boolean,
): Promise<
  Omit<
    Person,
    | 'planId'
    | 'runId'
    | 'functionalPlanId'
    | 'functionalRunId'
    | 'uiRunId'
    | 'shotId'
    | 'agentRunId'
    | 'scheduleId'
  >
> {
  const { token, registration } = await registerAndLogin(server, {
    firstName: `First${secret[label]}`,
    lastName: `Last${secret[label]}`,
    company: `Company ${secret[label]}`,
  });
  const me = { user: { id: await personalWorkspaceOf(token) } };
  const apiToken = await ok<{ id: string; token: string }>(
    { method: 'POST', url: '/api/tokens', token, body: { name: `CI ${secret[label]}` } },
    201,
  );
  const workspace = await ok<{ id: string }>(
    { method: 'POST', url: '/api/workspaces', token, body: { name: `Team ${secret[label]}` } },
    201,
  );
  if (actInTeam) {
    workspaceOfToken.set(token, workspace.id);
    workspaceOfToken.set(apiToken.token, workspace.id);
  }
  const invite = await ok<{ id: string }>(
    {
      method: 'POST',
      url: `/api/workspaces/${workspace.id}/invites`,
      token,
      body: { role: 'viewer' },
    },
    201,
  );
  const mate = await registerAndLogin(server, {
    firstName: `Mate${secret[label]}`,
    lastName: `Last${secret[label]}`,
  });
  const mates = await ok<{ members: { user_id: string; email: string }[] }>(
    {
      method: 'POST',
      url: `/api/workspaces/${workspace.id}/members`,
      token,
      body: { email: mate.registration.email, role: 'viewer' },
    },
    201,
  );
  const agentToken = await ok<{ token: string }>(
    { method: 'POST', url: '/api/tokens', token, body: { name: `Agents ${secret[label]}`, scope: 'agent' } },
    201,
  );
  const agent = await ok<{ agent_id: string }>({
    method: 'POST',
    url: '/api/agents/register',
    token: agentToken.token,
    body: {
      name: `Agent ${secret[label]}`,
      host: 'matrix',
      cores: 1,
      protocol: AGENT_PROTOCOL_VERSION,
      version: '0.1.0',
    },
  });
  const channel = await ok<{ id: string }>(
    {
      method: 'POST',
      url: '/api/notification-channels',
      token,
      body: {
        type: 'webhook',
        url: `${target.origin}/hook-${secret[label]}`,
        events: ['run_failed'],
        name: `Hook ${secret[label]}`,
      },
    },
    201,
  );
  return {
    token,
    email: registration.email,
    userId: me.user.id,
    channelId: channel.id,
    workspaceId: workspace.id,
    inviteId: invite.id,
    mateId: mates.members.find((m) => m.email === mate.registration.email)!.user_id,
    apiToken: apiToken.token,
    apiTokenId: apiToken.id,
    agentToken: agentToken.token,
    agentId: agent.agent_id,
  };
}

/** Heartbeats of each person's agent, kept up through the matrix so their runs on agents go on. */
const beating: NodeJS.Timeout[] = [];
/** Beats still answering: the server closes only after them, so none calls a closed server. */
const beatsInFlight = new Set<Promise<void>>();

/**
 * A run of the person's on their agent, still going: the agent beats, takes the job and says it is
 * ready, as `aqa agent` would over HTTP (docs/adr/0023-agents-over-http.md); told to stop (a heartbeat
 * answer), it says it is done, so a stop of the run ends it.
 */
async function agentRun(person: { token: string; agentToken: string; agentId: string }, planId: string) {
  const agentUrl = `/api/agents/${encodeURIComponent(person.agentId)}`;
  let runId: string | null = null;
  let done = false;
  const beat = async () => {
    const answer = await call({
      method: 'PUT',
      url: `${agentUrl}/heartbeat`,
      token: person.agentToken,
      body: { run_id: runId },
    });
    if (runId === null || done || answer.statusCode !== 200 || !answer.json<{ stop: boolean }>().stop) return;
    done = true;
    await call({
      method: 'POST',
      url: `${agentUrl}/runs/${encodeURIComponent(runId)}/events`,
      token: person.agentToken,
      body: {
        first_seq: 2,
        events: [{ type: 'done', agent_index: 0, status: 'stopped', total_requests: 0 }],
      },
    });
  };
  await beat();
  beating.push(
    setInterval(() => {
      const going = beat();
      beatsInFlight.add(going);
      void going.finally(() => beatsInFlight.delete(going));
    }, 1000),
  );
  const started = await ok<{ test_id: string }>(
    {
      method: 'POST',
      url: '/api/run-test',
      token: person.token,
      body: { plan_id: planId, duration_seconds: 300, agents: 1 },
    },
    201,
  );
  const taken = await ok<{ job: { kind: string } | null }>({
    method: 'POST',
    url: `${agentUrl}/jobs/next`,
    token: person.agentToken,
    body: { wait_ms: 10_000 },
  });
  if (taken.job === null) throw new Error('the agent got no job');
  await ok({
    method: 'POST',
    url: `${agentUrl}/runs/${encodeURIComponent(started.test_id)}/events`,
    token: person.agentToken,
    body: { first_seq: 1, events: [{ type: 'ready', agent_index: 0, agent_id: person.agentId, shards: 1 }] },
  });
  runId = started.test_id;
  return runId;
}

async function savePlan(person: { token: string }, label: Label, users = 2) {
  const saved = await ok<{ id: string }>(
    {
      method: 'POST',
      url: '/api/save-test-plan',
      token: person.token,
      body: {
        name: `Plan ${secret[label]}`,
        description: `Description ${secret[label]}`,
        tool: 'k6',
        concurrent_users: users,
        duration: 1,
        urls: [
          {
            method: 'GET',
            url: `${target.origin}/path-${secret[label]}`,
            name: `Step ${secret[label]}`,
            thinkTime: '20ms',
          },
        ],
      },
    },
    201,
  );
  return saved.id;
}

async function saveFunctionalPlan(person: { token: string }, label: Label) {
  const saved = await ok<{ id: string }>(
    {
      method: 'POST',
      url: '/api/functional/save-config',
      token: person.token,
      body: {
        test_name: `Functional ${secret[label]}`,
        description: `Functional description ${secret[label]}`,
        iterations: 1,
        think_time: 0,
        apis: [{ name: `API ${secret[label]}`, url: `${target.origin}/functional-${secret[label]}` }],
      },
    },
    201,
  );
  return saved.id;
}

async function startFunctionalRun(person: { token: string }, body: Record<string, unknown>) {
  const started = await ok<{ test_id: string }>(
    { method: 'POST', url: '/api/functional/run-test', token: person.token, body },
    201,
  );
  return started.test_id;
}

/** A UI run of one page of the target, ended, and the id of its first screenshot. */
async function uiRun(person: { token: string }, label: Label): Promise<{ uiRunId: string; shotId: string }> {
  const uiRunId = await startFunctionalRun(person, {
    test_name: `UI run ${secret[label]}`,
    source: 'ui_url_input',
    test_type: 'ui',
    iterations: 1,
    apis: [{ name: `Page ${secret[label]}`, url: `${target.origin}/ui-${secret[label]}` }],
  });
  let last: unknown;
  return waitFor(
    () => `UI run ${uiRunId} to end with a screenshot: ${JSON.stringify(last).slice(0, 300)}`,
    async () => {
      const result = await ok<{
        status: string;
        validation_results: { ui?: { screenshots: { id: string }[] } }[];
      }>({ method: 'GET', url: `/api/functional/get-test-result/${uiRunId}`, token: person.token });
      last = result;
      const shotId = result.validation_results[0]?.ui?.screenshots[0]?.id;
      return result.status !== 'running' && shotId !== undefined ? { uiRunId, shotId } : undefined;
    },
    40_000,
    200,
  );
}

async function startRun(person: { token: string }, planId: string, durationS: number) {
  const started = await ok<{ test_id: string }>(
    {
      method: 'POST',
      url: '/api/run-test',
      token: person.token,
      body: { plan_id: planId, duration_seconds: durationS },
    },
    201,
  );
  return started.test_id;
}

beforeAll(async () => {
  target = await startCountingTarget();
  // No external tool answers: every run is the built-in engine's, whatever this machine has.
  const noTool = join(tmpdir(), `aqa-no-tool-${secret.owner}`);
  server = await startTestServer({
    LOGIN_RATE_LIMIT_PER_IP: '1000',
    REGISTER_RATE_LIMIT_PER_IP: '1000',
    // Hundreds of garbage tokens from this one address: each must meet its 401, not the throttle's 429
    // (proven in bearer-throttle.test.ts).
    TOKEN_FAILURES_PER_IP: '100000',
    // Room for the functional runs the matrix starts with ids only in ignored slots, and the runs on agents.
    MAX_RUNS_PER_USER: '9',
    MAX_RUNS_PER_SERVER: '14',
    EXTERNAL_TOOLS: 'off',
    // Load agents register in Redis: a database index of the throw-away Redis for this file alone, one
    // per store, since the SQLite and PostgreSQL projects may run it at once (replicas.test.ts flushes 2 and 3).
    REDIS_URL: `${process.env.AQA_TEST_REDIS_URL ?? ''}/${testStore() === 'postgres' ? 5 : 4}`,
    JMETER_CMD: noTool,
    K6_CMD: noTool,
    LOCUST_CMD: noTool,
    BZT_CMD: noTool,
  });
  doc = (await call({ method: 'GET', url: '/api/docs/json' })).json<OpenApiDocument>();

  // The owner's things in their team workspace; the other user's in their personal one (no header).
  const [ownerBase, otherBase] = await Promise.all([makePerson('owner', true), makePerson('other', false)]);
  guestEmail = (await registerAndLogin(server, { firstName: 'Guest', lastName: 'Matrix' })).registration
    .email;
  members = [];
  for (const role of ['viewer', 'editor'] as const) {
    const person = await registerAndLogin(server, { firstName: `Member${role}`, lastName: 'Matrix' });
    const me = { user: { id: await personalWorkspaceOf(person.token) } };
    const apiToken = await ok<{ token: string }>(
      { method: 'POST', url: '/api/tokens', token: person.token, body: { name: `CI ${role}` } },
      201,
    );
    await ok(
      {
        method: 'POST',
        url: `/api/workspaces/${ownerBase.workspaceId}/members`,
        token: ownerBase.token,
        body: { email: person.registration.email, role },
      },
      201,
    );
    members.push({ role, userId: me.user.id, token: person.token, apiToken: apiToken.token });
  }
  const [ownerPlanId, otherPlanId] = await Promise.all([
    savePlan(ownerBase, 'owner'),
    savePlan(otherBase, 'other'),
  ]);
  const [ownerRunId, otherRunId] = await Promise.all([
    startRun(ownerBase, ownerPlanId, 2),
    startRun(otherBase, otherPlanId, 2),
  ]);
  const [ownerFunctionalPlanId, otherFunctionalPlanId] = await Promise.all([
    saveFunctionalPlan(ownerBase, 'owner'),
    saveFunctionalPlan(otherBase, 'other'),
  ]);
  const functionalRun = (base: { token: string }, label: Label, planId: string) =>
    startFunctionalRun(base, {
      test_name: `Functional run ${secret[label]}`,
      plan_id: planId,
      iterations: 1,
      think_time: 0,
      apis: [{ name: `API ${secret[label]}`, url: `${target.origin}/functional-${secret[label]}` }],
    });
  const [ownerFunctionalRunId, otherFunctionalRunId] = await Promise.all([
    functionalRun(ownerBase, 'owner', ownerFunctionalPlanId),
    functionalRun(otherBase, 'other', otherFunctionalPlanId),
  ]);
  // A UI run of one page each, in Chromium: its screenshot is served to its owner only.
  const [ownerUi, otherUi] = await Promise.all([uiRun(ownerBase, 'owner'), uiRun(otherBase, 'other')]);
  const [ownerAgentRunId, otherAgentRunId] = await Promise.all([
    agentRun(ownerBase, ownerPlanId),
    agentRun(otherBase, otherPlanId),
  ]);
  const schedule = async (base: { token: string }, planId: string) =>
    (
      await ok<{ id: string }>(
        {
          method: 'POST',
          url: '/api/schedules',
          token: base.token,
          body: { plan_id: planId, cron: '0 2 * * 1-5' },
        },
        201,
      )
    ).id;
  const [ownerScheduleId, otherScheduleId] = await Promise.all([
    schedule(ownerBase, ownerPlanId),
    schedule(otherBase, otherPlanId),
  ]);
  owner = {
    ...ownerBase,
    scheduleId: ownerScheduleId,
    agentRunId: ownerAgentRunId,
    planId: ownerPlanId,
    runId: ownerRunId,
    functionalPlanId: ownerFunctionalPlanId,
    functionalRunId: ownerFunctionalRunId,
    ...ownerUi,
  };
  other = {
    ...otherBase,
    scheduleId: otherScheduleId,
    agentRunId: otherAgentRunId,
    planId: otherPlanId,
    runId: otherRunId,
    functionalPlanId: otherFunctionalPlanId,
    functionalRunId: otherFunctionalRunId,
    ...otherUi,
  };
  await Promise.all([
    waitForStatus(owner, `/api/functional/get-test-status/${ownerFunctionalRunId}`, 'completed'),
    waitForStatus(other, `/api/functional/get-test-status/${otherFunctionalRunId}`, 'completed'),
  ]);
  // One call a minute: it keeps going through the matrix.
  ownerLiveFunctionalRunId = await startFunctionalRun(ownerBase, {
    test_name: `Functional live ${secret.owner}`,
    iterations: 1000,
    think_time: 60,
    apis: [{ name: `Live ${secret.owner}`, url: `${target.origin}/functional-live-${secret.owner}` }],
  });
  // One user: it keeps going through the matrix at a trickle.
  ownerLiveRunId = await startRun(ownerBase, await savePlan(ownerBase, 'owner', 1), 60);
  await Promise.all([
    waitForStatus(owner, `/api/get-test-result/${ownerRunId}`, 'completed'),
    waitForStatus(other, `/api/get-test-result/${otherRunId}`, 'completed'),
  ]);
  for (const [label, person] of [
    ['owner', owner],
    ['other', other],
  ] as const) {
    await ok({
      method: 'POST',
      url: '/api/save-test-result',
      token: person.token,
      body: { test_id: person.runId, test_name: `Named ${secret[label]}`, notes: `Notes ${secret[label]}` },
    });
    await ok({
      method: 'POST',
      url: '/api/set-baseline',
      token: person.token,
      body: { plan_id: person.planId, test_id: person.runId },
    });
  }
}, 90_000);

afterAll(async () => {
  for (const timer of beating) clearInterval(timer);
  await Promise.allSettled(beatsInFlight);
  await server?.close();
  await target?.close();
  if (server !== undefined) removeDir(server.dataDir);
});

// ── The owner's rows, straight from the store ────────────────────────────────────────────────────

/**
 * Every row that is not the other user's (the owner's account, sessions, plans, runs and their
 * points), as text. The owner's live run is left out: it writes its own points as it goes.
 */
async function snapshotOfEveryoneButOther(): Promise<string> {
  // The other user and the owner's workspace members make calls of their own (their sessions, their
  // inbox and conversation): theirs are not the owner's rows.
  const outsiders = [other.userId, ...members.map((member) => member.userId)];
  const notOutsider = `not in (${outsiders.map(() => '?').join(', ')})`;
  return withTestSql(server.database, async (sql) => {
    const rows = (query: string, ...args: unknown[]) =>
      sql.all(
        query.replaceAll('!= ?', notOutsider),
        ...args.flatMap((a) => (a === other.userId ? outsiders : [a])),
      );
    // The JPEG bytes as hex text, in each store's words.
    const jpegHex = sql.dialect === 'postgres' ? "encode(s.jpeg, 'hex')" : 'hex(s.jpeg)';
    return JSON.stringify({
      users: await rows('select * from users where id != ? order by id', other.userId),
      workspaces: await rows('select * from workspaces where created_by != ? order by id', other.userId),
      workspace_invites: await rows(
        'select * from workspace_invites where created_by != ? order by id',
        other.userId,
      ),
      workspace_members: await rows(
        'select * from workspace_members where added_by != ? order by workspace_id, user_id',
        other.userId,
      ),
      sessions: await rows('select * from sessions where user_id != ? order by id', other.userId),
      api_tokens: await rows('select * from api_tokens where user_id != ? order by id', other.userId),
      notification_channels: await rows(
        'select * from notification_channels where user_id != ? order by id',
        other.userId,
      ),
      notification_plan_channels: await rows(
        'select * from notification_plan_channels where user_id != ? order by plan_kind, plan_id, channel_id',
        other.userId,
      ),
      plans: await rows('select * from plans where user_id != ? order by id', other.userId),
      schedules: await rows('select * from schedules where user_id != ? order by id', other.userId),
      runs: await rows(
        'select * from runs where user_id != ? and id not in (?, ?) order by id',
        other.userId,
        ownerLiveRunId,
        owner.agentRunId,
      ),
      functional_plans: await rows(
        'select * from functional_plans where user_id != ? order by id',
        other.userId,
      ),
      functional_runs: await rows(
        'select * from functional_runs where user_id != ? order by id',
        other.userId,
      ),
      functional_screenshots: await rows(
        `select s.id, s.run_id, s.seq, s.label, s.failure, ${jpegHex} as jpeg, s.created_at
         from functional_screenshots s join functional_runs r on r.id = s.run_id
         where r.user_id != ? order by s.id`,
        other.userId,
      ),
      run_points: await rows(
        `select p.* from run_points p join runs r on r.id = p.run_id
         where r.user_id != ? and r.id not in (?, ?) order by p.run_id, p.step_index, p.second`,
        other.userId,
        ownerLiveRunId,
        owner.agentRunId,
      ),
    });
  });
}

/** Rows of one user that point at another user's rows (a run of someone else's plan, a baseline of someone else's run). */
function crossUserReferences(): Promise<unknown[]> {
  return withTestSql(server.database, async (sql) => [
    ...(await sql.all(
      `select 'run' as row, r.id from runs r join plans p on p.id = r.plan_id where p.user_id != r.user_id`,
    )),
    ...(await sql.all(
      `select 'baseline' as row, p.id from plans p join runs r on r.id = p.baseline_run_id where p.user_id != r.user_id`,
    )),
    ...(await sql.all(
      `select 'functional run' as row, r.id from functional_runs r join functional_plans p on p.id = r.plan_id where p.user_id != r.user_id`,
    )),
  ]);
}

// ── Building and checking the calls ──────────────────────────────────────────────────────────────

interface Probe {
  op: Operation;
  /** What the case is, for the failure message. */
  label: string;
  token: string | undefined;
  /** A raw Authorization header instead of a bearer token. */
  authorization?: string;
  /** The workspace the call names (X-Workspace-Id), if it names one. */
  workspace?: string;
  ids: Record<string, string>;
  email: string | undefined;
  /** The owner's ids are only in slots that ignore them or filter by them: a clean 2xx is right. */
  mayAnswer2xx: boolean;
}

const slotKey = (slot: IdSlot) => `${slot.where}.${slot.name}`;

function idsByKind(kind: IdKind, byKind: Record<Exclude<IdKind, 'any'>, string[]>): string[] {
  return kind === 'any' ? Object.values(byKind).flat() : byKind[kind];
}

function ownerIdsOf(kind: IdKind): string[] {
  return idsByKind(kind, {
    plan: [owner.planId],
    run: [owner.runId, ownerLiveRunId],
    fplan: [owner.functionalPlanId],
    frun: [owner.functionalRunId, owner.uiRunId, ownerLiveFunctionalRunId],
    shot: [owner.shotId],
    token: [owner.apiTokenId],
    agent: [owner.agentId],
    agentRun: [owner.agentRunId],
    schedule: [owner.scheduleId],
    channel: [owner.channelId],
    workspace: [owner.workspaceId, owner.userId],
    member: [owner.mateId],
    invite: [owner.inviteId],
  });
}

function ownIdsOf(person: Person, kind: IdKind): string[] {
  return idsByKind(kind, {
    plan: [person.planId],
    run: [person.runId],
    fplan: [person.functionalPlanId],
    frun: [person.functionalRunId, person.uiRunId],
    shot: [person.shotId],
    token: [person.apiTokenId],
    agent: [person.agentId],
    agentRun: [person.agentRunId],
    schedule: [person.scheduleId],
    channel: [person.channelId],
    workspace: [person.workspaceId],
    member: [person.mateId],
    invite: [person.inviteId],
  });
}

/** Every combination of a value per slot. */
function combinations(slots: IdSlot[], valuesOf: (slot: IdSlot) => string[]): Record<string, string>[] {
  let result: Record<string, string>[] = [{}];
  for (const slot of slots) {
    result = result.flatMap((partial) => valuesOf(slot).map((v) => ({ ...partial, [slotKey(slot)]: v })));
  }
  return result;
}

function emailVariants(email: string): string[] {
  const mixed = [...email].map((c, i) => (i % 2 === 0 ? c.toUpperCase() : c.toLowerCase())).join('');
  return [email, email.toUpperCase(), `  ${email}  `, ` ${mixed}\t`];
}

function requestOf(probe: Probe): RequestOptions {
  const { op, ids, email } = probe;
  const hints = plausibleValues(target);
  let url = op.path;
  const query = new URLSearchParams();
  let body: Record<string, unknown> | undefined;
  for (const slot of op.slots) {
    const value = ids[slotKey(slot)]!;
    if (slot.where === 'path') url = url.replace(`{${slot.name}}`, encodeURIComponent(value));
    else if (slot.where === 'query') query.set(slot.name, value);
  }
  for (const parameter of op.requiredQuery) {
    query.set(parameter.name, String(hints[parameter.name] ?? sample(doc, parameter.schema, hints)));
  }
  if (op.body !== undefined) {
    body = sample(doc, op.body, hints) as Record<string, unknown>;
    for (const slot of op.slots) if (slot.where === 'body') body[slot.name] = ids[slotKey(slot)];
    if (email !== undefined && op.emailIn === 'body') body.user_email = email;
  }
  if (email !== undefined && op.emailIn === 'query') query.set('user_email', email);
  const search = query.toString();
  return {
    method: op.method,
    url: search === '' ? url : `${url}?${search}`,
    ...(probe.token === undefined ? {} : { token: probe.token }),
    ...(probe.authorization === undefined && probe.workspace === undefined
      ? {}
      : {
          headers: {
            ...(probe.authorization === undefined ? {} : { authorization: probe.authorization }),
            ...(probe.workspace === undefined ? {} : { 'x-workspace-id': probe.workspace }),
          },
        }),
    ...(body === undefined ? {} : { body }),
  };
}

/** The owner's data as it could appear in an answer. */
function ownerTraces(withIds: boolean): string[] {
  const traces = [secret.owner, owner.email.toLowerCase()];
  return withIds
    ? [
        ...traces,
        owner.planId,
        owner.runId,
        ownerLiveRunId,
        owner.functionalPlanId,
        owner.functionalRunId,
        owner.uiRunId,
        owner.shotId,
        owner.apiTokenId,
        owner.agentId,
        owner.agentRunId,
        owner.scheduleId,
        owner.channelId,
        owner.workspaceId,
        owner.mateId,
        owner.inviteId,
        ownerLiveFunctionalRunId,
      ]
    : traces;
}

/** Returns a sentence for each thing wrong with the answer to the probe. */
async function runProbe(probe: Probe): Promise<string[]> {
  const options = requestOf(probe);
  const response = await call(options);
  const where = `${probe.label}: ${options.method} ${options.url}${options.body === undefined ? '' : ` ${JSON.stringify(options.body)}`}`;
  const problems: string[] = [];
  const status = response.statusCode;
  const refused = [401, 403, 404].includes(status);
  const cleanSuccess = probe.mayAnswer2xx && status >= 200 && status < 300;
  if (!refused && !cleanSuccess) problems.push(`${where} answered ${status}: ${response.body.slice(0, 300)}`);
  const body = response.body.toLowerCase();
  // A refusal may name the id it was sent; an answer that is not a refusal may not name the owner's.
  const leaked = ownerTraces(!refused).filter((trace) => body.includes(trace.toLowerCase()));
  if (leaked.length > 0) problems.push(`${where} answered ${status} with the owner's ${leaked.join(', ')}`);
  return problems;
}

// ── The probes ───────────────────────────────────────────────────────────────────────────────────

function probesOf(op: Operation): Probe[] {
  const ownerCombos = combinations(op.slots, (slot) => [
    ...ownerIdsOf(slot.kind),
    ...ownIdsOf(other, slot.kind),
  ]).filter((combo) => op.slots.some((slot) => ownerIdsOf(slot.kind).includes(combo[slotKey(slot)]!)));
  const ownCombos = combinations(op.slots, (slot) => ownIdsOf(other, slot.kind));
  const onlyInIgnoredSlots = (combo: Record<string, string>) =>
    op.slots.every(
      (slot) =>
        !ownerIdsOf(slot.kind).includes(combo[slotKey(slot)]!) ||
        IGNORED_OR_FILTER_SLOTS[`${op.key} ${slotKey(slot)}`] !== undefined,
    );
  const probes: Probe[] = [];
  const base = { op, token: tokenFor(other, op), email: undefined, mayAnswer2xx: false };
  // (a) Another user, with the owner's ids (alone or next to their own).
  for (const ids of ownerCombos) {
    probes.push({ ...base, label: 'other user, owner ids', ids, mayAnswer2xx: onlyInIgnoredSlots(ids) });
  }
  // (b) Another user naming the owner in user_email, in any case and with spaces: with the owner's
  // ids, and with their own (so the refusal comes from user_email alone).
  if (op.emailIn !== undefined) {
    const idSets = [...ownerCombos.slice(0, 1), ...ownCombos];
    for (const email of emailVariants(owner.email)) {
      for (const ids of idSets)
        probes.push({ ...base, label: `other user as ${JSON.stringify(email)}`, ids, email });
    }
  }
  // (e) Another user, not a member, naming the owner's workspaces (team and personal) in the header,
  // signed in and with an API token, with their own ids: the workspace is not theirs (404).
  const rule = ruleOf(op.method, patternOf(op.path));
  if (rule !== 'account' && rule.from === 'request') {
    for (const workspace of [owner.workspaceId, owner.userId]) {
      for (const token of [other.token, other.apiToken]) {
        for (const ids of ownCombos.slice(0, 1))
          probes.push({ ...base, token, label: `other user in workspace ${workspace}`, ids, workspace });
      }
    }
  }
  return probes;
}

/** The route pattern of an OpenAPI path: /api/plans/{id} → /api/plans/:id. */
function patternOf(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}

/** (c) and (d): no token, and tokens that are not a session; for every signed-in operation. */
function anonymousProbesOf(op: Operation): Probe[] {
  const ids = combinations(op.slots, (slot) => ownerIdsOf(slot.kind).slice(0, 1))[0]!;
  const email = op.emailIn === undefined ? undefined : owner.email;
  const base = { op, ids, email, mayAnswer2xx: false };
  const forged = randomBytes(32).toString('base64url');
  return [
    { ...base, label: 'no token', token: undefined },
    { ...base, label: 'garbage token', token: 'garbage' },
    { ...base, label: 'well-formed unknown token', token: forged },
    { ...base, label: 'owner token cut short', token: owner.token.slice(0, -2) },
    { ...base, label: 'not a bearer header', token: undefined, authorization: `Basic ${owner.token}` },
    { ...base, label: 'empty bearer header', token: undefined, authorization: 'Bearer ' },
  ];
}

describe('the cross-user matrix', () => {
  let operations: Operation[];
  let scoped: Operation[];

  beforeAll(() => {
    operations = operationsOf(doc);
    // An invite link's token is in its path, yet it is a bearer secret, not a thing of someone's: NOT_SCOPED.
    scoped = operations.filter(
      (op) => !op.public && !(op.key in NOT_SCOPED) && (op.slots.length > 0 || op.emailIn !== undefined),
    );
  });

  it('knows every operation of the document: public on purpose, probed, or scoped to the caller by nature', () => {
    const publicOps = operations.filter((op) => op.public).map((op) => op.key);
    // The API reference's own files are public and outside the document's operations.
    expect(publicOps.filter((key) => !key.startsWith('GET /api/docs')).sort()).toEqual(
      [...PUBLIC_OPERATIONS].sort(),
    );
    const unscoped = operations.filter((op) => !op.public && !scoped.includes(op)).map((op) => op.key);
    expect(unscoped.sort()).toEqual(Object.keys(NOT_SCOPED).sort());
    for (const key of Object.keys(IGNORED_OR_FILTER_SLOTS)) {
      const [method, path, slot] = key.split(' ');
      const op = scoped.find((o) => o.key === `${method} ${path}`);
      expect(op?.slots.map(slotKey), key).toContain(slot);
    }
    // Today's routes that take an id or user_email; a new one only raises the count.
    expect(scoped.length).toBeGreaterThanOrEqual(36);
    // Every functional call that names a plan, a run or a user is probed (the parses store nothing).
    const functional = operations.filter((op) => op.path.startsWith('/api/functional/'));
    expect(functional.filter((op) => !scoped.includes(op)).map((op) => op.key)).toEqual([
      'POST /api/functional/parse-file',
      'POST /api/functional/parse-script',
    ]);
    expect(functional.length).toBeGreaterThanOrEqual(14);
  });

  it('refuses another user, the owner named by another, no token and garbage tokens, and leaves the owner unchanged', async () => {
    const before = await snapshotOfEveryoneButOther();
    const problems: string[] = [];
    let calls = 0;
    for (const op of scoped) {
      for (const probe of probesOf(op)) {
        problems.push(...(await runProbe(probe)));
        calls += 1;
      }
    }
    for (const op of operations.filter((o) => !o.public)) {
      for (const probe of anonymousProbesOf(op)) {
        const options = requestOf(probe);
        const response = await call(options);
        calls += 1;
        if (response.statusCode !== 401)
          problems.push(`${probe.label}: ${options.method} ${options.url} answered ${response.statusCode}`);
      }
    }
    expect(problems).toEqual([]);
    expect(await snapshotOfEveryoneButOther()).toBe(before);
    expect(await crossUserReferences()).toEqual([]);
    // The owner's live run is still going: nobody else stopped it.
    const live = await ok<{ status: string }>({
      method: 'GET',
      url: `/api/get-test-result/${ownerLiveRunId}`,
      token: owner.token,
    });
    expect(live.status).toBe('running');
    const liveFunctional = await ok<{ status: string }>({
      method: 'GET',
      url: `/api/functional/get-test-status/${ownerLiveFunctionalRunId}`,
      token: owner.token,
    });
    expect(liveFunctional.status).toBe('running');
    expect(calls).toBeGreaterThan(400);
  }, 90_000);

  // The role matrix: each member of the owner's workspace, signed in and with an API token, on every
  // operation that acts in a workspace. What the role may not do: 403 WORKSPACE_ROLE, and nothing
  // changes. What a member may read: 2xx, with one of the owner's ids (a screenshot is only of its run).
  it('gives each member of the workspace what their role may do, and nothing more', async () => {
    const before = await snapshotOfEveryoneButOther();
    const problems: string[] = [];
    let refused = 0;
    let reads = 0;
    const live = new Set([ownerLiveRunId, ownerLiveFunctionalRunId]);
    for (const op of operations.filter((o) => !o.public)) {
      const rule = ruleOf(op.method, patternOf(op.path));
      if (rule === 'account') continue;
      const workspace = rule.from === 'request' ? owner.workspaceId : undefined;
      for (const member of members) {
        const allowed = roleAllows(member.role, rule.role);
        // Reads by every member; an editor's changes would change the owner's things, so what editors may
        // change is proven by workspaces.test.ts.
        if (allowed && op.method !== 'GET') continue;
        for (const token of [member.token, member.apiToken]) {
          const who = `${member.role}${token === member.apiToken ? ' (API token)' : ''}`;
          const combos = combinations(op.slots, (slot) =>
            ownerIdsOf(slot.kind).filter((id) => !live.has(id)),
          );
          const answers: string[] = [];
          let answeredRight = false;
          for (const ids of allowed ? combos : combos.slice(0, 1)) {
            const options = requestOf({
              op,
              label: who,
              token,
              ids,
              email: undefined,
              mayAnswer2xx: allowed,
              workspace,
            });
            const response = await call(options);
            answers.push(
              `${options.method} ${options.url} → ${response.statusCode} ${response.body.slice(0, 160)}`,
            );
            if (allowed) {
              answeredRight = response.statusCode >= 200 && response.statusCode < 300;
            } else {
              const code = response.statusCode === 403 ? response.json<{ code?: string }>().code : undefined;
              answeredRight = code === 'WORKSPACE_ROLE';
            }
            if (answeredRight) break;
          }
          if (allowed) reads += 1;
          else refused += 1;
          if (!answeredRight)
            problems.push(`${who} ${allowed ? 'could not read' : 'was not refused'}: ${answers.join(' | ')}`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(await snapshotOfEveryoneButOther()).toBe(before);
    // Today's figures (docs/adr/0035-workspaces-and-roles.md "Measured"); a new route only raises them.
    expect(refused).toBeGreaterThanOrEqual(90);
    expect(reads).toBeGreaterThanOrEqual(112);
  }, 90_000);

  // The other user's own call of each operation, with their own ids and email, must succeed: the
  // matrix's requests are well formed, so the refusals above come from ownership. An id slot of
  // unknown kind is tried with a plan and with a run; one of them must succeed.
  it('lets the other user make each call on their own things (the requests above were well formed)', async () => {
    const failures: string[] = [];
    // The agent's calls first, while its run goes on (a stop of all the user's runs below ends it), and
    // deletions last, so the things they delete are there for the other calls.
    const rank = (op: Operation) =>
      AGENT_OPERATIONS.has(op.key)
        ? 0
        : op.key === 'DELETE /api/workspaces/{id}'
          ? 3
          : op.method === 'DELETE'
            ? 2
            : 1;
    const ordered = [...scoped].sort((a, b) => rank(a) - rank(b));
    for (const op of ordered) {
      const answers: string[] = [];
      let succeeded = false;
      for (const ids of combinations(op.slots, (slot) => ownIdsOf(other, slot.kind))) {
        const options = requestOf({
          op,
          label: 'control',
          token: tokenFor(other, op),
          ids,
          email: other.email,
          mayAnswer2xx: true,
        });
        const response = await call(options);
        answers.push(`${options.url} → ${response.statusCode} ${response.body.slice(0, 200)}`);
        if (response.statusCode >= 200 && response.statusCode < 300) {
          succeeded = true;
          break;
        }
      }
      if (!succeeded) failures.push(`${op.key}: ${answers.join(' | ')}`);
    }
    expect(failures).toEqual([]);
  }, 90_000);
});
