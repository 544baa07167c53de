import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import { Agent, Client, request, type Dispatcher } from 'undici';
import { StepCollector } from '../metrics/collector';
import { Histogram, type EncodedHistogram } from '../metrics/histogram';
import { guardedConnector, type TargetGuard } from '../guard';
import type { ShardIntervalWire } from '../metrics/types';
import { ReusedResponseView } from '../call/response-view';
import type { CompiledPlan, CompiledStep } from './compile';
import {
  classifyError,
  ERROR_BODY_SNIPPET_CHARS,
  errorMessage,
  httpErrorSample,
  KIND,
  tokenFailure,
} from './http-error';
import { IterationCounter, sequenceValue, type SequenceSplit } from './sequence';
import type { RenderContext } from '../call/template';
import { OAuth2Tokens, type TokenProblem, type TokenSender } from '../call/oauth2-tokens';
import { ShardPlan, type ShardProfileOptions } from './load-follower';
import { ShardData, type DataReader, type ShardDataInit } from './test-data';
import { PreopenedConnections } from './preopened-connections';
import { targetAt } from '@aqa/plan';

/** What one shard (one worker thread, or one runner agent) runs. */
export interface ShardOptions {
  shard: number;
  /** Users of this shard. */
  users: number;
  /** Index of this shard's first user in the run (for logs). */
  firstUser: number;
  insecureTls: boolean;
  /** Shared memory of the run-wide iteration counter behind `{{sequence_number,N}}`. */
  sequenceBuffer: SharedArrayBuffer;
  sequenceSplit: SequenceSplit;
  /** Wait for in-flight requests this long at the end of the duration before cancelling them. */
  endGraceMs: number;
  /** Asked before every connection, the OAuth2 token requests' too (docs/adr/0015-target-guard.md). */
  guard?: TargetGuard;
  /**
   * A load profile to follow (docs/adr/0027-load-profiles.md, "The schedule") instead of starting
   * every user at once: `users` is then this shard's peak share (closed model) or its pool (open
   * model), and the profile's length and graceful stop replace the duration and `endGraceMs`.
   */
  profile?: ShardProfileOptions;
  /** The plan's test data, read by the caller's thread (docs/adr/0027-load-profiles.md "Test data"). */
  data?: ShardDataInit;
}

const INTERVAL_MS = 1000;
/** After a failed token request, its client is held off this long so that users do not hammer the endpoint. */
const TOKEN_RETRY_MS = 1000;
const TOKEN_TIMEOUT_MS = 30_000;
/** After cancelling in-flight requests, how long undici gets to report them before the shard counts them itself. */
const FORCE_END_MS = 250;
const SWEEP_MS = 20;
/** Connections idle longer than this are closed by undici; the run's users keep theirs busy. */
const KEEP_ALIVE_MS = 60_000;
/**
 * The sweeper looks at every user of the shard for requests past their time-out: every 20 ms for a
 * few hundred users, less often for many (every 100 ms at 10,000), so that a shard of many users
 * does not spend its time looking. Time-outs are whole seconds (at least 1 s).
 */
const sweepMs = (users: number): number => Math.min(250, Math.max(SWEEP_MS, Math.ceil(users / 100)));
/**
 * Users started per turn of the event loop: thousands of users starting in one synchronous loop
 * would hold the thread (and its connect completions, ticks and time-outs) for as long as it takes
 * to open every connection. All of them still start within the first moments of the run.
 */
const START_BATCH = 500;
/**
 * Open model: the first users' connections opened before the start cover this long at the first
 * second's rate (docs/adr/0027-load-profiles.md "Connections opened before the start"), to at most PREOPEN_ORIGINS origins.
 */
const PREOPEN_MS = 25;
const PREOPEN_ORIGINS = 4;
/** The start waits this long at most for them (an agent's workers have 3 s to be ready, the warm-up takes 1). */
const PREOPEN_WAIT_MS = 1000;
/** Given to undici when the run closes its connections: one error for all of them, not one (with a stack) per user. */
const CLOSED = new Error('the run has ended');

class StepTimeoutError extends Error {
  readonly code = 'AQA_TIMEOUT';
}
class CancelledError extends Error {
  readonly code = 'AQA_CANCELLED';
}

/**
 * One virtual user. It is its own undici dispatch handler (the callback API, not promises): one
 * object per user, reused for every request, so the hot path allocates little beyond what undici
 * itself needs. Each user owns one keep-alive connection per origin (an undici Client with
 * pipelining 1): the same as a Pool with connections = users, without the pool's linear scan for
 * a free client on every request.
 */
