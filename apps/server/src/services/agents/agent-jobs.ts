import type { AgentJob } from '@aqa/engine';
import type { Redis } from 'ioredis';
import { agentJobsKey, agentWakeChannel, runAgentsKey, runStopKey } from './agent-keys';

/** The run an agent job belongs to. */
export function jobRunId(job: AgentJob): string {
  return job.kind === 'shard' ? job.shard.run_id : job.locust_worker.run_id;
}

/**
 * The agents' jobs (docs/adr/0023-agents-over-http.md): a list in Redis per agent, which the runs
 * push to and the agent's next-job call pops from, on whichever replica each happens. A push
 * publishes on the agent's wake channel, so a replica holding that agent's call open takes the job at
 * once; the call otherwise ends after its wait with no job. One subscriber connection per replica
 * carries every wake.
 */
export class AgentJobs {
  private readonly waiters = new Map<string, Set<() => void>>();
  private subscribed: Promise<void> = Promise.resolve();
  private closing = false;

  constructor(
    private readonly redis: Redis,
    /** A connection of its own, in subscriber mode from the first wait on. */
    private readonly subscriber: Redis,
  ) {
    subscriber.on('message', (channel: string) => this.wake(channel));
  }

  /**
   * Names the run's agents and their indexes (only they may write its events), for `holdMs` at most
   * should this server die; written before their jobs are queued.
   */
  async assign(
    runId: string,
    agents: readonly { agentId: string; index: number }[],
    holdMs: number,
  ): Promise<void> {
    const key = runAgentsKey(runId);
    const multi = this.redis.multi();
    for (const { agentId, index } of agents) multi.hset(key, agentId, String(index));
    await execOrThrow(multi.pexpire(key, holdMs));
  }

  /** Queues the job for the agent and wakes its next-job call; answers the job's text (to withdraw it). */
  async push(agentId: string, job: AgentJob, holdMs: number): Promise<string> {
    const text = JSON.stringify(job);
    const key = agentJobsKey(agentId);
    await execOrThrow(this.redis.multi().rpush(key, text).pexpire(key, holdMs));
    await this.redis.publish(agentWakeChannel(agentId), '1');
    return text;
  }

  /** Takes back the run's jobs that no agent took yet. */
  async withdraw(jobs: readonly { agentId: string; text: string }[]): Promise<void> {
    if (jobs.length === 0) return;
    const multi = this.redis.multi();
    for (const { agentId, text } of jobs) multi.lrem(agentJobsKey(agentId), 0, text);
    await execOrThrow(multi);
  }

  /**
   * The agent's next job, waiting up to `waitMs` for one; null when none came, the call was given up
   * (`signal`) or the server stops. A job whose run was stopped or ended meanwhile is dropped.
   */
  async take(agentId: string, waitMs: number, signal: AbortSignal): Promise<AgentJob | null> {
    const channel = agentWakeChannel(agentId);
    let woken: boolean;
    let wakeNow: () => void = () => undefined;
    const onWake = (): void => {
      woken = true;
      wakeNow();
    };
    const set = this.waiters.get(channel) ?? new Set();
    if (set.size === 0) {
      this.waiters.set(channel, set);
      const subscribing = this.subscriber.subscribe(channel).then(() => undefined);
      this.subscribed = subscribing.catch(() => undefined);
      await subscribing;
    }
    set.add(onWake);
    const deadline = Date.now() + waitMs;
    try {
      for (;;) {
        if (signal.aborted || this.closing) return null;
        woken = false;
        const job = await this.pop(agentId);
        if (job !== null) return job;
        const left = deadline - Date.now();
        if (left <= 0) return null;
        if (!woken)
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, left);
            const done = (): void => {
              clearTimeout(timer);
              signal.removeEventListener('abort', done);
              resolve();
            };
            wakeNow = done;
            signal.addEventListener('abort', done, { once: true });
          });
        wakeNow = () => undefined;
      }
    } finally {
      set.delete(onWake);
      if (set.size === 0) {
        this.waiters.delete(channel);
        await this.subscribed;
        // Another call may have subscribed again meanwhile.
        if (!this.waiters.has(channel)) await this.subscriber.unsubscribe(channel).catch(() => undefined);
      }
    }
  }

  /** Puts back a job taken for a call that hung up before it was answered: the agent's next call gets it. */
  async putBack(agentId: string, job: AgentJob): Promise<void> {
    await this.redis.lpush(agentJobsKey(agentId), JSON.stringify(job));
  }

  /** Every call waiting for a job answers now, with none (the server stops). */
  endWaits(): void {
    this.closing = true;
    for (const set of this.waiters.values()) for (const wake of set) wake();
  }

  private wake(channel: string): void {
    for (const wake of this.waiters.get(channel) ?? []) wake();
  }

  /** Pops jobs until one whose run still wants it, or none is left. */
  private async pop(agentId: string): Promise<AgentJob | null> {
    for (;;) {
      const text = await this.redis.lpop(agentJobsKey(agentId));
      if (text === null) return null;
      const job = JSON.parse(text) as AgentJob;
      const runId = jobRunId(job);
      const [stopped, assigned] = await Promise.all([
        this.redis.exists(runStopKey(runId)),
        this.redis.hexists(runAgentsKey(runId), agentId),
      ]);
      if (stopped === 0 && assigned === 1) return job;
    }
  }
}

/** Runs a MULTI and throws the first command's error, if any. */
export async function execOrThrow(multi: ReturnType<Redis['multi']>): Promise<void> {
  const replies = (await multi.exec()) ?? [];
  for (const [error] of replies) if (error) throw error;
}
