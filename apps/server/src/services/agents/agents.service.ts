import type { AgentRegisterRequest, AgentRegistration } from '@aqa/engine';
import type { AgentInfo } from '@aqa/plan';
import { ServiceUnavailableError } from '../../errors';
import type { AgentRegistry } from './agent-registry';

/** Said when this server has no Redis: agents register, queue and stream through it. */
export const AGENTS_UNAVAILABLE =
  'Load agents need Redis: set REDIS_URL on the server (redis://host:6379) and restart it. Until then, runs go on this server.';

/** The agents calls (docs/adr/0021-load-agents.md "Server side"): 503 AGENTS_UNAVAILABLE without Redis. */
export class AgentsService {
  constructor(private readonly registry: AgentRegistry | undefined) {}

  /** The registry, or the refusal in words when the server has no Redis. */
  available(): AgentRegistry {
    if (this.registry === undefined)
      throw new ServiceUnavailableError('AGENTS_UNAVAILABLE', AGENTS_UNAVAILABLE);
    return this.registry;
  }

  register(userId: string, request: AgentRegisterRequest): Promise<AgentRegistration> {
    return this.available().register(userId, request);
  }

  list(userId: string): Promise<AgentInfo[]> {
    return this.available().list(userId);
  }

  forget(userId: string, agentId: string): Promise<void> {
    return this.available().forget(userId, agentId);
  }
}