class VirtualUser implements Dispatcher.DispatchHandler, RenderContext, DataReader {
  readonly vars: (string | undefined)[];
  readonly seq: number[];
  /** `share: "user"` test data: the next row of each source for this user. */
  readonly cursors: number[];
  running = false;
  inFlight = false;
  /**
   * Load profile only: the user ends at the end of its iteration (the line fell, the profile ended, or
   * an open-model iteration, which is always one), and at `leaveBy` (performance.now()) it is stopped.
   */
  leaving = false;
  leaveBy = Infinity;
  /** Set when the graceful stop has run out: the user ends after its request, counted as cancelled. */
  stopNow = false;
  /** Open model: performance.now() the iteration was due at, the first request's latency starts there. */
  private dueAt = 0;
  private stepPos = 0;
  /** The steps of this iteration's flow, in plan order (docs/adr/0027-load-profiles.md "3. Flows"). */
  private flowSteps: CompiledStep[];
  private skipped = 0;
  private step: CompiledStep | undefined;
  t0 = 0;
  timeoutAt = 0;
  private status = 0;
  private statusText = '';
  /** The start of an error answer's body, for its sample (docs/reference/02-running.md §3 "Errors by kind"). */
  private errorBody: Buffer[] = [];
  private errorBodyBytes = 0;
  private sentBytes = 0;
  private recvBytes = 0;
  private chunks: Buffer[] = [];
  private abortFn: ((err?: Error) => void) | null = null;
  /** Set when the engine aborts the request: the error kind to count it as. */
  private abortKind = -1;
  private timer: NodeJS.Timeout | null = null;
  private readonly clients = new Map<string, Client>();
  private readonly stepClients: (Client | undefined)[];
  private readonly view = new ReusedResponseView();

  constructor(
    readonly id: number,
    private readonly shard: Shard,
  ) {
    this.vars = new Array<string | undefined>(shard.plan.scope.variables.length);
    this.seq = new Array<number>(shard.plan.scope.moduli.length).fill(1);
    this.cursors = new Array<number>(shard.data?.sourceCount ?? 0).fill(0);
    this.stepClients = new Array<Client | undefined>(shard.plan.steps.length);
    this.flowSteps = shard.plan.flows[0]!.steps;
  }

  /**
   * Starts the user's loop; with `dueAt` (open model), one iteration whose first request is timed
   * from that instant. False when the test data had no row left for its first iteration: the user
   * has ended at once (userDone was called).
   */
  start(dueAt = 0): boolean {
    this.running = true;
    this.stepPos = 0;
    this.skipped = 0;
    this.dueAt = dueAt;
    this.leaving = this.shard.oneIteration;
    this.leaveBy = Infinity;
    this.stopNow = false;
    if (!this.beginIteration()) {
      this.finish();
      return false;
    }
    this.next();
    return true;
  }

  /** Load profile: end after the current iteration, and by `byPerf` at the latest. */
  leave(byPerf: number): void {
    this.leaving = true;
    this.leaveBy = Math.min(this.leaveBy, byPerf);
    // Already past its iteration's last request (its think time): nothing of the iteration is left.
    if (!this.inFlight && this.timer !== null && this.stepPos >= this.flowSteps.length) this.finish();
  }

  /** The graceful stop has run out: an answer still awaited is cancelled, and the user ends. */
  stopAfterGrace(err: Error): void {
    this.stopNow = true;
    if (this.inFlight) return this.abort(KIND.cancelled, err);
    // Waiting for a token: the token's answer will still call back, so the user is never started again.
    if (this.timer === null) this.forced = true;
    this.finish();
  }

  /** Runs the next step the user's iteration selects. Bound, so timers can call it directly. */
  readonly next = (): void => {
    this.timer = null;
    const shard = this.shard;
    if (shard.stopping || this.stopNow) return this.finish();
    for (;;) {
      if (this.stepPos >= this.flowSteps.length) {
        if (this.leaving) return this.finish();
        this.stepPos = 0;
        if (!this.beginIteration()) return this.finish();
      }
      const step = this.flowSteps[this.stepPos++]!;
      if (step.rate < 1 && Math.random() >= step.rate) {
        // As many steps skipped in a row as the plan holds (transactionRate): yield before looping again.
        if (++this.skipped >= shard.plan.steps.length) {
          this.skipped = 0;
          this.timer = setTimeout(this.next, 0);
          return;
        }
        continue;
      }
      this.skipped = 0;
      this.send(step);
      return;
    }
  };

  /**
   * A new iteration takes the next row of the test data into its variables, the next run-wide index
   * for its `{{sequence_number,N}}` values and, in a plan with flows, its flow. False when a non-looping
   * data source has no row left: the user ends (docs/adr/0027-load-profiles.md "Test data").
   */
  private beginIteration(): boolean {
    const data = this.shard.data;
    if (data !== null && !data.take(this)) return false;
    const moduli = this.shard.plan.scope.moduli;
    if (moduli.length === 0 && this.shard.plan.flowCycle === null) return true;
    const i = this.shard.iterations.next();
    this.flowSteps = this.shard.flowOf(i);
    for (let k = 0; k < moduli.length; k++) this.seq[k] = sequenceValue(i, moduli[k]!);
    return true;
  }

  private clientFor(step: CompiledStep, origin: string): Client {
    if (step.origin !== null) {
      const c = this.stepClients[step.index];
      if (c) return c;
    }
    let c = this.clients.get(origin);
    if (!c) {
      c = this.shard.newClient(origin, this.id);
      this.clients.set(origin, c);
    }
    if (step.origin !== null) this.stepClients[step.index] = c;
    return c;
  }

