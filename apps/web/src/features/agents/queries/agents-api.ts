import type { AgentInfo } from '@aqa/plan';
import { ApiError } from '@/lib/api';

/** The server has no Redis, so no agent can register (503 AGENTS_UNAVAILABLE). */
export function isAgentsUnavailable(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'AGENTS_UNAVAILABLE';
}

/** Agents a new run can use now: online and not running another run's shard. */
export function idleAgents(agents: readonly AgentInfo[]): AgentInfo[] {
  return agents.filter((agent) => agent.online && agent.run_id === null);
}
