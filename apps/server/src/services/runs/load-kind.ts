import {
  checkTargets,
  compilePlan,
  type CompiledPlan,
  type EncodedHistogram,
  PlanCompileError,
  type TargetGuard,
} from '@aqa/engine';
import type { PerfPlan } from '@aqa/plan';
import type { FastifyBaseLogger } from 'fastify';
import type { RunRow } from '../../db/schema';
import { type FieldError, ServiceUnavailableError, ValidationError } from '../../errors';
import type { AccountUser } from '../account-user';
import type { AgentPlacement } from '../agents/agent-placement';
import { AGENTS_UNAVAILABLE } from '../agents/agents.service';
import type { PreparedRun, RunKindAdapter } from '../lifecycle/run-kind';
import { loadRunMessage, type MessageText } from '../message-text';
import { precompilePerfPlanPatterns } from '../pattern-refusal';
import { interruptedEnding } from './interrupted-run';
import type { LiveRun } from './live-run';
import type { EndedLoadRecord, LoadRunEnded } from './load-run-store';
import type { RunPoint, RunRecord } from './run-model';
import { rowToRecord } from './run-rows';
import type { RunnerChoice, RunnerHandle, RunnerRegistry, RunnerStartOptions } from './runner';
import { compiledOrigins, refuseUncheckableTargets } from './target-check';

/** How long the pre-flight connection to each target may take. */
const TARGET_CHECK_TIMEOUT_MS = 3000;

/** A load run as asked for: the saved plan with the request's fields in place, and where it runs. */
export interface LoadRunSent {
  plan: PerfPlan;
  /** How long the load runs (the plan's minutes, or the request's duration_seconds). */
  durationSeconds: number;
  /** 'builtin': the built-in engine whatever the plan's tool (docs/reference/02-running.md §1). */
  engine?: 'builtin' | undefined;
  /** How many of the user's load agents run it (docs/adr/0021-load-agents.md); absent: this server. */
  agents?: number | undefined;
}

/** A load plan as it runs: compiled for its length. */
export interface LoadRunPlan {
  plan: PerfPlan;
  compiled: CompiledPlan;
  durationSeconds: number;
}

/** What starts a load run: the runner chosen for it (LoadKind#choose), and what every runner is given. */
export type LoadStartOptions = Omit<RunnerStartOptions, 'durationSeconds'> & { choice: RunnerChoice };

/** A load run's view in Redis: what get-test-result and chart-data answer on another replica. */
export interface LoadRunView {
  record: RunRecord;
  histogram: EncodedHistogram | null;
}

/** The types the load runs' adapter works in (lifecycle/run-kind.ts). */
export interface LoadKindTypes {
  sent: LoadRunSent;
  plan: LoadRunPlan;
  options: LoadStartOptions;
  handle: RunnerHandle;
  live: LiveRun;
  view: LoadRunView;
  row: RunRow;
  /** Its stored seconds. */
  measured: readonly RunPoint[];
  ended: LoadRunEnded;
  outcome: EndedLoadRecord;
}

/**
 * The load runs' adapter (docs/run-lifecycle.md §7), over today's runners: a plan is compiled for its
 * length (every reason it cannot run refused in words), its hosts guarded, one of its targets reached,
 * and a runner chosen among the built-in engine, the external tools (`runner.ts`) and the load agents
 * (`agents/agent-placement.ts`), which starts it.
 */
export class LoadKind implements RunKindAdapter<LoadKindTypes> {
  /** Places runs on load agents; set by useAgents when the server has Redis. */
  private agentPlacement: AgentPlacement | undefined;