  private send(step: CompiledStep): void {
    const shard = this.shard;
    // Latency starts here: the moment the user is ready to send. The request is rendered (µs) and
    // handed to this user's own connection, where nothing queues ahead of it (pipelining 1, one
    // request in flight per user), and ends at the last byte of the response body. A stalled server
    // therefore shows in full in the user's latency (closed model: the user waits for it); the
    // generator's own saturation shows as lower throughput, never as hidden latency.
    const now = performance.now();
    if (now >= shard.endAt) return this.finish();

    let headers = step.staticHeaders;
    if (headers === null) {
      headers = [];
      for (let i = 0; i < step.headerNames.length; i++)
        headers.push(step.headerNames[i]!, step.headerValues[i]!.render(this));
    }
    if (step.oauth2 !== null) {
      const held = shard.tokens.held(step.oauth2);
      if (held === undefined || !('token' in held)) return this.awaitToken(step, held);
      headers = headers.concat('authorization', `Bearer ${held.token}`);
    }
    let origin: string;
    let path: string;
    if (step.origin !== null) {
      origin = step.origin;
      path = step.target.render(this);
    } else {
      const full = step.target.render(this);
      let u: URL;
      try {
        u = new URL(full);
      } catch (e) {
        return this.failWithoutRequest(
          step,
          KIND.other,
          `invalid URL ${JSON.stringify(full)}: ${(e as Error).message}`,
        );
      }
      origin = u.origin;
      path = u.pathname + u.search;
    }
    const body = step.body === null ? undefined : step.body.render(this);
    let sent = step.method.length + path.length + 13 + origin.length; // request line + Host
    for (let i = 0; i < headers.length; i++) sent += headers[i]!.length + 2;
    if (body !== undefined) sent += Buffer.byteLength(body) + 20;
    this.sentBytes = sent;
    this.recvBytes = 0;
    this.status = 0;
    this.statusText = '';
    this.chunks.length = 0;
    this.errorBody = [];
    this.errorBodyBytes = 0;
    this.abortFn = null;
    this.abortKind = -1;
    this.step = step;
    this.inFlight = true;
    // Open model: the iteration's first request is timed from when the schedule said it was due
    // (docs/adr/0027-load-profiles.md, "The schedule"), so a late start shows in its latency (no coordinated
    // omission); its time-out still counts from the send.
    this.t0 = this.dueAt !== 0 ? this.dueAt : now;
    this.dueAt = 0;
    this.timeoutAt = now + step.timeoutMs;
    this.dispatching = true;
    try {
      this.clientFor(step, origin).dispatch({ path, method: step.method, headers, body }, this);
    } catch (e) {
      this.inFlight = false;
      this.failWithoutRequest(step, classifyError(e), errorMessage(e));
    } finally {
      this.dispatching = false;
    }
  }

  /** No token held: a failure kept a moment ago (`failed`), or none asked for yet. */
  private awaitToken(step: CompiledStep, failed: { problem: TokenProblem } | undefined): void {
    const spec = step.oauth2!;
    if (failed !== undefined) {
      // The token endpoint failed a moment ago: count the step as failed and retry after a pause.
      const col = this.shard.collectors[step.index]!;
      col.recordFailureNoResponse(0);
      col.recordOutcome(KIND.other, tokenFailure(spec.tokenUrl, failed.problem));
      this.timer = setTimeout(this.next, this.shard.tokens.retryInMs(spec) + 1);
      return;
    }
    void this.shard.tokens.get(spec, this.shard.sendTokenRequest).then(() => {
      // The same step again (it was already chosen for this iteration), unless the run is stopping.
      if (this.shard.stopping || this.stopNow) this.finish();
      else this.send(step);
    });
  }

  private failWithoutRequest(step: CompiledStep, kind: number, message: string): void {
    this.dueAt = 0;
    const col = this.shard.collectors[step.index]!;
    col.recordFailureNoResponse(0);
    col.recordOutcome(kind, message);
    // Yield so that a plan whose every request fails synchronously cannot block the thread.
    this.timer = setTimeout(this.afterStepBound, 0);
  }

  /** Called by the shard's sweeper or by stop(); the request ends through onError. */
  abort(kind: number, err: Error): void {
    if (!this.inFlight || this.abortKind >= 0) return;
    this.abortKind = kind;
    if (this.abortFn) this.abortFn(err);
    // Not yet written (still connecting): closing the connection fails the queued request, and the
    // user's next request opens a new one.
    else {
      for (const c of this.clients.values()) void c.destroy(err).catch(() => undefined);
      this.clients.clear();
      this.stepClients.fill(undefined);
    }
  }

  /**
   * Last resort at the end of a stop: a request undici has not given back is counted as cancelled
   * now and any late callback for it is ignored, so a stop always completes.
   */
  forceEnd(): void {
    // A request still waiting for its connection was never sent: the run ends without it.
    if (this.inFlight && this.abortFn === null) {
      this.inFlight = false;
      this.forced = true;
    } else if (this.inFlight) {
      this.inFlight = false;
      this.forced = true;
      const step = this.step!;
      const col = this.shard.collectors[step.index]!;
      col.recordFailureNoResponse(this.sentBytes);
      col.recordOutcome(
        KIND.cancelled,
        col.wantsSample(KIND.cancelled)
          ? `in flight when the run stopped (${step.method} ${this.shard.plan.info[step.index]!.url})`
          : undefined,
      );
    }
    this.finish();
  }
  /** Ended by forceEnd(): a late callback of its request may still come, so it is never started again. */
  forced = false;
  /** True while inside dispatch(): undici reports invalid requests through onError synchronously. */
  private dispatching = false;

