/** Load agents (docs/scale-out.md): the user's registered agents and which can take a run now. */
export { useAgents } from './hooks/useAgents';
export { idleAgents, isAgentsUnavailable } from './queries/agents-api';
