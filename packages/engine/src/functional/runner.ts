import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import {
  CAPTURE_SHOWN_CHARS,
  EVIDENCE_BODY_LIMIT_BYTES,
  EVIDENCE_PER_API,
  EVIDENCE_PER_RUN,
  englishText,
  type InnerPhrase,
  innerPhrase,
  maskSecretHeaders,
  MASKED_VALUE,
  said,
  saidFlat,
  type CallResult,
  type FailureEvidence,
  type FunctionalPlan,
  type FunctionalValidation,
  iterationRows,
  type PlanVariable,
  type ValidationDetail,
} from '@aqa/plan';
import type { CookieJar } from 'tough-cookie';
import type { TargetGuard } from '../guard/guard';
import type { RunEndReason } from './run-types';
import type { RenderContext } from '../call/template';
import { captureProblemPhrase, captureProblems, readCapture, type CaptureOutcome } from '../call/captures';
import {
  compileRun,
  renderRequest,
  renderValidations,
  type CompiledApi,
  type CompiledRun,
  type RenderedRequest,
} from '../call/compile-call';
import { scriptData, type DataFeed } from './data-sources';
import { closeAgents, httpCall, userAgents, type HttpAnswer, type UserAgents } from '../call/http-call';
import { newCookieJar, sessionCall } from '../call/session-call';
import { isHttpValidation, judge } from '../call/judge';
import type { ResponseView } from '../call/response-view';
import { OAuth2Tokens, type TokenProblem, type TokenSender } from '../call/oauth2-tokens';
import { SchemaJudge } from '../call/schema-judge';
import { PostmanSandbox } from './postman';
import {
  guardedHost,
  newEffects,
  runPreRequest,
  runTests,
  sandboxResponse,
  UserScopes,
  type ScriptCallContext,
  type ScriptEffects,
} from './call-scripts';

/*
 * The functional run itself (docs/design.md §9; docs/reference/02-running.md §2 "The functional
 * runner"), inside its worker thread: `concurrent_users` users started evenly over `ramp_up_time`,
 * each running every API in plan order for `iterations` iterations (concurrency × iterations, as
 * Taurus counts), pausing `think_time` between calls, each call bounded by its API's timeout and the
 * whole run by `test_duration`.
 *
 * A plan from a Postman collection runs as Newman runs it (docs/adr/0029-postman-collections.md):
 * `{{name}}` looked up in the local, data, environment, collection and global scopes in that order, one
 * iteration per row of `iteration_data`, a cookie jar per user and redirects followed when the plan
 * says so, and every rule's expected value expanded before it is judged.
 */

/** One judged call as the worker reports it. */
export interface JudgedCall {
  apiIndex: number;
  /** Ms since the run started, when the call was judged. */
  atMs: number;
  call: CallResult;
}

export interface RunnerOptions {
  guard?: TargetGuard;
  insecureTls: boolean;
  onCall: (judged: JudgedCall) => void;
  /** Overrides the plan's test_duration (whose least is a minute), in ms. */
  durationMs?: number;
}

/** How the users' work ended. */
export interface RunnerEnd {
  /** Why the run ended before its last iteration (the test duration), else null. */
  error: RunEndReason;
}

export class FunctionalRunner {
  private readonly compiled: CompiledRun;
  private readonly abort = new AbortController();
  private readonly schemas = new SchemaJudge();
  private readonly evidenceKept: number[];
  /** Failed calls of the whole run that kept evidence (at most EVIDENCE_PER_RUN). */
  private evidenceInRun = 0;
  private readonly runAgents: UserAgents;
  private readonly tokens: OAuth2Tokens;
  private startedAt = 0;
  private deadline = 0;
  private iterationIndex = 0;
  private completedIterations = 0;
  private durationEnded = false;
  /** A script plan's variables, by slot: each user starts with them (data-sources.ts). */
  private readonly startValues: [slot: number, value: string][];
  /** A script plan's data sources, each with the slots its columns fill. */
  private readonly feeds: { feed: DataFeed; slots: number[] }[];
  /** The non-looping data source that ran out of rows first, if one did. */
  private ranOut: DataFeed | null = null;
  /** The environment over the collection variables over the globals, by slot: each user's `scopes`. */
  private readonly scopeValues: (string | undefined)[] = [];
  /** The data file's rows as slot values, one an iteration, or null without a data file. */
  private readonly dataRows: (string | undefined)[][] | null;
  /** Iterations per user: the data file's rows when the plan has one (Newman's `-d`), else `iterations`. */
  private readonly iterations: number;
  /** Whether the plan or any API has a script block: without one, no sandbox is ever made. */
  private readonly hasScripts: boolean;
  /** Why an iteration ended early by postman.setNextRequest, said in the run's end. */
  private flowNote: string | null = null;