  // --- undici DispatchHandler (callback API) ---

  onConnect(abort: (err?: Error) => void): void {
    // undici calls this when it writes the request to a connected socket.
    this.abortFn = abort;
    if (this.abortKind >= 0)
      abort(
        this.abortKind === KIND.timeout ? new StepTimeoutError('timed out') : new CancelledError('cancelled'),
      );
  }

  onHeaders(statusCode: number, headers: Buffer[], _resume: () => void, statusText: string): boolean {
    if (statusCode < 200 || this.forced) return true; // 1xx: the final response follows
    this.status = statusCode;
    this.statusText = statusText;
    let n = 15 + statusText.length; // "HTTP/1.1 200 OK\r\n" + final CRLF
    for (let i = 0; i < headers.length; i++) n += headers[i]!.length + 2;
    this.recvBytes += n;
    return true;
  }

  onData(chunk: Buffer): boolean {
    this.recvBytes += chunk.length;
    if (this.step!.needsBody) this.chunks.push(chunk);
    // A few bytes more than the snippet: multi-byte characters and white space that collapses.
    else if (this.status >= 400 && this.errorBodyBytes < ERROR_BODY_SNIPPET_CHARS * 4) {
      const collector = this.shard.collectors[this.step!.index]!;
      if (collector.wantsSample(KIND.http_status)) {
        this.errorBody.push(chunk);
        this.errorBodyBytes += chunk.length;
      }
    }
    return true;
  }

  onComplete(): void {
    if (this.forced) return;
    const latencyUs = (performance.now() - this.t0) * 1000;
    this.inFlight = false;
    const step = this.step!;
    const col = this.shard.collectors[step.index]!;
    col.recordResponse(latencyUs, this.sentBytes, this.recvBytes);
    const status = this.status;
    let kind = -1;
    let message: string | undefined;
    const errorBody =
      status >= 400 && col.wantsSample(KIND.http_status)
        ? Buffer.concat(step.needsBody ? this.chunks : this.errorBody)
            .subarray(0, ERROR_BODY_SNIPPET_CHARS * 4)
            .toString('utf8')
        : undefined;
    this.errorBody = [];
    this.errorBodyBytes = 0;
    if (step.needsBody || step.assertion !== null) {
      const chunks = this.chunks;
      this.view.reset(
        status,
        chunks.length === 0 ? undefined : chunks.length === 1 ? chunks[0] : Buffer.concat(chunks),
      );
      this.chunks.length = 0;
      if (step.extraction !== null) {
        // No match leaves the variable as it was (plan contract).
        const v = step.extraction(this.view);
        if (v !== undefined) this.vars[step.extractSlot] = v;
      }
    }
    // docs/design.md §4, as every generator reads it: status ≥ 400 is an error even when a status assertion expects it.
    if (status >= 400) {
      kind = KIND.http_status;
      if (col.wantsSample(kind))
        message = httpErrorSample(
          status,
          this.statusText,
          errorBody,
          `${step.method} ${this.shard.plan.info[step.index]!.url}`,
        );
      if (status === 401 && step.oauth2 !== null) this.shard.tokens.invalidate(step.oauth2);
    } else if (step.assertion !== null) {
      // The verdict alone on every answer; the error sample is worded only when one is kept.
      if (!step.assertion.holds(this.view)) {
        kind = KIND.assertion;
        if (col.wantsSample(kind)) message = step.assertion.failure(this.view);
      }
    }
    col.recordOutcome(kind, message);
    this.afterStep();
  }

  onError(err: Error): void {
    if (this.forced) return;
    this.inFlight = false;
    const step = this.step!;
    const col = this.shard.collectors[step.index]!;
    const kind = this.abortKind >= 0 ? this.abortKind : classifyError(err);
    if (kind === KIND.cancelled && this.abortFn === null) {
      // Cancelled while still waiting for its connection: never sent, so not a request (the run's
      // total stays what the target can have received).
      this.chunks.length = 0;
      queueMicrotask(this.afterStepBound);
      return;
    }
    col.recordFailureNoResponse(this.sentBytes);
    let message: string | undefined;
    if (col.wantsSample(kind)) {
      message =
        kind === KIND.timeout && this.abortKind >= 0
          ? `no complete response within ${step.timeoutMs / 1000} s (${step.method} ${this.shard.plan.info[step.index]!.url})`
          : kind === KIND.cancelled
            ? `in flight when the run stopped (${step.method} ${this.shard.plan.info[step.index]!.url})`
            : errorMessage(err);
    }
    col.recordOutcome(kind, message);
    this.chunks.length = 0;
    // A refused connection or an invalid request fails at once; yield so that the loop can neither
    // recurse nor monopolise the thread.
    if (this.dispatching || kind === KIND.connect || kind === KIND.dns || kind === KIND.tls)
      this.timer = setTimeout(this.afterStepBound, 0);
    // Any other failure may come from inside undici's own loop over the client's queue (a connect
    // time-out fails every queued request, then asserts the queue is empty): the next request goes
    // to the same client only once that loop has returned.
    else queueMicrotask(this.afterStepBound);
  }

