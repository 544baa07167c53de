import { splitUsers, type TargetGuard } from '@aqa/engine';
import type { PerfPlan } from '@aqa/plan';
import type { FastifyBaseLogger } from 'fastify';
import { ValidationError } from '../../errors';
import type { AccountUser } from '../account-user';
import { agentsRunBuiltin } from '../runs/builtin-only';
import { ExternalToolRunner } from '../runs/external-runner';
import type { RunnerChoice, RunnerRegistry } from '../runs/runner';
import type { IdleAgent } from './agent-registry';
import { AgentRunner, type AgentRunTiming } from './agent-runner';
import type { AgentBackends, AgentsService } from './agents.service';
import { LocustAgentRunner, type LocustAgentTiming } from './locust-agent-runner';

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
 * words when the server has no Redis, when the plan's tool would run it on this server in a tool other
 * than the built-in engine or Locust, when the run has fewer users than agents, or when fewer than N of
 * the user's agents are online and idle; otherwise the first N idle agents by name, each with its share
 * of the users. A plan this server runs in Locust runs in Locust's own master/worker mode: the master
 * here, a worker on each agent ("Locust master/worker").
 */
export class AgentPlacement {
  constructor(
    private readonly agents: AgentsService,
    private readonly backends: AgentBackends | undefined,
    private readonly runners: RunnerRegistry,
    private readonly redisUrl: string,
    private readonly guard: TargetGuard,
    private readonly log: FastifyBaseLogger,
    private readonly timing: Partial<AgentRunTiming> = {},
    /** The address the agents reach this server at, which Locust workers dial (AQA_LOCUST_MASTER_HOST). */
    private readonly locustMasterHost = '127.0.0.1',
    private readonly locustTiming: Partial<LocustAgentTiming> = {},
  ) {}

  async choose(user: AccountUser, plan: PerfPlan, count: number): Promise<RunnerChoice> {
    const registry = this.agents.available();
    // With the plan: a plan its tool cannot run goes to the built-in engine (runner.ts choose); a Locust
    // plan with a profile, flows, test data or abort thresholds too, on agents (builtin-only.ts).
    const onServer = await this.runners.choose(plan.tool, plan);
    const locustTool = onServer.runner instanceof ExternalToolRunner && onServer.runner.engine === 'locust';
    const locust = locustTool && !agentsRunBuiltin(plan);
    if (onServer.runner.engine !== 'builtin' && !locustTool) {
      throw refusal(
        'agents',
        `Runs on agents use the built-in engine, or Locust's own master/worker mode for Locust plans; this plan's tool is ${plan.tool}, which this server runs in ${onServer.runner.engine}. Run it on this server, or choose the built-in engine's tool or Locust.`,
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
    const placed = chosen.map((agent, i) => ({ ...agent, users: users[i]! }));
    // available() above refused a server without Redis, so the backends are there.
    const context = {
      registry,
      jobs: this.backends!.jobs,
      redis: this.backends!.redis,
      redisUrl: this.redisUrl,
    };
    if (onServer.runner instanceof ExternalToolRunner && locust) {
      const master = {
        host: this.locustMasterHost,
        env: onServer.runner.env,
        cacheDir: onServer.runner.cacheDir,
      };
      return {
        runner: new LocustAgentRunner(context, placed, this.guard, master, this.locustTiming),
        note: `${onServer.note}, in its own master/worker mode: the master on this server, a worker on each of ${count} load ${count === 1 ? 'agent' : 'agents'}: ${names}`,
      };
    }
    return {
      runner: new AgentRunner(context, placed, this.guard, this.log, this.timing),
      note:
        `ran with the built-in engine on ${count} load ${count === 1 ? 'agent' : 'agents'}: ${names}` +
        (locustTool
          ? " (Locust's master/worker mode does not split a load profile, flows, test data or abort thresholds across agents as the plan says)"
          : ''),
    };
  }
}

function refusal(field: string, message: string): ValidationError {
  return new ValidationError([{ field, message }], { code: 'AGENTS_NOT_AVAILABLE' });
}