  constructor(
    private readonly plan: FunctionalPlan,
    private readonly options: RunnerOptions,
  ) {
    this.compiled = compileRun(plan);
    const data = scriptData(plan);
    const scope = this.compiled.scope;
    this.startValues = Object.entries(data?.variables ?? {}).map(([name, value]) => [
      scope.variableSlot(name),
      value,
    ]);
    this.feeds = (data?.feeds ?? []).map((feed) => ({
      feed,
      slots: feed.names.map((name) => scope.variableSlot(name)),
    }));
    // Lowest first, so a name in a higher scope overwrites it.
    const layers: (PlanVariable[] | undefined)[] = [plan.globals, plan.variables, plan.environment?.values];
    for (const layer of layers) {
      for (const { name, value } of layer ?? []) this.scopeValues[scope.variableSlot(name)] = value;
    }
    // A malformed file never gets here: functionalRunProblems (plan-checks.ts) ends the run first.
    this.dataRows =
      plan.iteration_data === undefined
        ? null
        : iterationRows(plan.iteration_data).map((row) => {
            const slots: (string | undefined)[] = [];
            for (const [name, value] of Object.entries(row)) slots[scope.variableSlot(name)] = value;
            return slots;
          });
    this.iterations = this.dataRows?.length ?? plan.iterations;
    this.evidenceKept = plan.apis.map(() => 0);
    const blocks = (s: { prerequest: unknown[]; test: unknown[] } | undefined) =>
      (s?.prerequest.length ?? 0) + (s?.test.length ?? 0);
    this.hasScripts = blocks(plan.scripts) + plan.apis.reduce((n, api) => n + blocks(api.scripts), 0) > 0;
    this.runAgents = userAgents(options.insecureTls);
    // A failed token fetch is not kept: the next call that needs it tries again.
    this.tokens = new OAuth2Tokens({ keepFailuresMs: 0 });
  }

  /** Runs every user to its end (or the duration's, or a stop) and says how it ended. */
  async run(): Promise<RunnerEnd> {
    const { concurrent_users: users, ramp_up_time: rampUpS, test_duration: minutes } = this.plan;
    const iterations = this.iterations;
    const durationMs = this.options.durationMs ?? minutes * 60_000;
    this.startedAt = performance.now();
    this.deadline = this.startedAt + durationMs;
    const stepMs = (rampUpS * 1000) / users;
    try {
      await Promise.all(Array.from({ length: users }, (_, u) => this.runUser(u + 1, u * stepMs)));
    } finally {
      closeAgents(this.runAgents);
    }
    if (this.durationEnded && !this.abort.signal.aborted) {
      return {
        error: said('functional.durationEnded', {
          duration: durationPhrase(durationMs),
          done: this.completedIterations,
          total: users * iterations,
        }),
      };
    }
    if (this.ranOut !== null && !this.abort.signal.aborted) {
      const total = users * iterations;
      const { path, rows } = this.ranOut;
      const why = rows.length === 0 ? `has no rows` : `ran out after its ${rows.length} rows (loop: false)`;
      return {
        error: `The data source ${path} ${why}, so ${total - this.iterationIndex} of ${total} iterations did not run`,
      };
    }
    return { error: this.abort.signal.aborted ? null : this.flowNote };
  }

  /**
   * Each data source's next row into the user's variables, at the start of an iteration (Taurus's
   * data-sources: rows shared by all users, in order); false when a non-looping one has none left,
   * which ends this user's iterations.
   */
  private takeRows(ctx: RenderContext): boolean {
    for (const { feed, slots } of this.feeds) {
      const row = feed.take();
      if (row === null) {
        this.ranOut ??= feed;
        return false;
      }
      slots.forEach((slot, column) => (ctx.vars[slot] = row[column] ?? ''));
    }
    return true;
  }

  /** Ends the run now: calls in flight are abandoned and not reported. */
  stop(): void {
    this.abort.abort();
  }

  private get stopping(): boolean {
    return this.abort.signal.aborted;
  }

