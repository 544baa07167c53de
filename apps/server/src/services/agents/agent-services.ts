import type { TargetGuard } from '@aqa/engine';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { systemClock } from '../../clock';
import { redisLimitStore } from '../../cluster/redis-limits';
import type { Config } from '../../config';
import type { RunnerRegistry } from '../runs/runner';
import { AgentEvents } from './agent-events';
import { AgentJobs } from './agent-jobs';
import { AgentPlacement } from './agent-placement';
import { openAgentRedis } from './agent-redis';
import { AgentRegistry } from './agent-registry';
import { AGENT_CALL_LIMITS, AgentsService, type AgentBackends } from './agents.service';

export interface AgentServices {
  /** The agents calls; 503 AGENTS_UNAVAILABLE without Redis. */
  service: AgentsService;
  /** Where a run that asks for agents goes. */
  placement: AgentPlacement;
  /** Ends the agents' next-job calls at once (before the server stops taking requests). */
  endWaits(): void;
  close(): Promise<void>;
}

/**
 * Load agents on this server (docs/adr/0021-load-agents.md "Server side",
 * docs/adr/0023-agents-over-http.md): with REDIS_URL, a registry, the agents' jobs and their events in
 * that Redis, and runs placed on the user's agents; without, every call says Redis is needed. The
 * agents themselves never see that Redis: they call this server.
 */
export async function createAgentServices(
  config: Pick<Config, 'redisUrl' | 'locustMasterHost'>,
  runners: RunnerRegistry,
  guard: TargetGuard,
  log: FastifyBaseLogger,
): Promise<AgentServices> {
  const url = config.redisUrl;
  let backends: AgentBackends | undefined;
  const connections: Redis[] = [];
  if (url !== undefined) {
    const redis = openAgentRedis(url, 'aqa-agents');
    const subscriber = openAgentRedis(url, 'aqa-agents-wake');
    connections.push(redis, subscriber);
    // The agents' limits run on the wall clock, whatever clock the accounts use.
    const limits = await redisLimitStore(redis, systemClock);
    backends = {
      redis,
      registry: new AgentRegistry(redis),
      jobs: new AgentJobs(redis, subscriber),
      events: new AgentEvents(redis),
      windows: {
        perAgent: limits.window('agent-calls', AGENT_CALL_LIMITS.perAgent),
        perUser: limits.window('agent-user-calls', AGENT_CALL_LIMITS.perUser),
        registrations: limits.window('agent-registrations', AGENT_CALL_LIMITS.registrations),
      },
    };
  }
  const service = new AgentsService(backends);
  return {
    service,
    placement: new AgentPlacement(
      service,
      backends,
      runners,
      url ?? '',
      guard,
      log,
      {},
      config.locustMasterHost ?? '127.0.0.1',
    ),
    endWaits: () => backends?.jobs.endWaits(),
    async close() {
      await Promise.all(connections.map((c) => c.quit().catch(() => undefined)));
    },
  };
}
