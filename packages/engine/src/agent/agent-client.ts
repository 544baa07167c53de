/**
 * The agent's calls to its server after registration (docs/adr/0023-agents-over-http.md): heartbeat,
 * next job, shard events, leave — all HTTP(S) with the agent's token, on the paths the registration
 * named. An answer the agent cannot use is an AgentCallError that says whether trying again may help.
 */
import { AgentHeartbeatAnswerSchema, AgentNextJobAnswerSchema, ShardEventsAnswerSchema } from '@aqa/plan';
import type { z } from 'zod';
import { networkReason, serverReason } from '../cli/remote-client';
import {
  RUN_ID_PLACEHOLDER,
  type AgentHeartbeatAnswer,
  type AgentHeartbeatRequest,
  type AgentJob,
  type AgentRegistration,
  type ShardEvent,
  type ShardEventsAnswer,
  type ShardEventsPost,
} from './protocol';

/** A call that did not give its answer; `retry` says whether the same call may succeed later. */
export class AgentCallError extends Error {
  constructor(
    message: string,
    /** The HTTP status, or null when no answer came (network, time-out). */
    readonly status: number | null,
    /** Network errors, time-outs, 5xx and 429: the same call may succeed later. */
    readonly retry: boolean,
    /** Seconds the server asked to wait (Retry-After of a 429), or null. */
    readonly retryAfterS: number | null = null,
  ) {
    super(message);
    this.name = 'AgentCallError';
  }
}

/** How long a heartbeat, an events post or a leave may take before it counts as failed. */
const CALL_TIMEOUT_MS = 15_000;
/** A next-job call may take its wait plus this. */
const JOB_CALL_SLACK_MS = 15_000;

export class AgentClient {
  constructor(
    private readonly server: string,
    private readonly token: string,
    private readonly registration: AgentRegistration,
  ) {}

  /** PUT heartbeat: the agent is alive and runs `runId` (or nothing); answers whether to stop it. */
  heartbeat(runId: string | null, offline = false): Promise<AgentHeartbeatAnswer> {
    const body: AgentHeartbeatRequest = { run_id: runId, ...(offline ? { offline: true } : {}) };
    return this.call('PUT', this.registration.paths.heartbeat, body, AgentHeartbeatAnswerSchema);
  }

  /** POST next_job: waits up to `waitMs` on the server for a job; null when none came. */
  async nextJob(waitMs: number, signal: AbortSignal): Promise<AgentJob | null> {
    const answer = await this.call(
      'POST',
      this.registration.paths.next_job,
      { wait_ms: waitMs },
      AgentNextJobAnswerSchema,
      AbortSignal.any([signal, AbortSignal.timeout(waitMs + JOB_CALL_SLACK_MS)]),
    );
    // The shapes agree (apps/server/src/routes/agent.routes.ts checks it); the plan is read by the engine.
    return answer.job as AgentJob | null;
  }

  /** POST events of `runId`, numbered from `firstSeq`. */
  postEvents(runId: string, firstSeq: number, events: ShardEvent[]): Promise<ShardEventsAnswer> {
    const body: ShardEventsPost = { first_seq: firstSeq, events };
    return this.call('POST', this.eventsPath(runId), body, ShardEventsAnswerSchema);
  }

  eventsPath(runId: string): string {
    return this.registration.paths.events.replace(RUN_ID_PLACEHOLDER, encodeURIComponent(runId));
  }

  private async call<S extends z.ZodType>(
    method: 'PUT' | 'POST',
    path: string,
    body: unknown,
    schema: S,
    signal: AbortSignal = AbortSignal.timeout(CALL_TIMEOUT_MS),
  ): Promise<z.infer<S>> {
    let response: Response;
    try {
      response = await fetch(`${this.server}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${this.token}`,
          accept: 'application/json',
          'content-type': 'application/json',
        },
        body: JSON.stringify(body),
        signal,
      });
    } catch (error) {
      const what = signal.aborted ? 'no answer in time' : networkReason(error);
      throw new AgentCallError(`cannot reach the server at ${this.server}: ${what}`, null, true);
    }
    if (!response.ok) {
      const reason = await serverReason(response);
      const status = response.status;
      const retryAfter = Number(response.headers.get('retry-after'));
      throw new AgentCallError(
        `the server at ${this.server} answered ${method} ${path} with ${status}: ${reason}`,
        status,
        status >= 500 || status === 429,
        Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null,
      );
    }
    let raw: unknown;
    try {
      raw = await response.json();
    } catch (error) {
      throw new AgentCallError(
        `the server at ${this.server} answered ${method} ${path} with something that is not JSON: ${(error as Error).message}`,
        response.status,
        true,
      );
    }
    const parsed = schema.safeParse(raw);
    if (!parsed.success)
      throw new AgentCallError(
        `the server at ${this.server} answered ${method} ${path} in a shape this aqa does not read (${parsed.error.issues[0]?.message ?? 'unknown'}); download the CLI again from the server`,
        response.status,
        false,
      );
    return parsed.data;
  }
}