  /** Waits `ms`, cut short by a stop or the end of the test duration; false when the run must end. */
  private async pause(ms: number): Promise<boolean> {
    const left = this.deadline - performance.now();
    const wait = Math.min(ms, Math.max(0, left));
    if (wait > 0) {
      try {
        await delay(wait, undefined, { signal: this.abort.signal });
      } catch {
        // stopped
      }
    }
    // A pause the duration cut ends the user even when the timer fired a fraction of a ms early.
    if (ms >= left && !this.stopping) {
      this.durationEnded = true;
      return false;
    }
    return this.canCall();
  }

  private canCall(): boolean {
    if (this.stopping) return false;
    if (performance.now() >= this.deadline) {
      this.durationEnded = true;
      return false;
    }
    return true;
  }

  private async runUser(user: number, startAfterMs: number): Promise<void> {
    if (!(await this.pause(startAfterMs))) return;
    const agents = userAgents(this.options.insecureTls);
    const ctx: RenderContext = {
      vars: [],
      seq: this.compiled.scope.moduli.map(() => 0),
      // A copy per user: a script's pm.environment.set (ADR 0028) changes its own user's.
      scopes: [...this.scopeValues],
    };
    for (const [slot, value] of this.startValues) ctx.vars[slot] = value;
    const jar = this.plan.cookie_jar === true ? newCookieJar() : null;
    const { think_time: thinkS } = this.plan;
    const iterations = this.iterations;
    const apis = this.compiled.apis;
    // Scripts change this user's scopes only; the plan's values are never written back. The user's
    // sandbox makes its VM at the first script and is disposed of below however the user's run ends.
    const user$: UserRun = {
      user,
      agents,
      jar,
      scopes: this.hasScripts ? new UserScopes(this.compiled.scope, this.plan) : null,
      sandbox: this.hasScripts ? new PostmanSandbox() : null,
    };
    try {
      for (let iteration = 1; iteration <= iterations; iteration++) {
        if (!this.takeRows(ctx)) return;
        if (this.dataRows !== null) ctx.data = this.dataRows[iteration - 1];
        // {{sequence_number,N}}: one value per iteration from a run-wide counter (docs/design.md §4).
        const i = this.iterationIndex++;
        this.compiled.scope.moduli.forEach((n, slot) => (ctx.seq[slot] = (i % n) + 1));
        // postman.setNextRequest jumps, bounded per iteration (docs/adr/0029-postman-collections.md §3).
        let jumps = 0;
        for (let a = 0; a < apis.length;) {
          if (!this.canCall()) return;
          const api = apis[a]!;
          const effects = newEffects();
          const call = await this.call(api, ctx, user$, iteration, effects);
          if (call === null) return;
          this.options.onCall({ apiIndex: api.index, atMs: performance.now() - this.startedAt, call });
          let next = a + 1;
          if (effects.next === null) next = apis.length;
          else if (effects.next !== undefined) {
            const named = apis.findIndex((x) => x.api.name === effects.next);
            if (named < 0) {
              this.flowNote ??= `postman.setNextRequest("${effects.next}") in ${api.api.name} names no API of the plan, so iteration ${iteration} of user ${user} ended there (Newman ends the run silently)`;
              next = apis.length;
            } else if (++jumps > apis.length * JUMPS_PER_API) {
              this.flowNote ??= `postman.setNextRequest jumped more than ${apis.length * JUMPS_PER_API} times (${JUMPS_PER_API} × the ${apis.length} APIs) in iteration ${iteration} of user ${user}, so that iteration ended there`;
              next = apis.length;
            } else next = named;
          }
          a = next;
          if (a >= apis.length) this.completedIterations++;
          const last = iteration === iterations && a >= apis.length;
          if (!last && thinkS > 0 && !(await this.pause(thinkS * 1000))) return;
        }
      }
    } finally {
      closeAgents(agents);
      user$.sandbox?.dispose();
    }
  }

