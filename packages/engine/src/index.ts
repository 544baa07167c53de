/**
 * @aqa/engine — the built-in load engine (docs/design.md §4, §8). Node only.
 *
 *   const run = startRun(plan, { durationSeconds: 30 });
 *   for await (const s of run.snapshots) show(s);      // one merged snapshot per second
 *   const result = await run.result;                    // summary, api_results, errors, series
 *   await run.stop();                                   // graceful stop, within 2 s
 */
export { startRun, splitUsers, type RunHandle, type RunOptions } from './run';
export type { SequenceSplit } from './executor/sequence';
export { compilePlan, PlanCompileError, type CompiledPlan } from './executor/compile';
export { dataMergeOf, type DataExhausted, type DataMerge } from './executor/test-data';
export { MAX_ENGINE_USERS, parseEnginePlan } from './executor/engine-plan';
export { CapacityError, capacityProblems, machineLimits, type MachineLimits } from './executor/capacity';
export { checkTargets, type TargetCheck } from './preflight';
export * from './guard';
export { COUNTS_LENGTH, Histogram, type EncodedHistogram } from './metrics/histogram';
export { RunAggregator, type RunAggregatorOptions } from './metrics/aggregate';
export { AbortWatch } from './metrics/abort-judge';
export { flowSummaryRow } from './metrics/flow-rows';
export { SnapshotQueue } from './snapshot-queue';
export type { ShardIntervalWire } from './metrics/types';
export * from './agent/protocol';
export { ERROR_KINDS } from './metrics/types';
export type * from './types';
export * from './adapters';
export { functionalHtmlReport, functionalJsonReport, functionalJunitReport } from './functional/report';
export * from './functional/postman';
export { DEFAULT_FUNCTIONAL_RUN_MEMORY_MB, startFunctionalRun } from './functional/functional-run';
export {
  functionalJsonPaths,
  functionalRunProblems,
  jsonPathFilterProblem,
  type JsonPathSource,
} from './functional/plan-checks';
export { describeError } from './call/http-call';
export { CallCount, FunctionalTally, KeptCalls, MAX_KEPT_CALLS } from './functional/outcome';
export type * from './functional/run-types';
export { reasonColumns } from './functional/run-types';
export {
  readScript,
  SCRIPT_MESSAGES,
  ScriptNotRunnable,
  scriptRunPlan,
  type ReadScript,
  type ScriptApi,
} from './functional/script-plan';
