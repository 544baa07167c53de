import type { TargetGuard } from '@aqa/engine';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config';
import type { RunnerRegistry } from '../runs/runner';
import { AgentPlacement } from './agent-placement';
import { openAgentRedis } from './agent-redis';
import { AgentRegistry } from './agent-registry';
import { AgentsService } from './agents.service';

export interface AgentServices {
  /** The agents calls; 503 AGENTS_UNAVAILABLE without Redis. */
  service: AgentsService;
  /** Where a run that asks for agents goes. */
  placement: AgentPlacement;
  close(): Promise<void>;
}

/**
 * Load agents on this server (docs/adr/0021-load-agents.md "Server side"): with REDIS_URL, a registry
 * in that Redis and runs placed on the user's agents; without, every call says Redis is needed.
 */
export function createAgentServices(
  config: Pick<Config, 'redisUrl' | 'agentRedisUrl' | 'locustMasterHost'>,
  runners: RunnerRegistry,
  guard: TargetGuard,
  log: FastifyBaseLogger,
): AgentServices {
  const url = config.redisUrl;
  const redis = url === undefined ? undefined : openAgentRedis(url, 'aqa-agents');
  const registry =
    url === undefined || redis === undefined
      ? undefined
      : new AgentRegistry(redis, config.agentRedisUrl ?? url);
  const service = new AgentsService(registry);
  return {
    service,
    placement: new AgentPlacement(
      service,
      runners,
      url ?? '',
      guard,
      log,
      {},
      config.locustMasterHost ?? '127.0.0.1',
    ),
    async close() {
      await redis?.quit().catch(() => undefined);
    },
  };
}
