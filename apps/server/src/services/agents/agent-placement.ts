import { splitUsers, type TargetGuard } from '@aqa/engine';
import type { PerfPlan } from '@aqa/plan';
import type { FastifyBaseLogger } from 'fastify';
import { ValidationError } from '../../errors';
import type { AccountUser } from '../account-user';
import type { RunnerChoice, RunnerRegistry } from '../runs/runner';
import type { IdleAgent } from './agent-registry';
import { AgentRunner, type AgentRunTiming } from './agent-runner';
import type { AgentsService } from './agents.service';

/** The refusal when the user has fewer idle agents than the run asks for. */
export function tooFewAgentsMessage(idle: number, wanted: number): string {
  const have =
    idle === 0
      ? 'None of your agents is online and idle'
      : `Only ${idle} of your agents ${idle === 1 ? 'is' : 'are'} online and idle`;
  return `${have}; this run asks for ${wanted}. Start more with \`aqa agent --server URL --token T\`, or run on this server.`;
}

/**
 * Where a run that asks for `agents: N` goes (docs/adr/0021-load-agents.md "Server side"): refused in
 * words when the server has no Redis, when the plan's tool would run it on this server instead of the
 * built-in engine, when the run has fewer users than agents, or when fewer than N of the user's agents
 * are online and idle; otherwise the first N idle agents by name, each with its share of the users.
 */
export class AgentPlacement {
  constructor(
    private readonly agents: AgentsService,
    private readonly runners: RunnerRegistry,
    private readonly redisUrl: string,
    private readonly guard: TargetGuard,
    private readonly log: FastifyBaseLogger,
    private readonly timing: Partial<AgentRunTiming> = {},
  ) {}

  async choose(user: AccountUser, plan: PerfPlan, count: number): Promise<RunnerChoice> {
    const registry = this.agents.available();
    const onServer = await this.runners.choose(plan.tool);
    if (onServer.runner.engine !== 'builtin') {
      throw refusal(
        'agents',
        `Runs on agents use the built-in engine; this plan's tool is ${plan.tool}, which this server runs in ${onServer.runner.engine}. Run it on this server, or choose the built-in engine's tool.`,
      );
    }
    if (plan.concurrent_users < count) {
      throw refusal(
        'agents',
        `This run has ${plan.concurrent_users} virtual ${plan.concurrent_users === 1 ? 'user' : 'users'}; a run on ${count} agents needs at least one user per agent.`,
      );
    }
    const idle = await registry.idle(user.id);
    if (idle.length < count) throw refusal('agents', tooFewAgentsMessage(idle.length, count));
    const chosen: IdleAgent[] = idle.slice(0, count);
    const users = splitUsers(plan.concurrent_users, count);
    const names = chosen.map((a) => a.name).join(', ');
    return {
      runner: new AgentRunner(
        registry,
        this.redisUrl,
        chosen.map((agent, i) => ({ ...agent, users: users[i]! })),
        this.guard,
        this.log,
        this.timing,
      ),
      note: `ran with the built-in engine on ${count} load ${count === 1 ? 'agent' : 'agents'}: ${names}`,
    };
  }
}

function refusal(field: string, message: string): ValidationError {
  return new ValidationError([{ field, message }], { code: 'AGENTS_NOT_AVAILABLE' });
}
