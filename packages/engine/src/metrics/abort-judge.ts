import {
  abortText,
  breakingPointSaid,
  isFlowScope,
  judgeThreshold,
  parseThreshold,
  scopedApis,
  scopeNamesNothing,
  thresholdProblem,
  unknownScopeMessage,
  type BreakingPoint,
  type LoadModel,
  type RunAbort,
  type Threshold,
  type ThresholdFigures,
} from '@aqa/plan';
import { latencySummary, type FlowInfo, type StepInfo } from './aggregate';
import { Histogram } from './histogram';
import { PlanCompileError } from '../executor/compile';
import type { IntervalFigures, RunResult, RunSnapshot } from '../types';

/**
 * Abort criteria while a run goes (docs/adr/0027-load-profiles.md, "Abort criteria"), k6's
 * `abortOnFail` with `delayAbortEval`: nothing is judged in the first ABORT_GRACE_MS of the load (a
 * warming target, connections being opened); from then on, every second, each abort threshold is
 * judged over the last ABORT_WINDOW_S seconds. A window's latencies come from its seconds' HDR
 * histograms merged (exact, docs/adr/0006-hdr-histograms-merge-exactly.md), never from averaged
 * percentiles.
 */
export const ABORT_GRACE_MS = 10_000;
/** The seconds a window holds. */
export const ABORT_WINDOW_S = 10;

const round2 = (x: number): number => Math.round(x * 100) / 100;

/** A window's figures by threshold metric, from its seconds' counters and merged histogram. */
function windowFigures(seconds: readonly IntervalFigures[], lengthS: number): ThresholdFigures {
  const h = new Histogram();
  let requests = 0;
  let failures = 0;
  for (const s of seconds) {
    h.addEncoded(s.histogram);
    requests += s.requests;
    failures += s.failures;
  }
  const latency = latencySummary(h);
  return {
    avg: latency.avg,
    p50: latency.p50,
    p90: latency.p90,
    p95: latency.p95,
    p99: latency.p99,
    'p99.9': latency.p999,
    p999: latency.p999,
    min: latency.min,
    max: latency.max,
    error_rate: requests ? round2((failures / requests) * 100) : 0,
    rps: round2(requests / (lengthS > 0 ? lengthS : 1)),
    requests,
    failed: failures,
  };
}

export interface AbortJudgeOptions {
  /** Default ABORT_GRACE_MS; shorter only for tests. */
  graceMs?: number;
  /** The load profile's model, for the breaking point; none: no breaking point is named. */
  model?: LoadModel;
  /** The plan's flows and their calls: a scope may name a flow, whose calls are judged merged. */
  flows?: readonly FlowInfo[];
}

/** What the judge decided at a second: the abort, and the breaking point when the run has a profile. */
export interface AbortVerdict {
  aborted: RunAbort;
  breakingPoint?: BreakingPoint;
}

/** The highest load a second reached: its iterations per second (open model) or its active users. */
function loadOf(s: RunSnapshot, model: LoadModel): number {
  if (model === 'users') return s.activeUsers;
  // A partial last second counts its iterations as a second's: never a rate blown up by a short interval.
  return round2((s.iterations ?? 0) / Math.max(s.intervalS, 1));
}

/**
 * Judges a run's abort thresholds on its merged per-second snapshots, in order. The breaking point is
 * the highest load of the seconds before the second whose window broke: each of them lies in a window
 * that was judged and held. A run that breaks at its first judgement has no second known to have held,
 * and names no breaking point.
 */
export class AbortJudge {
  private readonly window: RunSnapshot[] = [];
  private readonly graceMs: number;
  /** The second with the highest load so far. */
  private best: { load: number; atMs: number } | undefined;
  /** Whether a window was judged (and held) before: only then did the seconds so far hold. */
  private judgedBefore = false;
  /** The APIs a scoped threshold names: only their windows are merged each second (a histogram each). */
  private readonly scopedIndexes: number[];
  /** The flows a scoped threshold names, with their calls: each flow's window merged into one. */
  private readonly scopedFlows: FlowInfo[];

  constructor(
    private readonly thresholds: readonly Threshold[],
    /** The plan's APIs, by their index in `urls` (a scope names them by name or `METHOD url`). */
    private readonly apis: readonly { name: string; label: string }[],
    private readonly options: AbortJudgeOptions = {},
  ) {
    this.graceMs = options.graceMs ?? ABORT_GRACE_MS;
    const scopes = new Set(thresholds.flatMap((t) => (t.scope === undefined ? [] : [t.scope])));
    const flows = options.flows ?? [];
    const flowNames = flows.map((f) => f.name);
    this.scopedFlows = flows.filter((f) => scopes.has(f.name));
    this.scopedIndexes = [
      ...new Set(
        [...scopes].flatMap((scope) => (isFlowScope(scope, flowNames) ? [] : scopedApis(scope, apis))),
      ),
    ];
  }

