import { STATUS_CODES } from 'node:http';
import type { PlanVariable, ScriptBlock, ValidationDetail } from '@aqa/plan';
import type { CookieJar } from 'tough-cookie';
import type { TargetGuard } from '../guard/guard';
import type { RenderContext, TemplateScope } from '../call/template';
import type { RenderedRequest } from '../call/compile-call';
import type { UserAgents } from '../call/http-call';
import { sessionCall } from '../call/session-call';
import {
  type PostmanSandbox,
  type SandboxHeader,
  type SandboxHost,
  type SandboxRequest,
  type SandboxResponse,
  type SandboxVariables,
  type ScriptOutcome,
} from './postman';

/*
 * A Postman plan's scripts around one call, in Newman's order (docs/adr/0029-postman-collections.md §3):
 * the plan's pre-request blocks then the API's before the call, the plan's test blocks then the API's
 * after its rules and captures. Every block of one virtual user runs in that user's warm sandbox, one
 * VM reused from script to script (docs/adr/0028-postman-sandbox.md §1 "One warm VM per virtual user").
 */

/** console output kept per call, over all its scripts: entries (each already cut by the sandbox). */
export const CALL_LOGS_KEPT = 50;

/** One user's environment, collection variables and globals as scripts see and change them. */
export class UserScopes {
  readonly globals: Record<string, string>;
  readonly collection: Record<string, string>;
  readonly environment: Record<string, string>;
  /** pm.variables values whose name no template of the plan reads (those with a slot live in ctx.vars). */
  private readonly extraLocal: Record<string, string> = {};

  constructor(
    private readonly scope: TemplateScope,
    plan: { globals?: PlanVariable[]; variables?: PlanVariable[]; environment?: { values: PlanVariable[] } },
  ) {
    const of = (list: PlanVariable[] | undefined) =>
      Object.fromEntries((list ?? []).map(({ name, value }) => [name, value]));
    this.globals = of(plan.globals);
    this.collection = of(plan.variables);
    this.environment = of(plan.environment?.values);
  }

  /** The scopes as a script sees them now. */
  view(ctx: RenderContext): SandboxVariables {
    const local: Record<string, string> = { ...this.extraLocal };
    const data: Record<string, string> = {};
    this.scope.variables.forEach((name, slot) => {
      const v = ctx.vars[slot];
      if (v !== undefined) local[name] = v;
      const d = ctx.data?.[slot];
      if (d !== undefined) data[name] = d;
    });
    return {
      globals: { ...this.globals },
      collection: { ...this.collection },
      environment: { ...this.environment },
      data,
      local,
    };
  }

  /** A script's changes into this user's scopes and the slots its templates read. */
  apply(vars: SandboxVariables, ctx: RenderContext): void {
    replace(this.globals, vars.globals);
    replace(this.collection, vars.collection);
    replace(this.environment, vars.environment);
    for (const key of Object.keys(this.extraLocal)) delete this.extraLocal[key];
    const names = this.scope.variables;
    names.forEach((name, slot) => {
      ctx.vars[slot] = Object.hasOwn(vars.local, name) ? vars.local[name] : undefined;
    });
    for (const [name, value] of Object.entries(vars.local)) {
      if (!names.includes(name)) this.extraLocal[name] = value;
    }
    // The merged scopes the templates read: environment over collection over globals.
    ctx.scopes ??= [];
    names.forEach((name, slot) => {
      ctx.scopes![slot] = this.environment[name] ?? this.collection[name] ?? this.globals[name];
    });
  }
}

function replace(target: Record<string, string>, source: Record<string, string>): void {
  for (const key of Object.keys(target)) if (!Object.hasOwn(source, key)) delete target[key];
  Object.assign(target, source);
}

/** What the scripts of one call did, beside the call's own rules. */
export interface ScriptEffects {
  details: ValidationDetail[];
  logs: string[];
  /** postman.setNextRequest: a name, null to end the iteration; undefined when not called. */
  next?: string | null;
}

export function newEffects(): ScriptEffects {
  return { details: [], logs: [] };
}

