import type { AgentJob, EngineLogger, ShardEvent } from '@aqa/engine';
import type { RunAgent } from '@aqa/plan';
import type { Redis } from 'ioredis';
import type { AgentJobs } from './agent-jobs';
import {
  agentHeartbeatKey,
  runAgentsKey,
  runEventSeqKey,
  runStopKey,
  runStreamKey,
  type AgentHeartbeat,
} from './agent-keys';
import { openAgentRedis } from './agent-redis';
import type { AgentRegistry } from './agent-registry';
import { RunAgentState, type PlacedAgent } from './run-agents';
import { ShardStreamReader } from './shard-stream-reader';

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

/** The one sentence a run says when another run claimed one of its agents between placement and claim. */
export const AGENTS_TAKEN =
  'Another run took one of the chosen agents just now; start this run again, or run on this server.';

/** How a fleet follows its agents. */
export interface AgentFleetOptions {
  /** How often the agents' heartbeat keys are read. */
  monitorMs: number;
  /** Logged when the run's stream cannot be read (each runner says which stream it reads). */
  streamError: string;
}

/** What the heartbeat monitor asks of the run. */
export interface FleetMonitor {
  /** Epoch ms from which the run counts its seconds ("at second 5"); null while the load has not started. */
  since: () => number | null;
  /** How a lost agent's words end when it never beat for this run: "before its share started". */
  beforeStart: string;
  /** An agent still beating but out of time, in words; null when it is in time. */
  deadline?: (state: RunAgentState, now: number) => string | null;
  /** An agent is lost, in these words (the run decides what that means for it). */
  onLost: (state: RunAgentState, message: string) => void;
}

/**
 * The fleet mechanics of one run on load agents (docs/adr/0021-load-agents.md "Server side",
 * docs/adr/0023-agents-over-http.md), the same whatever the agents run (built-in engine shards or Locust
 * workers): the claim on the agents, the run's agent list and their jobs, the run's shard stream read on
 * a connection of its own beside this server's command connection, the heartbeat monitor, the stop key
 * their heartbeat and events answers carry, and the clean-up at the end. What the agents' events mean —
 * the merge, the master, the ending — is the runner's.
 */
export class AgentFleet {
  readonly states: RunAgentState[];
  private readonly reader: ShardStreamReader;
  /** Each job as queued, to withdraw it should no agent have taken it by the end. */
  private readonly pushed: { agentId: string; text: string }[] = [];
  private timer: NodeJS.Timeout | undefined;
  private checking = false;
  private closed = false;

  constructor(
    readonly runId: string,
    agents: readonly PlacedAgent[],
    private readonly context: AgentRunContext,
    private readonly log: EngineLogger,
    private readonly options: AgentFleetOptions,
    onEvent: (event: ShardEvent) => void,
  ) {
    this.states = agents.map((agent, i) => new RunAgentState(agent, i));
    // Read from the start: an agent's first words may come as soon as its job is queued.
    this.reader = new ShardStreamReader(openAgentRedis(context.redisUrl, `aqa-run-${runId}-stream`), runId, {
      onEvent,
      onError: (error) => this.log.error({ err: error }, options.streamError),
    });
  }

  private get agentIds(): string[] {
    return this.states.map((s) => s.placed.agent_id);
  }

  /** Holds every agent for the run, `holdMs` at most should this server die; throws AGENTS_TAKEN when another run took one first. */
  async claim(holdMs: number): Promise<void> {
    if (!(await this.context.registry.claim(this.agentIds, this.runId, holdMs)))
      throw new Error(AGENTS_TAKEN);
  }

  /** Names the run's agents (only they may write its events), then queues each its job, all held `holdMs` at most. */
  async dispatch(jobOf: (state: RunAgentState) => AgentJob, holdMs: number): Promise<void> {
    const jobs = this.states.map((state) => ({
      agentId: state.placed.agent_id,
      index: state.index,
      job: jobOf(state),
    }));
    await this.context.jobs.assign(this.runId, jobs, holdMs);
    for (const { agentId, job } of jobs)
      this.pushed.push({ agentId, text: await this.context.jobs.push(agentId, job, holdMs) });
  }

  /**
   * Reads the live agents' heartbeat keys every `monitorMs` until close(): an agent whose key expired is
   * lost "stopped sending heartbeats at second 5"; one still beating is asked `deadline`.
   */
  monitor(watch: FleetMonitor): void {
    if (this.closed || this.timer !== undefined) return;
    this.timer = setInterval(() => void this.check(watch), this.options.monitorMs);
  }

  private async check(watch: FleetMonitor): Promise<void> {
    if (this.checking || this.closed) return;
    this.checking = true;
    try {
      const live = this.states.filter((s) => !s.ended);
      if (live.length === 0) return;
      const beats = await this.context.redis.mget(live.map((s) => agentHeartbeatKey(s.placed.agent_id)));
      const now = Date.now();
      live.forEach((state, i) => {
        const text = beats[i] ?? null;
        if (text === null) {
          const when = this.when(state, watch.since(), watch.beforeStart);
          watch.onLost(state, `agent ${state.placed.name} stopped sending heartbeats ${when}`);
          return;
        }
        state.lastBeatAt = (JSON.parse(text) as AgentHeartbeat).at;
        const late = watch.deadline?.(state, now) ?? null;
        if (late !== null) watch.onLost(state, late);
      });
    } catch (error) {
      this.log.error({ err: error }, "Could not read the load agents' heartbeats");
    } finally {
      this.checking = false;
    }
  }

  /** "at second 5" of the run counted from `since`, from the agent's last heartbeat. */
  when(state: RunAgentState, since: number | null, beforeStart: string): string {
    if (state.lastBeatAt === null) return beforeStart;
    if (since === null || state.lastBeatAt < since) return 'before the load started';
    return `at second ${Math.ceil((state.lastBeatAt - since) / 1000)}`;
  }

  /** Each agent as the run shows it; `overlay` puts in what only the runner knows (Locust's own figures). */
  views(overlay?: (state: RunAgentState, view: RunAgent) => RunAgent): RunAgent[] {
    return this.states.map((state) => (overlay === undefined ? state.view() : overlay(state, state.view())));
  }

  /** The run is stopped: each agent hears it at its next heartbeat or events post. A failure is logged. */
  async tellStop(): Promise<void> {
    try {
      await this.context.redis.set(runStopKey(this.runId), '1', 'PX', STOP_KEY_TTL_MS);
    } catch (error) {
      this.log.error({ err: error }, 'Could not ask the load agents to stop');
    }
  }

  /** Ends the heartbeat monitor (a check already reading the keys still reports what it read). */
  close(): void {
    this.closed = true;
    clearInterval(this.timer);
  }

  /**
   * At the run's end: the stream is read `lingerMs` more (the agents' last words may still be on their
   * way), then its reader ends and its connection closes; jobs not taken are withdrawn, the run's keys
   * deleted (its agents' events refused from now on), and the agents released. A failure is logged.
   */
  async cleanUp(lingerMs = 0): Promise<void> {
    this.close();
    if (lingerMs > 0) await new Promise((r) => setTimeout(r, lingerMs));
    await this.reader.end();
    try {
      await this.context.jobs.withdraw(this.pushed);
      await this.context.redis.del(
        runStreamKey(this.runId),
        runAgentsKey(this.runId),
        runEventSeqKey(this.runId),
      );
      await this.context.registry.release(this.agentIds, this.runId);
    } catch (error) {
      this.log.error({ err: error }, 'Could not clean up the Redis keys of the run');
    }
  }
}
