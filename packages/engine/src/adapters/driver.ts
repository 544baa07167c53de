import type { PerfPlan } from '@aqa/plan';
import type { StepInfo } from '../metrics/aggregate';
import type { EngineLogger, RunSnapshot } from '../types';
import type { LocustMasterOptions } from './locust-distributed';
import type { ToolProcess } from './process';
import type { SampleResultParts } from './samples';
import type { StepMatcher } from './steps';
import type { ToolFlows } from './tool-flows';

/** What a tool driver gets to run one plan. */
export interface DriverContext {
  plan: PerfPlan;
  steps: StepInfo[];
  matcher: StepMatcher;
  users: number;
  /** Whole seconds of load (a load profile's own length, which its script follows). */
  durationS: number;
  /** The plan's flows as the run counts their iterations (tool-flows.ts); undefined: none counted. */
  flows: ToolFlows | undefined;
  /** Work directory: the generated script is already written there. */
  dir: string;
  /** File name of the generated script (in dir). */
  scriptFile: string;
  /** Origin of the plan's first URL ("http://127.0.0.1:8080"), for tools that want a host. */
  host: string | undefined;
  emit: (s: RunSnapshot) => void;
  settleMs: number;
  logger?: EngineLogger;
  /** Locust only: run as the master of workers on load agents (locust-distributed.ts). */
  locustMaster?: LocustMasterOptions;
}

/** The figures of a finished tool run, besides status and the tool's identity. */
export type DriverResult = SampleResultParts & { checks?: { passes: number; fails: number } };

/** How one tool is started, followed and stopped. */
export interface ToolDriver {
  readonly exact: boolean;
  readonly source: string;
  /** What the tool does not report, or only approximately (grows while results are read). */
  readonly notes: string[];
  /** Arguments after the tool's command (may write more files into the work directory). */
  args(): string[];
  /** Every line the tool prints. */
  onLine?(line: string): void;
  /** Reads what the tool wrote since the last call; `final` once, after it exited. */
  poll(nowMs: number, final: boolean): Promise<void>;
  /** Asks the tool for its own graceful stop (the caller escalates to signals). */
  requestStop(proc: ToolProcess): void;
  /** Requests recorded so far (matched to a step or not). */
  recorded(): number;
  /** The figures, after the final poll. */
  result(): DriverResult;
  /** Files of the tool's own log, quoted when it fails. */
  readonly logFiles: string[];
  close(): Promise<void>;
}