  private readonly afterStepBound = (): void => this.afterStep();

  private afterStep(): void {
    this.timer = null;
    const shard = this.shard;
    if (shard.stopping || this.stopNow) return this.finish();
    const think = this.step?.thinkMs ?? 0;
    if (think > 0) this.timer = setTimeout(this.next, think);
    else this.next();
  }

  /** Ends the user (after its in-flight request). Idempotent. */
  finish(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (!this.running) return;
    this.running = false;
    this.shard.userDone(this);
  }

  /** Stops a user that is between requests (think time, waiting): it sends nothing more. */
  stopIfIdle(): void {
    if (!this.inFlight && this.running && this.timer !== null) this.finish();
  }

  closeConnections(): Promise<unknown> {
    const all = [...this.clients.values()].map((c) => c.destroy(CLOSED).catch(() => undefined));
    this.clients.clear();
    return Promise.all(all);
  }
}

/**
 * A shard: a share of the run's users, with its own connections and counters, reporting an
 * interval of counters and histograms once a second. It is free of any state shared with other
 * shards except the sequence counters' memory, so a run is the same on one thread, on several, or
 * (later) on several machines.
 */
export class Shard {
  readonly collectors: StepCollector[];
  readonly iterations: IterationCounter;
  /** The plan's test data; null for a plan without data sources. */
  readonly data: ShardData | null;
  /** Plans with flows: iterations begun per flow since the last report (docs/adr/0027-load-profiles.md "3. Flows"). */
  private readonly flowIterations: number[];
  /** The shard's OAuth2 tokens: one per client, shared by all its users (docs/call-core.md). */
  readonly tokens: OAuth2Tokens;
  private readonly users: VirtualUser[] = [];
  private readonly agent: Agent;
  /** Open model: every start of a user is one iteration (docs/adr/0027-load-profiles.md, "The schedule"). */
  readonly oneIteration: boolean;
  /** The load profile this shard follows; null: every user starts at once and runs for the duration. */
  private readonly follow: ShardPlan | null;
  /** Load profile: users not running, ready to start (the open model's free pool). */
  private readonly idle: VirtualUser[] = [];
  /** Closed model: running users that are not leaving, oldest first (the youngest leave first). */
  private readonly staying: VirtualUser[] = [];
  /** Users finishing their iteration before they end, each by its `leaveBy`. */
  private readonly leavers = new Set<VirtualUser>();
  private profileTimer: NodeJS.Timeout | null = null;
  /** The profile's stages are over: the users left finish within the graceful stop, then the shard ends. */
  private profileOver = false;
  /** Open model: the run-wide number of the next iteration this shard takes (its stride of the schedule). */
  private nextIteration = 0;
  private iterationsStarted = 0;
  private iterationsDropped = 0;
  /** Open model: how late each iteration started after it was due (µs), this interval. */
  private readonly lag = new Histogram();
  stopping = false;
  /** performance.now() at which users stop starting requests. */
  endAt = Infinity;
  private startAt = 0;
  private active = 0;
  private interval = 0;
  private tickTimer: NodeJS.Timeout | null = null;
  private sweepTimer: NodeJS.Timeout | null = null;
  private endTimer: NodeJS.Timeout | null = null;
  private cancelTimer: NodeJS.Timeout | null = null;
  private finished = false;
  private resolveDone!: () => void;
  readonly done: Promise<void> = new Promise((r) => (this.resolveDone = r));
  /** Open model at a high starting rate: the first users' connections, opened before the start. */
  private preopened: PreopenedConnections | null = null;
  private readonly connectOptions:
    { rejectUnauthorized: boolean; timeout: number } | ReturnType<typeof guardedConnector>;

  constructor(
    readonly plan: CompiledPlan,
    private readonly opts: ShardOptions,
    private readonly report: (w: ShardIntervalWire) => void,
  ) {
    this.collectors = plan.steps.map(() => new StepCollector());
    this.data = opts.data === undefined ? null : new ShardData(opts.data, plan.scope);
    // The counter wraps at a multiple of the flows' cycle too, so that wrapping changes no flow.
    const moduli =
      plan.flowCycle === null ? plan.scope.moduli : [...plan.scope.moduli, plan.flowCycle.length];
    this.iterations = new IterationCounter(moduli, opts.sequenceBuffer, opts.sequenceSplit);
    this.flowIterations = plan.flowInfo.map(() => 0);
    const minTimeout = Math.min(...plan.steps.map((s) => s.timeoutMs));
    const connect = { rejectUnauthorized: !opts.insecureTls, timeout: Math.min(10_000, minTimeout) };
    this.connectOptions = opts.guard === undefined ? connect : guardedConnector(opts.guard, connect);
    this.agent = new Agent({ connect: this.connectOptions });
    this.tokens = new OAuth2Tokens({ keepFailuresMs: TOKEN_RETRY_MS });
    for (let i = 0; i < opts.users; i++) this.users.push(new VirtualUser(opts.firstUser + i, this));
    this.follow = opts.profile === undefined ? null : new ShardPlan(opts.profile);
    this.oneIteration = this.follow?.open ?? false;
    if (this.follow !== null) for (let i = this.users.length - 1; i >= 0; i--) this.idle.push(this.users[i]!);
  }

