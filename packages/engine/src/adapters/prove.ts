import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PerfPlanInput } from '@aqa/plan';
import { detectTools } from './detect';
import { startToolRun } from './run-tool';
import { loadFailureCause, TOOL_SHORT_NAMES } from './tool-failure';
import { ToolRunError, type DetectedTool, type ExternalTool, type ToolCommandOptions } from './types';

/** Whether an installed tool really runs a plan, as `proveTool` found out. */
export interface ToolProof {
  tool: ExternalTool;
  usable: boolean;
  /** Why it cannot be used, in one sentence; null when usable. */
  reason: string | null;
  /** Requests the check's own listener received. */
  received: number;
  /** Requests the tool recorded in its result files. */
  recorded: number;
  /** The tool's own output when the check failed (for logs), else ''. */
  details: string;
}

export interface ProveOptions extends ToolCommandOptions {
  /** Longest the check may take, ms (a JVM's first start on a busy machine is slow). Default 90 000. */
  timeoutMs?: number;
  /** The tool as detected (name and version for the sentence); detected here when left out. */
  detected?: DetectedTool;
}

/** Seconds the check's plan runs: enough for a tool to send one request and write it down. */
const CHECK_SECONDS = 1;

/**
 * Proves that an installed tool can run a plan: generates the tool's script for a one-call plan
 * (1 user, 1 s) against a listener this function starts on 127.0.0.1, runs it with the tool exactly
 * as a real run would, and checks that the listener received requests and that the tool recorded
 * them. A tool that is found but cannot run a plan (Debian's JMeter 2.13 without its launcher, a
 * broken Python for Locust…) answers `usable: false` with the reason in one sentence.
 * Never rejects.
 */
export async function proveTool(tool: ExternalTool, options: ProveOptions = {}): Promise<ToolProof> {
  const env = options.env ?? process.env;
  const detected =
    options.detected ??
    (
      await detectTools(env, {
        tools: [tool],
        ...(options.baseDir ? { baseDir: options.baseDir } : {}),
        ...(options.cacheDir ? { cacheDir: options.cacheDir } : {}),
      })
    )[0]!;
  const subject = toolAndVersion(tool, detected.version);
  const base = { tool, received: 0, recorded: 0, details: '' };
  if (!detected.installed) {
    return {
      ...base,
      usable: false,
      reason: `${subject} is not installed: ${detected.problem ?? 'its command was not found'}`,
    };
  }
  const listener = await CountingListener.start();
  try {
    const run = startToolRun(checkPlan(tool, listener.origin), tool, {
      env,
      durationSeconds: CHECK_SECONDS,
      toolVersion: detected.version,
      settleMs: 100,
      ...(options.baseDir ? { baseDir: options.baseDir } : {}),
      ...(options.cacheDir ? { cacheDir: options.cacheDir } : {}),
    });
    const timeoutMs = options.timeoutMs ?? 90_000;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      void run.stop();
    }, timeoutMs);
    const outcome = await run.result.then(
      (result) => ({ result }),
      (error: unknown) => ({ error }),
    );
    clearTimeout(timer);
    for await (const _ of run.snapshots) {
      // drained: the queue is closed once the result settled
    }
    if (timedOut) {
      return {
        ...base,
        received: listener.count,
        usable: false,
        reason: `${subject} is installed but did not finish a one-second test plan within ${Math.round(timeoutMs / 1000)} s`,
      };
    }
    if ('error' in outcome) {
      const error = outcome.error;
      const details = error instanceof ToolRunError ? error.details : String(error);
      return {
        ...base,
        received: listener.count,
        details,
        usable: false,
        reason: failureReason(tool, subject, error, details, detected),
      };
    }
    const recorded = outcome.result.summary.total_requests;
    if (listener.count === 0 || recorded === 0) {
      return {
        ...base,
        received: listener.count,
        recorded,
        usable: false,
        reason: `${subject} is installed but sent no request when it ran a one-request test plan`,
      };
    }
    return { ...base, received: listener.count, recorded, usable: true, reason: null };
  } catch (error) {
    // startToolRun refusing the plan would be our bug, not the tool's: say so rather than blame the tool.
    return {
      ...base,
      usable: false,
      reason: `${subject} could not be checked: ${(error as Error).message}`,
    };
  } finally {
    await listener.close();
  }
}

/** "JMeter 2.13", or "JMeter" when the version is unknown. */
/** "JMeter 2.13", or the tool's short name when its version is unknown. */
export function toolAndVersion(tool: ExternalTool, version: string | null): string {
  return version ? `${TOOL_SHORT_NAMES[tool]} ${version}` : TOOL_SHORT_NAMES[tool];
}

/** The one sentence for a check that failed, naming the cause when the tool's output shows it. */
function failureReason(
  tool: ExternalTool,
  subject: string,
  error: unknown,
  output: string,
  detected: DetectedTool,
): string {
  let reason: string;
  if (/ForbiddenClassException/.test(output)) {
    reason = `${subject} is installed but cannot load test plans: XStream rejects JMeter's own classes (ForbiddenClassException)`;
  } else if (loadFailureCause(tool, output) !== undefined) {
    reason = `${subject} is installed but cannot load test plans: ${firstErrorLine(output)}`;
  } else if (error instanceof ToolRunError && error.kind === 'exited') {
    reason = `${subject} is installed but stopped with an error (exit code ${error.exitCode ?? 'none'}) on a one-request test plan`;
  } else if (error instanceof ToolRunError && error.kind === 'no_results') {
    reason = `${subject} is installed but sent no request when it ran a one-request test plan`;
  } else {
    reason = `${subject} is installed but could not run a test plan: ${(error as Error).message ?? String(error)}`;
  }
  const launcher = detected.debianLauncher;
  if (typeof launcher === 'object') {
    reason += `, and the launcher that works around it could not be built: ${launcher.problem}`;
  }
  return reason;
}

/** The first line of a tool's output that reads like an error, without its stack, for a sentence. */
function firstErrorLine(output: string): string {
  const line =
    output
      .split('\n')
      .map((l) => l.trim())
      .find((l) => /error|exception/i.test(l) && !l.startsWith('at ') && !l.startsWith('$ ')) ?? '';
  return line.length > 200 ? `${line.slice(0, 197)}…` : line || 'see its log';
}

/** The plan the check runs: one GET, one user, no think time worth mentioning. */
function checkPlan(tool: ExternalTool, origin: string): PerfPlanInput {
  return {
    name: 'AnybodyQA tool check',
    tool,
    concurrent_users: 1,
    duration: 1,
    urls: [{ method: 'GET', url: `${origin}/aqa-tool-check`, name: 'tool check', thinkTime: '200ms' }],
  };
}

/** An HTTP listener on 127.0.0.1 that answers 200 and counts what it received. */
class CountingListener {
  private constructor(
    private readonly server: Server,
    readonly origin: string,
    private readonly received: { count: number },
  ) {}

  get count(): number {
    return this.received.count;
  }

  static async start(): Promise<CountingListener> {
    const received = { count: 0 };
    const server = createServer((req, res) => {
      received.count++;
      req.resume();
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    return new CountingListener(server, `http://127.0.0.1:${port}`, received);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