export interface ScriptCallContext {
  name: string;
  /** The API's description: a script's legacy `request.description` (Postman's request description). */
  description?: string | undefined;
  ctx: RenderContext;
  scopes: UserScopes;
  /** The virtual user's own sandbox, never another user's or another run's. */
  sandbox: PostmanSandbox;
  host: SandboxHost;
  /** Postman's pm.info.iteration: from 0. */
  iteration: number;
  iterationCount: number;
  effects: ScriptEffects;
}

/** The request's changes a pre-request script made, kept to lay over each new rendering. */
interface RequestChanges {
  method?: string;
  url?: string;
  body?: string | undefined;
  headers: Map<string, SandboxHeader | null>;
}

/**
 * Runs the pre-request blocks in order and answers the request to send: rendered after the scripts'
 * variable changes, with the URL, method, headers and body they set laid over it.
 */
export async function runPreRequest(
  blocks: readonly ScriptBlock[],
  run: ScriptCallContext,
  render: () => RenderedRequest,
): Promise<RenderedRequest> {
  const changes: RequestChanges = { headers: new Map() };
  for (const block of blocks) {
    const before = sandboxRequest(run, withChanges(render(), changes));
    const out = await runBlock(block, 'prerequest', run, before);
    if (out === null) continue;
    if (out.request.method !== before.method) changes.method = out.request.method;
    if (out.request.url !== before.url) changes.url = out.request.url;
    if (out.request.body !== before.body) changes.body = out.request.body;
    const was = new Map(before.headers.map((h) => [h.key.toLowerCase(), h.value]));
    const now = new Map(out.request.headers.map((h) => [h.key.toLowerCase(), h]));
    for (const [key, h] of now) if (was.get(key) !== h.value) changes.headers.set(key, h);
    for (const key of was.keys()) if (!now.has(key)) changes.headers.set(key, null);
  }
  return withChanges(render(), changes);
}

/**
 * Runs the test blocks in order against the response; `undefined` when the request got no answer, as
 * Newman still runs a test script then (docs/adr/0029-postman-collections.md §3, step 4).
 */
export async function runTests(
  blocks: readonly ScriptBlock[],
  run: ScriptCallContext,
  request: RenderedRequest,
  response: SandboxResponse | undefined,
  jar: CookieJar | null,
): Promise<void> {
  const req = sandboxRequest(run, request);
  // pm.cookies: the user's jar for the request's URL after the response, as Postman's cookie list.
  let cookies: { name: string; value: string }[] | undefined;
  if (jar !== null) {
    try {
      cookies = jar.getCookiesSync(request.url).map((c) => ({ name: c.key, value: c.value }));
    } catch {
      cookies = [];
    }
  }
  for (const block of blocks) await runBlock(block, 'test', run, req, response, cookies);
}

async function runBlock(
  block: ScriptBlock,
  event: 'prerequest' | 'test',
  run: ScriptCallContext,
  request: SandboxRequest,
  response?: SandboxResponse,
  cookies?: { name: string; value: string }[],
): Promise<ScriptOutcome | null> {
  const what = `${event === 'prerequest' ? 'pre-request' : 'test'} script of ${block.origin}`;
  let out: ScriptOutcome;
  try {
    out = await run.sandbox.run(
      {
        event,
        source: block.source,
        request,
        ...(response ? { response } : {}),
        ...(cookies ? { cookies } : {}),
        variables: run.scopes.view(run.ctx),
        iteration: run.iteration,
        iterationCount: run.iterationCount,
      },
      run.host,
    );
  } catch (e) {
    run.effects.details.push(scriptFailure(what, `the sandbox failed: ${(e as Error).message}`));
    return null;
  }
  for (const log of out.logs) {
    if (run.effects.logs.length < CALL_LOGS_KEPT) run.effects.logs.push(`[${log.level}] ${log.text}`);
  }
  // A script stopped by an error keeps what it did before (Newman keeps its earlier pm.test results).
  run.scopes.apply(out.variables, run.ctx);
  if (out.nextRequest !== undefined) run.effects.next = out.nextRequest;
  for (const t of out.tests) run.effects.details.push(testDetail(t));
  if (out.error) {
    const line = out.error.line === undefined ? '' : ` (line ${out.error.line})`;
    run.effects.details.push(scriptFailure(what, `${out.error.message}${line}`));
  }
  return out;
}