  /** One call, judged; null when the run was stopped while it was in flight. */
  private async call(
    api: CompiledApi,
    ctx: RenderContext,
    user$: UserRun,
    iteration: number,
    effects: ScriptEffects,
  ): Promise<CallResult | null> {
    const { agents, jar, user } = user$;
    const scripts = this.scriptContext(api, ctx, user$, iteration, effects);
    const pre = [...(this.plan.scripts?.prerequest ?? []), ...(api.api.scripts?.prerequest ?? [])];
    const request =
      scripts === null || pre.length === 0
        ? renderRequest(api, ctx)
        : await runPreRequest(pre, scripts, () => renderRequest(api, ctx));
    if (this.stopping) return null;
    const base = {
      api_name: api.api.name,
      method: api.method,
      url: this.maskedUrl(api, request.url),
      iteration,
      user,
    };
    let url: URL;
    try {
      url = new URL(request.url);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
    } catch {
      return this.noResponse(
        api,
        renderValidations(api, ctx),
        base,
        request,
        `The URL ${JSON.stringify(request.url)} is not a full http:// or https:// URL`,
        0,
        null,
        effects,
      );
    }
    if (api.oauth2 !== null) {
      const token = await this.tokens.get(api.oauth2, this.sendTokenRequest);
      if (this.stopping) return null;
      if ('problem' in token) {
        return this.noResponse(
          api,
          renderValidations(api, ctx),
          base,
          request,
          tokenProblemText(api.oauth2.tokenUrl, token.problem),
          0,
          null,
          effects,
        );
      }
      request.headers.Authorization = `Bearer ${token.token}`;
    }
    const outcome = await sessionCall(
      { method: request.method, url, headers: request.headers, body: request.body },
      {
        agents,
        guard: this.options.guard,
        timeoutMs: api.timeoutMs,
        signal: this.abort.signal,
        keepBytes: api.keptBodyBytes,
      },
      { jar, followRedirects: this.plan.follow_redirects === true },
    );
    if (outcome.kind === 'aborted') return null;
    const validations = renderValidations(api, ctx);
    const tests = [...(this.plan.scripts?.test ?? []), ...(api.api.scripts?.test ?? [])];
    if (outcome.kind === 'failed') {
      // Sent but not answered: Newman still runs the test scripts, with an empty pm.response.
      if (scripts !== null && tests.length > 0) {
        await runTests(tests, scripts, request, undefined, jar);
        if (this.stopping) return null;
      }
      return this.noResponse(
        api,
        validations,
        base,
        request,
        outcome.error,
        outcome.timeMs,
        outcome.phrase ?? null,
        effects,
      );
    }
    const body = outcome.answer.body.toString('utf8');
    // The rules and captures first, then the test scripts (captured values are theirs to read).
    const afterRules = async (): Promise<void> => {
      if (scripts === null || tests.length === 0) return;
      await runTests(tests, scripts, request, sandboxResponse({ ...outcome.answer, body }), jar);
    };
    const call = await this.judged(
      api,
      validations,
      base,
      request,
      outcome.answer,
      body,
      ctx,
      afterRules,
      effects,
    );
    return this.stopping ? null : call;
  }

  /** What a script of this call runs with; null when the plan has no script at all. */
  private scriptContext(
    api: CompiledApi,
    ctx: RenderContext,
    user$: UserRun,
    iteration: number,
    effects: ScriptEffects,
  ): ScriptCallContext | null {
    if (user$.scopes === null || user$.sandbox === null) return null;
    return {
      name: api.api.name,
      description: api.api.description,
      ctx,
      scopes: user$.scopes,
      sandbox: user$.sandbox,
      host: guardedHost({
        agents: user$.agents,
        guard: this.options.guard,
        jar: user$.jar,
        signal: this.abort.signal,
        timeoutMs: api.timeoutMs,
      }),
      iteration: iteration - 1,
      iterationCount: this.iterations,
      effects,
    };
  }