  /** A token request of this shard: over its own connections, through the target guard. */
  readonly sendTokenRequest: TokenSender = async (token) => {
    try {
      const res = await request(token.url, {
        method: token.method,
        dispatcher: this.agent,
        headers: token.headers,
        body: token.body,
        headersTimeout: TOKEN_TIMEOUT_MS,
        bodyTimeout: TOKEN_TIMEOUT_MS,
      });
      return { status: res.statusCode, body: await res.body.text() };
    } catch (error) {
      return { error: (error as Error).message };
    }
  };

  /**
   * The steps of run-wide iteration `i`'s flow, counted for the report. The cycle of the weights is
   * walked by this machine's own count of its iterations (`i` = offset + stride·j gives j; on one
   * machine j = i), which every worker takes from the one counter: so each machine — each load agent of
   * a run — runs exactly the weights' shares over every whole cycle of its own iterations, however
   * unevenly the agents progress, and the run's shares are the sum of theirs
   * (docs/adr/0027-load-profiles.md "Flows"). Walked by `i` itself, an agent of stride 2 would see only
   * the even places of a cycle of 10 — 4 : 1 instead of 7 : 3.
   */
  flowOf(i: number): CompiledStep[] {
    const cycle = this.plan.flowCycle;
    if (cycle === null) return this.plan.flows[0]!.steps;
    const f = cycle[this.iterations.ownCount(i) % cycle.length]!;
    this.flowIterations[f]!++;
    return this.plan.flows[f]!.steps;
  }

  /** `user`'s own connection to `origin` (docs/adr/0027-load-profiles.md "Connections opened before the start" for a preopened one). */
  newClient(origin: string, user: number): Client {
    return new Client(origin, {
      pipelining: 1,
      keepAliveTimeout: KEEP_ALIVE_MS,
      keepAliveMaxTimeout: KEEP_ALIVE_MS,
      // The engine enforces each step's total time-out itself (sweeper below): no per-request timers.
      headersTimeout: 0,
      bodyTimeout: 0,
      connect: this.preopened?.connectFor(user, origin) ?? this.connectOptions,
    });
  }

  /**
   * Open model: opens, before the start, a connection to each origin of the plan for the users that
   * take the first iterations — as many as the first second's highest rate starts in PREOPEN_MS
   * (docs/adr/0027-load-profiles.md "Connections opened before the start"). Nothing is sent on them before the start.
   */
  async preconnect(): Promise<void> {
    const f = this.follow;
    if (f === null || !f.open || this.finished) return;
    const firstSecond = Math.max(targetAt(f.points, 0), targetAt(f.points, 1000));
    const count = Math.min(
      this.idle.length,
      Math.ceil(((firstSecond / f.options.shards) * PREOPEN_MS) / 1000),
    );
    const origins = [
      ...new Set(this.plan.steps.map((s) => s.origin).filter((o): o is string => o !== null)),
    ].slice(0, PREOPEN_ORIGINS);
    if (count === 0 || origins.length === 0) return;
    this.preopened = new PreopenedConnections(this.connectOptions);
    // The idle users are taken from the end: these are the first ones the schedule starts.
    const users = this.idle.slice(-count).map((u) => u.id);
    await this.preopened.open(users, origins, PREOPEN_WAIT_MS);
    // A stop during the opening has ended the shard: nothing may stay open.
    if (this.finished) this.preopened.closeAll();
  }

  /**
   * Starts every user now; users stop starting requests `durationMs` later.
   * `startPerfMs` is this thread's performance.now() of the run's common start.
   */
  start(startPerfMs: number, durationMs: number): void {
    // A profile's shard stopped before its start has already ended (beginStop).
    if (this.finished) return;
    this.startAt = startPerfMs;
    this.lastElu = performance.eventLoopUtilization();
    if (this.follow !== null) return this.startProfile(this.follow);
    this.endAt = startPerfMs + durationMs;
    this.scheduleTick();
    this.sweepTimer = setInterval(() => this.sweep(), sweepMs(this.users.length));
    this.endTimer = setTimeout(
      () => this.beginStop(this.opts.endGraceMs),
      Math.max(0, this.endAt - performance.now()),
    );
    this.active = this.users.length;
    if (this.active === 0) {
      this.complete();
      return;
    }
    this.startBatch(0);
  }

  private startBatch(from: number): void {
    if (this.stopping) {
      // Users the stop came before never send anything.
      this.active -= this.users.length - from;
      if (this.active === 0) this.complete();
      return;
    }
    const end = Math.min(this.users.length, from + START_BATCH);
    for (let i = from; i < end; i++) this.users[i]!.start();
    if (end < this.users.length) setImmediate(() => this.startBatch(end));
  }

  /**
   * Follows the profile instead of `durationMs`: users come and go with the line (closed model) or
   * iterations start on the schedule (open model) until the stages end, then the users left get the
   * graceful stop to finish their iteration (docs/adr/0027-load-profiles.md, "The profile" and
   * "The schedule").
   */
  private startProfile(f: ShardPlan): void {
    this.scheduleTick();
    this.sweepTimer = setInterval(() => this.sweep(), sweepMs(this.users.length));
    // 1 ms past the end, so that an iteration due at the very end has been started (timers may fire
    // up to a millisecond early).
    this.endTimer = setTimeout(
      () => this.endProfile(),
      Math.max(0, this.startAt + f.lengthMs + 1 - performance.now()),
    );
    if (f.open) {
      this.nextIteration = f.options.index;
      this.scheduleArrival();
    } else this.followLine();
  }

