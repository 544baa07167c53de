/**
 * An agent's registration with its server (docs/adr/0021-load-agents.md, docs/adr/0023-agents-over-http.md):
 * one POST with an API token of the agent scope, whose answer gives the agent its id, its heartbeat and
 * the paths it calls; nothing else of the server. Every refusal becomes an AgentStartError in words,
 * naming the server and what it said.
 */
import { AgentRegistrationSchema } from '@aqa/plan';
import { networkReason, serverReason } from '../cli/remote-client';
import { AGENT_PROTOCOL_VERSION, type AgentRegisterRequest, type AgentRegistration } from './protocol';

/** The agent cannot start (registration refused, server unreachable); the message says why. */
export class AgentStartError extends Error {}

export const REGISTER_PATH = '/api/agents/register';

/** POST `${server}/api/agents/register`; answers the registration or throws AgentStartError. */
export async function registerAgent(
  server: string,
  token: string,
  request: Omit<AgentRegisterRequest, 'protocol'>,
): Promise<AgentRegistration> {
  const body: AgentRegisterRequest = { ...request, protocol: AGENT_PROTOCOL_VERSION };
  let response: Response;
  try {
    response = await fetch(`${server}${REGISTER_PATH}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        accept: 'application/json',
        'content-type': 'application/json',
      },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
  } catch (error) {
    throw new AgentStartError(`cannot reach the server at ${server}: ${networkReason(error)}`);
  }
  if (!response.ok) {
    const reason = await serverReason(response);
    if (response.status === 401)
      throw new AgentStartError(
        `the server at ${server} refused the token (401: ${reason}); it may be mistyped, expired or revoked — create a new one in Settings → API tokens`,
      );
    if (response.status === 403)
      throw new AgentStartError(
        `the server at ${server} refused the token for agents (403: ${reason}); an agent needs an API token with the scope "Load agent" — create one in Settings → API tokens`,
      );
    if (response.status === 404)
      throw new AgentStartError(
        `the server at ${server} has no agents endpoint (404 to POST ${REGISTER_PATH}): it is an older AnybodyQA server, or not one`,
      );
    if (response.status === 503)
      throw new AgentStartError(`the server at ${server} cannot take agents now (503): ${reason}`);
    throw new AgentStartError(
      `the server at ${server} refused the registration (${response.status}): ${reason}`,
    );
  }
  let raw: unknown;
  try {
    raw = await response.json();
  } catch (error) {
    throw new AgentStartError(
      `the server at ${server} answered the registration with something that is not JSON (${(error as Error).message}); is this an AnybodyQA server?`,
    );
  }
  const problem = registrationProblem(raw);
  if (problem !== null)
    throw new AgentStartError(
      `the server at ${server} answered the registration in a shape this aqa does not read (${problem}); download the CLI again from the server`,
    );
  return raw as AgentRegistration;
}

/**
 * DELETE `${server}${leavePath}` (the registration's paths.leave): an agent that finishes on its own (`--once`, `--idle-timeout`)
 * leaves its user's list of agents, so agents of one-off Jobs do not pile up there offline. Answers
 * null, or why it could not (the agent ends all the same).
 */
export async function unregisterAgent(
  server: string,
  token: string,
  leavePath: string,
): Promise<string | null> {
  try {
    const response = await fetch(`${server}${leavePath}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
      signal: AbortSignal.timeout(10_000),
    });
    // 404: the user already forgot it.
    if (response.ok || response.status === 404) return null;
    return `the server at ${server} answered ${response.status}: ${await serverReason(response)}`;
  } catch (error) {
    return `cannot reach the server at ${server}: ${networkReason(error)}`;
  }
}

/** What is wrong with an answer that should be an AgentRegistration, or null. */
function registrationProblem(raw: unknown): string | null {
  const parsed = AgentRegistrationSchema.safeParse(raw);
  if (!parsed.success)
    return parsed.error.issues
      .map((issue) => `${issue.path.join('.') || 'answer'}: ${issue.message}`)
      .join('; ');
  const r = parsed.data;
  if (!(r.heartbeat_ms > 0) || r.heartbeat_ttl_ms <= r.heartbeat_ms)
    return 'heartbeat_ttl_ms is not longer than a positive heartbeat_ms';
  if (!(r.max_events_per_post > 0) || !(r.max_post_bytes > 0)) return 'the post limits are not positive';
  return null;
}
