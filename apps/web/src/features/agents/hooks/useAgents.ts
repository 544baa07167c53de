import { contract } from '@aqa/contract';
import { useRouteQuery } from '@/lib/queries';

/**
 * The user's registered load agents with their liveness (GET /api/agents, docs/scale-out.md), one cache
 * entry for the Download App screen and the run placement of the plan editor.
 */
export function useAgents() {
  return useRouteQuery(contract.agents.list);
}