  /** The next second; the verdict when an abort threshold broke over the window ending with it. */
  add(s: RunSnapshot): AbortVerdict | undefined {
    if (this.thresholds.length === 0) return undefined;
    this.window.push(s);
    if (this.window.length > ABORT_WINDOW_S) this.window.shift();
    const atMs = Math.round(s.elapsedS * 1000);
    if (atMs >= this.graceMs) {
      const verdict = this.judge(atMs, this.judgedBefore ? this.best : undefined);
      this.judgedBefore = true;
      if (verdict !== undefined) return verdict;
    }
    const model = this.options.model;
    if (model !== undefined) {
      const load = loadOf(s, model);
      if (this.best === undefined || load > this.best.load) this.best = { load, atMs };
    }
    return undefined;
  }

  private judge(atMs: number, held: { load: number; atMs: number } | undefined): AbortVerdict | undefined {
    const lengthS = this.window.reduce((sum, s) => sum + s.intervalS, 0);
    const whole = windowFigures(this.window, lengthS);
    // By the plan's API index, only where a scope needs them (judgeThreshold reads no other).
    const perApi: ThresholdFigures[] = [];
    for (const i of this.scopedIndexes)
      perApi[i] = windowFigures(
        this.window.flatMap((s) => s.steps.filter((step) => step.step === i)),
        lengthS,
      );
    // By flow, the window of every call of the flow merged (docs/adr/0027-load-profiles.md "Abort criteria").
    const perFlow = new Map<string, ThresholdFigures>();
    for (const flow of this.scopedFlows) {
      const calls = new Set(flow.steps);
      perFlow.set(
        flow.name,
        windowFigures(
          this.window.flatMap((s) => s.steps.filter((step) => calls.has(step.step))),
          lengthS,
        ),
      );
    }
    for (const t of this.thresholds) {
      const result = judgeThreshold(t, whole, perApi, this.apis, perFlow);
      if (result === undefined || result.passed) continue;
      const aborted: RunAbort = {
        threshold: result.threshold,
        metric: result.metric,
        ...(result.scope === undefined ? {} : { scope: result.scope }),
        actual: result.actual,
        at_ms: atMs,
        text: abortText(result, atMs),
      };
      const model = this.options.model;
      if (model === undefined || held === undefined) return { aborted };
      const point = { model, value: held.load, at_ms: held.atMs };
      return { aborted, breakingPoint: { ...point, text: breakingPointSaid(point).text } };
    }
    return undefined;
  }
}

/** The run's abort thresholds read, or the problems of those that do not read or name no API. */
function parseAbortThresholds(
  written: readonly string[],
  apis: readonly StepInfo[],
  flows: readonly string[],
): { thresholds: Threshold[]; problems: string[] } {
  const thresholds: Threshold[] = [];
  const problems: string[] = [];
  written.forEach((text, i) => {
    const problem = thresholdProblem(text);
    if (problem !== undefined) return void problems.push(`abort_thresholds.${i}: ${problem}`);
    const t = parseThreshold(text);
    if (t.scope !== undefined && scopeNamesNothing(t.scope, apis, flows))
      problems.push(`abort_thresholds.${i}: ${unknownScopeMessage(t, apis, flows)}`);
    else thresholds.push(t);
  });
  return { thresholds, problems };
}

/**
 * A run's abort criteria as its coordinator follows them (docs/adr/0027-load-profiles.md "Abort
 * criteria"): the engine's main thread on one machine (run.ts), the server's merge of the agents'
 * reports for a run on load agents (apps/server/src/services/agents/agent-runner.ts). Both hand it
 * each merged second, so a run is judged the same wherever its load came from.
 */
export class AbortWatch {
  private readonly judge: AbortJudge;
  private verdict: AbortVerdict | undefined;

  /** Throws PlanCompileError naming every threshold that does not read or names no API (`abort_thresholds.N`). */
  constructor(written: readonly string[], apis: readonly StepInfo[], options: AbortJudgeOptions = {}) {
    const parsed = parseAbortThresholds(
      written,
      apis,
      (options.flows ?? []).map((f) => f.name),
    );
    if (parsed.problems.length > 0) throw new PlanCompileError(parsed.problems);
    this.judge = new AbortJudge(parsed.thresholds, apis, options);
  }

  /**
   * Judges the next merged second; the verdict when an abort threshold broke at it (once: later
   * seconds are not judged). `judging` false: the run is already stopping or its load has ended (the
   * final partial second), and the second is not judged — a run that ran its length is not stopped at
   * its end.
   */
  add(s: RunSnapshot, judging: boolean): AbortVerdict | undefined {
    if (this.verdict !== undefined || !judging) return undefined;
    this.verdict = this.judge.add(s);
    return this.verdict;
  }

  /** What the run's result says of it: why it was stopped and the breaking point, when one broke. */
  resultFields(): Pick<RunResult, 'aborted' | 'breaking_point'> {
    const v = this.verdict;
    return {
      ...(v === undefined ? {} : { aborted: v.aborted }),
      ...(v?.breakingPoint === undefined ? {} : { breaking_point: v.breakingPoint }),
    };
  }
}