  /** Closed model: as many users running as the shard's share of the line now; then wait for its next change. */
  private readonly followLine = (): void => {
    this.profileTimer = null;
    if (this.stopping || this.profileOver) return;
    const f = this.follow!;
    const atMs = performance.now() - this.startAt;
    const share = f.shareAt(atMs);
    const now = performance.now();
    // A user that finds no row left ends at once: no more are started until the line next changes.
    while (this.staying.length < share) if (!this.startStaying()) break;
    while (this.staying.length > share) {
      const u = this.staying.pop()!;
      this.leavers.add(u);
      u.leave(now + f.gracefulStopMs);
    }
    const next = f.nextChangeMs(atMs, share);
    if (next !== undefined)
      this.profileTimer = setTimeout(this.followLine, Math.max(0, this.startAt + next - performance.now()));
  };

  /**
   * One more staying user: a leaving one still in its iteration is kept (the youngest), else an idle
   * one starts. False when the started one ended at once for want of test data.
   */
  private startStaying(): boolean {
    let kept: VirtualUser | undefined;
    for (const u of this.leavers) if (u.running && !u.stopNow) kept = u;
    if (kept !== undefined) {
      this.leavers.delete(kept);
      kept.leaving = false;
      kept.leaveBy = Infinity;
      this.staying.push(kept);
      return true;
    }
    const u = this.takeIdle();
    this.staying.push(u);
    this.active++;
    return u.start();
  }

  private takeIdle(): VirtualUser {
    const u = this.idle.pop();
    if (u !== undefined) return u;
    const fresh = new VirtualUser(this.opts.firstUser + this.users.length, this);
    this.users.push(fresh);
    return fresh;
  }

  /** Open model: wait for this shard's next iteration in the schedule. */
  private scheduleArrival(): void {
    this.profileTimer = null;
    const due = this.follow!.schedule!.dueMs(this.nextIteration);
    if (due === undefined) return;
    this.profileTimer = setTimeout(this.arrive, Math.max(0, this.startAt + due - performance.now()));
  }

  /**
   * Open model: every iteration of this shard's stride whose time has come starts on a free user of the
   * pool, timed from when it was due; none free, it is dropped and counted, and not started later (a
   * pool too small shows as dropped iterations, never as a lower rate passed off as the plan's).
   */
  private readonly arrive = (atEnd = false): void => {
    const f = this.follow!;
    const schedule = f.schedule!;
    const now = performance.now();
    // The second whose report is still to come: when the loop runs late past its end, the iterations
    // due after it wait for that report, so each is counted in the second it was due.
    const reportAt = this.startAt + (this.interval + 1) * INTERVAL_MS;
    for (;;) {
      const due = schedule.dueMs(this.nextIteration);
      if (due === undefined || this.startAt + due > now) break;
      if (!atEnd && now >= reportAt && this.startAt + due >= reportAt) {
        // The report's timer has expired before this one's: it runs first.
        this.profileTimer = setTimeout(this.arrive, 0);
        return;
      }
      this.nextIteration += f.options.shards;
      const u = this.idle.pop();
      if (u === undefined) {
        this.iterationsDropped++;
        continue;
      }
      this.active++;
      // Without a row of test data left the iteration is not started: counted as such, not as dropped.
      if (!u.start(this.startAt + due)) continue;
      this.iterationsStarted++;
      this.lag.record((now - this.startAt - due) * 1000);
    }
    if (!this.stopping && !this.profileOver) this.scheduleArrival();
  };

  /** The stages are over: every user still running finishes its iteration within the graceful stop. */
  private endProfile(): void {
    if (this.stopping || this.profileOver) return;
    const f = this.follow!;
    if (f.open) {
      this.arrive(true);
      // Any iteration of the stride not yet started (none, unless the clock jumped) is dropped, not lost.
      while (f.schedule!.dueMs(this.nextIteration) !== undefined) {
        this.iterationsDropped++;
        this.nextIteration += f.options.shards;
      }
    }
    if (this.profileTimer) clearTimeout(this.profileTimer);
    this.profileTimer = null;
    this.profileOver = true;
    this.staying.length = 0;
    const by = performance.now() + f.gracefulStopMs;
    for (const u of this.users) {
      if (!u.running) continue;
      this.leavers.add(u);
      u.leave(by);
    }
    if (this.active === 0) this.complete();
  }

  /** Graceful stop: no new requests; in-flight ones get `graceMs` to finish, then count as cancelled. */
  stop(graceMs: number): void {
    this.endAt = Math.min(this.endAt, performance.now());
    this.beginStop(graceMs);
  }

