import { randomBytes } from 'node:crypto';
import {
  AGENT_HEARTBEAT_MS,
  AGENT_HEARTBEAT_TTL_MS,
  AGENT_JOB_WAIT_MS,
  AGENT_PROTOCOL_VERSION,
  agentPaths,
  type AgentHeartbeatAnswer,
  type AgentHeartbeatRequest,
  type AgentRegisterRequest,
  type AgentRegistration,
} from '@aqa/engine';
import { AGENT_MAX_EVENTS_PER_POST, AGENT_MAX_POST_BYTES, type AgentInfo } from '@aqa/plan';
import type { Redis } from 'ioredis';
import { ConflictError, NotFoundError, ValidationError } from '../../errors';
import {
  agentClaimKey,
  agentHeartbeatKey,
  agentJobsKey,
  runAgentsKey,
  runStopKey,
  userAgentsKey,
  type AgentHeartbeat,
} from './agent-keys';

/** Agents a user may have registered at once; offline ones registered longest ago make room. */
export const MAX_AGENTS_PER_USER = 200;

export const AGENT_MESSAGES = {
  notFound: 'No agent of yours has this id; GET /api/agents lists yours.',
  tooMany: `You have ${MAX_AGENTS_PER_USER} load agents online; stop one before registering another.`,
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
 * Redis, not the database, so every replica sees them; an agent belongs to the user whose agent token
 * registered it, and only that user's runs use it, and only that user's agent tokens may speak for it
 * (docs/adr/0023-agents-over-http.md). Whether it is alive is read from the heartbeat key the server
 * refreshes at each of the agent's heartbeats, never stored.
 */
export class AgentRegistry {
  constructor(private readonly redis: Redis) {}

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
    if (again === undefined && mine.length >= MAX_AGENTS_PER_USER) {
      // The list is bounded: offline agents registered longest ago are forgotten to make room.
      const offline = mine
        .filter((_, i) => beats[i] === null)
        .sort((x, y) => x.registered_at.localeCompare(y.registered_at))
        .slice(0, mine.length - MAX_AGENTS_PER_USER + 1);
      if (mine.length - offline.length >= MAX_AGENTS_PER_USER)
        throw new ConflictError('TOO_MANY_AGENTS', AGENT_MESSAGES.tooMany);
      await this.redis.hdel(userAgentsKey(userId), ...offline.map((a) => a.agent_id));
    }
    // Long enough that a guess is hopeless: an agent id is not a secret, its token is.
    const agentId = again?.agent_id ?? `agt_${randomBytes(12).toString('base64url')}`;
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
    // Who the agent is and how it speaks to the server; nothing of the server's Redis or database.
    return {
      agent_id: agentId,
      name: request.name,
      heartbeat_ms: AGENT_HEARTBEAT_MS,
      heartbeat_ttl_ms: AGENT_HEARTBEAT_TTL_MS,
      job_wait_ms: AGENT_JOB_WAIT_MS,
      max_events_per_post: AGENT_MAX_EVENTS_PER_POST,
      max_post_bytes: AGENT_MAX_POST_BYTES,
      paths: agentPaths(agentId),
    };
  }

  /** The user's agent `agentId`; another user's, or an unknown one, is not found (404). */
  async mine(userId: string, agentId: string): Promise<StoredAgent> {
    const text = await this.redis.hget(userAgentsKey(userId), agentId);
    if (text === null) throw new NotFoundError('AGENT_NOT_FOUND', AGENT_MESSAGES.notFound);
    return JSON.parse(text) as StoredAgent;
  }

  /**
   * The agent is alive (or, with `offline`, stops): its heartbeat key is set for the heartbeat's time
   * to live (or deleted). The answer says stop when the run it names was stopped, or is not its run
   * (any more: the run ended and forgot its agents), so a stray shard ends.
   */
  async heartbeat(
    userId: string,
    agentId: string,
    beat: AgentHeartbeatRequest,
  ): Promise<AgentHeartbeatAnswer> {
    const agent = await this.mine(userId, agentId);
    const key = agentHeartbeatKey(agentId);
    if (beat.offline === true) {
      await this.redis.del(key);
      return { stop: beat.run_id !== null };
    }
    const value: AgentHeartbeat = {
      agent_id: agentId,
      name: agent.name,
      host: agent.host,
      cores: agent.cores,
      run_id: beat.run_id,
      // The server's clock: the runs that read it compare it with their own.
      at: Date.now(),
    };
    const multi = this.redis.multi().set(key, JSON.stringify(value), 'PX', AGENT_HEARTBEAT_TTL_MS);
    if (beat.run_id !== null)
      multi.exists(runStopKey(beat.run_id)).hexists(runAgentsKey(beat.run_id), agentId);
    const replies = (await multi.exec()) ?? [];
    for (const [error] of replies) if (error) throw error;
    if (beat.run_id === null) return { stop: false };
    const stopped = replies[1]?.[1] === 1;
    const assigned = replies[2]?.[1] === 1;
    return { stop: stopped || !assigned };
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

  /**
   * Forgets one of the user's agents (the user's choice, or the agent leaving); another user's id is not
   * found. An agent still running is refused at its next call and ends; it registers again at its restart.
   */
  async forget(userId: string, agentId: string): Promise<void> {
    const removed = await this.redis.hdel(userAgentsKey(userId), agentId);
    if (removed === 0) throw new NotFoundError('AGENT_NOT_FOUND', AGENT_MESSAGES.notFound);
    await this.redis.del(agentHeartbeatKey(agentId), agentJobsKey(agentId));
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
