import { startToolRun, type ExternalTool } from '@aqa/engine';
import type { PerfPlan } from '@aqa/plan';
import type { RunnerHandle, RunnerStartOptions, ToolRunner } from './runner';

/**
 * Runs a plan in the external tool its script is written for (JMeter, k6, Locust, Taurus) through
 * the engine's adapter, which reads the tool's results into the same per-second model. The tool runs
 * in its own process, so nothing of the load runs on the server's event loop.
 */
export class ExternalToolRunner implements ToolRunner {
  constructor(
    readonly engine: ExternalTool,
    /** JMETER_CMD, LOCUST_CMD… as configured (see ToolDetector.environment). */
    readonly env: NodeJS.ProcessEnv,
    /** Where helper programs for the tools are built: the same folder the detector's check used. */
    readonly cacheDir?: string,
  ) {}

  start(plan: PerfPlan, options: RunnerStartOptions): RunnerHandle {
    return startToolRun(plan, this.engine, {
      durationSeconds: options.durationSeconds,
      ...(options.toolVersion === undefined ? {} : { toolVersion: options.toolVersion }),
      logger: options.logger,
      env: this.env,
      ...(options.onToolProcess === undefined ? {} : { onProcess: options.onToolProcess }),
      ...(this.cacheDir === undefined ? {} : { cacheDir: this.cacheDir }),
    });
  }
}