  private beginStop(graceMs: number): void {
    if (this.stopping) return;
    this.stopping = true;
    if (this.endTimer) clearTimeout(this.endTimer);
    if (this.profileTimer) clearTimeout(this.profileTimer);
    for (const u of this.users) u.stopIfIdle();
    if (this.finished) return;
    // A profile's shard may have no user running (the line at 0, the pool idle): nothing to wait for.
    if (this.follow !== null && this.active === 0) return this.complete();
    this.cancelTimer = setTimeout(() => {
      const err = new CancelledError('cancelled');
      for (const u of this.users) u.abort(KIND.cancelled, err);
      // Users still waiting for a token end without a request.
      for (const u of this.users) if (!u.inFlight) u.finish();
      this.cancelTimer = setTimeout(() => {
        for (const u of this.users) if (u.running) u.forceEnd();
      }, FORCE_END_MS);
    }, graceMs);
  }

  userDone(u: VirtualUser): void {
    this.active--;
    if (this.follow === null) {
      if (this.active === 0) this.complete();
      return;
    }
    // A load profile's user goes back to the idle users (the line may rise again, the pool takes it),
    // unless it was ended by force: a late callback of its request may still come.
    if (this.leavers.size > 0) this.leavers.delete(u);
    if (!this.oneIteration) {
      const at = this.staying.indexOf(u);
      if (at >= 0) this.staying.splice(at, 1);
    }
    if (!u.forced) this.idle.push(u);
    if (this.active === 0 && (this.profileOver || this.stopping)) this.complete();
  }

  private sweep(): void {
    const now = performance.now();
    for (let i = 0; i < this.users.length; i++) {
      const u = this.users[i]!;
      if (u.inFlight && now >= u.timeoutAt) u.abort(KIND.timeout, new StepTimeoutError('timed out'));
    }
    if (this.leavers.size > 0) this.sweepLeavers(now);
  }

  /**
   * Users past their graceful stop: an answer still awaited is cancelled (counted as such), and one
   * undici has not given back FORCE_END_MS later is ended by force, as at the end of a run.
   */
  private sweepLeavers(now: number): void {
    for (const u of this.leavers) {
      if (now < u.leaveBy) continue;
      if (!u.stopNow) u.stopAfterGrace(new CancelledError('cancelled'));
      else if (u.running && now >= u.leaveBy + FORCE_END_MS) u.forceEnd();
    }
  }

  private scheduleTick(): void {
    const due = this.startAt + (this.interval + 1) * INTERVAL_MS;
    this.tickTimer = setTimeout(() => this.tick(), Math.max(0, due - performance.now()));
  }

  private tick(): void {
    if (this.finished) return;
    // A saturated event loop runs this late: what is drained then covers every second since the
    // last tick, so it is reported as the latest second that has ended, and its rates come out
    // over the real time (the seconds in between have no report from this shard).
    const ended = Math.floor((performance.now() - this.startAt) / INTERVAL_MS) - 1;
    if (ended > this.interval) this.interval = ended;
    this.report(this.drain(false));
    this.interval++;
    this.scheduleTick();
  }

  private lastElu: EventLoopUtilization | undefined;

  private drain(final: boolean): ShardIntervalWire {
    const now = performance.now();
    const elu = performance.eventLoopUtilization();
    const busy = this.lastElu
      ? performance.eventLoopUtilization(elu, this.lastElu).utilization
      : elu.utilization;
    this.lastElu = elu;
    return {
      shard: this.opts.shard,
      interval: this.interval,
      final,
      // Never before the start: a worker whose clock reads the common start a little later than the
      // caller's (each thread converts the epoch start with its own timeOrigin) would otherwise end a
      // short shard at a negative time, and the server refuses the whole batch of its events.
      endMs: final ? Math.max(0, now - this.startAt) : (this.interval + 1) * INTERVAL_MS,
      activeUsers: final ? 0 : this.active,
      busy,
      steps: this.collectors.map((c) => c.drain()),
      ...(this.oneIteration ? this.drainIterations() : {}),
      ...this.drainData(),
      ...(this.flowIterations.length > 0 ? { flows: this.drainFlows() } : {}),
    };
  }

  /** Users (or open-model iterations) that found no row left since the last report, by data source. */
  private drainData(): { dataEnded?: number[] } {
    const ended = this.data?.drain();
    return ended === undefined ? {} : { dataEnded: ended };
  }

  /** Plans with flows: iterations begun per flow since the last report. */
  private drainFlows(): number[] {
    const counts = [...this.flowIterations];
    this.flowIterations.fill(0);
    return counts;
  }

  /** Open model: iterations started and dropped since the last report, and the started ones' lag. */
  private drainIterations(): { iterations: number; dropped: number; lag: EncodedHistogram } {
    const counts = {
      iterations: this.iterationsStarted,
      dropped: this.iterationsDropped,
      lag: this.lag.encode(),
    };
    this.iterationsStarted = 0;
    this.iterationsDropped = 0;
    this.lag.reset();
    return counts;
  }

  private complete(): void {
    if (this.finished) return;
    this.finished = true;
    for (const t of [this.tickTimer, this.endTimer, this.cancelTimer, this.profileTimer])
      if (t) clearTimeout(t);
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.report(this.drain(true));
    this.preopened?.closeAll();
    void Promise.all([
      ...this.users.map((u) => u.closeConnections()),
      this.agent.destroy().catch(() => undefined),
    ]).then(() => this.resolveDone());
  }
}
