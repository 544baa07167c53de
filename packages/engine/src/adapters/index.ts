/**
 * Runs in real tools (JMeter, k6, Locust, Taurus): the generated script executed by the tool, its
 * result files read while it runs into the engine's RunSnapshot / RunResult model.
 */
export { detectTools, parseToolVersion, type DetectOptions } from './detect';
export { startToolRun, isExternalTool, toolCannotRun } from './run-tool';
export { toolFlows, type ToolFlows } from './tool-flows';
export { resolveToolCommand, splitCommand, findRepoRoot, type ResolvedCommand } from './command';
export {
  readJmeterJtl,
  readTaurusKpi,
  readK6Json,
  readLocustCsv,
  type ReadResults,
  type ReadResultsOptions,
} from './readers';
export {
  EXTERNAL_TOOLS,
  TOOL_NAMES,
  TOOL_ENV,
  ToolRunError,
  type ExternalTool,
  type DetectedTool,
  type ToolCommandOptions,
  type ToolRunOptions,
  type ToolRunInfo,
  type ToolRunResult,
  type ToolRunHandle,
  type ToolFailureKind,
} from './types';
export {
  endLeftoverTool,
  processStartTicks,
  type LeftoverOutcome,
  type ToolProcessRecord,
} from './leftover-tool';
export { locustWorkerFiles, type LocustFile } from './locust-files';
export {
  LOCUST_AGENT_ENV,
  LOCUST_WORKER_REQUESTS_LINE,
  parseLocustWorkers,
  type LocustMasterOptions,
  type LocustWorkerFigures,
} from './locust-distributed';
export { proveTool, toolAndVersion, type ToolProof, type ProveOptions } from './prove';
export { toolFailureMessage, TOOL_SHORT_NAMES } from './tool-failure';
export { defaultToolCacheDir, isDebianJmeter, DEBIAN_JMETER_HOME } from './debian-jmeter';