  constructor(
    private readonly runners: RunnerRegistry,
    /** Asked about every host of a plan before its run starts (docs/adr/0015-target-guard.md). */
    private readonly guard: TargetGuard,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Lets runs ask for load agents (`agents: N`); without it such a run is refused in words. */
  useAgents(placement: AgentPlacement): void {
    this.agentPlacement = placement;
  }

  async prepare({ plan, durationSeconds }: LoadRunSent): Promise<PreparedRun<LoadRunPlan>> {
    // Patterns first, a slice at a time, so the one synchronous compile below finds them compiled; it
    // refuses one RE2 cannot run in words, with every other problem (docs/adr/0022-linear-time-patterns.md).
    await precompilePerfPlanPatterns(plan.urls);
    const compiled = compileOrRefuse(plan, durationSeconds);
    return { plan: { plan, compiled, durationSeconds }, origins: compiledOrigins(compiled) };
  }

  /** A run on agents on a server without Redis (docs/adr/0021-load-agents.md), before any target is probed. */
  unavailable(sent: LoadRunSent): Error | null {
    if (sent.agents === undefined || this.agentPlacement !== undefined) return null;
    return new ServiceUnavailableError('AGENTS_UNAVAILABLE', AGENTS_UNAVAILABLE);
  }

  /**
   * Once the run holds its place and its hosts passed the guard: a target answers, and the runner is
   * chosen (refused in words when it cannot check a templated host before the run).
   */
  async choose(user: AccountUser, sent: LoadRunSent, { plan, compiled }: LoadRunPlan): Promise<RunnerChoice> {
    await this.assertReachable(compiled, plan);
    const choice =
      sent.agents === undefined || this.agentPlacement === undefined
        ? await this.runners.choose(plan.tool, plan, sent.engine)
        : await this.agentPlacement.choose(user, plan, sent.agents);
    refuseUncheckableTargets(compiled, choice.runner.engine);
    return choice;
  }

  start({ plan, durationSeconds }: LoadRunPlan, { choice, ...options }: LoadStartOptions): RunnerHandle {
    return choice.runner.start(plan, {
      ...options,
      durationSeconds,
      ...(choice.toolVersion === undefined ? {} : { toolVersion: choice.toolVersion }),
    });
  }

  /** What another replica answers of the run while it goes: its record and its latency histogram so far. */
  view(live: LiveRun): LoadRunView {
    return { record: live.toRecord(), histogram: live.histogram() };
  }

  /**
   * A run a dead server left unfinished, rebuilt from its stored seconds and ended `interrupted` at its
   * last one (docs/adr/0016-crash-recovery.md); its message tells it as stored.
   */
  recover(row: RunRow, points: readonly RunPoint[]): LoadRunEnded {
    return {
      userId: row.user_id,
      workspaceId: row.workspace_id,
      columns: interruptedEnding(rowToRecord(row), points),
      record: null,
    };
  }

  /** Judged on its plan's thresholds when it completed (message-text.ts loadRunMessage). */
  message(run: EndedLoadRecord): MessageText {
    return loadRunMessage({
      name: run.plan_name,
      status: run.status,
      summary: run.summary,
      error: run.error,
      error_phrase: run.error_phrase,
      thresholds: run.config.plan.thresholds ?? [],
      api_results: run.api_results,
      breaking_point: run.breaking_point,
    });
  }

  /** Refuses a run none of whose targets accepts a connection (those with a template are not checked). */
  private async assertReachable(compiled: CompiledPlan, plan: PerfPlan): Promise<void> {
    const checks = await checkTargets(compiled, { timeoutMs: TARGET_CHECK_TIMEOUT_MS, guard: this.guard });
    const failed = checks.filter((check) => !check.ok);
    if (failed.length === 0) return;
    if (failed.length < checks.length) {
      this.log.warn({ unreachable: failed }, 'Starting a run with some targets unreachable');
      return;
    }
    const errors: FieldError[] = failed.map((check) => {
      const step = compiled.steps.findIndex((s) => s.origin === check.origin);
      return {
        field: step >= 0 ? `urls.${step}.url` : 'urls',
        message: `Cannot reach ${hostPort(check.origin)}: ${reason(check.error)}`,
      };
    });
    const where = plan.urls.length === 1 ? "the plan's URL" : "the plan's URLs";
    throw new ValidationError(errors, {
      code: 'TARGET_UNREACHABLE',
      hint: `Check that the server under test is running and reachable from this server, and ${where}.`,
    });
  }
}

function compileOrRefuse(plan: PerfPlan, durationSeconds: number): CompiledPlan {
  try {
    return compilePlan(plan, durationSeconds);
  } catch (err) {
    if (err instanceof PlanCompileError) throw compileError(err);
    throw err;
  }
}

/** Every reason the plan cannot run, each under the step it concerns ("urls[2] assertion: …"). */
export function compileError(err: PlanCompileError): ValidationError {
  return new ValidationError(
    err.problems.map((problem) => {
      const step = /^urls\[(\d+)\]/.exec(problem)?.[1];
      return { field: step === undefined ? 'plan' : `urls.${step}`, message: problem };
    }),
    { code: 'PLAN_CANNOT_RUN', cause: err },
  );
}

function hostPort(origin: string): string {
  const url = new URL(origin);
  return `${url.hostname}:${url.port || (url.protocol === 'https:' ? '443' : '80')}`;
}

/** checkTargets' "CODE: message" in words. */
function reason(error: string | undefined): string {
  const text = error ?? 'no connection';
  const code = /^([A-Z_]+):/.exec(text)?.[1];
  switch (code) {
    case 'ECONNREFUSED':
      return 'the connection was refused (nothing listens on that port)';
    case 'ENOTFOUND':
    case 'EAI_NONAME':
    case 'EAI_AGAIN':
    case 'EAI_FAIL':
      return 'the host name was not found';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'the host is unreachable';
    case 'ETIMEDOUT':
      return 'the connection timed out';
    case 'ECONNRESET':
      return 'the connection was reset';
    default:
      return code === undefined ? text : text.slice(code.length + 1).trim();
  }
}