/**
 * One pm.test as an assertion of the call. A skipped one (pm.test.skip) passes with a message saying
 * so: Newman counts it apart and never as a failure (docs/adr/0029-postman-collections.md §3).
 */
function testDetail(t: {
  name: string;
  passed: boolean;
  error?: string;
  skipped?: boolean;
}): ValidationDetail {
  if (t.skipped)
    return {
      type: 'script',
      name: t.name,
      expected: 'skipped',
      actual: null,
      passed: true,
      message: 'skipped',
    };
  return {
    type: 'script',
    name: t.name,
    expected: 'pass',
    actual: t.passed ? 'pass' : 'fail',
    passed: t.passed,
    message: t.passed ? 'passed' : (t.error ?? 'failed'),
  };
}

function scriptFailure(what: string, error: string): ValidationDetail {
  return {
    type: 'script',
    name: what,
    expected: 'runs without error',
    actual: null,
    passed: false,
    message: `${what}: ${error}`,
  };
}

function sandboxRequest(run: ScriptCallContext, r: RenderedRequest): SandboxRequest {
  return {
    name: run.name,
    ...(run.description ? { description: run.description } : {}),
    method: r.method,
    url: r.url,
    headers: Object.entries(r.headers).map(([key, value]) => ({ key, value })),
    ...(r.body === undefined ? {} : { body: r.body }),
  };
}

function withChanges(r: RenderedRequest, c: RequestChanges): RenderedRequest {
  const headers = { ...r.headers };
  for (const [lower, h] of c.headers) {
    for (const key of Object.keys(headers)) if (key.toLowerCase() === lower) delete headers[key];
    if (h !== null) headers[h.key] = h.value;
  }
  return {
    method: c.method ?? r.method,
    url: c.url ?? r.url,
    headers,
    body: 'body' in c ? c.body : r.body,
  };
}

/** The response as a script reads it. */
export function sandboxResponse(answer: {
  status: number;
  headerLines: string;
  body: string;
  sizeBytes: number;
  timeMs: number;
}): SandboxResponse {
  return {
    code: answer.status,
    status: STATUS_CODES[answer.status] ?? '',
    headers: headerList(answer.headerLines),
    body: answer.body,
    responseTime: Math.round(answer.timeMs),
    responseSize: answer.sizeBytes,
  };
}

function headerList(lines: string): SandboxHeader[] {
  const out: SandboxHeader[] = [];
  for (const line of lines.split(/\r?\n/)) {
    const i = line.indexOf(':');
    if (i > 0) out.push({ key: line.slice(0, i).trim(), value: line.slice(i + 1).trim() });
  }
  return out;
}

/**
 * pm.sendRequest through the run's own path: the target guard on every hop, the user's connections
 * and cookie jar, redirects followed as Postman does.
 */
export function guardedHost(options: {
  agents: UserAgents;
  guard: TargetGuard | undefined;
  jar: CookieJar | null;
  signal: AbortSignal;
  timeoutMs: number;
}): SandboxHost {
  return {
    async sendRequest(req) {
      let url: URL;
      try {
        url = new URL(req.url);
        if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
      } catch {
        return { error: `${JSON.stringify(req.url)} is not a full http:// or https:// URL` };
      }
      const headers: Record<string, string> = {};
      for (const h of req.headers) headers[h.key] = h.value;
      const outcome = await sessionCall(
        {
          method: req.method,
          url,
          headers,
          body: req.method === 'GET' || req.method === 'HEAD' ? undefined : req.body,
        },
        {
          agents: options.agents,
          guard: options.guard,
          timeoutMs: options.timeoutMs,
          signal: options.signal,
        },
        { jar: options.jar, followRedirects: true },
      );
      if (outcome.kind === 'aborted') return { error: 'the run was stopped' };
      if (outcome.kind === 'failed') return { error: outcome.error };
      const { answer } = outcome;
      return sandboxResponse({ ...answer, body: answer.body.toString('utf8') });
    },
  };
}
