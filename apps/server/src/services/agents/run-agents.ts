import { COUNTS_LENGTH, ERROR_KINDS, type ShardIntervalWire } from '@aqa/engine';
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

/** Intervals past the run's planned seconds an agent's last report may still carry. */
const LATE_INTERVALS = 120;

/** How many of each the plan has, which an agent's reports may not exceed. */
export interface PlanCounts {
  steps: number;
  flows: number;
  dataSources: number;
}

/**
 * What makes an agent's interval report unusable for the merge, or null (docs/adr/0023-agents-over-http.md):
 * the wire's shape was checked when it was posted; these are the bounds only the run knows — a worker
 * it did not announce, an interval far past the run's end (the merge would walk every second up to it),
 * more steps, flows or data sources than the plan has (another plan's counts would be merged as this
 * one's), a histogram whose buckets are out of order or out of range.
 */
export function intervalProblem(
  wire: ShardIntervalWire,
  shards: number | null,
  plan: PlanCounts,
  durationSeconds: number,
): string | null {
  if (shards === null) return 'an interval came before the agent said it was ready';
  if (wire.shard >= shards) return `worker ${wire.shard} is not one of its ${shards}`;
  if (wire.interval > durationSeconds + LATE_INTERVALS)
    return `interval ${wire.interval} is past the run's ${durationSeconds} s`;
  const { steps } = plan;
  if (wire.steps.length > steps) return `it reports ${wire.steps.length} steps; the plan has ${steps}`;
  if (wire.flows !== undefined && wire.flows.length > plan.flows)
    return `it reports ${wire.flows.length} flows; the plan has ${plan.flows}`;
  if (wire.dataEnded !== undefined && wire.dataEnded.length > plan.dataSources)
    return `it reports ${wire.dataEnded.length} data sources; the plan has ${plan.dataSources}`;
  for (const [n, step] of wire.steps.entries()) {
    if (step.errors.length > ERROR_KINDS.length || step.samples.length > ERROR_KINDS.length)
      return `step ${n} counts more error kinds than there are`;
    const { i, c } = step.histogram;
    if (i.length !== c.length) return `step ${n}'s histogram has ${i.length} buckets and ${c.length} counts`;
    for (let k = 0; k < i.length; k++)
      if (i[k]! >= COUNTS_LENGTH || (k > 0 && i[k]! <= i[k - 1]!))
        return `step ${n}'s histogram buckets are not increasing within 0–${COUNTS_LENGTH - 1}`;
  }
  return null;
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
