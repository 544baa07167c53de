import type {
  AgentHeartbeatAnswer,
  AgentHeartbeatRequest,
  AgentJob,
  AgentRegisterRequest,
  AgentRegistration,
  ShardEvent,
  ShardEventsAnswer,
} from '@aqa/engine';
import type { AgentInfo } from '@aqa/plan';
import type { Redis } from 'ioredis';
import type { AttemptWindow } from '../../auth/rate-limiter';
import { RateLimitedError, ServiceUnavailableError } from '../../errors';
import type { AgentEvents } from './agent-events';
import type { AgentJobs } from './agent-jobs';
import type { AgentRegistry } from './agent-registry';

/** Said when this server has no Redis: agents register, queue and stream through it. */
export const AGENTS_UNAVAILABLE =
  'Load agents need Redis: set REDIS_URL on the server (redis://host:6379) and restart it. Until then, runs go on this server.';

/**
 * How many calls the agent routes take (docs/adr/0023-agents-over-http.md "Limits"): an agent makes about
 * one heartbeat, one or two event posts and at most one next-job call a second, so these leave room
 * fivefold and are never met by a working agent; a loop calling as fast as it can is.
 */
export const AGENT_CALL_LIMITS = {
  /** Calls per agent. */
  perAgent: { limit: 300, windowMs: 10_000 },
  /** Calls per user, over all of the user's agents (50 busy agents stay well under). */
  perUser: { limit: 3000, windowMs: 10_000 },
  /** Registrations per user. */
  registrations: { limit: 60, windowMs: 600_000 },
} as const;

/** The windows the limits are counted in (in Redis, shared by every replica). */
export interface AgentCallWindows {
  perAgent: AttemptWindow;
  perUser: AttemptWindow;
  registrations: AttemptWindow;
}

/** The parts of the agents' side that need Redis. */
export interface AgentBackends {
  /** The agents' command connection. */
  redis: Redis;
  registry: AgentRegistry;
  jobs: AgentJobs;
  events: AgentEvents;
  windows: AgentCallWindows;
}

/**
 * The agents calls (docs/adr/0021-load-agents.md "Server side", docs/adr/0023-agents-over-http.md): the
 * user's list, and the calls of the agents themselves, each checked against the agent's owner and
 * counted against the limits; 503 AGENTS_UNAVAILABLE without Redis.
 */
export class AgentsService {
  constructor(private readonly backends: AgentBackends | undefined) {}

  /** The registry, or the refusal in words when the server has no Redis. */
  available(): AgentRegistry {
    return this.parts().registry;
  }

  async register(userId: string, request: AgentRegisterRequest): Promise<AgentRegistration> {
    const { registry, windows } = this.parts();
    await this.count(windows.registrations, userId, AGENT_CALL_LIMITS.registrations, 'registered agents');
    return registry.register(userId, request);
  }

  list(userId: string): Promise<AgentInfo[]> {
    return this.available().list(userId);
  }

  forget(userId: string, agentId: string): Promise<void> {
    return this.available().forget(userId, agentId);
  }

  async heartbeat(
    userId: string,
    agentId: string,
    beat: AgentHeartbeatRequest,
  ): Promise<AgentHeartbeatAnswer> {
    await this.agentCall(userId, agentId);
    return this.parts().registry.heartbeat(userId, agentId, beat);
  }

  /** The agent's next job, waiting up to `waitMs`; `signal` ends the wait when the agent hangs up. */
  async nextJob(
    userId: string,
    agentId: string,
    waitMs: number,
    signal: AbortSignal,
  ): Promise<AgentJob | null> {
    await this.agentCall(userId, agentId);
    await this.parts().registry.mine(userId, agentId);
    const job = await this.parts().jobs.take(agentId, waitMs, signal);
    // The agent hung up while the job was taken: it stays for its next call.
    if (job !== null && signal.aborted) {
      await this.parts().jobs.putBack(agentId, job);
      return null;
    }
    return job;
  }

  async postEvents(
    userId: string,
    agentId: string,
    runId: string,
    firstSeq: number,
    events: readonly ShardEvent[],
  ): Promise<ShardEventsAnswer> {
    await this.agentCall(userId, agentId);
    await this.parts().registry.mine(userId, agentId);
    return this.parts().events.append(agentId, runId, firstSeq, events);
  }

  private parts(): AgentBackends {
    if (this.backends === undefined)
      throw new ServiceUnavailableError('AGENTS_UNAVAILABLE', AGENTS_UNAVAILABLE);
    return this.backends;
  }

  /** Counts one call of the agent, and of its user, against their limits. */
  private async agentCall(userId: string, agentId: string): Promise<void> {
    const { windows } = this.parts();
    await this.count(windows.perUser, userId, AGENT_CALL_LIMITS.perUser, 'calls of your agents');
    await this.count(windows.perAgent, `${userId}:${agentId}`, AGENT_CALL_LIMITS.perAgent, 'calls');
  }

  private async count(
    window: AttemptWindow,
    key: string,
    limit: { limit: number; windowMs: number },
    what: string,
  ): Promise<void> {
    const decision = await window.consume(key);
    if (decision.allowed) return;
    const per = `${limit.limit} ${what} in ${limit.windowMs / 1000 >= 60 ? `${limit.windowMs / 60_000} minutes` : `${limit.windowMs / 1000} seconds`}`;
    const who = what === 'calls' ? 'This agent made more than' : 'There were more than';
    throw new RateLimitedError(
      'AGENT_RATE_LIMITED',
      `${who} ${per}; try again in ${decision.retryAfterS} s. A working agent stays far below this: is one calling in a loop?`,
      decision.retryAfterS,
    );
  }
}
