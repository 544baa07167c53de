import { randomBytes } from 'node:crypto';
import {
  AGENT_HEARTBEAT_MS,
  AGENT_HEARTBEAT_TTL_MS,
  AGENT_PROTOCOL_VERSION,
  agentHeartbeatKey,
  agentQueueName,
  BULLMQ_PREFIX,
  type AgentHeartbeat,
  type AgentRegisterRequest,
  type AgentRegistration,
} from '@aqa/engine';
import type { AgentInfo } from '@aqa/plan';
import type { Redis } from 'ioredis';
import { NotFoundError, ValidationError } from '../../errors';

/** The user's agents: one Redis hash per user, agent id → StoredAgent JSON. */
export const userAgentsKey = (userId: string): string => `aqa:agents:user:${userId}`;
/** Set (NX, with a TTL) while a run holds the agent, so two runs never take the same one. */
export const agentClaimKey = (agentId: string): string => `aqa:agent:${agentId}:claim`;

export const AGENT_MESSAGES = {
  notFound: 'No agent of yours has this id; GET /api/agents lists yours.',
} as const;

/** A registration as kept: what the agent said of itself, and when. */
export interface StoredAgent extends AgentRegisterRequest {
  agent_id: string;
  registered_at: string;
}

/** An agent a run may take: registered by the user, beating, running nothing, claimed by no run. */
export type IdleAgent = Pick<StoredAgent, 'agent_id' | 'name' | 'host' | 'cores'>;

/**
 * The load agents registered with this server (docs/adr/0021-load-agents.md "Server side"). Kept in
 * Redis, not the database, so every replica sees them and an agent needs only Redis and HTTP; an
 * agent belongs to the user whose API token registered it, and only that user's runs use it. Whether
 * it is alive is read from the heartbeat key the agent refreshes, never stored.
 */
export class AgentRegistry {
  constructor(
    private readonly redis: Redis,
    /** The Redis URL handed to agents (AQA_AGENT_REDIS_URL, else REDIS_URL). */
    private readonly agentRedisUrl: string,
  ) {}

  async register(userId: string, request: AgentRegisterRequest): Promise<AgentRegistration> {
    if (request.protocol !== AGENT_PROTOCOL_VERSION) {
      throw new ValidationError(
        [
          {
            field: 'protocol',
            message: `This agent speaks agent protocol ${request.protocol}; this server speaks ${AGENT_PROTOCOL_VERSION}. Run the aqa program this server serves (GET /downloads/aqa.mjs).`,
          },
        ],
        { code: 'AGENT_PROTOCOL_MISMATCH' },
      );
    }
    // An agent that restarts on the same host under the same name keeps its id, so the list does
    // not fill with dead copies; a second live agent of that name gets an id of its own.
    const mine = await this.stored(userId);
    const beats = await this.heartbeats(mine.map((a) => a.agent_id));
    const again = mine.find(
      (a, i) => a.name === request.name && a.host === request.host && beats[i] === null,
    );
    const agentId = again?.agent_id ?? `agt_${randomBytes(9).toString('base64url')}`;
    const stored: StoredAgent = {
      agent_id: agentId,
      name: request.name,
      host: request.host,
      cores: request.cores,
      protocol: request.protocol,
      version: request.version,
      registered_at: new Date().toISOString(),
    };
    await this.redis.hset(userAgentsKey(userId), agentId, JSON.stringify(stored));
    return {
      agent_id: agentId,
      name: request.name,
      redis_url: this.agentRedisUrl,
      queue: agentQueueName(agentId),
      prefix: BULLMQ_PREFIX,
      heartbeat_ms: AGENT_HEARTBEAT_MS,
      heartbeat_ttl_ms: AGENT_HEARTBEAT_TTL_MS,
    };
  }

  /** The user's agents, by name, with their liveness. */
  async list(userId: string): Promise<AgentInfo[]> {
    const mine = await this.stored(userId);
    const beats = await this.heartbeats(mine.map((a) => a.agent_id));
    return mine.map((agent, i) => {
      const beat = beats[i] ?? null;
      return {
        agent_id: agent.agent_id,
        name: agent.name,
        host: agent.host,
        cores: agent.cores,
        version: agent.version,
        online: beat !== null,
        run_id: beat?.run_id ?? null,
        last_seen_at: beat === null ? null : new Date(beat.at).toISOString(),
      };
    });
  }

  /** Forgets one of the user's agents; another user's id is not found. A running agent registers again at its restart. */
  async forget(userId: string, agentId: string): Promise<void> {
    const removed = await this.redis.hdel(userAgentsKey(userId), agentId);
    if (removed === 0) throw new NotFoundError('AGENT_NOT_FOUND', AGENT_MESSAGES.notFound);
  }

  /** The user's agents a new run may take now, by name. */
  async idle(userId: string): Promise<IdleAgent[]> {
    const mine = await this.stored(userId);
    const ids = mine.map((a) => a.agent_id);
    const beats = await this.heartbeats(ids);
    const claims = ids.length === 0 ? [] : await this.redis.mget(ids.map(agentClaimKey));
    return mine
      .filter((_, i) => beats[i] !== null && beats[i]?.run_id === null && claims[i] === null)
      .map(({ agent_id, name, host, cores }) => ({ agent_id, name, host, cores }));
  }

  /**
   * Holds the agents for a run, all or none: false when another run took one first. The hold ends
   * with release(), or by itself after `ttlMs` should this server die.
   */
  async claim(agentIds: readonly string[], runId: string, ttlMs: number): Promise<boolean> {
    const taken: string[] = [];
    for (const id of agentIds) {
      const ok = await this.redis.set(agentClaimKey(id), runId, 'PX', ttlMs, 'NX');
      if (ok !== 'OK') {
        await this.release(taken, runId);
        return false;
      }
      taken.push(id);
    }
    return true;
  }

  /** Ends the run's hold on the agents (a hold of another run is left alone). */
  async release(agentIds: readonly string[], runId: string): Promise<void> {
    for (const id of agentIds) {
      const key = agentClaimKey(id);
      if ((await this.redis.get(key)) === runId) await this.redis.del(key);
    }
  }

  private async stored(userId: string): Promise<StoredAgent[]> {
    const entries = Object.values(await this.redis.hgetall(userAgentsKey(userId)));
    return entries
      .map((text) => JSON.parse(text) as StoredAgent)
      .sort((a, b) => a.name.localeCompare(b.name) || a.agent_id.localeCompare(b.agent_id));
  }

  private async heartbeats(agentIds: readonly string[]): Promise<(AgentHeartbeat | null)[]> {
    if (agentIds.length === 0) return [];
    const values = await this.redis.mget(agentIds.map(agentHeartbeatKey));
    return values.map((v) => (v === null ? null : (JSON.parse(v) as AgentHeartbeat)));
  }
}
