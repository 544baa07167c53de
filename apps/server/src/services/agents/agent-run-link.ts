import type { AgentJob } from '@aqa/engine';
import type { Redis } from 'ioredis';
import type { AgentJobs } from './agent-jobs';
import { runAgentsKey, runEventSeqKey, runStopKey, runStreamKey } from './agent-keys';
import { openAgentRedis } from './agent-redis';
import type { AgentRegistry } from './agent-registry';
import { ShardStreamReader, type ShardStreamHandlers } from './shard-stream-reader';

/** What a run on agents reaches its agents through: all of it in the servers' Redis. */
export interface AgentRunContext {
  registry: AgentRegistry;
  jobs: AgentJobs;
  /** The agents' command connection of this server. */
  redis: Redis;
  /** The Redis URL, for the run's own stream reader connection. */
  redisUrl: string;
}

/** The stop outlives any agent that could still take the run's job. */
const STOP_KEY_TTL_MS = 10 * 60_000;

/**
 * One run's links to its agents (docs/adr/0023-agents-over-http.md): who they are (only they may write
 * its events), their jobs, the stop their heartbeat and events answers carry, and the clean-up at the end.
 */
export class AgentRunLink {
  private readonly pushed: { agentId: string; text: string }[] = [];

  constructor(
    private readonly ctx: AgentRunContext,
    readonly runId: string,
  ) {}

  /** Names the run's agents, then queues each its job; all held `holdMs` at most should this server die. */
  async dispatch(
    jobs: readonly { agentId: string; index: number; job: AgentJob }[],
    holdMs: number,
  ): Promise<void> {
    await this.ctx.jobs.assign(this.runId, jobs, holdMs);
    for (const { agentId, job } of jobs)
      this.pushed.push({ agentId, text: await this.ctx.jobs.push(agentId, job, holdMs) });
  }

  /** Reads the run's events as the agents' posts append them, on a connection of its own. */
  reader(handlers: ShardStreamHandlers): ShardStreamReader {
    return new ShardStreamReader(
      openAgentRedis(this.ctx.redisUrl, `aqa-run-${this.runId}-stream`),
      this.runId,
      handlers,
    );
  }

  /** The run is stopped: each agent hears it at its next heartbeat or events post. */
  async stop(): Promise<void> {
    await this.ctx.redis.set(runStopKey(this.runId), '1', 'PX', STOP_KEY_TTL_MS);
  }

  /** At the run's end: jobs not taken are withdrawn, its keys deleted (its agents' events refused from now on), the agents released. */
  async cleanUp(agentIds: readonly string[]): Promise<void> {
    await this.ctx.jobs.withdraw(this.pushed);
    await this.ctx.redis.del(runStreamKey(this.runId), runAgentsKey(this.runId), runEventSeqKey(this.runId));
    await this.ctx.registry.release(agentIds, this.runId);
  }
}