  private async judged(
    api: CompiledApi,
    validations: readonly FunctionalValidation[],
    base: Pick<CallResult, 'api_name' | 'method' | 'url' | 'iteration' | 'user'>,
    request: RenderedRequest,
    answer: HttpAnswer,
    body: string,
    ctx: RenderContext,
    afterRules: () => Promise<void>,
    effects: ScriptEffects,
  ): Promise<CallResult> {
    // One object for every rule and capture of the call: the body is read as JSON or XML once for
    // all of them (call/response-view.ts).
    const observed: ResponseView & { complete: boolean } = {
      status: answer.status,
      headers: answer.headers,
      headerLines: answer.headerLines,
      body,
      sizeBytes: answer.sizeBytes,
      timeMs: answer.timeMs,
      complete: answer.body.length === answer.sizeBytes,
    };
    const details = validations.map((validation): ValidationDetail => {
      if (isHttpValidation(validation)) return judge(validation, observed);
      if (validation.type === 'schema') return this.schemas.judge(validation, observed);
      return uiRuleOnCall(validation);
    });
    const captures: CaptureOutcome[] = api.captures.map((capture) => {
      const found = readCapture(capture, observed);
      ctx.vars[capture.slot] = found.value ?? undefined;
      return found;
    });
    await afterRules();
    // Each pm.test is one more assertion of the call; a script that failed to run is a failed one.
    details.push(...effects.details);
    const problem = captureProblems(captures) ?? firstScriptError(effects);
    const success = problem === null && details.every((d) => d.passed);
    const problemPhrase = captureProblemPhrase(captures);
    return {
      ...base,
      status_code: answer.status,
      response_time: answer.timeMs,
      success,
      validation_details: details,
      error: problem,
      ...(problemPhrase === null ? {} : { error_phrase: problemPhrase }),
      timings: answer.timings,
      ...(api.captures.length === 0
        ? {}
        : { captures: captures.map(({ name, value }) => ({ name, value: shownValue(value) })) }),
      ...(success ? {} : this.evidence(api, request, answer, body, effects.logs)),
    };
  }

  /** A token request of this run: over the run's own connections, through the target guard. */
  private readonly sendTokenRequest: TokenSender = async (request) => {
    const outcome = await httpCall(request, {
      agents: this.runAgents,
      guard: this.options.guard,
      timeoutMs: TOKEN_TIMEOUT_MS,
      signal: this.abort.signal,
    });
    if (outcome.kind === 'aborted') return { error: 'the run was stopped' };
    if (outcome.kind === 'failed') return { error: outcome.error };
    return { status: outcome.answer.status, body: outcome.answer.body.toString('utf8') };
  };

  /** A call that got no response: every rule fails, saying why. */
  private noResponse(
    api: CompiledApi,
    validations: readonly FunctionalValidation[],
    base: Pick<CallResult, 'api_name' | 'method' | 'url' | 'iteration' | 'user'>,
    request: RenderedRequest,
    error: string,
    timeMs: number,
    phrase: InnerPhrase | null = null,
    effects: ScriptEffects = newEffects(),
  ): CallResult {
    const reason = phrase ?? lowerFirst(error);
    const details = validations.map((validation): ValidationDetail => {
      if (isHttpValidation(validation)) return judge(validation, null, reason);
      if (validation.type === 'schema') return this.schemas.judge(validation, null, reason);
      return uiRuleOnCall(validation);
    });
    // The scripts' tests and errors: the pre-request's, and the test scripts' of a request sent but not
    // answered (they ran with an empty response, as Newman runs them).
    details.push(...effects.details);
    return {
      ...base,
      status_code: null,
      response_time: timeMs,
      success: false,
      validation_details: details,
      error,
      ...(phrase === null ? {} : { error_phrase: phrase }),
      ...(api.captures.length === 0
        ? {}
        : { captures: api.captures.map(({ name }) => ({ name, value: null })) }),
      ...this.evidence(api, request, null, '', effects.logs),
    };
  }

  /**
   * Evidence of a failed call, secrets masked before it is kept (docs/design.md §9): the first
   * EVIDENCE_PER_API failed calls of each API and EVIDENCE_PER_RUN of the run keep it, each body cut at
   * EVIDENCE_BODY_LIMIT_BYTES (docs/adr/0024-memory-bounds.md).
   */
  private evidence(
    api: CompiledApi,
    request: RenderedRequest,
    answer: HttpAnswer | null,
    body: string,
    logs: readonly string[] = [],
  ): { evidence?: FailureEvidence } {
    if (this.evidenceKept[api.index]! >= EVIDENCE_PER_API || this.evidenceInRun >= EVIDENCE_PER_RUN)
      return {};
    this.evidenceKept[api.index]!++;
    this.evidenceInRun++;
    const kept = answer === null ? null : firstBytes(answer.body, EVIDENCE_BODY_LIMIT_BYTES, body);
    return {
      evidence: {
        request: {
          method: request.method,
          url: this.maskedUrl(api, request.url),
          headers: maskSecretHeaders(request.headers),
          body:
            request.body === undefined
              ? ''
              : firstBytes(Buffer.from(request.body), EVIDENCE_BODY_LIMIT_BYTES).text,
        },
        response:
          answer === null || kept === null
            ? null
            : {
                status: answer.status,
                headers: maskSecretHeaders(answer.headers),
                body: kept.text,
                truncated: answer.sizeBytes > EVIDENCE_BODY_LIMIT_BYTES,
              },
        ...(logs.length === 0 ? {} : { logs: [...logs] }),
      },
    };
  }

