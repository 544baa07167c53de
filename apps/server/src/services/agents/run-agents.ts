import type { ShardIntervalWire } from '@aqa/engine';
import type { RunAgent, RunAgentStatus } from '@aqa/plan';
import type { IdleAgent } from './agent-registry';

/** An agent chosen for a run, with its share of the users. */
export interface PlacedAgent extends IdleAgent {
  users: number;
}

const round2 = (x: number): number => Math.round(x * 100) / 100;

/** Requests of one worker interval, over its steps. */
function requestsOf(wire: ShardIntervalWire): number {
  let n = 0;
  for (const step of wire.steps) n += step.requests;
  return n;
}

/**
 * One agent's part in a run as the server follows it (docs/adr/0021-load-agents.md "Server side"): its
 * status, its shards' place among the run's merged shards once it is ready, and its own requests —
 * cumulative, and per interval so its throughput is that of the merged second just emitted.
 */
export class RunAgentState {
  status: RunAgentStatus = 'waiting';
  error: string | null = null;
  /** Its worker threads, known from its `ready`; null before. */
  shards: number | null = null;
  /** Its local shard 0 is this shard of the run's aggregator; null until placed. */
  firstShard: number | null = null;
  /** Epoch ms of its last heartbeat seen; null before the first. */
  lastBeatAt: number | null = null;
  requests = 0;
  requestsPerSecond = 0;
  private readonly byInterval = new Map<number, number>();

  constructor(
    readonly placed: PlacedAgent,
    readonly index: number,
  ) {}

  get ended(): boolean {
    return this.status === 'done' || this.status === 'lost' || this.status === 'failed';
  }

  /** Counts a worker interval of this agent (before it reaches the aggregator). */
  count(wire: ShardIntervalWire): void {
    const n = requestsOf(wire);
    this.requests += n;
    this.byInterval.set(wire.interval, (this.byInterval.get(wire.interval) ?? 0) + n);
  }

  /** Its throughput in the merged interval `interval` (0-based) that lasted `seconds`. */
  intervalEmitted(interval: number, seconds: number): void {
    const n = this.byInterval.get(interval) ?? 0;
    this.byInterval.delete(interval);
    this.requestsPerSecond = this.ended ? 0 : round2(n / Math.max(seconds, 0.001));
  }

  /** Its run's global shard numbers (empty before it was placed). */
  globalShards(): number[] {
    if (this.firstShard === null || this.shards === null) return [];
    return Array.from({ length: this.shards }, (_, i) => this.firstShard! + i);
  }

  end(status: 'done' | 'lost' | 'failed', error: string | null): void {
    this.status = status;
    this.error = error;
    this.requestsPerSecond = 0;
  }

  view(): RunAgent {
    return {
      agent_id: this.placed.agent_id,
      name: this.placed.name,
      host: this.placed.host,
      users: this.placed.users,
      status: this.status,
      requests: this.requests,
      requests_per_second: this.requestsPerSecond,
      error: this.error,
    };
  }
}