  /** The URL as sent, with an API key sent in the query masked. */
  private maskedUrl(api: CompiledApi, url: string): string {
    if (api.secretQueryName === null) return url;
    try {
      const parsed = new URL(url);
      if (!parsed.searchParams.has(api.secretQueryName)) return url;
      parsed.searchParams.set(api.secretQueryName, MASKED_VALUE);
      return parsed.toString();
    } catch {
      return url;
    }
  }
}

/** A UI rule (element_exists, page_title) is judged in a browser; on an API call it fails in words. */
function uiRuleOnCall(validation: {
  type: ValidationDetail['type'];
  name: string;
  expected_value: string;
}): ValidationDetail {
  return {
    type: validation.type,
    ...(validation.name === '' ? {} : { name: validation.name }),
    expected: validation.expected_value,
    actual: null,
    passed: false,
    ...messageOf(saidFlat('judge.uiRuleOnCall', { type: validation.type })),
  };
}

function messageOf({ text, phrase }: { text: string; phrase: InnerPhrase }) {
  return { message: text, message_phrase: phrase };
}

/**
 * A captured value as the result shows it: its first CAPTURE_SHOWN_CHARS characters and how long it
 * was (the variable later calls read keeps the whole value).
 */
function shownValue(value: string | null): string | null {
  if (value === null || value.length <= CAPTURE_SHOWN_CHARS) return value;
  // Not half of a surrogate pair.
  const end = /[\uD800-\uDBFF]/.test(value[CAPTURE_SHOWN_CHARS - 1]!)
    ? CAPTURE_SHOWN_CHARS - 1
    : CAPTURE_SHOWN_CHARS;
  return `${value.slice(0, end)}… (${value.length.toLocaleString('en-US')} characters in all; the first ${CAPTURE_SHOWN_CHARS.toLocaleString('en-US')} are shown)`;
}

/** The first `limit` bytes as text, not cutting a UTF-8 character in two. */
function firstBytes(bytes: Buffer, limit: number, whole?: string): { text: string } {
  if (bytes.length <= limit) return { text: whole ?? bytes.toString('utf8') };
  let end = limit;
  // Step back over continuation bytes (10xxxxxx) to a character's start.
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return { text: bytes.subarray(0, end).toString('utf8') };
}

export function durationText(ms: number): string {
  return englishText(durationPhrase(ms)) ?? `${ms / 1000} s`;
}

function durationPhrase(ms: number): InnerPhrase {
  return ms % 60_000 === 0
    ? innerPhrase('duration.minutes', { count: ms / 60_000 })
    : innerPhrase('duration.seconds', { count: ms / 1000 });
}

function lowerFirst(text: string): string {
  return /^[A-Z][a-z]/.test(text) ? text[0]!.toLowerCase() + text.slice(1) : text;
}

const TOKEN_TIMEOUT_MS = 30_000;
/** postman.setNextRequest jumps allowed per iteration, per API of the plan. */
const JUMPS_PER_API = 10;

interface UserRun {
  user: number;
  agents: UserAgents;
  jar: CookieJar | null;
  /** The user's scopes as scripts change them; null when the plan has no script. */
  scopes: UserScopes | null;
  /** The user's warm Postman sandbox (docs/adr/0028-postman-sandbox.md §1); null without scripts. */
  sandbox: PostmanSandbox | null;
}

/** The first script that failed to run, as the call's error. */
function firstScriptError(effects: ScriptEffects): string | null {
  const failed = effects.details.find((d) => d.type === 'script' && d.expected === 'runs without error');
  return failed?.message ?? null;
}

/** Why a call had no OAuth2 token, as a functional result says it. */
function tokenProblemText(tokenUrl: string, problem: TokenProblem): string {
  const why = ((): string => {
    switch (problem.kind) {
      case 'not-a-url':
        return 'it is not a URL';
      case 'not-http':
        return 'it is not an http:// or https:// URL';
      case 'no-answer':
        return problem.error;
      case 'status':
        return `it answered status ${problem.status}`;
      case 'not-json':
        return 'its answer is not JSON';
      case 'no-token':
        return 'its answer has no access_token';
    }
  })();
  return `Could not get an OAuth2 token from ${tokenUrl}: ${why}`;
}
